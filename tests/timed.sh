#!/bin/sh
# Runs a command and then prints how long it took, for script/test's table:
#
#	tests/timed.sh NAME CMD [ARGS...]
#
# prints "time: NAME: W s wall, C s CPU" (C: user+sys of CMD and everything
# it waited for, from the shell's `times`) and exits with CMD's status.
name=$1
shift
t0=$(date +%s.%N)
"$@"
rc=$?
t1=$(date +%s.%N)
tmp=$(mktemp "${TMPDIR:-/tmp}/tko-timed.XXXXXX")
times >"$tmp"
awk -v name="$name" -v t0="$t0" -v t1="$t1" '
function sec(s,   m) { m = s; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", s); sub(/s$/, "", s); return m * 60 + s }
NR == 2 { printf "time: %s: %.0f s wall, %.0f s CPU\n", name, t1 - t0, sec($1) + sec($2) }
' "$tmp"
rm -f "$tmp"
exit "$rc"
