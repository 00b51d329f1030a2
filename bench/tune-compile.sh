#!/bin/sh
# How long a --compile-only sweep takes: what a DCU user waits for before
# booking GPU time. Sweeps two corpus kernels (a pointwise kernel and the mm
# template) for gfx942 and sm_90 with the default limits, with an empty
# Triton cache, and prints variants, compiled, wall seconds and seconds per
# variant. Usage: bench/tune-compile.sh [TKO] (default build/tko).
set -eu
cd "$(dirname "$0")/.."
TKO=${1:-build/tko}
TKO_PYTHON=${TKO_PYTHON:-.venv/bin/python}
CORPUS=${CORPUS:-tests/corpus}
export TKO_PYTHON
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TRITON_CACHE_DIR=$work/cache
export TRITON_CACHE_DIR
ind=$CORPUS/h200-run1/cache/inductor
printf "%-44s %-7s %8s %8s %8s %10s\n" kernel target variants compiled wall_s s/variant
for k in sd/csdvrfujlppaik6bsrjwjsfouquczh47rzawhmr6c3vvw7bdom7q.py \
	 5p/c5pfyn5b7apk7x4sgj4nll5brv476xd4hkjgcj2rji4fykrgxbqf.py; do
	for t in gfx942 sm_90; do
		"$TKO" -q tune --compile-only --target "$t" --out "$work/out" \
			--json "$work/t.json" "$ind/$k" >/dev/null
		jq -r --arg t "$t" '.kernels[0] | [.kernel, $t, (.variants | length),
			([.variants[] | select(.status == "compiled")] | length), .wall_s] |
			@tsv' "$work/t.json" |
		while IFS="$(printf '\t')" read -r name target n ok wall; do
			printf "%-44s %-7s %8s %8s %8.1f %10.2f\n" "$name" "$target" "$n" "$ok" \
				"$wall" "$(echo "$wall / $n" | bc -l)"
		done
	done
done
