/*
 * The log reader for TRITON_PRINT_AUTOTUNING=1 lines; its file's opening comment
 * describes the lines it reads. logscan.c runs it over each text log.
 */
#ifndef TKO_PARSE_TRITON_PRINT_H
#define TKO_PARSE_TRITON_PRINT_H

#include "parse/logscan.h"

extern const struct log_reader triton_print_reader;

#endif
