# Helpers for tko apply's CLI tests (sourced after lib.sh): the small RUN
# with tune results (tests/data/apply/make-run.py says what it holds) and the
# fake command (tests/cli/apply-fake/cmd.py) that writes what tko's hook would.
# shellcheck disable=SC2034

D=$SRC_ROOT/tests/data/apply
FAKE="python3 -S $SRC_ROOT/tests/cli/apply-fake/cmd.py"

fresh_run() {
	rm -rf run && cp -r "$D/run" run
}

# near A B R: |A - B| <= R
near() {
	awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= r) }'
}
