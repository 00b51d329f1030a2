#!/bin/sh
# tko apply --keep-off: the keep-off arms against the fake command
# (tests/cli/apply-fake/cmd.py writes the keep_off event tko's hook writes;
# tests/python/test_keep_off_torch.py shows the hook itself on a real torch).
# Step times, ratios and verdicts computed by hand in each test.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-apply.sh"

arm_q() {
	jq -r ".ab.arms[] | select(.arm == \"$1\") | $2" run/apply/apply.json
}

# One warm-up (99), two rounds: default 10, applied 9, keep-off 9.5 then 9.6.
# keep-off/default: .95, .96 -> median .955, 2 rounds: interval [.95, .96],
# wholly under 1: faster, the proposal confirmed. 7 calls a run (the fake's).
test_expect_success '--keep-off alone: arms default, applied, keep-off; the variable in keep-off runs only; faster' '
	fresh_run &&
	FAKE_LOG=$PWD/arms.log FAKE_MS="default=99,10;applied=99,9;keep-off=99,9.5,9.6" \
		tko apply --ab 2 --warmup 1 --keep-off mymodel:Block.attn --keep-off torch.nn.functional:gelu \
		run -- $FAKE >out.txt 2>err.txt &&
	fwd="default applied keep-off" && rev="keep-off applied default" &&
	echo $fwd $rev $fwd | tr " " "\n" >expect.log &&
	test_cmp expect.log arms.log &&
	for d in run/apply/runs/*; do
		case $d in
		*-keep-off) want="mymodel:Block.attn,torch.nn.functional:gelu" ;;
		*) want=unset ;;
		esac &&
		test_grep "^TKO_APPLY_KEEP_OFF=$want\$" $d/stdout.txt || return 1
	done &&
	near "$(arm_q keep-off .vs_default.median)" 0.955 1e-9 &&
	json_q run/apply/apply.json ".ab.arms[] | select(.arm == \"keep-off\") | .keep_off | .vs == \"default\" and .verdict == \"faster\" and .proposal == \"confirmed\" and .ratio.rounds == 2" &&
	near "$(arm_q keep-off .keep_off.ratio.ci95[0])" 0.95 1e-9 &&
	near "$(arm_q keep-off .keep_off.ratio.ci95[1])" 0.96 1e-9 &&
	json_q run/apply/apply.json ".ab.arms[] | select(.arm == \"keep-off\") | .keep_off.regions == [{\"region\": \"mymodel:Block.attn\", \"calls\": [7, 7]}, {\"region\": \"torch.nn.functional:gelu\", \"calls\": [7, 7]}]" &&
	json_q run/apply/apply.json "[.runs[] | select(.arm == \"keep-off\") | .keep_off[0].status] == [\"took_effect\", \"took_effect\", \"took_effect\"]" &&
	json_q run/apply/apply.json "[.ab.arms[] | select(.arm != \"keep-off\") | has(\"keep_off\")] == [false, false]" &&
	json_q run/apply/apply.json "[.runs[] | select(.arm != \"keep-off\") | has(\"keep_off\")] | unique == [false]" &&
	test_grep "^keep-off vs default: 0.9550 \[0.9500, 0.9600\], faster beyond noise: the proposal to keep TorchInductor off is confirmed .calls a run: mymodel:Block.attn 7 torch.nn.functional:gelu 7.$" out.txt
'

# keep-off 9.8, 10.3: ratios .98, 1.03, the interval holds 1: not faster.
# keep-off 10.5, 11: 1.05, 1.1, wholly over 1: slower. Both withdraw it.
test_expect_success 'not faster within the noise, and slower: the proposal withdrawn' '
	fresh_run &&
	FAKE_LOG=$PWD/a1.log FAKE_MS="default=99,10;applied=99,9;keep-off=99,9.8,10.3" \
		tko apply --ab 2 --keep-off m:f run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json ".ab.arms[] | select(.arm == \"keep-off\") | .keep_off | .verdict == \"not_faster\" and .proposal == \"withdrawn\"" &&
	test_grep "^keep-off vs default: 1.0050 \[0.9800, 1.0300\], not faster .within noise.: the proposal to keep TorchInductor off is withdrawn" out.txt &&
	fresh_run &&
	FAKE_LOG=$PWD/a2.log FAKE_MS="default=99,10;applied=99,9;keep-off=99,10.5,11" \
		tko apply --ab 2 --keep-off m:f run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json ".ab.arms[] | select(.arm == \"keep-off\") | .keep_off | .verdict == \"slower\" and .proposal == \"withdrawn\"" &&
	test_grep "^keep-off vs default: 1.0750 \[1.0500, 1.1000\], slower beyond noise" out.txt
'

# applied 9, applied+keep-off 8.1 then 8.55: against applied .9, .95: faster.
test_expect_success 'applied+keep-off is judged against applied' '
	fresh_run &&
	FAKE_LOG=$PWD/a3.log FAKE_MS="default=99,10;applied=99,9;applied+keep-off=99,8.1,8.55" \
		tko apply --ab 2 --arms default,applied,applied+keep-off --keep-off m:f run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json "[.runs[].arm] | unique == [\"applied\", \"applied+keep-off\", \"default\"]" &&
	json_q run/apply/apply.json ".ab.arms[] | select(.arm == \"applied+keep-off\") | .keep_off | .vs == \"applied\" and .verdict == \"faster\"" &&
	near "$(arm_q applied+keep-off .keep_off.ratio.median)" 0.925 1e-9 &&
	near "$(arm_q applied+keep-off .vs_default.median)" 0.8325 1e-9 &&
	test_grep "^applied\+keep-off vs applied: 0.9250 \[0.9000, 0.9500\], faster beyond noise" out.txt
'

test_expect_success 'a region that did not take effect stops the A/B at that run, one line naming it' '
	fresh_run &&
	rm -f a*.log && FAKE_LOG=$PWD/a4.log FAKE_KEEP_OFF_BAD=1:not_found test_expect_code 1 tko -q apply --ab 2 --keep-off m:Block.atn run -- $FAKE >out.txt 2>err.txt &&
	test_grep "^tko apply: keep-off region .m:Block.atn. not_found in arm keep-off: m:Block.atn: fake not_found; see run/apply/runs/3-keep-off/apply.jsonl$" err.txt &&
	test_line_count -eq 1 err.txt && test ! -e run/apply/apply.json &&
	test_grep "^TKO_APPLY_KEEP_OFF=m:Block.atn$" run/apply/runs/3-keep-off/stdout.txt &&
	test ! -e run/apply/runs/4-keep-off &&
	fresh_run &&
	FAKE_LOG=$PWD/a5.log FAKE_KEEP_OFF_BAD=2:never_called test_expect_code 1 tko -q apply --ab 2 --keep-off m:f run -- $FAKE >out.txt 2>err.txt &&
	test_grep "^tko apply: keep-off region .m:f. never_called in arm keep-off: m:f: fake never_called; see run/apply/runs/4-keep-off/apply.jsonl$" err.txt &&
	test_one_line_error err.txt &&
	fresh_run &&
	FAKE_KEEP_OFF_NONE=1 test_expect_code 1 tko -q apply --ab 2 --keep-off m:f run -- $FAKE >out.txt 2>err.txt &&
	test_grep "^tko apply: arm keep-off: no keep_off record in run/apply/runs/3-keep-off/apply.jsonl" err.txt &&
	test_one_line_error err.txt
'

test_expect_success 'usage: a malformed region, --keep-off without --ab or without its arm, the arm without --keep-off' '
	fresh_run &&
	for bad in mymodel Block.attn :f m: "m:a..b" "m:1f" "m-x:f" "m:f:g" "m:f "; do
		test_expect_code 2 tko apply --ab 2 --keep-off "$bad" run -- $FAKE 2>err.txt &&
		test_grep "^tko apply: --keep-off .$bad.: expected MODULE:QUALNAME .e.g. mymodel:Block.attn.$" err.txt &&
		test_line_count -eq 1 err.txt || return 1
	done &&
	test_expect_code 2 tko apply --keep-off m:f run -- $FAKE 2>err.txt &&
	test_grep "^tko apply: --keep-off is an arm of the A/B: give --ab N$" err.txt &&
	test_expect_code 2 tko apply --ab 2 --arms default,applied --keep-off m:f run -- $FAKE 2>err.txt &&
	test_grep "^tko apply: --keep-off needs arm keep-off or applied.keep-off in --arms$" err.txt &&
	test_expect_code 2 tko apply --ab 2 --arms default,applied,keep-off run -- $FAKE 2>err.txt &&
	test_grep "^tko apply: --arms keep-off and applied.keep-off need --keep-off MODULE:QUALNAME$" err.txt &&
	test_expect_code 2 tko apply --ab 2 --arms default,applied,keepoff --keep-off m:f run -- $FAKE 2>err.txt &&
	test_grep "unknown arm .keepoff. .arms: .*, keep-off, applied.keep-off.$" err.txt &&
	test ! -e run/apply/runs &&
	tko apply --help >help.txt && test_grep "^ *--keep-off MODULE:QUALNAME" help.txt
'

# A model file and a hand-made analysis (the keys of docs/json.md, "tko
# investigate") whose keep_off kernels point into it. The qualified names,
# by hand from the file: line 12 is in Block.attn (after a decorator, a
# docstring mentioning "def", and a call spread over lines), line 16 in a
# function nested in forward (no attribute path), line 21 in the module's
# function loss; a second kernel at line 12 is the same region.
test_expect_success 'the RUN proposes keeping TorchInductor off a region: the --keep-off to try, then in_ab' '
	fresh_run && mkdir run/analysis &&
	cat >mymodel.py <<-\EOF &&
	import torch


	class Block(torch.nn.Module):
	    @torch.no_grad()
	    def attn(self, x):
	        """not a def scope:
	    def fake(self):
	        """
	        y = torch.softmax(
	    x, -1)
	        return y @ x

	    def forward(self, x):
	        def inner(z):
	            return z * 2
	        return inner(self.attn(x))


	def loss(a, b):
	    return torch.nn.functional.cross_entropy(a, b)
	EOF
	m=$PWD/mymodel.py &&
	cat >run/analysis/kernels.json <<-EOF &&
	{"schema_version": 2, "kernels": [
	 {"id": "k1", "name": "k1", "share": 0.5, "decision": "keep_off", "rules": [{"rule": "flat_configs", "decision": "keep_off"}],
	  "origins": [{"file": "$m", "line": 12, "function": "attn"}]},
	 {"id": "k2", "name": "k2", "share": 0.2, "decision": "keep_off", "rules": [{"rule": "scalarised_gemm", "decision": "keep_off"}],
	  "origins": [{"file": "$m", "line": 16, "function": "inner"}]},
	 {"id": "k3", "name": "k3", "share": 0.1, "decision": "keep_off", "rules": [{"rule": "flat_configs", "decision": "keep_off"}],
	  "origins": [{"file": "$m", "line": 21, "function": "loss"}]},
	 {"id": "k4", "name": "k4", "share": 0.05, "decision": "keep_off", "rules": [{"rule": "flat_configs", "decision": "keep_off"}],
	  "origins": [{"file": "$m", "line": 12, "function": "attn"}]},
	 {"id": "k5", "name": "k5", "share": 0.05, "decision": "tune", "rules": [{"rule": "flat_configs", "decision": "keep_off"}],
	  "origins": [{"file": "$m", "line": 21, "function": "loss"}]}]}
	EOF
	tko apply run >out.txt 2>err.txt &&
	json_q run/apply/apply.json "[.recommended_arms[] | [.arm, .rule, .kernel, .where, .keep_off, .in_ab]] == [[\"keep-off\", \"flat_configs\", \"k1\", \"$m:12 in attn\", \"mymodel:Block.attn\", false], [\"keep-off\", \"scalarised_gemm\", \"k2\", \"$m:16 in inner\", null, false], [\"keep-off\", \"flat_configs\", \"k3\", \"$m:21 in loss\", \"mymodel:loss\", false]]" &&
	test_grep "^the RUN.s analysis proposes keeping TorchInductor off $m:12 in attn .flat_configs on k1, 50.0% of the kernel time.: try --ab N --keep-off mymodel:Block.attn .arm keep-off.$" out.txt &&
	test_grep "off $m:16 in inner .*: try --ab N --keep-off MODULE:QUALNAME naming the function or method around that line" out.txt &&
	FAKE_LOG=$PWD/a6.log tko apply --ab 2 --keep-off mymodel:Block.attn run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json "[.recommended_arms[] | .in_ab] == [true, true, false]" &&
	test_grep "off $m:12 in attn .*: the keep-off verdict above confirms or withdraws it$" out.txt &&
	test_grep "off $m:21 in loss .*: try --ab N --keep-off mymodel:loss .arm keep-off.$" out.txt
'

# The region in the script the command itself runs: there it is __main__,
# whatever the file is called (train-1.py, no module name: by hand, line 6
# is in Block.attn). The script ends by running the fake command.
test_expect_success 'a region in the command.s own script is __main__:QUALNAME' '
	fresh_run && mkdir run/analysis &&
	cat >train-1.py <<-EOF &&
	import runpy


	class Block:
	    def attn(self, x):
	        return x


	runpy.run_path("$SRC_ROOT/tests/cli/apply-fake/cmd.py", run_name="__main__")
	EOF
	m=$PWD/train-1.py &&
	cat >run/analysis/kernels.json <<-EOF &&
	{"schema_version": 2, "kernels": [
	 {"id": "k1", "name": "k1", "share": 0.5, "decision": "keep_off", "rules": [{"rule": "flat_configs", "decision": "keep_off"}],
	  "origins": [{"file": "$m", "line": 6, "function": "attn"}]}]}
	EOF
	tko apply run -- python3 -S train-1.py >out.txt 2>err.txt &&
	json_q run/apply/apply.json "[.recommended_arms[] | [.where, .keep_off]] == [[\"$m:6 in attn\", \"__main__:Block.attn\"]]" &&
	test_grep "off $m:6 in attn .*: try --ab N --keep-off __main__:Block.attn .arm keep-off.$" out.txt &&
	tko apply run -- $FAKE >out.txt 2>err.txt &&
	json_q run/apply/apply.json "[.recommended_arms[] | .keep_off] == [null]"
'

test_done
