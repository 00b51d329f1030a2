/*
 * struct buf: a growable byte string, modelled on git's strbuf design.
 *
 * Invariants: `buf` is never NULL and always NUL-terminated (an empty buf
 * points at a shared empty string until the first append); `len` is the
 * authoritative length, so a buf may hold NUL bytes. BUF_INIT makes a buf
 * usable with no call. Appends never move the struct itself; they abort the
 * process only when memory is exhausted (see xmalloc in mem.h).
 */
#ifndef TKO_BUF_H
#define TKO_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *buf;	/* the bytes, NUL-terminated */
	size_t len;	/* bytes in use, not counting the NUL */
	size_t alloc;	/* bytes allocated; 0 while buf is the shared empty string */
};

extern char buf_empty[];
#define BUF_INIT { buf_empty, 0, 0 }

void buf_init(struct buf *b);
/* Frees the contents and leaves b as after buf_init(). */
void buf_release(struct buf *b);
/* Keeps the allocation, empties the string. */
void buf_reset(struct buf *b);
/* Makes room for at least `extra` more bytes. */
void buf_grow(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *data, size_t len);
void buf_adds(struct buf *b, const char *s);
void buf_addch(struct buf *b, int c);
void buf_addf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void buf_setlen(struct buf *b, size_t len);
/* Hands the string to the caller, who now owns it and frees it with free(). */
char *buf_detach(struct buf *b, size_t *len);
/* Drops trailing whitespace. */
void buf_rtrim(struct buf *b);
/*
 * Appends `s` as one word of a POSIX shell command: as it is when it holds
 * only characters no shell treats specially (letters, digits, and
 * "%+,-./:=@_"), else in single quotes, each ' written as '\''. A command
 * tko suggests can then be pasted whatever a RUN or kernel is called.
 */
void buf_add_shell_word(struct buf *b, const char *s);

#endif
