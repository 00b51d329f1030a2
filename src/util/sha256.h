/*
 * SHA-256 (FIPS 180-4), for naming kernels the way the capture does: a
 * kernel directory is <kernel>-<first 8 hex digits of sha256(source)>, so
 * tko collect can find a capture's kernel module in the Inductor cache.
 *
 *	struct sha256 h;
 *	sha256_init(&h);
 *	sha256_update(&h, data, len);	(any number of times)
 *	sha256_hex(&h, hex);		(hex: 65 bytes, NUL-terminated)
 */
#ifndef TKO_SHA256_H
#define TKO_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t state[8];	/* the running hash */
	uint64_t bytes;		/* message length so far */
	unsigned char block[64];	/* a partial block */
	size_t used;		/* bytes in `block` */
};

void sha256_init(struct sha256 *h);
void sha256_update(struct sha256 *h, const void *data, size_t len);
/* Finishes the hash: 32 raw bytes into `out`. */
void sha256_final(struct sha256 *h, unsigned char out[32]);
/* Finishes the hash as 64 lower-case hex digits and a NUL. */
void sha256_hex(struct sha256 *h, char hex[65]);

#endif
