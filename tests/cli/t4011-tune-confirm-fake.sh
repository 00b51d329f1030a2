#!/bin/sh
# The confirmation after a sweep (src/tune/confirm.h), on the stand-in GPU
# (tests/cli/tune-fake): the winner, the base and the best config-only
# variant are re-timed in rounds whose times the test gives the fake
# ($TKO_FAKE_CONFIRM), so the expected interval is worked out here, apart
# from tko: Python's statistics module on the log ratios, and the t table's
# 2.447 for 6 degrees of freedom. A real gain is accepted, a gain inside
# the noise is not (the base stays), and a source patch that does not beat
# the config-only variant beyond the noise loses to it.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

use_fake_gpu
POI="$TESTS_DIR/../corpus/h200-run1/cache/inductor/sd/csdvrfujlppaik6bsrjwjsfouquczh47rzawhmr6c3vvw7bdom7q.py"
export POI

# expect_ci NUM_KEY DEN_KEY [VAR]: "ratio lo hi" of the rounds in $TKO_FAKE_CONFIRM (or $VAR)
cat >ci.py <<'PY'
import json, math, os, statistics, sys
t = json.loads(os.environ[sys.argv[3] if len(sys.argv) > 3 else "TKO_FAKE_CONFIRM"])
skip = [int(i) for i in os.environ.get("SKIP_ROUNDS", "").split()]
logs = [math.log(a / b) for i, (a, b) in enumerate(zip(t[sys.argv[1]], t[sys.argv[2]]))
        if i not in skip]
m, s = statistics.mean(logs), statistics.stdev(logs)
half = {6: 2.447, 5: 2.571}[len(logs) - 1] * s / math.sqrt(len(logs))
print("%.9f %.9f %.9f" % (math.exp(m), math.exp(m - half), math.exp(m + half)))
PY
expect_ci() {
	"$TKO_PYTHON" ci.py "$@"
}
# got_ci FILE JQ_PATH: "ratio lo hi" of an interval tko wrote
got_ci() {
	json_q "$1" "$2 | [.ratio, .ci95[0], .ci95[1]] | @tsv" |
		awk -F "\t" "{ printf \"%.9f %.9f %.9f\n\", \$1, \$2, \$3 }"
}

# A gfx942 fake whose buffer-ops variant of XBLOCK=2048 is the fastest:
# the round times of the base (1024), the config alone and the winner.
# shellcheck disable=SC2089,SC2090 # the quotes are the JSON's, meant literally
fake_gfx942_bufops() {
	TKO_FAKE_GPU='{"name": "fake", "backend": "hip", "gcn_arch_name": "gfx942:sramecc+:xnack-", "warp_size": 64}'
	TKO_FAKE_BUFOPS=0.97
	TKO_FAKE_CONFIRM='{"1024": [1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97],
		"2048": [0.50, 0.49, 0.51, 0.50, 0.48, 0.52, 0.50],
		"2048+bufops": [0.45, 0.44, 0.46, 0.45, 0.44, 0.46, 0.45]}'
	export TKO_FAKE_GPU TKO_FAKE_BUFOPS TKO_FAKE_CONFIRM
}

test_expect_success 'setup: a captured kernel directory' '
	mkdir -p kdir/inputs &&
	cp "$POI" kdir/kernel.py &&
	name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$POI") &&
	xnumel=$(sed -n "s/^    xnumel = \([0-9]*\)$/\1/p" "$POI") &&
	printf "%s\n" "{\"schema_version\": 1, \"kernel\": \"$name\"," \
		"\"args\": [{\"name\": \"xnumel\", \"kind\": \"scalar\", \"value\": $xnumel}]," \
		"\"storages\": [], \"mutated_arg_names\": [], \"best_index\": 0," \
		"\"configs\": [{\"kwargs\": {\"XBLOCK\": 1024}, \"num_warps\": 4, \"num_stages\": 1}]}" \
		>kdir/capture.json
'

test_expect_success 'a real gain: accepted, the confirmed figure beside the sweep'"'"'s' '
	TKO_FAKE_CONFIRM="{\"1024\": [1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97],
		\"2048\": [0.51, 0.50, 0.49, 0.52, 0.50, 0.48, 0.51]}" &&
	export TKO_FAKE_CONFIRM &&
	tko tune --no-source --out a --json a.json kdir >a.out &&
	w=a.json && c=".kernels[0].winner.confirmation" &&
	test "$(json_q $w "$c.accepted")" = true &&
	test "$(json_q $w "$c.rounds")" = 7 &&
	test "$(json_q $w "$c.candidate_label")" = XBLOCK=2048 &&
	test "$(json_q $w ".kernels[0].winner.label")" = XBLOCK=2048 &&
	test "$(json_q $w ".kernels[0].winner.sweep_speedup")" = 2 &&
	test "$(json_q $w "$c.vs_config_only")" = null &&
	expect_ci 1024 2048 >want && got_ci $w "$c" >got && test_cmp want got &&
	test "$(json_q $w "$c.ratio == .kernels[0].winner.speedup")" = true &&
	test "$(json_q $w ".kernels[0].winner.confirmed")" = true &&
	test "$(json_q $w "$c.ci95 == .kernels[0].winner.ci95")" = true &&
	dir=$(json_q $w ".kernels[0].out_dir") &&
	test "$(json_q "$dir/winner/config.json" ".confirmed")" = true &&
	test "$(json_q $w "$c.ratio < 2")" = true &&
	test "$(json_q $w "$c | has(\"warm\")")" = false &&
	! test_grep "warm" a.out &&
	grep "^confirm rounds=7 offset=0 ids=v000,v001 keys=1024,2048$" fake.log.confirm &&
	test_grep "^confirmation of v001 \(XBLOCK=2048, sweep 2.00x\): 1.9[0-9]*x \[.*\] over the base in 7 rounds; accepted" a.out
'

test_expect_success 'a gain inside the noise: not accepted, the base stays' '
	TKO_FAKE_CONFIRM="{\"1024\": [1.00, 1.05, 0.95, 1.02, 0.97, 1.04, 0.96],
		\"2048\": [0.99, 0.96, 1.03, 0.97, 1.02, 0.98, 1.01]}" &&
	export TKO_FAKE_CONFIRM &&
	tko tune --no-source --out b --json b.json kdir >b.out &&
	w=b.json && c=".kernels[0].winner.confirmation" &&
	expect_ci 1024 2048 >want && got_ci $w "$c" >got && test_cmp want got &&
	read -r ratio lo hi <want &&
	awk "BEGIN { exit !($lo < 1 && $hi > 1) }" &&
	test "$(json_q $w "$c.accepted")" = false &&
	test "$(json_q $w ".kernels[0].winner.is_base")" = true &&
	test "$(json_q $w ".kernels[0].winner.speedup")" = 1 &&
	test "$(json_q $w ".kernels[0].winner.confirmed")" = false &&
	test "$(json_q $w ".kernels[0].winner.ci95")" = null &&
	test_grep "not faster than the base beyond the noise; the base stays" b.out &&
	dir=$(json_q $w ".kernels[0].out_dir") &&
	test "$(json_q "$dir/winner/config.json" .label)" = base
'

# The H100's rounds of 2026-12-05 (tests/unit/test-tune-ci.c): the candidate's
# third round took 3.6x its median, a disturbance (over 1.5x, src/tune/ci.h).
test_expect_success 'a round in which one time is over 1.5x its median is left out' '
	TKO_FAKE_CONFIRM="{\"1024\": [0.028896, 0.028928, 0.028896, 0.028896, 0.028896, 0.028864, 0.028896],
		\"2048\": [0.023072, 0.023104, 0.083712, 0.022976, 0.023104, 0.023200, 0.023072]}" &&
	export TKO_FAKE_CONFIRM &&
	tko tune --no-source --out h --json h.json kdir >h.out &&
	w=h.json && c=".kernels[0].winner.confirmation" &&
	expect_ci 1024 2048 >all && read -r ratio lo hi <all && awk "BEGIN { exit !($lo < 1) }" &&
	SKIP_ROUNDS=2 && export SKIP_ROUNDS &&
	expect_ci 1024 2048 >want && got_ci $w "$c" >got && test_cmp want got &&
	test "$(json_q $w "$c.disturbed_rounds == [2]")" = true &&
	test "$(json_q $w "$c.round_ratios | length")" = 7 &&
	test "$(json_q $w "$c.accepted")" = true &&
	test_grep "over the base in 7 rounds; accepted: v001 is faster than the base beyond the noise \(round 3 of 7 left out: a variant took over 1\.5x its median there\)$" h.out
'

test_expect_success 'disturbance in three rounds of seven is the machine'"'"'s: none left out' '
	TKO_FAKE_CONFIRM="{\"1024\": [1.00, 1.60, 1.00, 1.70, 1.00, 1.80, 1.00],
		\"2048\": [0.50, 0.50, 0.50, 0.50, 0.50, 0.50, 0.50]}" &&
	export TKO_FAKE_CONFIRM &&
	tko tune --no-source --out i --json i.json kdir >i.out &&
	w=i.json && c=".kernels[0].winner.confirmation" &&
	expect_ci 1024 2048 >want && got_ci $w "$c" >got && test_cmp want got &&
	test "$(json_q $w "$c.disturbed_rounds == []")" = true &&
	! test_grep "left out" i.out
'

test_expect_success 'a source patch within the noise of the config-only variant loses to it' '
	TKO_FAKE_HINTS=0.97 &&
	TKO_FAKE_CONFIRM="{\"1024\": [1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97],
		\"2048\": [0.50, 0.49, 0.51, 0.50, 0.48, 0.52, 0.50],
		\"2048+hints\": [0.49, 0.50, 0.50, 0.48, 0.50, 0.50, 0.49]}" &&
	export TKO_FAKE_HINTS TKO_FAKE_CONFIRM &&
	tko tune --out c --json c.json kdir >c.out &&
	w=c.json && c=".kernels[0].winner.confirmation" &&
	test "$(json_q $w "$c.candidate_label | test(\"\\\\+hints\")")" = true &&
	cfg=$(json_q $w "$c.vs_config_only.id") &&
	test "$(json_q $w "$c.vs_config_only.label")" = XBLOCK=2048 &&
	expect_ci 2048 2048+hints >want && got_ci $w "$c.vs_config_only" >got && test_cmp want got &&
	read -r ratio lo hi <want && awk "BEGIN { exit !($lo < 1) }" &&
	expect_ci 1024 2048 >want && got_ci $w "$c.vs_config_only.vs_base" >got && test_cmp want got &&
	expect_ci 1024 2048+hints >want && got_ci $w "$c" >got && test_cmp want got &&
	test "$(json_q $w "$c.accepted")" = false &&
	test "$(json_q $w "$c.winner")" = "$cfg" &&
	test "$(json_q $w ".kernels[0].winner.id")" = "$cfg" &&
	test "$(json_q $w ".kernels[0].winner.confirmed")" = true &&
	test "$(json_q $w "$c.vs_config_only.vs_base.ci95 == .kernels[0].winner.ci95")" = true &&
	test "$(json_q $w ".kernels[0].winner.source_variants // [] | length")" = 0 &&
	dir=$(json_q $w ".kernels[0].out_dir") &&
	! test -e "$dir/winner/source.patch" &&
	test_grep "the config-only $cfg, faster than the base beyond the noise, wins" c.out
'

test_expect_success 'a source patch beyond the noise of the config-only variant wins' '
	TKO_FAKE_HINTS=0.97 &&
	TKO_FAKE_CONFIRM="{\"1024\": [1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97],
		\"2048\": [0.50, 0.49, 0.51, 0.50, 0.48, 0.52, 0.50],
		\"2048+hints\": [0.45, 0.44, 0.46, 0.45, 0.44, 0.46, 0.45]}" &&
	export TKO_FAKE_HINTS TKO_FAKE_CONFIRM &&
	tko tune --out d --json d.json kdir >d.out &&
	w=d.json && c=".kernels[0].winner.confirmation" &&
	expect_ci 2048 2048+hints >want && got_ci $w "$c.vs_config_only" >got && test_cmp want got &&
	read -r ratio lo hi <want && awk "BEGIN { exit !($lo > 1) }" &&
	test "$(json_q $w "$c.accepted")" = true &&
	test "$(json_q $w ".kernels[0].winner.id == $c.candidate")" = true &&
	dir=$(json_q $w ".kernels[0].out_dir") &&
	test -s "$dir/winner/source.patch"
'

# An AMD GPU (gfx942): the buffer-ops variant runs in a worker of its own
# environment (AMDGCN_USE_BUFFER_OPS=1), so the two workers take turns one
# round at a time, the first one alternating; the sweep never timed the
# winning config without its source variant, so the confirmation times it
# (--max-variants 12 ends the sweep after the best's first descent round,
# v007-v011, before the config-only track's round would time XBLOCK=2048:
# src/tune/plan.h; the next test lets it).
test_expect_success 'gfx942: a buffer-ops winner, confirmed across two worker environments' '
	rm -f fake.log.confirm &&
	fake_gfx942_bufops &&
	tko tune --max-variants 12 --out g --json g.json kdir >g.out &&
	w=g.json && c=".kernels[0].winner.confirmation" &&
	test "$(json_q $w ".kernels[0].target")" = gfx942 &&
	test "$(json_q $w "$c.candidate_label")" = "XBLOCK=2048 +bufops" &&
	cand=$(json_q $w "$c.candidate") && cfg=$(json_q $w "$c.vs_config_only.id") &&
	test "$(json_q $w ".kernels[0].variants[] | select(.id == \"$cfg\") |
		[.label, .origin, .status] | join(\" \")")" = "XBLOCK=2048 confirm ok" &&
	expect_ci 1024 2048+bufops >want && got_ci $w "$c" >got && test_cmp want got &&
	expect_ci 2048 2048+bufops >want && got_ci $w "$c.vs_config_only" >got && test_cmp want got &&
	expect_ci 1024 2048 >want && got_ci $w "$c.vs_config_only.vs_base" >got && test_cmp want got &&
	test "$(json_q $w "$c.accepted")" = true &&
	for r in 0 1 2 3 4 5 6; do
		one="confirm rounds=1 offset=$r ids=v000,$cfg keys=1024,2048" &&
		two="confirm rounds=1 offset=$r ids=$cand keys=2048+bufops" &&
		if test $((r % 2)) = 0; then printf "%s\n%s\n" "$one" "$two"
		else printf "%s\n%s\n" "$two" "$one"; fi || return 1
	done >want.log &&
	test_cmp want.log fake.log.confirm
'

# The same without the limit: the best (v004, +bufops: 0.97 of the base)
# is a source variant, so its descent round (v007-v011, +bufops) is
# followed by one around the fastest config-only variant, the base (v012
# on: XBLOCK=2048 is its x2 step, counted by hand), and the confirmation
# holds the candidate against that variant instead of timing one of its own.
test_expect_success 'gfx942: the config-only track times the config alone in the search' '
	fake_gfx942_bufops &&
	tko tune --out g2 --json g2.json kdir >g2.out &&
	w=g2.json && c=".kernels[0].winner.confirmation" &&
	test "$(json_q $w "[.kernels[0].variants[] | select(.origin == \"confirm\")] | length")" = 0 &&
	test "$(json_q $w ".kernels[0].variants[] | select(.id == \"v012\") |
		[.label, .origin, (.source_variants | length)] | map(tostring) | join(\" \")")" = "XBLOCK=2048 descent 0" &&
	test "$(json_q $w "$c.candidate_label")" = "XBLOCK=2048 +bufops" &&
	test "$(json_q $w "$c.vs_config_only.id")" = v012 &&
	expect_ci 1024 2048 >want && got_ci $w "$c.vs_config_only.vs_base" >got && test_cmp want got
'

# Warm times ($TKO_FAKE_CONFIRM_WARM: what the worker times with no L2
# flush in the same turns): recorded beside the cold interval and warned
# about when slower beyond the noise, never deciding the acceptance.
test_expect_success 'warm: a winner faster cold and slower warm is accepted, warned about' '
	TKO_FAKE_CONFIRM="{\"1024\": [1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97],
		\"2048\": [0.51, 0.50, 0.49, 0.52, 0.50, 0.48, 0.51]}" &&
	TKO_FAKE_CONFIRM_WARM="{\"1024\": [0.50, 0.51, 0.49, 0.50, 0.52, 0.50, 0.48],
		\"2048\": [0.55, 0.54, 0.56, 0.55, 0.53, 0.56, 0.55]}" &&
	export TKO_FAKE_CONFIRM TKO_FAKE_CONFIRM_WARM &&
	tko tune --no-source --out w1 --json w1.json kdir >w1.out &&
	w=w1.json && c=".kernels[0].winner.confirmation" &&
	test "$(json_q $w "$c.accepted")" = true &&
	test "$(json_q $w ".kernels[0].winner.confirmed")" = true &&
	expect_ci 1024 2048 >want && got_ci $w "$c" >got && test_cmp want got &&
	expect_ci 1024 2048 TKO_FAKE_CONFIRM_WARM >want && got_ci $w "$c.warm" >got &&
	test_cmp want got &&
	read -r ratio lo hi <want && awk "BEGIN { exit !($hi < 1) }" &&
	test "$(json_q $w "$c.warm.variant")" = v001 &&
	test "$(json_q $w "$c.warm.rounds")" = 7 &&
	test "$(json_q $w "$c.warm.times_ms.v001[0]")" = 0.55 &&
	test "$(json_q $w "$c.warm.round_ratios | length")" = 7 &&
	dir=$(json_q $w ".kernels[0].out_dir") &&
	test "$(json_q "$dir/winner/config.json" ".confirmation.warm.variant")" = v001 &&
	line=$(printf "; warm (no L2 flush) %.3fx [%.3f, %.3f]; accepted" "$ratio" "$lo" "$hi") &&
	grep -F "$line" w1.out &&
	warn=$(printf "warning: v001 is slower than the base when its inputs are in L2 (warm %.3fx [%.3f, %.3f] over 7 rounds)" "$ratio" "$lo" "$hi") &&
	grep -F "$warn" w1.out
'

test_expect_success 'warm: a winner within the noise warm gets its figure and no warning' '
	TKO_FAKE_CONFIRM_WARM="{\"1024\": [0.50, 0.52, 0.49, 0.51, 0.50, 0.53, 0.48],
		\"2048\": [0.50, 0.51, 0.50, 0.50, 0.51, 0.50, 0.49]}" &&
	export TKO_FAKE_CONFIRM_WARM &&
	tko tune --no-source --out w2 --json w2.json kdir >w2.out &&
	w=w2.json && c=".kernels[0].winner.confirmation" &&
	expect_ci 1024 2048 TKO_FAKE_CONFIRM_WARM >want && got_ci $w "$c.warm" >got &&
	test_cmp want got &&
	read -r ratio lo hi <want && awk "BEGIN { exit !($lo < 1 && $hi > 1) }" &&
	grep -F "$(printf "; warm (no L2 flush) %.3fx [%.3f, %.3f]" "$ratio" "$lo" "$hi")" w2.out &&
	! test_grep "^warning:" w2.out
'

test_expect_success 'warm: the config-only variant that wins is the one timed warm over the base' '
	TKO_FAKE_HINTS=0.97 &&
	TKO_FAKE_CONFIRM="{\"1024\": [1.00, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97],
		\"2048\": [0.50, 0.49, 0.51, 0.50, 0.48, 0.52, 0.50],
		\"2048+hints\": [0.49, 0.50, 0.50, 0.48, 0.50, 0.50, 0.49]}" &&
	TKO_FAKE_CONFIRM_WARM="{\"1024\": [0.40, 0.41, 0.39, 0.40, 0.42, 0.40, 0.41],
		\"2048\": [0.45, 0.44, 0.46, 0.45, 0.44, 0.46, 0.45],
		\"2048+hints\": [0.30, 0.30, 0.30, 0.31, 0.30, 0.29, 0.30]}" &&
	export TKO_FAKE_HINTS TKO_FAKE_CONFIRM TKO_FAKE_CONFIRM_WARM &&
	tko tune --out w3 --json w3.json kdir >w3.out &&
	w=w3.json && c=".kernels[0].winner.confirmation" &&
	cfg=$(json_q $w "$c.vs_config_only.id") &&
	test "$(json_q $w "$c.winner")" = "$cfg" &&
	test "$(json_q $w "$c.warm.variant")" = "$cfg" &&
	expect_ci 1024 2048 TKO_FAKE_CONFIRM_WARM >want && got_ci $w "$c.warm" >got &&
	test_cmp want got &&
	test_grep "^warning: $cfg is slower than the base when its inputs are in L2" w3.out
'

test_expect_success 'warm: when the base stays, the candidate is the one timed warm' '
	unset TKO_FAKE_HINTS &&
	TKO_FAKE_CONFIRM="{\"1024\": [1.00, 1.05, 0.95, 1.02, 0.97, 1.04, 0.96],
		\"2048\": [0.99, 0.96, 1.03, 0.97, 1.02, 0.98, 1.01]}" &&
	TKO_FAKE_CONFIRM_WARM="{\"1024\": [0.50, 0.51, 0.49, 0.50, 0.52, 0.50, 0.48],
		\"2048\": [0.55, 0.54, 0.56, 0.55, 0.53, 0.56, 0.55]}" &&
	export TKO_FAKE_CONFIRM TKO_FAKE_CONFIRM_WARM &&
	tko tune --no-source --out w4 --json w4.json kdir >w4.out &&
	w=w4.json && c=".kernels[0].winner.confirmation" &&
	test "$(json_q $w ".kernels[0].winner.is_base")" = true &&
	test "$(json_q $w "$c.warm.variant")" = v001 &&
	expect_ci 1024 2048 TKO_FAKE_CONFIRM_WARM >want && got_ci $w "$c.warm" >got &&
	test_cmp want got
'

test_expect_success '--confirm-rounds 0: no confirmation, the sweep'"'"'s figure' '
	unset TKO_FAKE_CONFIRM_WARM &&
	tko tune --no-source --confirm-rounds 0 --out e --json e.json kdir >e.out &&
	test "$(json_q e.json ".kernels[0].winner.confirmation")" = null &&
	test "$(json_q e.json ".kernels[0].winner.speedup")" = 2 &&
	test "$(json_q e.json ".kernels[0].winner.confirmed")" = false &&
	! test_grep "^confirmation" e.out
'

test_expect_success 'a base that failed is no numerator: no confirmation, the failure said' '
	TKO_FAKE_BASE_FAIL=1 && export TKO_FAKE_BASE_FAIL &&
	test_expect_code 1 tko tune --no-source --out f --json f.json kdir >f.out 2>f.err &&
	test "$(json_q f.json ".kernels[0].variants[0].status")" = launch_error &&
	test "$(json_q f.json ".kernels[0].winner.label")" = XBLOCK=2048 &&
	test "$(json_q f.json ".kernels[0].winner.confirmation")" = null &&
	test_grep "the base variant of .* failed" f.err
'

test_expect_success '--confirm-rounds 1 is refused: an interval needs two rounds' '
	test_expect_code 2 tko tune --confirm-rounds 1 kdir 2>err &&
	test_one_line_error err &&
	test_grep "needs 2 rounds" err
'

test_done
