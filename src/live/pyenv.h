/*
 * The old place of py/pyenv.h (issue 18 moved it). NEEDSWORK: cmd/capture.c
 * and live/replay.c, which package P4 of the redesign rewrites, still
 * include this path; when they include "py/pyenv.h" this file goes.
 */
#ifndef TKO_LIVE_PYENV_H
#define TKO_LIVE_PYENV_H

#include "py/pyenv.h"

#endif
