# Helpers for tko isa's CLI tests (sourced after lib.sh).

# The NVIDIA tools Triton ships, put on PATH when they are not there.
for d in "$SRC_ROOT"/.venv/lib/python3*/site-packages/triton/backends/nvidia/bin; do
	if [ -x "$d/nvdisasm" ] && ! command -v nvdisasm >/dev/null 2>&1; then
		PATH="$PATH:$d"
		export PATH
	fi
done

# ops_of JSON: "COUNT OP" for every op, summed over all kernels, sorted.
ops_of() {
	jq -r '[.kernels[].ops | to_entries[]] | group_by(.key)
		| map("\(map(.value) | add) \(.[0].key)")[]' "$1" | sort -k2
}

# families_of JSON: "FAMILY WIDTH COUNT" like isa-families.awk, sorted.
families_of() {
	jq -r '[.kernels[].families | to_entries[]
		| .key as $f | .value as $v
		| if ($v.by_width | length) > 0 and ($f != "waitcnt")
		  then ($v.by_width | to_entries[] | {k: "\($f) \(.key)", n: .value})
		  else {k: "\($f) -", n: $v.count} end]
		| group_by(.k) | map("\(.[0].k) \(map(.n) | add)")[]' "$1" | sort
}

# lines_of JSON: "LINE OP COUNT" of the first kernel's source lines, sorted.
lines_of() {
	jq -r '.kernels[0].source_lines[] | .line as $l | .ops | to_entries[]
		| "\($l) \(.key) \(.value)"' "$1" | sort
}

# check_amdgcn FILE: tko isa's ops, families and widths of FILE equal the
# awk counts (isa-count.awk, isa-families.awk) of the same file.
check_amdgcn() {
	if tko -q isa --json out.json "$1" &&
		awk -f "$TESTS_DIR/isa-count.awk" "$1" | sort -k2 >expect &&
		ops_of out.json >actual &&
		test_cmp expect actual &&
		awk -f "$TESTS_DIR/isa-count.awk" "$1" | awk -f "$TESTS_DIR/isa-families.awk" | sort >expect &&
		families_of out.json >actual &&
		test_cmp expect actual; then
		return 0
	fi
	echo "in $1"
	return 1
}
