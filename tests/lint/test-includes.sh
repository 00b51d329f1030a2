#!/bin/sh
# tests/lint/includes.sh must fail on an include that points up or
# sideways, name the file and line, pass on src/ as it is, and keep its
# allow list honest. Run by `make lint`.
set -u
here=$(cd "$(dirname "$0")" && pwd)
lint=$here/includes.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tko-lint.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/none.allow"
n=0 failed=0

# expect STATUS PATTERN ARGS...: includes.sh ARGS exits STATUS and its
# stderr holds PATTERN (a grep -E pattern; "" for none).
expect() {
	want=$1 pat=$2
	shift 2
	n=$((n + 1))
	"$lint" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "not ok $n - includes.sh $*: exit $got, want $want"
		sed 's/^/# /' "$tmp/err"
		failed=1
	elif [ -n "$pat" ] && ! grep -Eq "$pat" "$tmp/err"; then
		echo "not ok $n - includes.sh $*: stderr lacks /$pat/"
		sed 's/^/# /' "$tmp/err"
		failed=1
	else
		echo "ok $n - includes.sh $* exits $want"
	fi
}

# the tracked fixture: util/ including cmd/ (issue 18's V1) fails, at its line
expect 1 '^util/opts\.c:3: includes cmd/exitcode\.h: util/ \(rank 1\) may not include cmd/ \(rank 16\)' \
	-a "$tmp/none.allow" "$here/fixtures/upward"
# ... and only that line: cmd/env.c includes from below
expect 1 '' -a "$tmp/none.allow" "$here/fixtures/upward"
if grep -q 'cmd/env\.c' "$tmp/err"; then
	echo "not ok $n - cmd/env.c includes only from below but was reported"
	failed=1
fi
# the same include, allowed, passes; an allowed include that is gone fails
echo "util/opts.c cmd/exitcode.h fixture" > "$tmp/v1.allow"
expect 0 '' -a "$tmp/v1.allow" "$here/fixtures/upward"
echo "util/opts.c report/jsonw.h gone" >> "$tmp/v1.allow"
expect 1 'util/opts\.c report/jsonw\.h: allowed in .* but no longer included' \
	-a "$tmp/v1.allow" "$here/fixtures/upward"

# siblings of one rank do not include each other
mkdir -p "$tmp/sib/isa" "$tmp/sib/parse"
printf '#include "parse/meta.h"\n' > "$tmp/sib/isa/scan.c"
printf '#include "util/buf.h"\n#include "target/target.h"\n' > "$tmp/sib/parse/meta.c"
expect 1 '^isa/scan\.c:1: includes parse/meta\.h: isa/ \(rank 10\) may not include parse/ \(rank 10\)' \
	-a "$tmp/none.allow" "$tmp/sib"
# a folder without a rank fails until it gets one
mkdir -p "$tmp/new/newdir"
printf '#include "util/buf.h"\n' > "$tmp/new/newdir/x.c"
expect 1 'folder newdir/ has no rank' -a "$tmp/none.allow" "$tmp/new"
# a top-level header includes no folder
printf '#include "util/buf.h"\n' > "$tmp/new/top.h"
rm -r "$tmp/new/newdir"
expect 1 '^top\.h:1: includes util/buf\.h: a top-level header' -a "$tmp/none.allow" "$tmp/new"

# today's src/ with its allow list passes
expect 0 '' "$here/../../src"

echo "1..$n"
exit $failed
