#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# Outputs that cannot be written, for every command that writes one: a
# directory where the file goes, a missing parent directory, a parent that
# is a file, a full device (/dev/full) and a file-size limit hit mid-write
# (RLIMIT_FSIZE via ulimit -f: the disk-full case, as the write fails after
# the temporary file was created). Each is exit 1 with one line naming the
# output, no temporary file left beside it, and an existing output kept.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-badinput.sh"

RUN=$SRC_ROOT/examples/h200-run
ASM=$CORPUS/dcu/gfx936_triton_hcu_buffer_ld_st_cluster16.amdgcn
LOG=$CORPUS/h200-run1/log_profile.txt
PROFILE=$SRC_ROOT/tests/data/profile/kineto-mi300x-torch-compile.json.gz
PY=$CORPUS/h200-run1/cache/inductor/d6/cd6tammrytoldkigi6wy4flunwbshyumif2kiduouxqzljcqvh3x.py
NAME=triton_poi_fused_index_add_zeros_1
TKO_PYTHONPATH="$TRASH/pkg"
TKO_PYTHON="${TKO_TEST_PYTHON:-python3}"
export TKO_PYTHONPATH TKO_PYTHON

# A replay that writes a plausible result, so tko run gets to its output.
test_expect_success 'setup: a fake tko.replay' '
	mkdir -p pkg/tko && : >pkg/tko/__init__.py &&
	cat >pkg/tko/replay.py <<-\EOF
	import json, sys
	a = sys.argv[1:]
	doc = {"schema_version": 1, "tool": "tko.replay", "versions": {}, "error": None,
	       "kernels": [{"kernel_dir": d, "kernel": "k", "error": None, "configs": []}
	                   for d in a[:a.index("--json")]]}
	json.dump(doc, open(a[a.index("--json") + 1], "w"))
	EOF
'

# each_writer TARGET: every writing command with its --json output at
# TARGET, then the --md ones.
each_writer() {
	target=$1
	for cmd in "isa --json $target $ASM" "summarize --json $target $LOG" "meta --json $target $PY" \
		"env --json $target" "run --json $target $RUN/capture/kernels/$NAME-470ead05" \
		"profile --json $target $PROFILE" \
		"isa --md $target $ASM" "summarize --md $target $LOG"; do
		# shellcheck disable=SC2086 # the command line is split on purpose
		check_bad 1 "$target" -- tko $cmd >/dev/null || { echo "in: tko $cmd" >&2; return 1; }
	done &&
	collect_json "$target"
}

# tko collect's --json is a copy of OUT/collect.json: when it cannot be
# written the run fails, and OUT stays whole (its collect.json is complete).
collect_json() {
	rm -rf c out && mkdir out && eval "${bad_setup:-:}" && ls -A out >out.before &&
	test_expect_code 1 tko collect "$RUN" --kernel $NAME --out c --json "$1" >/dev/null 2>err &&
	test_one_line_error err &&
	test_grep "$1" err &&
	json_q c/collect.json ".files | length > 3" >/dev/null &&
	ls -A out >out.after &&
	test_cmp out.before out.after
}

test_expect_success 'the output is a directory' '
	bad_setup="mkdir out/dir.json" && each_writer out/dir.json
'

test_expect_success 'the output is in a directory that does not exist' '
	each_writer out/none/x.json
'

test_expect_success 'the output is under a file' '
	bad_setup=": >out/afile" && each_writer out/afile/x.json
'

test_expect_success 'the output is a full device' '
	each_writer /dev/full
'

# fsize_run CMD...: CMD with writes past 1 KiB failing (EFBIG, not SIGXFSZ).
fsize_run() {
	(trap "" XFSZ && ulimit -f 2 && "$@")
}

test_expect_success 'the disk fills up while the output is written' '
	for cmd in "isa --json out/out.json $ASM" "summarize --json out/out.json $LOG" \
		"meta --json out/out.json $PY" "env --json out/out.json" \
		"profile --json out/out.json $PROFILE"; do
		# shellcheck disable=SC2086
		check_bad 1 "out/out.json" -- fsize_run tko $cmd >/dev/null || { echo "in: tko $cmd" >&2; return 1; }
	done
'

test_expect_success 'tko collect: a full disk leaves no half-collected directory' '
	check_bad 1 "c" -- fsize_run tko collect "$RUN" --kernel $NAME --out out/c &&
	test_path_is_missing() { ! test -e "$1"; } &&
	test_path_is_missing out/c
'

test_done
