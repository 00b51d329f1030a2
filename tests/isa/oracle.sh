#!/bin/sh
# Writes a case folder's expected.* from the awk oracles alone (never from
# tko): expected.ops always, expected.families for AMDGCN, expected.lines
# when the folder already has one or --lines is given.
#
#   tests/isa/oracle.sh [--lines] CASE_DIR...
#
# A new case: make tests/isa/ISA/NAME/ with input.EXT (or input.ref) and
# SOURCE (where the input came from), run this, review expected.*, and
# `make isa`.
set -u
ISA_DIR=$(cd "$(dirname "$0")" && pwd)
. "$ISA_DIR/lib.sh"

lines=0
if [ "${1:-}" = --lines ]; then
	lines=1
	shift
fi
[ $# -gt 0 ] || { echo "usage: tests/isa/oracle.sh [--lines] CASE_DIR..." >&2; exit 2; }
rc=0
for c; do
	c=${c%/}
	if ! in=$(case_input "$c"); then
		echo "oracle.sh: '$c' names no input that exists" >&2
		rc=1
		continue
	fi
	kinds=ops
	[ "$(case_isa "$c")" = amdgcn ] && kinds="$kinds families"
	{ [ $lines = 1 ] || [ -f "$c/expected.lines" ]; } && kinds="$kinds lines"
	for k in $kinds; do
		oracle "$c" "$in" "$k" >"$c/expected.$k" || { echo "oracle.sh: $c: no $k oracle" >&2; rc=1; }
	done
done
exit $rc
