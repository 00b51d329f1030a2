# Helpers for tko tune's CLI tests (sourced after lib.sh).

# The worker runs in the project's virtualenv, which has Triton;
# TKO_TEST_PYTHON runs it in another (an older Triton: docs/dcu.md, 12).
TKO_PYTHON="${TKO_TEST_PYTHON:-$SRC_ROOT/.venv/bin/python}"
export TKO_PYTHON

# count PATTERN FILE: lines matching, 0 when none (grep -c exits 1 then)
count() {
	grep -c -E -e "$1" "$2" || :
}

# use_fake_gpu: tko tune's worker is the stand-in of tests/cli/tune-fake (a
# GPU that is not there), which logs its bench requests to $TKO_FAKE_LOG.
use_fake_gpu() {
	TKO_PYTHON_DIR="$TESTS_DIR/tune-fake"
	TKO_FAKE_LOG="$TRASH/fake.log"
	export TKO_PYTHON_DIR TKO_FAKE_LOG
}
