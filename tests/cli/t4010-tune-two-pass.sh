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
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
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

test_done
