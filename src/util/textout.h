/*
 * Text that reaches a terminal without control characters. Kernel names,
 * paths and messages come from files tko reads (events.jsonl, logs,
 * caches); an ESC, CR or backspace in one must not move the cursor, clear
 * the screen or retitle the terminal when tko prints it or when someone
 * cats a report. Tab and newline pass; every other C0 byte and DEL
 * becomes "\xHH", and a C1 control (U+0080..U+009F, which some terminals
 * take as CSI and friends) becomes "\u00HH".
 *
 * text_escape() does it to one string (for table cells, whose width
 * must count the escaped text, and for messages). text_fdopen() gives a
 * stdio stream that does it to everything written through it: standard
 * output and every file opened with atomic_open() are such streams, so no
 * writer has to remember.
 */
#ifndef TKO_UTIL_TEXTOUT_H
#define TKO_UTIL_TEXTOUT_H

#include <stdio.h>

#include "util/buf.h"

/* Appends s[0..n) to out with control characters escaped (newline too when keep_nl is 0). */
void text_escape(struct buf *out, const char *s, size_t n, int keep_nl);

/* 1 when s[0..n) holds a byte text_escape() would change (newline counts when keep_nl is 0). */
int text_needs_escape(const char *s, size_t n, int keep_nl);

/*
 * A write-only stream over `fd` that escapes control characters (keeping
 * tab and newline). fclose() flushes and closes fd; a write or close
 * failure makes fclose() (or fflush()) fail with errno set, as for any
 * stream. Line-buffered on a terminal, else fully buffered. NULL when
 * the stream cannot be made (fd is left open).
 */
FILE *text_fdopen(int fd);

#endif
