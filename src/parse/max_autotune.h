/*
 * The log reader for max-autotune AUTOTUNE tables; its file's opening comment
 * describes the lines it reads. logscan.c runs it over each text log.
 */
#ifndef TKO_PARSE_MAX_AUTOTUNE_H
#define TKO_PARSE_MAX_AUTOTUNE_H

#include "parse/logscan.h"

extern const struct log_reader max_autotune_reader;

#endif
