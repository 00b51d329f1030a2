/*
 * The two-pass softmax rewrite (rewrite_two_pass, see rewrite.h).
 *
 * TorchInductor (config.online_softmax, on by default) emits a softmax
 * or log-softmax over a looped reduction as one pass over the row:
 *
 *     for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
 *         ...                                   (loads: tmp2)
 *         _tmp3_max_next, _tmp3_sum_next = triton_helpers.online_softmax_combine(
 *             _tmp3_max, _tmp3_sum, tmp2, False
 *         )
 *         _tmp3_max = tl.where(r0_mask, _tmp3_max_next, _tmp3_max)
 *         _tmp3_sum = tl.where(r0_mask, _tmp3_sum_next, _tmp3_sum)
 *     tmp3, tmp4 = triton_helpers.online_softmax_reduce(
 *         _tmp3_max, _tmp3_sum, 1, False)
 *
 * which costs two exps per element (the running sum is rescaled at every
 * step). The rewrite makes it the two passes Inductor emits with
 * online_softmax=False: the row's max first, then the sum of exp(x - max)
 * in a second copy of the loop, one exp per element, the row read twice
 * (the second time mostly from L2). On the H200 the cross-entropy forward
 * of a 32000-word vocabulary ran 1.58x faster that way (PERFORMANCE.md),
 * so it is arithmetic that holds the online form back there.
 *
 * Only the exact shape above is rewritten, with the loop body before the
 * combine free of stores, atomics and other accumulators (it is run
 * twice), nothing after the two tl.where lines, one online softmax in the
 * kernel and a reduction over dim 1. Anything else: 0 edits, the variant
 * is skipped. Lines the rewrite drops become blank lines, so every other
 * line keeps its number.
 *
 * Semantics: the same max; the sum is summed in another order, so it
 * agrees to rounding (tko tune checks every variant's outputs). A row
 * whose elements are all -inf gets a sum of 0 here, where the online
 * form counts its elements; both are meaningless for such a row.
 */
#include <stdlib.h>
#include <string.h>

#include "tune/rewrite.h"
#include "tune/srclines.h"
#include "util/buf.h"
#include "util/mem.h"
#include "banned.h"

/* One online-softmax site of a kernel, as line numbers (1-based) and text. */
struct site {
	size_t loop;		/* the `for r0_offset in ...:` line */
	size_t combine, combine_end;	/* the combine statement's lines */
	size_t where_max, where_sum;	/* the two tl.where lines */
	size_t body_end;	/* the loop's last non-blank line */
	size_t reduce, reduce_end;	/* the online_softmax_reduce statement */
	char *loop_ind, *ind, *red_ind;	/* indents: loop, its body, the reduce */
	char *acc, *val, *fast, *mask;	/* _tmp3, tmp2, False, r0_mask */
	char *out_max, *out_sum;	/* tmp3, tmp4 */
};

static void site_release(struct site *t)
{
	free(t->loop_ind), free(t->ind), free(t->red_ind);
	free(t->acc), free(t->val), free(t->fast), free(t->mask);
	free(t->out_max), free(t->out_sum);
}

static size_t indent(const char *l)
{
	return strspn(l, " \t");
}

static int blank(const char *l)
{
	return !l[indent(l)];
}

/* "<acc>_max" of a statement at group m: the site's accumulator. */
static int is_acc(const char *st, const regmatch_t *m, const struct site *t)
{
	size_t n = strlen(t->acc);

	return (size_t)(m->rm_eo - m->rm_so) == n && !strncmp(st + m->rm_so, t->acc, n);
}

/* The statement starting at line i, its continuation lines joined (up to
 * the line that closes its parentheses); *end gets its last line. */
static char *statement(const struct srclines *s, size_t i, size_t last, size_t *end)
{
	struct buf b = BUF_INIT;
	int depth = 0;
	size_t j;

	for (j = i; j <= last; j++) {
		const char *p;

		if (j > i)
			buf_addch(&b, ' ');
		buf_adds(&b, s->l[j - 1] + (j > i ? indent(s->l[j - 1]) : 0));
		for (p = s->l[j - 1]; *p; p++)
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (depth <= 0)
			break;
	}
	*end = j <= last ? j : last;
	return buf_detach(&b, NULL);
}

/* "_tmp3_max_next, _tmp3_sum_next = triton_helpers.online_softmax_combine(
 * _tmp3_max, _tmp3_sum, tmp2, False )", joined. */
static const char combine_re[] =
	"^(" SP ")(" ID ")_max_next, (" ID ")_sum_next = triton_helpers\\.online_softmax_combine\\("
	SP "(" ID ")_max, (" ID ")_sum, (" ID "), (True|False)" SP "\\)" SP "$";
static const char reduce_re[] =
	"^(" SP ")(" ID "), (" ID ") = triton_helpers\\.online_softmax_reduce\\("
	SP "(" ID ")_max, (" ID ")_sum, 1, (True|False)" SP "\\)" SP "$";
static const char loop_re[] = "^(" SP ")for " ID " in (tl\\.)?range\\(.*\\):" SP "$";

/* Finds the one combine statement of the kernel; 0, or -1 (none, several, odd). */
static int find_combine(const struct srclines *s, size_t from, size_t last, struct site *t)
{
	regex_t re;
	regmatch_t m[8];
	size_t i, end;
	int found = 0;

	regcomp(&re, combine_re, REG_EXTENDED);
	for (i = from; i <= last; i++) {
		char *st;

		if (!strstr(s->l[i - 1], "online_softmax_combine("))
			continue;
		st = statement(s, i, last, &end);
		if (found++ || regexec(&re, st, 8, m, 0)) {
			free(st);
			found = 2;
			break;
		}
		t->ind = rewrite_group(st, &m[1]);
		t->acc = rewrite_group(st, &m[2]);
		t->val = rewrite_group(st, &m[6]);
		t->fast = rewrite_group(st, &m[7]);
		t->combine = i, t->combine_end = end;
		/* the four names must be one accumulator's */
		if (!is_acc(st, &m[3], t) || !is_acc(st, &m[4], t) || !is_acc(st, &m[5], t))
			found = 2;
		free(st);
	}
	regfree(&re);
	return found == 1 ? 0 : -1;
}

/* The loop around the combine: its header above, at a smaller indent. */
static int find_loop(const struct srclines *s, size_t from, struct site *t)
{
	regex_t re;
	regmatch_t m[2];
	size_t i, ind = strlen(t->ind);
	int ret = -1;

	regcomp(&re, loop_re, REG_EXTENDED);
	for (i = t->combine - 1; i >= from && ret < 0; i--) {
		const char *l = s->l[i - 1];

		if (blank(l) || indent(l) >= ind)
			continue;
		if (!regexec(&re, l, 2, m, 0)) {
			t->loop = i;
			t->loop_ind = rewrite_group(l, &m[1]);
			ret = 0;
		}
		break;
	}
	regfree(&re);
	return ret;
}

/* A line of the body before the combine that is safe to run twice. */
static int pure(const char *l)
{
	const char *p = l + indent(l);

	return !strstr(p, "tl.store(") && !strstr(p, "tl.atomic_") && *p != '_';
}

/* "<ind><acc>_<which> = tl.where(MASK, <acc>_<which>_next, <acc>_<which>)"; MASK or NULL. */
static char *where_mask(const char *l, const struct site *t, const char *which)
{
	char *head = xstrfmt("%s%s_%s = tl.where(", t->ind, t->acc, which);
	char *tail = xstrfmt(", %s_%s_next, %s_%s)", t->acc, which, t->acc, which);
	size_t hn = strlen(head), tn = strlen(tail), n = strlen(l);
	char *mask = NULL;

	while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
		n--;
	if (n > hn + tn && !strncmp(l, head, hn) && !strncmp(l + n - tn, tail, tn))
		mask = xstrndup(l + hn, n - hn - tn);
	free(head), free(tail);
	return mask;
}

/* The loop body: pure lines, the combine, the two where lines, nothing else. */
static int check_body(const struct srclines *s, size_t last, struct site *t)
{
	size_t i, ind = strlen(t->ind);
	char *mask2 = NULL;
	int ret = 0;

	for (i = t->loop + 1; i < t->combine; i++)
		if (!blank(s->l[i - 1]) && (indent(s->l[i - 1]) < ind || !pure(s->l[i - 1])))
			return -1;
	for (i = t->combine_end + 1; i <= last; i++) {
		const char *l = s->l[i - 1];

		if (blank(l))
			continue;
		if (indent(l) < ind)
			break;
		if (!t->where_max && (t->mask = where_mask(l, t, "max")))
			t->where_max = i;
		else if (t->where_max && !t->where_sum && (mask2 = where_mask(l, t, "sum")))
			t->where_sum = i;
		else
			ret = -1;
	}
	t->body_end = t->where_sum;
	if (!t->where_sum || strcmp(t->mask, mask2))
		ret = -1;
	free(mask2);
	return ret;
}

/* The reduce statement right after the loop, of the same accumulator. */
static int find_reduce(const struct srclines *s, size_t last, struct site *t)
{
	regex_t re;
	regmatch_t m[7];
	size_t i, end;
	char *st;
	int ret = -1;

	for (i = t->body_end + 1; i <= last && blank(s->l[i - 1]); i++)
		;
	if (i > last)
		return -1;
	regcomp(&re, reduce_re, REG_EXTENDED);
	st = statement(s, i, last, &end);
	if (!regexec(&re, st, 7, m, 0) && is_acc(st, &m[4], t) && is_acc(st, &m[5], t) &&
	    !strncmp(st + m[6].rm_so, t->fast, strlen(t->fast))) {
		t->red_ind = rewrite_group(st, &m[1]);
		t->out_max = rewrite_group(st, &m[2]);
		t->out_sum = rewrite_group(st, &m[3]);
		t->reduce = i, t->reduce_end = end;
		ret = 0;
	}
	free(st);
	regfree(&re);
	return ret;
}

static void blank_lines(struct rewrite *r, size_t from, size_t to)
{
	for (; from <= to; from++)
		rewrite_add_edit(r, from, 1, xstrdup(""));
}

/* The second loop: the first one's body before the combine (it computes
 * the value again), then the sum of exp(value - the row's max); a row of
 * -inf subtracts 0 instead, so that exp gives 0, not nan. */
static void second_loop(const struct srclines *s, const struct site *t, struct rewrite *r)
{
	size_t i, at = t->body_end;

	rewrite_add_edit(r, at, 0, xstrfmt("%s%s = triton_helpers.max2(%s_max, 1)",
					   t->loop_ind, t->out_max, t->acc));
	rewrite_add_edit(r, at, 0,
			 xstrfmt("%s%s_max_row = tl.where(%s[:, None] == float('-inf'), 0.0, %s[:, None])",
				 t->loop_ind, t->acc, t->out_max, t->out_max));
	rewrite_add_edit(r, at, 0, xstrdup(s->l[t->loop - 1]));
	for (i = t->loop + 1; i < t->combine; i++)
		if (!blank(s->l[i - 1]))
			rewrite_add_edit(r, at, 0, xstrdup(s->l[i - 1]));
	rewrite_add_edit(r, at, 0,
			 xstrfmt("%s%s_sum = tl.where(%s, %s_sum + triton_helpers.exp(%s - %s_max_row, %s), %s_sum)",
				 t->ind, t->acc, t->mask, t->acc, t->val, t->acc, t->fast, t->acc));
}

/* The first loop's loads are read again by the second: evict_last, as
 * Inductor marks a load that a later loop of the kernel reads again. */
static void keep_in_cache(const struct srclines *s, const struct site *t, struct rewrite *r)
{
	static const char first[] = "eviction_policy='evict_first'";
	size_t i;

	for (i = t->loop + 1; i < t->combine; i++) {
		const char *l = s->l[i - 1], *at = strstr(l, first);

		if (at)
			rewrite_add_edit(r, i, 1, xstrfmt("%.*seviction_policy='evict_last'%s",
							  (int)(at - l), l, at + sizeof(first) - 1));
	}
}

/* The edits: the first loop keeps only the max, a second one sums. */
static int edit(const struct srclines *s, const struct site *t, struct rewrite *r)
{
	size_t before = r->nr;

	keep_in_cache(s, t, r);
	blank_lines(r, t->combine, t->combine_end);
	rewrite_add_edit(r, t->where_max, 1,
			 xstrfmt("%s%s_max = tl.where(%s, triton_helpers.maximum(%s_max, %s), %s_max)",
				 t->ind, t->acc, t->mask, t->acc, t->val, t->acc));
	blank_lines(r, t->where_sum, t->where_sum);
	second_loop(s, t, r);
	rewrite_add_edit(r, t->reduce, 1,
			 xstrfmt("%s%s = tl.sum(%s_sum, 1)", t->red_ind, t->out_sum, t->acc));
	if (t->reduce_end > t->reduce)
		blank_lines(r, t->reduce + 1, t->reduce_end);
	return (int)(r->nr - before);
}

int rewrite_two_pass(const char *src, size_t len, const struct tune_kernel *k,
		     struct rewrite *r)
{
	struct srclines s;
	struct site t;
	size_t first, last, body;
	int added = 0;

	memset(&t, 0, sizeof(t));
	srclines_split(src, len, &s);
	rewrite_kernel_range(k, &s, &first, &last);
	body = rewrite_body_start(k, &s);
	if (body && !find_combine(&s, body, last, &t) && !find_loop(&s, body, &t) &&
	    !check_body(&s, last, &t) && !find_reduce(&s, last, &t))
		added = edit(&s, &t, r);
	site_release(&t);
	srclines_release(&s);
	return added;
}
