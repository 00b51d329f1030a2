# Helpers for tko isa's CLI tests (sourced after lib.sh).

# The NVIDIA tools Triton ships, put on PATH when they are not there.
for d in "$SRC_ROOT"/.venv/lib/python3*/site-packages/triton/backends/nvidia/bin; do
	if [ -x "$d/nvdisasm" ] && ! command -v nvdisasm >/dev/null 2>&1; then
		PATH="$PATH:$d"
		export PATH
	fi
done

# ops_of, families_of, lines_of and the awk oracles ($ISA_AWK) are
# shared with the ISA case folders (tests/isa/lib.sh).
ISA_DIR=$SRC_ROOT/tests/isa
. "$ISA_DIR/lib.sh"
# shellcheck disable=SC2034 # used by the scripts that source this
AWK=$ISA_AWK
