/*
 * The terminal text of `tko cluster` (model/cluster.h's documents and the
 * lines of submit and gather): what cmd/cluster.c prints on stdout.
 */
#ifndef TKO_REPORT_CLUSTER_TEXT_H
#define TKO_REPORT_CLUSTER_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "model/cluster.h"

/* `plan`: the tasks' sizes and Slurm time limit, the files written into `dir`, what to run next. */
void cluster_print_plan(FILE *fp, const struct cluster_plan_doc *d, const char *dir);
/* `submit --dry-run`: one command, its words shell-quoted. */
void cluster_print_argv(FILE *fp, const char *const *argv);
/* `submit`: the array job submitted, and the gather job (gjob) after it. */
void cluster_print_submitted(FILE *fp, const char *job, const char *list, size_t ntasks);
void cluster_print_gather_submitted(FILE *fp, const char *gjob, const char *job);
void cluster_print_nothing_to_submit(FILE *fp);
/* `status`: one row a task. */
void cluster_print_status(FILE *fp, const struct cluster_status_doc *d);
/* `gather`: how many kernels came from how many tasks into `out`. */
void cluster_print_gathered(FILE *fp, size_t nkernels, size_t ntasks, const char *out);

#endif
