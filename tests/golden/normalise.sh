#!/bin/sh
# normalise.sh DIR: rewrites, in place, every file under DIR (a case's
# stdout, stderr, exit, files.txt and outputs) so that what differs from one
# run or machine to the next does not show: the volatile fields, by name
# (README.md lists them and why). run.sh sets GOLDEN_ROOT (the cases' root),
# GOLDEN_SRC (the repository), GOLDEN_VERSION (tko --version) and
# GOLDEN_TIMING (1: the case compiles with Triton; its compile times vary).
#
# Keys are rewritten by sed on the text, never by a JSON tool on numbers:
# jq 1.6 reprints numbers (1e20 as 1e+20), which would hide real changes.
set -eu
: "${GOLDEN_ROOT:?}" "${GOLDEN_SRC:?}" "${GOLDEN_VERSION:?}" "${GOLDEN_TKO:?}"
here=$(cd "$(dirname "$0")" && pwd)

quote() {
	printf '%s\n' "$1" | sed 's/[]\/$*.^[|]/\\&/g'
}
root=$(quote "$GOLDEN_ROOT")
src=$(quote "$GOLDEN_SRC")
version=$(quote "$GOLDEN_VERSION")
tko=$(quote "$GOLDEN_TKO")

num='-\{0,1\}[0-9][0-9.e+-]*'
# shellcheck disable=SC2016 # sed scripts, not shell expansions
common="
/^run  *exit status  *seconds /{
n
s#^\\([^ ]*  *[0-9][0-9]*\\)  *[0-9][0-9.]*#\\1 @SECONDS@#
}
s|$root|@ROOT@|g
s|$tko|@TKO@|g
s|$src/python|@SRC@/python|g
s|tko $version\\b|tko @VERSION@|g
s#\"tko_version\": \"[^\"]*\"#\"tko_version\": \"@VERSION@\"#g
s#\"\\(start_time\\|end_time\\|submitted\\)\": \"[^\"]*\"#\"\\1\": \"@TIME@\"#g
s#\"\\(start_unix\\|end_unix\\|duration_s\\|wall_s\\)\": $num#\"\\1\": @NUM@#g
s#^\\(tko apply: note: run [0-9]*: .* ms/step ([a-z]*)\\), [0-9][0-9.]* s\$#\\1, @SECONDS@ s#
"
timing="
s#\"compile_ms\": $num#\"compile_ms\": @NUM@#g
"

# tko tune's table: the "compile ms" column, right-aligned under its header.
compile_column() {
	awk '
		/compile ms/ { end = index($0, "compile ms") + 9; print; next }
		/^$/ { end = 0 }
		end && /^v[0-9]/ && length($0) >= end {
			$0 = substr($0, 1, end - 10) sprintf("%10s", "@NUM@") substr($0, end + 1)
		}
		{ print }
	' "$1"
}

# An env document (tko env --json, RUN/env.json): machine facts go (env.jq).
is_env_json() {
	grep -q '^  "tool": "tko env",$' "$1"
}

# tko env's tables: a tool row keeps its first word unless the tool is a
# case's fake (then its words, one space apart: the columns are as wide as
# this machine's versions); the toolchain rows keep their first word.
env_text() {
	awk '
		/^what +found$/ { what = 1 }
		/^tool +version +path$/ { tools = 1; print "tool version path"; next }
		/^$/ { what = tools = 0 }
		tools && /@ROOT@/ { $1 = $1; print; next }
		tools { print $1; next }
		what && /^(cuda|hip|dtk|rocm) / { print $1; next }
		{ print }
	' "$1"
}

find "$1" -type f | while read -r f; do
	sed -i -e "$common" "$f"
	if [ "${GOLDEN_TIMING:-0}" = 1 ]; then
		sed -i -e "$timing" "$f"
		compile_column "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	fi
	if is_env_json "$f"; then
		jq --indent 2 -f "$here/env.jq" "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	elif grep -q '^what  *found$' "$f"; then
		env_text "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	fi
done
