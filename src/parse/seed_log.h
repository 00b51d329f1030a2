/*
 * The log reader for the seed skill's autotune.log; its file's opening comment
 * describes the lines it reads. logscan.c runs it over each text log.
 */
#ifndef TKO_PARSE_SEED_LOG_H
#define TKO_PARSE_SEED_LOG_H

#include "parse/logscan.h"

extern const struct log_reader seed_log_reader;

#endif
