#!/bin/sh
# The ISA scanner case folders: for each tests/isa/ISA/CASE/, `tko isa
# --json` of its input projected as the awk oracles print (lib.sh), diffed
# with every expected.* of the folder; then the oracle is run again and a
# committed expected.* that no longer matches it fails too (stale).
#
#   tests/isa/run.sh [CASE_DIR...]     (none: every case)
#
# $TKO is the binary (default build/tko), $CORPUS the corpus (default
# tests/corpus). Prints "ok CASE" or "FAIL CASE" (then its diff, indented)
# per case and one summary line; exits 1 when a case failed.
set -u
ISA_DIR=$(cd "$(dirname "$0")" && pwd)
. "$ISA_DIR/lib.sh"
TKO=${TKO:-$ISA_DIR/../../build/tko}
[ -x "$TKO" ] || { echo "run.sh: no tko binary at '$TKO' (make, or set TKO)" >&2; exit 2; }

tmp=$(mktemp -d /tmp/tko-isa.XXXXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT

# check CASE_DIR: 0 when every expected.* holds for tko and for the oracle.
check() {
	if ! in=$(case_input "$1"); then
		echo "$1: its input.ref names nothing that exists"
		return 1
	fi
	"$TKO" -q isa --json "$tmp/out.json" "$in" >/dev/null || { echo "$1: tko isa failed"; return 1; }
	for e in "$1"/expected.*; do
		k=${e##*.}
		case $k in
		ops) ops_of "$tmp/out.json" ;;
		families) families_of "$tmp/out.json" ;;
		lines) lines_of "$tmp/out.json" ;;
		*) echo "$1: unknown file $e"; return 1 ;;
		esac >"$tmp/got" || return 1
		diff -u "$e" "$tmp/got" || { echo "$1: tko isa differs from $e"; return 1; }
		oracle "$1" "$in" "$k" >"$tmp/oracle" || { echo "$1: no $k oracle"; return 1; }
		diff -u "$e" "$tmp/oracle" >/dev/null || { echo "$1: $e is stale (tests/isa/oracle.sh)"; return 1; }
	done
	[ -f "$1/expected.ops" ] || { echo "$1: no expected.ops"; return 1; }
}

if [ $# -eq 0 ]; then
	set -- "$ISA_DIR"/amdgcn/*/ "$ISA_DIR"/ptx/*/ "$ISA_DIR"/sass/*/
fi
n=0
failed=0
for c; do
	c=${c%/}
	n=$((n + 1))
	if check "$c" >"$tmp/log" 2>&1; then
		echo "ok ${c#"$ISA_DIR"/}"
	else
		echo "FAIL ${c#"$ISA_DIR"/}"
		sed 's/^/  /' "$tmp/log" | head -n 40
		failed=$((failed + 1))
	fi
done
echo "tests/isa: $n cases, $failed failed"
[ $failed -eq 0 ]
