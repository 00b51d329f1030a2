#!/bin/sh
# tko summarize on a RUN directory: corpus/h200-run1 holds the log at its
# top and the Inductor cache (kernel modules, output modules, .best_config
# records). Expected values come from the cache files themselves (jq, awk)
# and from the log's own "Save ... tuning result to" lines.
# Test bodies are single-quoted and run by eval in lib.sh, as in git's t/:
# their $variables expand then, and variables set here are used there.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

RUN=$CORPUS/h200-run1
LOG=$RUN/log_profile.txt

test_expect_success 'the RUN is summarised' '
	tko summarize "$RUN" --json out.json >table.txt &&
	json_q out.json ".inputs[0].path | endswith(\"log_profile.txt\")"
'

test_expect_success 'every .best_config record is read and tied to a kernel' '
	find "$RUN/cache" -name "*.best_config" | sort >files &&
	n=$(wc -l <files) &&
	test "$n" -eq 8 &&
	json_q out.json "[.inputs[] | select(.format == \"best_config\")] | length == $n" &&
	json_q out.json "[.inputs[] | select(.format == \"best_config\" and .note != null)] | length == 0"
'

test_expect_success 'each record belongs to the kernel whose tuning the log says it saved' '
	awk "/Best config for / { s = \$0; sub(/.*Best config for /, \"\", s); sub(/: .*/, \"\", s); k = s }
	     /: Improve from / { s = \$0; sub(/: Improve from .*/, \"\", s); sub(/.*\] /, \"\", s); k = s }
	     / tuning result to / { p = \$NF; n = split(p, c, \"/\"); print c[n - 1] \"/\" c[n], k }" "$LOG" |
		sort -u >expect &&
	json_q out.json ".kernels[] | .name as \$n | .tunings[] | select(.cache_file != null)
		| \"\(.cache_file | split(\"/\") | .[-2:] | join(\"/\")) \(\$n)\"" | sort -u >actual &&
	test_cmp expect actual
'

test_expect_success 'the config each record holds is the one its tuning chose' '
	while read -r f; do
		jq -c "{XBLOCK, num_warps, num_stages}" "$f" || return 1
	done <files >expect &&
	json_q out.json "[.kernels[].tunings[] | select(.cache_file != null)]
		| sort_by(.cache_file | split(\"/\") | .[-2:] | join(\"/\"))[]
		| .configs[.best_index] | {XBLOCK: .kwargs.XBLOCK, num_warps, num_stages} | tojson" >actual &&
	sed "s|.*/cache/inductor/||" files >order &&
	sort -c order &&
	test_cmp expect actual
'

test_expect_success 'a record names the Triton cache directory of the chosen binary' '
	jq -r .triton_cache_hash "$RUN/cache/inductor/sd/2a4837ff67c37f56ed59f67dd6bf2bed2e954ae61073ed10b227d9ed65efb26b.best_config" >expect &&
	json_q out.json ".kernels[] | select(.name == \"triton_poi_fused_add_mul_sigmoid_sub_0\") | .best.cache_hash" >actual &&
	test_cmp expect actual &&
	test -d "$RUN/cache/triton/$(cat actual)"
'

test_expect_success 'kernel source files come from the output modules the log names' '
	sed -n "s|.*Output code written to: .*/\([^/]*/[^/]*\.py\)$|\1|p" "$LOG" >modules &&
	test_line_count = 5 modules &&
	while read -r m; do
		awk "/^# kernel path: / { p = \$4 }
		     /^[A-Za-z_0-9]+ = async_compile.triton\(/ { if (p != \"\") print \$1, p; p = \"\" }" \
			"$RUN/cache/inductor/$m" || return 1
	done <modules | sort -u >expect &&
	json_q out.json ".kernels[] | select(.from.source_file.format == \"inductor_output_code\")
		| \"\(.name) \(.source_file)\"" | sort -u >actual &&
	test_cmp expect actual
'

test_expect_success 'every source file found is a readable file of the RUN' '
	json_q out.json ".kernels[] | select(.source_local != null) | .source_local" >local &&
	test "$(wc -l <local)" -ge 19 &&
	while read -r f; do test -f "$f" || return 1; done <local
'

test_expect_success 'a log inside the RUN finds the same cache as the RUN itself' '
	tko summarize "$LOG" --json log.json >/dev/null &&
	json_q out.json "[.kernels[] | select(.source_local != null)] | length" >a &&
	json_q log.json "[.kernels[] | select(.source_local != null)] | length" >b &&
	test_cmp a b
'

test_expect_success 'a RUN laid out as docs/design.md says: log/, capture/, cache/' '
	mkdir -p run/log run/capture run/cache &&
	cp "$LOG" run/log/model.log &&
	cp -R "$RUN/cache/inductor" run/cache/inductor &&
	cp -R "$RUN/cache/triton" run/cache/triton &&
	printf "{\"schema_version\": 1, \"event\": \"session_end\", \"launch_counts\": {\"triton_poi_fused_relu_1\": 3}}\n" \
		>run/capture/events.jsonl &&
	tko summarize run --json run.json >/dev/null &&
	json_q run.json ".inputs[0].path == \"run/capture/events.jsonl\" and .inputs[1].path == \"run/log/model.log\"" &&
	json_q run.json "[.inputs[] | select(.format == \"best_config\")] | length == 8" &&
	json_q run.json ".kernels[] | select(.id == \"triton_poi_fused_relu_1\") | .launches == 3 and .from.launches.line == 1" &&
	json_q run.json "[.kernels[] | select(.source_local != null)] | length" >c &&
	test_cmp a c
'

test_done
