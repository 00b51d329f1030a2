/*
 * The whole step in the report: the profile's accounting, a chart of the
 * largest groups' shares of the GPU busy time (HTML), every group with its
 * decision, and the whole-step rules (decide/steprules.h). Called by the
 * Markdown and HTML writers; nothing is written without a profile.
 */
#ifndef TKO_REPORT_STEPVIEW_H
#define TKO_REPORT_STEPVIEW_H

#include <stdio.h>

#include "model/analysis.h"

void stepview_markdown(FILE *fp, const struct an_run *r);
void stepview_html_chart(FILE *fp, const struct an_run *r);
void stepview_html(FILE *fp, const struct an_run *r);

#endif
