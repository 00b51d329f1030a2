#!/bin/sh
# The twopass source variant: the cross-entropy forward torch 2.11 generated
# on the H200 (an online softmax over 32000 bf16 logits, tests/data/tune/
# online_softmax.py) made two passes over the row. It is planned right after
# the base, it compiles for sm_90 and gfx942 with the installed Triton, and
# the ISA changes as the rewrite predicts: the row is loaded in two loops
# instead of one and fewer exps are issued (two per element in the online
# form, one in the second pass), counted by grep in the PTX and AMDGCN
# Triton wrote. A kernel the rewrite does not fit gets no such variant. On
# the fake GPU a winning twopass is said to be Inductor's online_softmax
# setting. Triton compiles the kernel's triton_helpers calls from a
# stand-in torch (tests/data/tune/torch_helpers): no torch is installed.
# Test bodies are single-quoted on purpose: test_expect_success evals them;
# the fake's JSON settings are quoted strings on purpose (SC2089, SC2090).
# shellcheck disable=SC2016,SC2089,SC2090
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

DATA="$TESTS_DIR/../data/tune"
SOFTMAX="$DATA/online_softmax.py"
PYTHONPATH="$DATA/torch_helpers${PYTHONPATH:+:$PYTHONPATH}"
export DATA SOFTMAX PYTHONPATH

test_expect_success 'sm_90: twopass right after the base, two loops, fewer exps' '
	tko tune --compile-only --target sm_90 --no-search --max-variants 2 \
		--out out --json n.json "$SOFTMAX" >table &&
	test "$(json_q n.json "[.kernels[0].variants[].label] | join(\",\")")" = base,+twopass &&
	test "$(json_q n.json "[.kernels[0].variants[].status] | unique | join(\",\")")" = compiled &&
	dir=$(json_q n.json ".kernels[0].out_dir") &&
	test "$(count "^ +for r0_offset in " "$dir/variants/000/kernel.py")" = 1 &&
	test "$(count "^ +for r0_offset in " "$dir/variants/001/kernel.py")" = 2 &&
	test "$(count "online_softmax_(combine|reduce)" "$dir/variants/001/kernel.py")" = 0 &&
	base=$(json_q n.json ".kernels[0].variants[0].files.ptx") &&
	two=$(json_q n.json ".kernels[0].variants[1].files.ptx") &&
	test "$(count "ld\.global" "$two")" -eq $(($(count "ld\.global" "$base") * 2)) &&
	test "$(count "ex2\.approx" "$two")" -lt "$(count "ex2\.approx" "$base")" &&
	test "$(count "ex2\.approx" "$two")" -gt 0
'

test_expect_success 'the kernel after the softmax is left as it was' '
	dir=$(json_q n.json ".kernels[0].out_dir") &&
	n=$(wc -l <"$SOFTMAX") &&
	tail -n +"$(grep -n "^    tl.store(out_ptr0" "$SOFTMAX" | cut -d: -f1)" "$SOFTMAX" >after.want &&
	grep -n "^    tl.store(out_ptr0" "$dir/variants/001/kernel.py" >at &&
	tail -n +"$(cut -d: -f1 at)" "$dir/variants/001/kernel.py" >after.got &&
	test_cmp after.want after.got &&
	test "$(wc -l <"$dir/variants/001/kernel.py")" -gt "$n"
'

test_expect_success 'gfx942: more global loads, fewer v_exp_f32' '
	tko tune --compile-only --target gfx942 --no-search --max-variants 2 \
		--out out --json a.json "$SOFTMAX" >table &&
	test "$(json_q a.json ".kernels[0].variants[1].label")" = +twopass &&
	base=$(json_q a.json ".kernels[0].variants[0].files.amdgcn") &&
	two=$(json_q a.json ".kernels[0].variants[1].files.amdgcn") &&
	test "$(count "^\s+global_load" "$two")" -gt "$(count "^\s+global_load" "$base")" &&
	test "$(count "^\s+v_exp_f32" "$two")" -lt "$(count "^\s+v_exp_f32" "$base")"
'

test_expect_success 'no twopass where the loop also stores (its body would run twice)' '
	sed "s/^        tmp2 = tl.broadcast_to(tmp1, \[XBLOCK, R0_BLOCK\])$/&\n        tl.store(in_out_ptr0 + (x0 + 0 * r0_1), tmp1, r0_mask)/" \
		"$SOFTMAX" >stores.py &&
	test "$(count "tl.store" stores.py)" = 3 &&
	tko tune --compile-only --target sm_90 --no-search --max-variants 3 \
		--out out3 --json s.json stores.py >table3 &&
	test "$(json_q s.json "[.kernels[0].variants[].label | select(test(\"twopass\"))] | length")" = 0
'

test_expect_success 'fake GPU: a winning twopass is applied as Inductor'"'"'s online_softmax = False' '
	use_fake_gpu &&
	mkdir -p kdir/inputs &&
	cp "$SOFTMAX" kdir/kernel.py &&
	cp "$DATA/online_softmax.capture.json" kdir/capture.json &&
	tko tune --out g --json g.json --max-variants 6 kdir >gtable 2>gerr &&
	test "$(json_q g.json ".kernels[0].winner.label")" = +twopass &&
	test "$(json_q g.json ".kernels[0].winner.inductor_settings.online_softmax")" = false &&
	dir=$(json_q g.json ".kernels[0].out_dir") &&
	test "$(json_q "$dir/winner/config.json" ".inductor_settings.online_softmax")" = false &&
	test_grep "torch._inductor.config.online_softmax = False" gtable &&
	test "$(count "^ +for r0_offset in " "$dir/winner/kernel.py")" = 2
'

# The config-only track (src/tune/plan.h) on the fake GPU. Its timing model
# ($TKO_FAKE_R0, tests/cli/tune-fake): the base takes 1.5 ms, the two-pass
# form 0.6 of that, R0_BLOCK 4096 and 8192 take 0.8 and 0.7 of the two-pass
# time but 1.05 and 1.1 of the online form's, R0_BLOCK 1024 and 512 0.85
# and 0.8 of the online form's. By hand: the best is R0_BLOCK=8192
# +twopass (0.63 ms); its config alone is slower than the base (1.65 ms, as
# on the H200: 0.951x), and the fastest config-only variant is R0_BLOCK=512
# (1.2 ms), two halvings from the base, which only a descent from the base
# without +twopass reaches. The confirmation's rounds are the test's
# ($TKO_FAKE_CONFIRM, keyed XBLOCK/R0_BLOCK), the interval worked out here
# with Python's statistics module and the t table's 2.447 (6 degrees of
# freedom), as t4011 does.
cat >ci.py <<'PY'
import json, math, os, statistics, sys
t = json.loads(os.environ["TKO_FAKE_CONFIRM"])
logs = [math.log(a / b) for a, b in zip(t[sys.argv[1]], t[sys.argv[2]])]
m, s = statistics.mean(logs), statistics.stdev(logs)
half = 2.447 * s / math.sqrt(len(logs))
print("%.9f %.9f %.9f" % (math.exp(m), math.exp(m - half), math.exp(m + half)))
PY
TKO_FAKE_R0='{"4096+twopass": 0.8, "8192+twopass": 0.7, "4096": 1.05, "8192": 1.1, "1024": 0.85, "512": 0.8}'
TKO_FAKE_CONFIRM='{"1/2048": [1.50, 1.52, 1.48, 1.51, 1.49, 1.53, 1.47],
	"1/8192+twopass": [0.63, 0.64, 0.62, 0.63, 0.63, 0.64, 0.62],
	"1/512": [1.20, 1.19, 1.21, 1.22, 1.18, 1.20, 1.21]}'
export TKO_FAKE_R0 TKO_FAKE_CONFIRM

test_expect_success 'fake GPU: twopass wins, and the config-only track finds R0_BLOCK=512' '
	use_fake_gpu &&
	k=run/capture/kernels/sm-1 &&
	mkdir -p $k/inputs &&
	cp "$SOFTMAX" $k/kernel.py &&
	cp "$DATA/online_softmax.capture.json" $k/capture.json &&
	tko tune --json t.json $k >ttable 2>terr &&
	w=".kernels[0].winner" &&
	test "$(json_q t.json "$w.label")" = "R0_BLOCK=8192 +twopass" &&
	test "$(json_q t.json "$w.confirmed")" = true &&
	test "$(json_q t.json "$w.config_only.label")" = R0_BLOCK=512 &&
	id=$(json_q t.json "$w.config_only.id") &&
	test "$(json_q t.json ".kernels[0].variants[] | select(.id == \"$id\") |
		[.config.kwargs.R0_BLOCK, (.source_variants | length), .time_ms] | map(tostring) | join(\" \")")" = "512 0 1.2" &&
	test "$(json_q t.json ".kernels[0].variants[] | select(.label == \"R0_BLOCK=8192\") | .speedup < 1")" = true &&
	"$TKO_PYTHON" ci.py 1/2048 1/512 >want &&
	json_q t.json "$w.config_only | [.speedup, .ci95[0], .ci95[1]] | @tsv" |
		awk -F "\t" "{ printf \"%.9f %.9f %.9f\n\", \$1, \$2, \$3 }" >got &&
	test_cmp want got &&
	read -r ratio lo hi <want && awk "BEGIN { exit !($lo > 1) }" &&
	test "$(json_q t.json "$w.config_only.confirmed")" = true &&
	test "$(json_q t.json "$w.config_only | has(\"inductor_settings\")")" = false &&
	test "$(json_q t.json "$w.confirmation.vs_config_only.id")" = "$id"
'

test_expect_success 'tko apply plans the config-only variant without --source-variants' '
	tko apply run >aout 2>aerr &&
	p=run/apply/plan.json &&
	test "$(json_q $p ".kernels | length")" = 1 &&
	test "$(json_q $p ".kernels[0] | [.config.kwargs.R0_BLOCK, .config.kwargs.XBLOCK, .config.num_warps, .fallback] | map(tostring) | join(\" \")")" = "512 1 16 config_only" &&
	test "$(json_q $p ".kernels[0] | has(\"source\") or has(\"inductor_settings\")")" = false &&
	test "$(json_q $p ".inductor_settings")" = "{}" &&
	test "$(json_q $p ".kernels[0].predicted.speedup == $(json_q t.json ".kernels[0].winner.config_only.speedup")")" = true &&
	test "$(json_q $p ".kernels[0].predicted.time_ms")" = 1.2 &&
	test_grep "not_run \(config-only\)" aout
'

test_expect_success 'with --source-variants the two-pass winner itself' '
	tko apply --source-variants run >sout 2>serr &&
	p=run/apply/plan.json &&
	test "$(json_q $p ".kernels[0] | [.config.kwargs.R0_BLOCK, has(\"fallback\")] | map(tostring) | join(\" \")")" = "8192 false" &&
	test "$(json_q $p ".kernels[0].inductor_settings.online_softmax")" = false &&
	json_q $p ".kernels[0].source.path | endswith(\"/winner/kernel.py\")"
'

test_done
