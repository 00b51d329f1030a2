# Shared by tests/isa/run.sh, tests/isa/oracle.sh and tests/cli/lib-isa.sh:
# the projections of `tko isa --json` that the awk oracles (tests/isa/awk/)
# print, and how a case folder names its input.
#
# Sourced with ISA_DIR set to tests/isa; $CORPUS is the corpus (default
# tests/corpus).

ISA_AWK=$ISA_DIR/awk

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

# case_isa CASE_DIR: amdgcn, ptx or sass (the folder above the case).
case_isa() {
	basename "$(dirname "$1")"
}

# case_input CASE_DIR: the path of the case's input, or nothing (and 1)
# when it names none that exists. input.ref is one line "NAME PATH": NAME
# a logical name of tests/golden/INPUTS, PATH under it.
case_input() {
	for f in "$1"/input.*; do
		case $f in
		*.ref | *"/input.*") ;;
		*) echo "$f"; return 0 ;;
		esac
	done
	[ -f "$1/input.ref" ] || return 1
	# shellcheck disable=SC2046 # "NAME PATH": two words
	set -- "$1" $(sed -n '1p' "$1/input.ref")
	base=$(awk -v n="$2" '$1 == n { print $2 }' "$ISA_DIR/../golden/INPUTS")
	case $base in
	corpus:*) base=${CORPUS:-$ISA_DIR/../corpus}/${base#corpus:} ;;
	"") return 1 ;;
	*) base=$ISA_DIR/../../$base ;;
	esac
	[ -n "${3:-}" ] && base=$base/$3
	[ -e "$base" ] || return 1
	echo "$base"
}

# oracle CASE_DIR INPUT KIND: what awk counts in INPUT, for expected.KIND
# (ops, families, lines); never from tko.
oracle() {
	case $(case_isa "$1"),$3 in
	amdgcn,ops) awk -f "$ISA_AWK/isa-count.awk" "$2" | sort -k2 ;;
	amdgcn,families) awk -f "$ISA_AWK/isa-count.awk" "$2" | awk -f "$ISA_AWK/isa-families.awk" | sort ;;
	ptx,ops) awk -f "$ISA_AWK/ptx-count.awk" "$2" | sort -k2 ;;
	sass,ops) awk -f "$ISA_AWK/sass-count.awk" "$2" | sort -k2 ;;
	*,lines) awk -f "$ISA_AWK/isa-lines.awk" "$2" | sort ;;
	*) return 1 ;;
	esac
}
