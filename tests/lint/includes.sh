#!/bin/sh
# Fails when a source file includes a header of a folder that ranks above
# its own, or of a sibling of the same rank: src/ reads as the pipeline
# (docs/design.md, "Source layout"; issue 18), each folder built only on
# the folders below it.
#
#	tests/lint/includes.sh [-a ALLOW] [SRC]
#	    SRC    the source tree (default: src/ of this checkout)
#	    ALLOW  the known violations, "FILE HEADER reason" a line, FILE
#	           relative to SRC (default: tests/lint/includes.allow)
#
# A top-level header (banned.h, version.h, exitcode.h) may be included
# from anywhere and includes no folder; a top-level .c (tko.c) may include
# everything. A folder missing from the table below fails too: a new
# folder gets a rank when it is made. An ALLOW line that no longer matches
# an include fails, so the list only shrinks.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
allow=$here/includes.allow
while getopts a: opt; do
	case $opt in
	a) allow=$OPTARG ;;
	*) echo "usage: includes.sh [-a ALLOW] [SRC]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=${1:-$here/../../src}
if [ ! -d "$src" ] || [ ! -r "$allow" ]; then
	echo "includes.sh: '$src' is not a directory or '$allow' is unreadable" >&2
	exit 2
fi

# rank folder...: lower ranks first; equal rank = siblings.
ranks='
1 util
2 json
3 target
4 model
5 rundir
6 py
7 env
8 capture
9 run
10 isa parse profile
11 analyse
12 decide
13 tune
14 apply cluster
15 report
16 cmd
'

cd "$src"
find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort |
	xargs grep -n '^#include "' /dev/null |
	awk -v ranks="$ranks" -v allowfile="$allow" '
	BEGIN {
		n = split(ranks, rl, "\n")
		for (i = 1; i <= n; i++) {
			m = split(rl[i], w, " ")
			for (j = 2; j <= m; j++)
				rank[w[j]] = w[1] + 0
		}
		while ((getline line < allowfile) > 0) {
			if (line ~ /^[ \t]*(#|$)/)
				continue
			split(line, w, " ")
			allowed[w[1] " " w[2]] = 1
		}
		bad = 0
	}
	# rank of the folder a path is in; -1 top-level header, 99 top-level .c
	function rank_of(path, what,    d) {
		if (path !~ /\//)
			return path ~ /\.h$/ ? -1 : 99
		d = path
		sub(/\/.*/, "", d)
		if (!(d in rank)) {
			printf "%s: folder %s/ has no rank in tests/lint/includes.sh\n", what, d
			bad = 1
			return -2
		}
		return rank[d]
	}
	{
		# file:line:#include "hdr"
		file = $0; sub(/:.*/, "", file)
		rest = substr($0, length(file) + 2)
		lineno = rest; sub(/:.*/, "", lineno)
		hdr = rest; sub(/^[^"]*"/, "", hdr); sub(/".*/, "", hdr)
		if (hdr !~ /\//)
			next		# a top-level header (or a same-folder name)
		fd = file; sub(/\/[^\/]*$/, "", fd)
		hd = hdr; sub(/\/.*/, "", hd)
		if (file ~ /\// && fd == hd)
			next		# its own folder
		fr = rank_of(file, file); hr = rank_of(hdr, file ":" lineno)
		if (fr == -2 || hr == -2 || fr > hr)
			next
		key = file " " hdr
		if (key in allowed) {
			used[key] = 1
			next
		}
		printf "%s:%s: includes %s: %s (rank %d) may not include %s (rank %d)\n",
			file, lineno, hdr, (fr < 0 ? "a top-level header" : fd "/"),
			fr, hd "/", hr
		bad = 1
	}
	END {
		for (k in allowed)
			if (!(k in used)) {
				printf "%s: allowed in %s but no longer included: remove the line\n",
					k, allowfile
				bad = 1
			}
		exit bad
	}' >&2 || {
	echo "includes.sh: a folder includes from a folder at or above its rank (see above)" >&2
	exit 1
}
echo "includes.sh: every include points down the folder ranks (known exceptions: $(grep -c '^[^#[:space:]]' "$allow" || true))"
