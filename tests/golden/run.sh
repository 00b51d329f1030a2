#!/bin/sh
# The golden suite (README.md): runs each case's cmd in a fresh directory
# with a fixed environment, normalises what it printed and wrote, and
# compares that with the case's expected/ folder.
#
#   tests/golden/run.sh [--update] [--diff] [CASE...]
#
# CASE is COMMAND/CASE or COMMAND (all of its cases); none: every case.
# --update rewrites expected/ (review the git diff like code); --diff
# prints each failing case's diff (otherwise only its first 40 lines).
# $TKO is the binary (default build/tko), $CORPUS the corpus (default
# tests/corpus). Prints one line per case: "ok", "FAIL", "skip (why)" or
# "updated"; exits 1 when a case failed.
set -u

GOLDEN=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$GOLDEN/../.." && pwd)
FIX=$GOLDEN/fixtures
TKO=${TKO:-$SRC/build/tko}
CORPUS=${CORPUS:-$SRC/tests/corpus}

update=0
fulldiff=0
while [ $# -gt 0 ]; do
	case $1 in
	--update) update=1 ;;
	--diff) fulldiff=1 ;;
	-h | --help) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done

case $TKO in
/*) ;;
*) TKO=$PWD/$TKO ;;
esac
if [ ! -x "$TKO" ]; then
	echo "run.sh: no tko binary at '$TKO' (make, or set TKO)" >&2
	exit 2
fi

# The cases to run, as COMMAND/CASE.
list_cases() {
	if [ $# -eq 0 ]; then
		set -- "$GOLDEN"/*/*/cmd
	else
		for c; do
			c=${c%/}
			if [ -f "$GOLDEN/$c/cmd" ]; then
				echo "$GOLDEN/$c/cmd"
			elif [ -d "$GOLDEN/$c" ] && ls "$GOLDEN/$c"/*/cmd >/dev/null 2>&1; then
				ls "$GOLDEN/$c"/*/cmd
			else
				echo "$GOLDEN/$c/cmd"
			fi
		done
		return
	fi
	for f; do
		[ -f "$f" ] && echo "$f"
	done
}

# Every case runs under one root whose path has a fixed length, so tables
# that print absolute paths keep their column widths; normalise.sh writes
# it as @ROOT@.
ROOT=$(mktemp -d /tmp/tko-golden.XXXXXXXX) || exit 2
trap 'rm -rf "$ROOT"' EXIT
trap 'exit 130' INT TERM
mkdir "$ROOT/tmp" "$ROOT/home"

VERSION=$("$TKO" --version | sed 's/^tko //')
# The binary as /proc/self/exe names it (tko cluster records it), for normalise.sh;
# GOLDEN_TKO_EXE names it when $TKO is a wrapper script (t0100 under valgrind).
TKO_REAL=${GOLDEN_TKO_EXE:-$(readlink -f "$TKO")}

# resolve NAME: the path INPUTS gives for a logical input name.
resolve() {
	p=$(awk -v n="$1" '$1 == n { print $2; exit }' "$GOLDEN/INPUTS")
	case $p in
	"") echo "run.sh: input '$1' is not in INPUTS" >&2; return 1 ;;
	corpus:*) echo "$CORPUS/${p#corpus:}" ;;
	*) echo "$SRC/$p" ;;
	esac
}

# A copy of each input is made once, under $ROOT/inputs; cases get hard
# links to it. tko replaces the files it writes (a new file renamed over
# the old), so a case cannot change what the next one reads, and no case
# can reach the repository's own files.
cached() {
	cache=$ROOT/inputs/$1
	if [ ! -e "$cache" ]; then
		mkdir -p "$ROOT/inputs" && cp -R "$2" "$cache.tmp" && mv "$cache.tmp" "$cache" || return 1
		printf '%s\t%s\n' "$2" "$cache" >>"$ROOT/inputs.list"
	fi
	echo "$cache"
}

# Whether every shared copy is still what it was copied from: a cmd (or
# tko) that wrote into an input in place would have changed what the cases
# after it read.
inputs_intact() {
	[ -f "$ROOT/inputs.list" ] || return 0
	while IFS="$(printf '\t')" read -r from cache; do
		if ! diff -rq "$from" "$cache" >/dev/null 2>&1; then
			echo "FAIL inputs: '$from' was changed in place by a case; the cases after it are not to be trusted"
			return 1
		fi
	done <"$ROOT/inputs.list"
}

# copy_inputs CASEDIR WORKDIR: the case's inputs, each under in/ unless "as DEST".
copy_inputs() {
	[ -f "$1/inputs" ] || return 0
	while read -r in_name in_as in_dest; do
		case $in_name in '' | '#'*) continue ;; esac
		in_from=$(resolve "$in_name") || return 1
		[ -e "$in_from" ] || { echo "run.sh: input '$in_name' ($in_from) is missing" >&2; return 1; }
		if [ "$in_as" != as ] || [ -z "$in_dest" ]; then
			in_dest=in/$(basename "$in_from")
		fi
		in_from=$(cached "$in_name" "$in_from") &&
			mkdir -p "$2/$(dirname "$in_dest")" && cp -Rl "$in_from" "$2/$in_dest" || return 1
	done <"$1/inputs"
}

# missing_need CASEDIR: prints what the case needs and this machine lacks.
missing_need() {
	[ -f "$1/needs" ] || return 0
	while read -r need; do
		case $need in
		'' | '#'*) ;;
		python3) [ -x /usr/bin/python3 ] || echo "no /usr/bin/python3" ;;
		venv) [ -x "$SRC/.venv/bin/python" ] || echo "no .venv (script/bootstrap)" ;;
		venv-triton)
			"$SRC/.venv/bin/python" -c "import triton" >/dev/null 2>&1 ||
				echo "no Triton in .venv (script/bootstrap)" ;;
		*) echo "unknown need '$need'" ;;
		esac
	done <"$1/needs"
}

# What the case left in its directory: files and folders that are new (+)
# or gone (-), the inputs under in/ left out. Catches an output written
# where it should not be, or one missing ("publish together").
tree_list() {
	(cd "$1" && find . -path ./in -prune -o \( -type d -printf '%p/\n' \) -o -printf '%p\n') |
		sed -e 's|^\./||' -e '/^\/$/d' -e '/^$/d' | LC_ALL=C sort
}

# run_case CMDFILE: 0 ok or updated, 1 failed, 77 skipped.
run_case() {
	dir=$(dirname "$1")
	name=${dir#"$GOLDEN"/}
	work=$ROOT/$(echo "$name" | tr / -)
	got=$ROOT/got/$name
	why=$(missing_need "$dir")
	if [ -n "$why" ]; then
		echo "skip $name ($(echo "$why" | head -n 1))"
		return 77
	fi
	rm -rf "$work" "$got"
	mkdir -p "$work/in" "$got" || return 1
	copy_inputs "$dir" "$work" || { echo "FAIL $name (inputs)"; return 1; }
	tree_list "$work" >"$ROOT/before"
	(
		cd "$work" &&
		exec env -i PATH=/usr/bin:/bin LC_ALL=C.UTF-8 TZ=UTC HOME="$ROOT/home" \
			TMPDIR="$ROOT/tmp" TKO_PROGRESS=0 PYTHONDONTWRITEBYTECODE=1 \
			TKO_PYTHON=/no/such/python TKO="$TKO" FIX="$FIX" SRC="$SRC" \
			${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
			${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
			/bin/sh "$1"
	) >"$got/stdout" 2>"$got/stderr" </dev/null
	echo $? >"$got/exit"
	tree_list "$work" >"$ROOT/after"
	LC_ALL=C comm -13 "$ROOT/before" "$ROOT/after" | sed 's/^/+ /' >"$got/files.txt"
	LC_ALL=C comm -23 "$ROOT/before" "$ROOT/after" | sed 's/^/- /' >>"$got/files.txt"
	if [ -f "$dir/outputs" ]; then
		(
			cd "$work" || exit 1
			# shellcheck disable=SC2013 # globs, one a line, expanded here on purpose
			for g in $(sed '/^#/d' "$dir/outputs"); do
				for f in $g; do
					[ -f "$f" ] || continue
					mkdir -p "$got/$(dirname "$f")" && cp "$f" "$got/$f" || exit 1
				done
			done
		) || { echo "FAIL $name (outputs)"; return 1; }
	fi
	timing=0
	grep -qx venv-triton "$dir/needs" 2>/dev/null && timing=1
	GOLDEN_ROOT=$ROOT GOLDEN_SRC=$SRC GOLDEN_VERSION=$VERSION GOLDEN_TKO=$TKO_REAL \
		GOLDEN_TIMING=$timing \
		"$GOLDEN/normalise.sh" "$got" || { echo "FAIL $name (normalise)"; return 1; }
	if [ "$update" = 1 ]; then
		rm -rf "$dir/expected" && cp -R "$got" "$dir/expected" || return 1
		echo "updated $name"
		return 0
	fi
	if diff -ru "$dir/expected" "$got" >"$ROOT/diff" 2>&1; then
		echo "ok $name"
		return 0
	fi
	echo "FAIL $name"
	sed -e "s|$ROOT/got/|got/|g" -e "s|$GOLDEN/||g" "$ROOT/diff" >"$ROOT/diff.short"
	if [ "$fulldiff" = 1 ]; then
		cat "$ROOT/diff.short"
	else
		head -n 40 "$ROOT/diff.short"
		n=$(wc -l <"$ROOT/diff.short")
		[ "$n" -le 40 ] || echo "... $((n - 40)) more lines (--diff shows all)"
	fi
	return 1
}

failed=0
list_cases "$@" >"$ROOT/cases"
while read -r c; do
	if [ ! -f "$c" ]; then
		echo "FAIL ${c#"$GOLDEN"/} (no such case)"
		failed=$((failed + 1))
		continue
	fi
	run_case "$c"
	[ $? -eq 1 ] && failed=$((failed + 1))
done <"$ROOT/cases"
inputs_intact || failed=$((failed + 1))
if [ "$failed" -gt 0 ]; then
	echo "run.sh: $failed case(s) failed"
	exit 1
fi
exit 0
