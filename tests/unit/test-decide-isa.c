/*
 * Unit tests for decide/isa_scope: the rules `tko isa` shows. Each input
 * is a hand-written AMDGCN kernel whose counts are read off the text; the
 * expected outcome comes from docs/rules.md (narrow_access: fewer than 50%
 * of 4 or more global/buffer accesses are 128-bit; low_occupancy: 2 or
 * fewer waves per SIMD and no matrix instructions; spills: spilled
 * registers or scratch bytes), not from running the code. A finding is a
 * "warning" exactly when a rule that judges it fired.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "decide/isa_scope.h"
#include "isa-helpers.h"

#define HEAD "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n" \
	"\t.globl\tk\n\t.type\tk,@function\nk:\n\t.file\t1 \"/w\" \"k.py\"\n\t.loc\t1 7 1\n"
#define LD "\tglobal_load_dword v0, v[0:1], off\n"
#define LD4 "\tglobal_load_dwordx4 v[0:3], v[4:5], off\n"
#define END "\ts_endpgm\n"
#define INFO(scratch, occ) "; Kernel info:\n; ScratchSize: " #scratch "\n; Occupancy: " #occ "\n"

struct scan {
	struct isa_file_result *f;
	struct isa_result res;
	const struct isa_kernel *k;
};

/* Scans `text` and decides it with limits `lim` (the defaults when NULL). */
static void decide(struct scan *s, const char *text, const struct rule_limits *lim)
{
	s->f = scan_as(text, ISA_AMDGCN);
	assert_non_null(s->f);
	s->res.files = &s->f;
	s->res.files_nr = 1;
	decide_isa_result(&s->res, lim ? lim : &rule_limits_default);
	s->k = kernel_named(s->f, "k", "gfx942");
	assert_non_null(s->k);
}

static void done(struct scan *s)
{
	scan_free(s->f);
}

static const char *severity(const struct isa_kernel *k, const char *id)
{
	const struct isa_finding *fd = finding_of(k, id);

	assert_non_null(fd);
	assert_non_null(fd->severity);
	return fd->severity;
}

static const struct isa_rule *rule_of(const struct isa_kernel *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->rules_nr; i++)
		if (!strcmp(k->rules[i].rule, name))
			return &k->rules[i];
	return NULL;
}

static double ev_of(const struct isa_rule *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->ev_nr; i++)
		if (!strcmp(r->ev[i].key, key))
			return r->ev[i].value;
	fail_msg("no evidence '%s' in rule %s", key, r->rule);
	return 0;
}

/* 4 narrow loads, none 128-bit: narrow_access fires and judges both width findings. */
static void test_narrow_fires(void **state)
{
	struct scan s;
	const struct isa_rule *r;

	(void)state;
	decide(&s, HEAD LD LD LD LD END INFO(0, 8), NULL);
	assert_int_equal(s.k->rules_nr, 1);
	r = rule_of(s.k, "narrow_access");
	assert_non_null(r);
	assert_string_equal(r->decision, "tune");
	assert_non_null(strstr(r->why, "0 of 4 global/buffer accesses"));
	assert_non_null(r->knobs);
	assert_true(ev_of(r, "mem_ops") == 4);
	assert_true(ev_of(r, "mem_wide") == 0);
	assert_string_equal(severity(s.k, "vector_width"), "warning");
	assert_string_equal(severity(s.k, "narrow_lines"), "warning");
	assert_string_equal(severity(s.k, "spills"), "info");
	assert_string_equal(severity(s.k, "occupancy"), "info");
	done(&s);
}

/* 3 narrow loads are under narrow_min_ops: no rule, and the width findings are info. */
static void test_narrow_too_few(void **state)
{
	struct scan s;

	(void)state;
	decide(&s, HEAD LD LD LD END INFO(0, 8), NULL);
	assert_int_equal(s.k->rules_nr, 0);
	assert_string_equal(severity(s.k, "vector_width"), "info");
	assert_string_equal(severity(s.k, "narrow_lines"), "info");
	done(&s);
}

/* The same 3 loads fire once the caller's limits ask for 3: the limits are the caller's. */
static void test_limits_are_the_callers(void **state)
{
	struct rule_limits lim = rule_limits_default;
	struct scan s;

	(void)state;
	lim.narrow_min_ops = 3;
	decide(&s, HEAD LD LD LD END INFO(0, 8), &lim);
	assert_non_null(rule_of(s.k, "narrow_access"));
	assert_string_equal(severity(s.k, "vector_width"), "warning");
	done(&s);
}

/* 2 of 4 are 128-bit: a share of exactly 50% is not narrow. */
static void test_half_wide_is_not_narrow(void **state)
{
	struct scan s;

	(void)state;
	decide(&s, HEAD LD LD LD4 LD4 END INFO(0, 8), NULL);
	assert_null(rule_of(s.k, "narrow_access"));
	assert_string_equal(severity(s.k, "vector_width"), "info");
	done(&s);
}

/* Occupancy 2 is low, 3 is not, and a kernel with matrix instructions is never judged. */
static void test_low_occupancy(void **state)
{
	struct scan s;
	const struct isa_rule *r;

	(void)state;
	decide(&s, HEAD LD4 END INFO(0, 2), NULL);
	r = rule_of(s.k, "low_occupancy");
	assert_non_null(r);
	assert_true(ev_of(r, "occupancy") == 2);
	assert_string_equal(severity(s.k, "occupancy"), "warning");
	done(&s);

	decide(&s, HEAD LD4 END INFO(0, 3), NULL);
	assert_int_equal(s.k->rules_nr, 0);
	assert_string_equal(severity(s.k, "occupancy"), "info");
	done(&s);

	decide(&s, HEAD LD4 "\tv_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]\n" END
	       INFO(0, 1), NULL);
	assert_null(rule_of(s.k, "low_occupancy"));
	assert_string_equal(severity(s.k, "occupancy"), "info");
	done(&s);
}

/* Scratch bytes fire spills; none leaves the spills finding info. */
static void test_spills(void **state)
{
	struct scan s;
	const struct isa_rule *r;

	(void)state;
	decide(&s, HEAD LD4 END INFO(8, 8), NULL);
	r = rule_of(s.k, "spills");
	assert_non_null(r);
	assert_true(ev_of(r, "scratch_bytes") == 8);
	assert_string_equal(severity(s.k, "spills"), "warning");
	assert_string_equal(severity(s.k, "vector_width"), "info");
	done(&s);
}

/*
 * A code object with an entry k (.amdhsa_kernel) and a device function f
 * that spills to its own frame (as DTK's __softfloat_* helpers do): the
 * spills rule judges the entry only, so with k's scratch 0 nothing fires
 * and f's spills finding is info; with k's scratch 8, k gets the rule.
 */
#define ENTRY_K "\t.amdhsa_kernel k\n\t.end_amdhsa_kernel\n"
#define FUNC_F "\t.type\tf,@function\nf:\n" \
	"\tbuffer_store_dword v4, off, s[0:3], s32 ; 4-byte Folded Spill\n" \
	"\tbuffer_load_dword v4, off, s[0:3], s32 ; 4-byte Folded Reload\n" \
	"\ts_setpc_b64 s[30:31]\n; Function info:\n; ScratchSize: 8\n"

static void test_spills_judge_entries_only(void **state)
{
	struct scan s;
	const struct isa_kernel *f;

	(void)state;
	decide(&s, HEAD LD4 END ENTRY_K INFO(0, 8) FUNC_F, NULL);
	f = kernel_named(s.f, "f", "gfx942");
	assert_non_null(f);
	assert_true(s.k->is_kernel);
	assert_false(f->is_kernel);
	assert_int_equal(f->res[ISA_RES_SCRATCH_BYTES].value, 8);
	assert_null(rule_of(f, "spills"));
	assert_string_equal(severity(f, "spills"), "info");
	assert_non_null(strstr(finding_of(f, "spills")->message, "device function"));
	assert_null(rule_of(s.k, "spills"));
	done(&s);

	decide(&s, HEAD LD4 END ENTRY_K INFO(8, 8) FUNC_F, NULL);
	assert_non_null(rule_of(s.k, "spills"));
	assert_string_equal(severity(s.k, "spills"), "warning");
	assert_null(strstr(finding_of(s.k, "spills")->message, "device function"));
	done(&s);
}

/* Atomics and buffer ops are facts the ISA-scoped rules do not judge: info, whatever the counts. */
static void test_unjudged_findings_stay_info(void **state)
{
	struct scan s;

	(void)state;
	decide(&s, HEAD LD LD LD LD "\tbuffer_load_dword v4, v0, s[0:3], 0 offen\n"
	       "\tglobal_atomic_add_f32 v0, v[0:1], v2, off glc\n" END INFO(0, 8), NULL);
	assert_string_equal(severity(s.k, "atomics"), "info");
	assert_string_equal(severity(s.k, "buffer_ops"), "info");
	assert_null(rule_of(s.k, "atomic_scatter"));	/* a RULE_KERNEL row, not RULE_ISA */
	done(&s);
}

/* Deciding again replaces the rules instead of appending, in table order. */
static void test_decide_twice(void **state)
{
	struct scan s;

	(void)state;
	decide(&s, HEAD LD LD LD LD END INFO(8, 2), NULL);
	decide_isa_result(&s.res, &rule_limits_default);
	assert_int_equal(s.k->rules_nr, 3);
	assert_string_equal(s.k->rules[0].rule, "spills");
	assert_string_equal(s.k->rules[1].rule, "narrow_access");
	assert_string_equal(s.k->rules[2].rule, "low_occupancy");
	done(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_narrow_fires),
		cmocka_unit_test(test_narrow_too_few),
		cmocka_unit_test(test_limits_are_the_callers),
		cmocka_unit_test(test_half_wide_is_not_narrow),
		cmocka_unit_test(test_low_occupancy),
		cmocka_unit_test(test_spills),
		cmocka_unit_test(test_spills_judge_entries_only),
		cmocka_unit_test(test_unjudged_findings_stay_info),
		cmocka_unit_test(test_decide_twice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
