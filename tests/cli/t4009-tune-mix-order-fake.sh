#!/bin/sh
# A mix-order reduction (a norm backward, MixOrderReductionGrid) on the fake
# GPU (tests/cli/tune-fake): tko tunes its RSPLIT_SIZE, computes each
# variant's grid and workspace size from the kernel's own sizes, keeps the
# workspace small enough for the wrapper's sum, never plans more XBLOCK rows
# than a program has, and says that the winner's split is an Inductor
# setting. Expected values are worked out here from the kernel file.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

use_fake_gpu
MIX="$TESTS_DIR/../data/tune/mix_order_reduction.py"
export MIX

test_expect_success 'setup: the captured kernel, its sizes read from the file' '
	mkdir -p kdir/inputs &&
	cp "$MIX" kdir/kernel.py &&
	name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$MIX") &&
	x=$(sed -n "s/^    xnumel = \([0-9]*\)$/\1/p" "$MIX") &&
	r=$(sed -n "s/^    r0_numel = \([0-9]*\)$/\1/p" "$MIX") &&
	split=$(sed -n "s/.*'"'"'RSPLIT_SIZE'"'"': \([0-9]*\),.*/\1/p" "$MIX") &&
	test "$split" = 16 &&
	ws=$((x / split * r)) &&
	printf "%s\n" "{\"schema_version\": 1, \"kernel\": \"$name\", \"grid\": [$((x / split)), 1, 1]," \
		"\"args\": [{\"name\": \"ws_ptr\", \"kind\": \"tensor\", \"shape\": [$ws], \"dtype\": \"float32\"}," \
		"{\"name\": \"xnumel\", \"kind\": \"scalar\", \"value\": $x}," \
		"{\"name\": \"r0_numel\", \"kind\": \"scalar\", \"value\": $r}]," \
		"\"storages\": [], \"mutated_arg_names\": [], \"best_index\": 0," \
		"\"configs\": [{\"kwargs\": {\"XBLOCK\": 1, \"RSPLIT_SIZE\": $split, \"NUM_STAGES\": 1}," \
		"\"num_warps\": 4, \"num_stages\": 1}]}" >kdir/capture.json &&
	echo "$x $r" >sizes
'

test_expect_success 'a sweep on the fake GPU tunes RSPLIT_SIZE' '
	tko tune --out out --json g.json kdir >table 2>err &&
	test "$(json_q g.json ".kernels[0].space[] | select(.name == \"RSPLIT_SIZE\") | .tuned")" = true &&
	test "$(head -n 1 fake.log | cut -d" " -f2-4)" = "RSPLIT_SIZE=16 XBLOCK=1 grid=512,1,1" &&
	test "$(count "RSPLIT_SIZE=(8|32|64|128)" fake.log)" -gt 0
'

test_expect_success 'every grid is xnumel / RSPLIT_SIZE, every workspace one row of r0_numel per program' '
	read -r x r <sizes &&
	awk -v x="$x" -v r="$r" "{
		split(\$2, s, \"=\"); split(\$4, g, \"[=,]\"); split(\$5, w, \"=\");
		if (g[2] != x / s[2] || w[2] != x / s[2] * r || \$6 != \"ws_is_output=True\") { print; bad = 1 }
	} END { exit bad }" fake.log
'

test_expect_success 'no workspace beyond a sixteenth of the kernel'"'"'s bytes, no XBLOCK beyond a split' '
	gb=$(sed -n "s/.*'"'"'kernel_num_gb'"'"': \([0-9.]*\),.*/\1/p" "$MIX") &&
	awk -v gb="$gb" "{
		split(\$2, s, \"=\"); split(\$3, b, \"=\"); split(\$5, w, \"=\");
		if (w[2] * 4 > gb * 1e9 / 16 || b[2] + 0 > s[2] + 0) { print; bad = 1 }
	} END { exit bad }" fake.log &&
	test "$(count "RSPLIT_SIZE=(1|2|4) " fake.log)" -eq 0
'

test_expect_success 'the winner splits 8 rows, applied as an Inductor setting' '
	test "$(json_q g.json ".kernels[0].winner.label")" = RSPLIT_SIZE=8 &&
	test "$(json_q g.json ".kernels[0].winner.inductor_settings[\"triton.mix_order_reduction_split_size\"]")" = 8 &&
	dir=$(json_q g.json ".kernels[0].out_dir") &&
	test "$(json_q "$dir/winner/config.json" ".inductor_settings[\"triton.mix_order_reduction_split_size\"]")" = 8 &&
	test_grep "mix_order_reduction_split_size = 8" table
'

test_expect_success 'a mix-order kernel whose partials are not sums keeps its split' '
	sed "s/tmp24 = accum0 + tmp23/tmp24 = triton_helpers.maximum(accum0, tmp23)/" "$MIX" >kdir/kernel.py &&
	: >fake.log &&
	tko tune --out out2 --json g2.json kdir >table2 2>err2 &&
	test_grep "RSPLIT_SIZE stays at the base.s 16: its partial reductions are not all sums" err2 &&
	test "$(json_q g2.json ".kernels[0].space[] | select(.name == \"RSPLIT_SIZE\") | .tuned")" = false &&
	test "$(count "RSPLIT_SIZE=16 " fake.log)" -eq 0
'

test_done
