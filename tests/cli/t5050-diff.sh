#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko diff: two RUNs, two analysis files, two Triton cache entries (kernel
# directories), two `tko isa --json` results. What changed is checked
# against the PTX with grep.
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run
TRITON=$CORPUS/h200-run1/cache/triton
A=$TRITON/GJQS3RRWKSUULY6KQSOACKDZOGG4AGJRHVALSJKROJULTJDGC5XA
B=$TRITON/DJCWVEYVOONQCDAQ3K2UR7WCRSCT6W5TCCCB2BV4VWC6XQ6GLROA
K=triton_poi_fused_index_add_zeros_1

test_expect_success 'a RUN against itself: nothing changed, exit 0' '
	cp -R "$EXAMPLE" run && tko -q investigate run >/dev/null &&
	tko diff run run >out &&
	test_grep "^7 kernels in both \(0 changed, 7 unchanged\), 0 only in A, 0 only in B" out
'

test_expect_success 'two configs of the index_add kernel: atomics and widths as grep counts them' '
	test_expect_code 1 tko diff --json d.json --md d.md "$A" "$B" >out &&
	atom_a=$(grep -c "atom\.global" "$A/$K.ptx") && atom_b=$(grep -c "atom\.global" "$B/$K.ptx") &&
	test "$atom_a" != "$atom_b" &&
	json_q d.json ".summary.changed == 1 and .kernels[0].status == \"changed\"" &&
	json_q d.json ".kernels[0].changes[] | select(.field == \"isa.atomics\") | .a == \"$atom_a\" and .b == \"$atom_b\"" &&
	v4_a=$(grep -c "ld\.global.*\.v4\." "$A/$K.ptx") &&
	json_q d.json ".kernels[0].changes[] | select(.field == \"isa.families.global_load\") | .a | test(\"128-bit x$v4_a\")" &&
	test_grep "^## $K \(changed\)" d.md &&
	test_grep "\| isa.atomics \| $atom_a \| $atom_b \|" d.md
'

test_expect_success 'tko isa --json documents compare the same way' '
	tko isa --json ia.json "$A" >/dev/null 2>&1 && tko isa --json ib.json "$B" >/dev/null 2>&1 &&
	test_expect_code 1 tko diff --json d2.json ia.json ib.json >out &&
	jq -S ".kernels" d.json >want && jq -S ".kernels" d2.json >got &&
	test_cmp want got
'

test_expect_success 'two RUNs: kernels only on one side, times and decisions that changed' '
	tko -q investigate --out-dir c --peak-gbps 4243 "$CORPUS/h200-run1" >/dev/null &&
	test_expect_code 1 tko diff --json rd.json c run >out &&
	json_q rd.json ".kernels[] | select(.id == \"$K\") | .status == \"changed\" and ([.changes[].field] | index(\"time_ms\") != null)" &&
	json_q rd.json ".summary.only_b >= 1 and .summary.only_a >= 1" &&
	json_q rd.json "[.run[].field] | index(\"device\") != null"
'

# One kernel in A whose name B has twice (two archs): pairs by a name unique
# on one side only; every kernel of each side is counted once all the same.
test_expect_success 'a name unique on one side only: no pair, and no kernel lost' '
	tko isa --json one.json "$SRC_ROOT/examples/isa" >/dev/null 2>&1 &&
	tko isa --json many.json "$CORPUS/amd-xcompile" >/dev/null 2>&1 &&
	na=$(jq ".kernels | length" one.json) && nb=$(jq ".kernels | length" many.json) &&
	test "$(jq "[.kernels[] | select(.name == \"$K\")] | length" many.json)" -ge 2 &&
	test_expect_code 1 tko diff --json u.json one.json many.json >out &&
	json_q u.json ".summary | .changed + .same + .only_a == $na and .changed + .same + .only_b == $nb" &&
	json_q u.json "(.kernels | length) == .summary.changed + .summary.same + .summary.only_a + .summary.only_b" &&
	json_q u.json "[.kernels[] | select(.status == \"only_b\") | .id | select(startswith(\"$K\"))] | length >= 2"
'

test_expect_success 'bad inputs and usage' '
	test_expect_code 2 tko diff run 2>err && test_one_line_error err &&
	test_expect_code 1 tko diff run nope 2>err && test_one_line_error err &&
	echo "not asm" >x.txt &&
	test_expect_code 1 tko diff run x.txt 2>err && test_one_line_error err &&
	echo "{\"tool\": \"x\"}" >x.json &&
	test_expect_code 1 tko diff run x.json 2>err && test_one_line_error err &&
	tko diff --help >out && test_grep "^usage: tko diff A B" out
'

test_done
