/*
 * Unit tests for the ISA scanner's support modules: strmap (growth,
 * lookups by span), tok (numbers, words, comments, block comments) and
 * asmcond (nested branches, expressions). The arch table's occupancy is
 * tested in test-target.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "isa/asmcond.h"
#include "util/strmap.h"
#include "isa/tok.h"
#include "util/buf.h"

static void test_strmap(void **state)
{
	struct strmap m = STRMAP_INIT;
	char key[32];
	size_t v, i;
	int added;

	(void)state;
	for (i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "global_load_dwordx%zu", i);
		*strmap_put(&m, key, strlen(key), &added) = i;
		assert_true(added);
	}
	assert_int_equal(m.nr, 1000);
	*strmap_put(&m, "global_load_dwordx7", 19, &added) = 7;
	assert_false(added);
	assert_true(strmap_get(&m, "global_load_dwordx999 and more", 21, &v));
	assert_int_equal(v, 999);
	assert_false(strmap_get(&m, "global_load_dwordx", 18, &v));
	assert_string_equal(strmap_key(&m, "global_load_dwordx5", 19), "global_load_dwordx5");
	strmap_release(&m);
	assert_false(strmap_get(&m, "x", 1, &v));
}

static void test_tok(void **state)
{
	const char *s = "0x1F, 42 -7 x", *p = s, *e = s + strlen(s), *q;
	unsigned long long u;
	long long v;
	struct buf b = BUF_INIT;
	int in_block = 0;
	const char line[] = "ds_read_b64 v[0:1] /* a */ v2 /* open";

	(void)state;
	assert_int_equal(tok_uint(&p, e, &u), 0);
	assert_int_equal(u, 31);
	p = tok_skip_ws(p + 1, e);
	assert_int_equal(tok_dec(&p, e, &u), 0);
	assert_int_equal(u, 42);
	p = tok_skip_ws(p, e);
	assert_int_equal(tok_int(&p, e, &v), 0);
	assert_int_equal(v, -7);
	p = tok_skip_ws(p, e);
	assert_int_equal(tok_uint(&p, e, &u), -1);
	q = "buffer_load_dwordx4 v1";
	assert_int_equal(tok_mnemonic_end(q, q + strlen(q)) - q, 19);
	q = "s_endpgm;x";
	assert_int_equal(tok_mnemonic_end(q, q + strlen(q)) - q, 8);
	q = "0 offen offset:0,  lds";
	assert_true(tok_has_word(q, q + strlen(q), "lds"));
	assert_false(tok_has_word(q, q + strlen(q), "off"));
	q = "v[vgprLds], v2";
	assert_false(tok_has_word(q, q + strlen(q), "lds"));
	q = "v1, v2 ; 4-byte Folded Spill // x";
	assert_int_equal(*tok_comment_fast(q, q + strlen(q)), ';');
	q = "v[0:1] a/b //c";
	assert_int_equal(tok_comment_fast(q, q + strlen(q)) - q, 11);
	assert_true(tok_same("abcdefghij", "abcdefghij", 10));
	assert_false(tok_same("abcdefghij", "abcdefghiJ", 10));
	tok_strip_block_comments(line, line + strlen(line), &in_block, &b);
	assert_string_equal(b.buf, "ds_read_b64 v[0:1]   v2 ");
	assert_true(in_block);
	tok_strip_block_comments("still */ s_barrier", "still */ s_barrier" + 18, &in_block, &b);
	assert_string_equal(b.buf, "  s_barrier");
	assert_false(in_block);
	buf_release(&b);
}

static void test_asmcond(void **state)
{
	struct asm_cond c = ASM_COND_INIT;
	struct strmap syms = STRMAP_INIT;
	const char *x = "debug_buffer", *y = "X == 2", *z = "!debug_buffer", *u = "nope";
	long long v;
	int added;

	(void)state;
	*strmap_put(&syms, "debug_buffer", 12, &added) = 0;
	*strmap_put(&syms, "X", 1, &added) = 2;
	assert_int_equal(asm_cond_eval(&syms, x, x + strlen(x), &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(asm_cond_eval(&syms, y, y + strlen(y), &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(asm_cond_eval(&syms, z, z + strlen(z), &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(asm_cond_eval(&syms, u, u + strlen(u), &v), -1);
	assert_true(asm_cond_active(&c));
	asm_cond_if(&c, 0);
	assert_false(asm_cond_active(&c));
	asm_cond_if(&c, 1);		/* nested in a false branch */
	assert_false(asm_cond_active(&c));
	asm_cond_endif(&c);
	asm_cond_elseif(&c, 1);
	assert_true(asm_cond_active(&c));
	asm_cond_else(&c);
	assert_false(asm_cond_active(&c));
	asm_cond_endif(&c);
	assert_true(asm_cond_active(&c));
	strmap_release(&syms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strmap),
		cmocka_unit_test(test_tok),
		cmocka_unit_test(test_asmcond),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
