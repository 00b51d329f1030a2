#!/bin/sh
# tko summarize's outputs and options: --help, usage errors, --kernel,
# --json and --md to files and to stdout, Markdown tables.
# Test bodies are single-quoted and run by eval in lib.sh, as in git's t/:
# their $variables expand then, and variables set here are used there.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

LOG=$CORPUS/h200-run1/log_profile.txt

test_expect_success '--help comes from the option table' '
	tko summarize --help >out &&
	test_grep "^usage: tko summarize \[--kernel NAME\] \[--json FILE\] \[--md FILE\] LOG\|RUN\.\.\.$" out &&
	test_grep "^ +--json FILE +write JSON to FILE" out &&
	tko help summarize >out2 &&
	test_cmp out out2 &&
	tko --help >list &&
	test_grep "^ +summarize " list
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 tko summarize 2>err &&
	test_one_line_error err &&
	test_expect_code 2 tko summarize --bogus "$LOG" 2>err &&
	test_grep "unknown option" err &&
	test_expect_code 2 tko summarize "$LOG" --json - --md - 2>err &&
	test_one_line_error err
'

test_expect_success '--json - writes only JSON to stdout' '
	tko summarize "$LOG" --json - >out.json &&
	json_q out.json ".kernels | length > 40"
'

test_expect_success 'the JSON has the keys docs/json.md promises' '
	json_q out.json "keys_unsorted == [\"schema_version\", \"tool\", \"device\", \"inputs\", \"totals\", \"kernels\", \"errors\"]" &&
	json_q out.json ".inputs[0] | keys == ([\"path\", \"format\", \"formats\", \"bytes\", \"lines\", \"used\", \"ignored\", \"malformed\", \"malformed_lines\", \"truncated\", \"unknown_events\", \"unknown_fields\", \"note\"] | sort)" &&
	json_q out.json ".totals | keys == ([\"kernels\", \"tunings\", \"configs_timed\", \"lines_used\", \"lines_ignored\", \"lines_malformed\"] | sort)" &&
	json_q out.json "[.kernels[] | keys] | unique == [[\"best\", \"chosen_by\", \"compile_id\", \"configs_timed\", \"declared\", \"errors\", \"from\", \"id\", \"instance\", \"kernel_dir\", \"kind\", \"launch\", \"launch_signatures\", \"launches\", \"name\", \"num_configs\", \"source_file\", \"source_hash\", \"source_local\", \"tunings\"]]" &&
	json_q out.json "[.kernels[].tunings[] | keys] | unique == [[\"best_index\", \"cache_file\", \"complete\", \"configs\", \"elapsed_ms\", \"from\", \"key\", \"method\", \"num_choices\", \"precompile_ms\", \"saved_to\", \"speedup\"]]" &&
	json_q out.json "[.kernels[].tunings[].configs[], .kernels[].declared[] | keys] | unique == [[\"cache_hash\", \"error\", \"failed\", \"from\", \"kwargs\", \"label\", \"maxnreg\", \"n_regs\", \"n_spills\", \"num_ctas\", \"num_stages\", \"num_warps\", \"pct_of_best\", \"shared_bytes\", \"text\", \"time_ms\"]]" &&
	json_q out.json "[.kernels[].tunings[].configs[].from | keys] | unique == [[\"file\", \"format\", \"line\"]]" &&
	json_q out.json "[.. | .format? // empty | strings] - [\"capture_events\", \"inductor_log\", \"max_autotune\", \"triton_print\", \"seed_log\", \"best_config\", \"inductor_output_code\", \"kernel_name\"] == []"
'

test_expect_success '--md writes Markdown tables, and the terminal table still prints' '
	tko summarize "$LOG" --md out.md >table.txt &&
	test_grep "^# tko summarize$" out.md &&
	test_grep "^\| kernel \| kind \| configs \| timed \| best config \| best ms \| regs \| spills \| shared \| chosen by \| launches \|$" out.md &&
	test_grep "^\| --- \| --- \| ---: \| ---: \| --- \| ---: " out.md &&
	test_grep "^\| triton_poi_fused_zeros_0 \| pointwise \| 2 \| 2 \| XBLOCK=512 w8 s1 \| 0.011456 \| 6 \| 0 \| 0 \| benchmark \| - \|$" out.md &&
	test_grep "^## triton_poi_fused_relu_1$" out.md &&
	test_grep "^## Inputs$" out.md &&
	test_grep "^kernel +kind +configs" table.txt
'

test_expect_success 'every Markdown table row has as many cells as its header' '
	awk "/^\| --- / { want = gsub(/\|/, \"|\"); inside = 1; next }
	     /^\|/ && inside { if (gsub(/\|/, \"|\") - gsub(/\\\\\|/, \"\") != want) bad++ }
	     !/^\|/ { inside = 0 }
	     END { exit bad }" out.md
'

test_expect_success '--md - and --json FILE together' '
	tko summarize "$LOG" --md - --json both.json >out.md &&
	test_grep "^# tko summarize$" out.md &&
	test_grep -v "^kernel +kind" out.md &&
	json_q both.json ".schema_version == 1"
'

test_expect_success '--kernel shows one kernel in detail and limits the JSON to it' '
	tko summarize "$LOG" --kernel triton_poi_fused_index_add_zeros_1 --json k.json >detail &&
	test_grep "^kernel: triton_poi_fused_index_add_zeros_1$" detail &&
	test_grep "^tuning 1: benchmark " detail &&
	test_grep "^\* +XBLOCK=32 YBLOCK=32 w4 s1 +0.130176 " detail &&
	json_q k.json ".kernels | length == 1" &&
	json_q k.json ".kernels[0].tunings[0].configs | length == 6"
'

test_expect_success '--kernel NAME#N picks one instance; a shared name lists them' '
	tko summarize "$LOG" --kernel "triton_#2" >detail &&
	test_grep "^kernel: triton_#2$" detail &&
	test_expect_code 4 tko summarize "$LOG" --kernel triton_ >out 2>err &&
	test_line_count = 0 out &&
	test_grep "^tko summarize: --kernel .triton_. matches 2 kernels" err &&
	test_grep "^  triton_#1$" err &&
	test_grep "^  triton_#2$" err
'

test_expect_success '--kernel with no such kernel exits 4 and suggests near names' '
	test_expect_code 4 tko summarize "$LOG" --kernel relu --json none.json >out 2>err &&
	test_grep "^tko summarize: no kernel named .relu." err &&
	test_grep "^  triton_poi_fused_relu_1$" err &&
	test ! -e none.json
'

test_expect_success 'several inputs are one model' '
	head -n 3000 "$LOG" >a.log &&
	tail -n +3001 "$LOG" >b.log &&
	tko summarize a.log b.log --json two.json >/dev/null &&
	json_q two.json ".inputs | map(.path) == [\"a.log\", \"b.log\"]" &&
	json_q two.json "[.kernels[] | select(.chosen_by == \"benchmark\")] | length" >a &&
	tko summarize "$LOG" --json one.json >/dev/null &&
	json_q one.json "[.kernels[] | select(.chosen_by == \"benchmark\")] | length" >b &&
	test_cmp a b
'

test_done
