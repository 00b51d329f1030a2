#!/bin/sh
# tko run and the report print the same bytes and rate for the same kernel
# and config (issue 17: 54769 GB/s from tko run, 5 GB/s from investigate).
# The RUN is examples/h200-run; a stand-in tko.replay returns, per kernel
# directory, the configs and times the H200 replay recorded in that RUN's
# analysis/replay.json, so `tko run` computes its figures from real
# captures and times; `tko investigate` then reads what `tko run` kept.
# The expected relation is equality; the bytes themselves are checked
# against hand counts in tests/unit/test-traffic.c and t5010.
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run
export TKO_PYTHONPATH="$TRASH/pkg"
export TKO_PYTHON="${TKO_TEST_PYTHON:-python3}"

test_expect_success_if python3 'a copy of the example RUN and a replay that returns its recorded times' '
	cp -R "$EXAMPLE" run && cp run/analysis/replay.json recorded.json &&
	mkdir -p pkg/tko && : >pkg/tko/__init__.py &&
	cat >pkg/tko/replay.py <<-\EOF
	import json, os, sys
	argv = sys.argv[1:]
	out = argv[argv.index("--json") + 1]
	dirs = argv[:argv.index("--json")]
	rec = json.load(open(os.environ["RECORDED"]))
	by_dir = {k["kernel_dir"].split("/")[-1]: k for k in rec["kernels"]}
	keep = ("index", "captured", "config", "time_ms", "min_ms", "recorded_time_ms",
	        "autotuner_method_ms", "outputs_match", "outputs_exact", "error")
	kernels = []
	for d in dirs:
	    k = by_dir[os.path.basename(d.rstrip("/"))]
	    kernels.append({"kernel_dir": d, "kernel": k["kernel"], "error": k["error"],
	                    "configs": [{f: c.get(f) for f in keep} for c in k["configs"]]})
	json.dump({"schema_version": 1, "tool": "tko.replay", "versions": {"device": "recorded"},
	           "error": None, "kernels": kernels}, open(out, "w"))
	EOF
'
export RECORDED="$TRASH/recorded.json"

test_expect_success_if python3 'tko run keeps its figures in the RUN, then investigate reads them' '
	rm run/analysis/replay.json &&
	tko run run/capture/kernels/* >table &&
	test_grep "^kept in .*/run/analysis/replay.json$" table &&
	tko -q investigate run >/dev/null &&
	test -s run/report/report.json
'

# Per kernel the model ran: tko run's captured config against the report (jq prints
# 10 significant digits, hence the relative 1e-9).
test_expect_success_if python3 'bytes, GB/s and the fraction of copy agree, kernel by kernel' '
	jq -r ".kernels[] | (.kernel_dir | split(\"/\") | last) as \$d | .bytes as \$b | .configs[] | select(.captured) | \"\(\$d) \(\$b) \(.gbps) \(.copy_fraction) \(.rate_doubt)\"" \
		run/analysis/replay.json >run-figures &&
	matched=0 &&
	while read -r dir bytes gbps frac doubt; do
		jq -e ".kernels[] | select(.kernel_dir != null and (.kernel_dir | endswith(\"$dir\")) and .time_basis == \"replay\")" \
			run/report/report.json >/dev/null || continue
		json_q run/report/report.json ".kernels[] | select(.kernel_dir | endswith(\"$dir\")) | .bytes == $bytes and ((.gbps - $gbps) | fabs) < 1e-9 * $gbps" || exit 1
		if test "$doubt" = null; then
			json_q run/report/report.json ".kernels[] | select(.kernel_dir | endswith(\"$dir\")) | ((.peak_fraction - $frac) | fabs) < 1e-9 * $frac and .rate_doubt == null" || exit 1
		fi
		matched=$((matched + 1))
	done <run-figures &&
	echo "$matched kernels compared" &&
	test "$matched" -eq 7
'

# The printed tables: the GB/s column of tko run's captured row (cfg "N*")
# is the report's; "est." must be on both or neither.
test_expect_success_if python3 'the printed GB/s of tko run and of report.md are the same number' '
	sed -n "s/^| [0-9]* | \[\([a-z_0-9]*\)\].* | replay | \([0-9]*\)\( est.\)\{0,1\} | .*/\1 \2\3/p" run/report/report.md >report-rates &&
	awk "/^[^ ]/ { cur = \$1 } { star = 0; for (i = 1; i <= NF; i++) { if (\$i ~ /^[0-9]+[*]\$/) star = 1; if (star && \$i ~ /%\$/) { print cur, (\$(i - 1) == \"est.\" ? \$(i - 2) \" est.\" : \$(i - 1)); break } } }" \
		table >run-rates &&
	test_line_count -ge 7 report-rates &&
	while read -r name rate; do
		grep -x "$name $rate" run-rates || exit 1
	done <report-rates
'

# Against a 1000 GB/s copy rate (--peak-gbps), hand-checked: scale_add_kernel's
# 201.3 MB at 3837 GB/s is over 1050 and dense (a cause other than a bound);
# the embedding layer norm's 2599 GB/s rests on a gather's bound; the zeros
# kernel's 1006 GB/s is under 1050: a fact, 100.6%.
test_expect_success_if python3 'the report flags a rate over 105% of copy with its cause, in every output' '
	tko investigate --out-dir low --peak-gbps 1000 run >summary 2>/dev/null &&
	test_grep "^scale_add_kernel: 3837 GB/s is over 105% of the 1000 GB/s copy rate, not a fact: bytes over-counted" summary &&
	test_grep "^ +[0-9]+ +scale_add_kernel .* \(3837\) +over copy " summary &&
	json_q low/report/report.json ".kernels[] | select(.name == \"scale_add_kernel\") | .peak_fraction == null and (.rate_doubt | startswith(\"bytes over-counted: an argument spans more\"))" &&
	json_q low/report/report.json ".kernels[] | select(.name == \"triton_red_fused_embedding_native_layer_norm_0\") | .rate_doubt == \"bytes over-counted: a gather\u0027s or scatter\u0027s bound\"" &&
	json_q low/report/report.json ".kernels[] | select(.name == \"triton_poi_fused_zeros_0\") | .rate_doubt == null and ((.peak_fraction - 1.00629) | fabs) < 1e-4" &&
	test_grep "^\| [0-9]+ \| \[scale_add_kernel\].* \| \(3837\) \| over copy \|" low/report/report.md &&
	test_grep "Rate: \(3837\) GB/s \(bytes / time per launch\), over 105% of the measured 1000 GB/s copy rate, so not a fact: bytes over-counted" low/report/report.md &&
	test_grep "over copy: bytes over-counted" low/report/report.html &&
	grep -o "[0-9.]*% of the measured" low/report/report.md >pcts &&
	awk "{ if (\$1 + 0 > 105) bad = 1 } END { exit bad }" pcts &&
	awk -F"|" "/^\| [0-9]/ && \$10 ~ /%/ { if (\$10 + 0 > 105) bad = 1 } END { exit bad }" low/report/report.md
'

# tko tune's num_gb for the same kernel directories (compile-only: the
# count needs no GPU) is the same figure: run, report and tune agree.
test_expect_success 'tko tune counts the same bytes for the same kernels' '
	jq -r ".kernels[] | \"\(.kernel_dir) \(.bytes)\"" run/analysis/replay.json >run-bytes &&
	n=0 &&
	while read -r dir bytes; do
		case "$dir" in *triton_mm-*|*triton_-*) continue ;; esac
		# a variant that fails to compile here exits 1; the document is written anyway
		rm -f t.json &&
		TKO_PYTHON="$SRC_ROOT/.venv/bin/python" tko tune --compile-only --target sm_90 --no-search \
			--max-variants 1 --out tout --json t.json "run/$dir" >/dev/null 2>&1
		test -s t.json || exit 1
		json_q t.json ".kernels[0].num_gb * 1e9 | round == ($bytes | round)" || exit 1
		n=$((n + 1))
	done <run-bytes &&
	test "$n" -eq 7
'

test_done
