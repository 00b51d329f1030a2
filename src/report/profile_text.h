/*
 * A profile for people (tko profile without --json): what was read, the
 * busy/idle accounting and steps, busy time per class, and the groups
 * with the largest shares of the busy time.
 */
#ifndef TKO_REPORT_PROFILE_TEXT_H
#define TKO_REPORT_PROFILE_TEXT_H

#include <stdio.h>

#include "profile/prof.h"

/* `top` groups at most (0: all). */
void profile_print(FILE *fp, const struct prof *p, size_t top);

#endif
