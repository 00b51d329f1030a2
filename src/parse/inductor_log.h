/*
 * The log reader for TORCH_LOGS=+inductor autotune lines; its file's opening comment
 * describes the lines it reads. logscan.c runs it over each text log.
 */
#ifndef TKO_PARSE_INDUCTOR_LOG_H
#define TKO_PARSE_INDUCTOR_LOG_H

#include "parse/logscan.h"

extern const struct log_reader inductor_log_reader;

#endif
