#!/bin/bash
# Time and peak resident memory of `tko profile` on a generated rocprofv3
# kernel_trace.csv of ROWS dispatches (bench/profile_csv_gen.py), best of
# RUNS; checks the rows and the busy time against what the generator wrote.
# Recorded in docs/PERFORMANCE.md ("tko profile").
#
#   bench/profile_csv.sh [ROWS] [TKO] [RUNS]     (default 2000000, build/tko, 3)
set -euo pipefail
ROWS=${1:-2000000}
TKO=${2:-build/tko}
RUNS=${3:-3}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
python3 "$(dirname "$0")/profile_csv_gen.py" --rows "$ROWS" --out "$DIR/kernel_trace.csv" \
	2>"$DIR/expect.json"
echo "generated: $(wc -c <"$DIR/kernel_trace.csv") bytes; expected $(cat "$DIR/expect.json")"
for _ in $(seq "$RUNS"); do
	/usr/bin/time -f "%e s wall, %U s user, %M KiB peak RSS" \
		"$TKO" profile --json "$DIR/out.json" "$DIR/kernel_trace.csv" >/dev/null
done
python3 - "$DIR/out.json" "$DIR/expect.json" <<'PY'
import json, sys
got, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert got["activities"] == want["rows"] and got["skipped"] == 0, (got["activities"], want)
assert abs(got["busy_us"] - want["busy_us"]) <= 1e-9 * want["busy_us"], (got["busy_us"], want)
print("checked: %d dispatches, busy %.3f ms as generated" % (got["activities"], got["busy_us"] / 1e3))
PY
