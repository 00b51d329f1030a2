#!/bin/sh
# The GPU path with a stand-in worker (tests/cli/tune-fake): tko plans,
# sends bench requests with the base as the reference, follows the
# timings, never lets a wrong variant win, and writes the winner's files.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

use_fake_gpu
POI="$CORPUS/h200-run1/cache/inductor/sd/csdvrfujlppaik6bsrjwjsfouquczh47rzawhmr6c3vvw7bdom7q.py"
export POI

test_expect_success 'setup: a captured kernel directory' '
	mkdir -p kdir/inputs &&
	cp "$POI" kdir/kernel.py &&
	name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$POI") &&
	xnumel=$(sed -n "s/^    xnumel = \([0-9]*\)$/\1/p" "$POI") &&
	printf "%s\n" "{\"schema_version\": 1, \"kernel\": \"$name\"," \
		"\"args\": [{\"name\": \"xnumel\", \"kind\": \"scalar\", \"value\": $xnumel}]," \
		"\"storages\": [], \"mutated_arg_names\": [], \"best_index\": 1," \
		"\"inductor_num_bytes\": 201326592," \
		"\"configs\": [{\"kwargs\": {\"XBLOCK\": 512}, \"num_warps\": 8, \"num_stages\": 1, \"time_ms\": 1.2}," \
		"{\"kwargs\": {\"XBLOCK\": 1024}, \"num_warps\": 4, \"num_stages\": 1, \"time_ms\": 1.1}]}" \
		>kdir/capture.json &&
	echo "$xnumel" >xnumel
'

test_expect_success 'a bare kernel file cannot be timed' '
	test_expect_code 1 tko tune "$POI" 2>err &&
	test_one_line_error err &&
	test_grep "needs a captured kernel directory" err
'

test_expect_success 'without a GPU the real worker cannot time (exit 3)' '
	TKO_PYTHON_DIR="$SRC_ROOT/python" &&
	export TKO_PYTHON_DIR &&
	test_expect_code 3 tko tune kdir 2>err &&
	test_one_line_error err &&
	test_grep "no GPU is visible to the tune worker" err
'

test_expect_success 'a sweep on the fake GPU' '
	tko tune --out out --json g.json --md g.md kdir >table &&
	test "$(json_q g.json .mode)" = gpu &&
	test "$(json_q g.json ".kernels[0].target")" = sm_90
'

# The fake worker reports only facts (name, backend, capability [9, 0]), as
# python/tko/gpu.py does; tko decides the arch and names the fields as before.
test_expect_success 'the device is the hello'"'"'s facts with the arch tko decided' '
	json_q g.json ".kernels[0].device == {\"name\": \"fake\", \"backend\": \"cuda\",
		\"arch\": \"sm_90\", \"cc\": [9, 0]}"
'

test_expect_success 'the autotuned config ran first, as the reference' '
	head -n 1 fake.log >first &&
	test_grep "^v000 XBLOCK=1024 ref=True grid=$(($(cat xnumel) / 1024)),1,1$" first &&
	test "$(grep -c "ref=True" fake.log)" -eq 1 &&
	test "$(json_q g.json ".kernels[0].variants[0].inductor_ms")" = 1.1
'

test_expect_success 'Inductor'"'"'s other config ran too, on its own grid, after the descent' '
	id=$(json_q g.json ".kernels[0].variants[] | select(.config.kwargs.XBLOCK == 512 and
		.config.num_warps == 8) | .id") &&
	test "$(json_q g.json ".kernels[0].variants[] | select(.id == \"$id\") | .inductor_ms")" = 1.2 &&
	test_grep "^$id XBLOCK=512 ref=False grid=$(($(cat xnumel) / 512)),1,1$" fake.log &&
	test "$(json_q g.json ".kernels[0].variants[1].origin")" = descent
'

test_expect_success 'the wrong variant is the fastest but never wins' '
	test "$(json_q g.json "[.kernels[0].variants[] | select(.config.kwargs.XBLOCK == 4096) |
		.status] | unique | join(\",\")")" = wrong &&
	test "$(json_q g.json ".kernels[0].winner.label")" = XBLOCK=2048 &&
	test "$(json_q g.json ".kernels[0].winner.speedup")" = 2 &&
	test_grep "^winner: v[0-9]+ XBLOCK=2048" table
'

test_expect_success 'the winner files: source, config, no patch for a config change' '
	dir=$(json_q g.json ".kernels[0].out_dir") &&
	cmp "$POI" "$dir/winner/kernel.py" &&
	test "$dir" = "out/$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$POI")-sm_90" &&
	! test -e "$dir/winner/source.patch" &&
	test "$(json_q "$dir/winner/config.json" .triton_config)" = \
		"triton.Config({'"'"'XBLOCK'"'"': 2048}, num_warps=4, num_stages=1)" &&
	test "$(json_q "$dir/tune.json" ".kernels[0].winner.label")" = XBLOCK=2048
'

test_expect_success 'the Markdown report has the kernel table' '
	name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$POI") &&
	test_grep "^## $name \(pointwise\) on sm_90" g.md &&
	test_grep "^\| v000 +\| base +\| ok " g.md
'

test_expect_success 'GB/s from Inductor'"'"'s byte count, peak from the measured copy rate' '
	json_q g.json ".kernels[0].variants[0] | [.gbps, .peak_fraction] | @tsv" >got &&
	awk "BEGIN { g = 201326592 / 1e9 / (1.0 / 1e3); printf \"%.3f\t%.5f\n\", g, g / 4000 }" >want &&
	awk -F "\t" "{ printf \"%.3f\t%.5f\n\", \$1, \$2 }" got >got.rounded &&
	test_cmp want got.rounded &&
	test "$(json_q g.json ".kernels[0].peak_gbps")" = 4000
'

test_expect_success '--json - puts only JSON on stdout' '
	tko tune --out out2 --json - kdir >only.json &&
	test "$(json_q only.json .schema_version)" = 2 &&
	test "$(json_q only.json ".kernels[0].winner.label")" = XBLOCK=2048
'

# The capture has no tensor argument, so the bytes are Inductor's 201326592,
# an estimate: 201 GB/s at the base's 1 ms, over 105% of a 100 GB/s copy.
test_expect_success 'GB/s over 105% of the copy rate is flagged, and an estimate says so' '
	tko tune --out out3 --peak-gbps 100 --json g3.json kdir >table3 &&
	json_q g3.json ".kernels[0].bytes_estimate == true and (.kernels[0].bytes_note | startswith(\"Inductor\"))" &&
	json_q g3.json ".kernels[0].variants[0] | .peak_fraction == null and .rate_doubt == \"bytes over-counted: the byte count is an estimate\"" &&
	test_grep "^v000 +base +ok +1\.0000 +\(201\) +over copy " table3 &&
	test_grep "^GB/s in brackets is over 105% of the copy rate, not a fact: bytes over-counted" table3 &&
	tko tune --out out4 --json g4.json kdir >table4 &&
	test_grep "^v000 +base +ok +1\.0000 +201 est\. +5% " table4
'

test_done
