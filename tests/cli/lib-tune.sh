# Helpers for tko tune's CLI tests (sourced after lib.sh).

# The worker runs in the project's virtualenv, which has Triton.
TKO_PYTHON="$SRC_ROOT/.venv/bin/python"
export TKO_PYTHON

# count PATTERN FILE: lines matching, 0 when none (grep -c exits 1 then)
count() {
	grep -c -E -e "$1" "$2" || :
}
