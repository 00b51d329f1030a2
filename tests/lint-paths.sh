#!/bin/sh
# Fails when a tracked file points outside the repository: tko must build,
# demo and test from a clone with nothing beside it (issue 16). The test
# data lives in tests/corpus (SOURCES.md), the DCU facts in docs/dcu.md.
#
#	tests/lint-paths.sh [DIR]     (default: the repository root)
#
# Lists the tracked files with git when DIR is a checkout, else every file
# under DIR but build outputs and .venv. The patterns are assembled from
# pieces so this file does not match itself.
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
s=shared
pat="\\.\\./$s([/\"' )]|\$)|$s/corpus|$s/docs|/work/$s"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	hits=$(git grep -I -n -E -e "$pat" || true)
else
	hits=$(grep -r -I -n -E --exclude-dir=.git --exclude-dir='build*' \
		--exclude-dir=.venv -e "$pat" . || true)
fi
if [ -n "$hits" ]; then
	printf '%s\n' "$hits" >&2
	echo "lint-paths: the files above point outside the repository; copy what they need into tests/corpus (SOURCES.md) or docs/" >&2
	exit 1
fi
echo "lint-paths: no tracked file points outside the repository"
