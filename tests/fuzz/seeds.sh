#!/bin/sh
# Prints the seed inputs of one fuzz target, one path a line:
#
#	tests/fuzz/seeds.sh NAME
#
# tests/fuzz/seeds/NAME.list names them, one entry a line ('#' starts a
# comment): PATH [GLOB]. A PATH starting with "corpus:" is under $CORPUS
# (tests/corpus), others are under the source tree. A directory
# stands for every file under it whose name matches GLOB (default: all).
# Files under tests/fuzz/regressions/NAME/ (saved crashers) come last.
# Exits non-zero when a listed path is missing, so a moved corpus file
# cannot silently shrink the seed set.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
: "${CORPUS:=$root/tests/corpus}"
name=$1
list=$root/tests/fuzz/seeds/$name.list
[ -f "$list" ] || { echo "seeds.sh: no seed list $list" >&2; exit 1; }

while read -r path glob; do
	case $path in
	'' | '#'*) continue ;;
	corpus:*) path=$CORPUS/${path#corpus:} ;;
	*) path=$root/$path ;;
	esac
	if [ -d "$path" ]; then
		find "$path" -type f -name "${glob:-*}" | LC_ALL=C sort
	elif [ -f "$path" ]; then
		echo "$path"
	else
		echo "seeds.sh: $name: missing seed $path" >&2
		exit 1
	fi
done <"$list"
if [ -d "$root/tests/fuzz/regressions/$name" ]; then
	find "$root/tests/fuzz/regressions/$name" -type f | LC_ALL=C sort
fi
