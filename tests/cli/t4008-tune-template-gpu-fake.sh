#!/bin/sh
# A whole Inductor template module (the mm template of the corpus, as tko
# capture writes it once it keeps the whole module) tuned on the stand-in
# GPU: its BLOCK_M/BLOCK_N are rewritten in the source and every variant is
# launched on the grid the mm template needs, cdiv(M, BLOCK_M) *
# cdiv(N, BLOCK_N) blocks (computed here with awk from the rewritten
# source, not by tko); the base gets the captured grid.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

use_fake_gpu
MM="$CORPUS/h200-run1/cache/inductor/5p/c5pfyn5b7apk7x4sgj4nll5brv476xd4hkjgcj2rji4fykrgxbqf.py"
export MM

test_expect_success 'setup: a captured template directory' '
	mkdir -p kdir/inputs &&
	cp "$MM" kdir/kernel.py &&
	name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$MM") &&
	m=$(sed -n "s/^    M = \([0-9]*\)$/\1/p" "$MM") &&
	bm=$(sed -n "s/^    BLOCK_M : tl.constexpr = \([0-9]*\)$/\1/p" "$MM") &&
	grid=$(( (m + bm - 1) / bm * ((m + bm - 1) / bm) )) &&
	printf "%s\n" "{\"schema_version\": 1, \"kernel\": \"$name\", \"args\": [" \
		"{\"name\": \"_grid_0\", \"kind\": \"scalar\", \"value\": $grid}]," \
		"\"storages\": [], \"mutated_arg_names\": [], \"best_index\": 0," \
		"\"grid\": [$grid, 1, 1]," \
		"\"configs\": [{\"kwargs\": {}, \"num_warps\": 8, \"num_stages\": 5}]}" \
		>kdir/capture.json &&
	echo "$grid" >captured
'

test_expect_success 'a sweep of the template on the fake GPU' '
	tko tune --out out --json t.json --max-variants 8 kdir >table &&
	test "$(json_q t.json ".kernels[0].kind")" = template &&
	test "$(json_q t.json ".kernels[0].grid_note")" = null
'

test_expect_success 'every variant ran on the grid of its block sizes' '
	json_q t.json ".kernels[0].variants[] | select(.status == \"ok\") | [.id, .source] | @tsv" >ran &&
	test_line_count -ge 4 ran &&
	while IFS="$(printf "\t")" read -r id src; do
		want=$(awk "/^    M = / { m = \$3 } /^    N = / { n = \$3 }
			/^    BLOCK_M : tl.constexpr = / { bm = \$5 } /^    BLOCK_N : tl.constexpr = / { bn = \$5 }
			END { print int((m + bm - 1) / bm) * int((n + bn - 1) / bn) }" "$src") &&
		test_grep "^$id .* grid=$want,1,1$" fake.log || return 1
	done <ran &&
	test_grep "^v000 .* grid=$(cat captured),1,1$" fake.log &&
	json_q t.json "[.kernels[0].variants[].config.body.BLOCK_M] | unique | length" >bms &&
	test "$(cat bms)" -ge 2
'

test_done
