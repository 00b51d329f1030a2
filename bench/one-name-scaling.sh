#!/bin/sh
# How tko's time grows with the number of kernels that share one name in
# capture/events.jsonl (issue 22, item 12: ev_kernel found an instance by
# walking the name's list, so N events cost N^2/2 steps). For N in 8000,
# 16000 and 32000 it writes a RUN whose events.jsonl holds N kernel events
# of the name "k", each with its own source_hash, and times
# `tko summarize RUN --json FILE` and `tko investigate RUN` for each binary
# given (the best of three runs, user+system seconds):
#
#	bench/one-name-scaling.sh [TKO...]	(default build/tko)
#
# Compare a build of main with this one by giving both.
set -eu
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- build/tko
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# best_of3 CMD...: the least user+system seconds of three runs.
best_of3() {
	best=
	for _ in 1 2 3; do
		/usr/bin/time -f "%U %S" -o "$work/t" "$@" >/dev/null 2>&1 || true
		t=$(awk '{ printf "%.2f", $1 + $2 }' "$work/t")
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
	done
	echo "$best"
}

printf "%-30s %7s %14s %16s\n" binary events summarize_s investigate_s
for n in 8000 16000 32000; do
	run=$work/run$n
	mkdir -p "$run/capture"
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "{\"schema_version\": 1, \"event\": \"kernel\", \"kernel\": \"k\", \"source_hash\": \"%064x\", \"heuristic_type\": \"pointwise\"}\n", i }' \
		>"$run/capture/events.jsonl"
	for tko in "$@"; do
		s=$(best_of3 "$tko" summarize "$run" --json "$work/s.json")
		i=$(best_of3 "$tko" -q investigate "$run" --out-dir "$work/out")
		printf "%-30s %7d %14s %16s\n" "$tko" "$n" "$s" "$i"
	done
done
