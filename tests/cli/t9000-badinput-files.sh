#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# The bad-input matrix for the commands that read files: tko isa, tko
# summarize and tko meta, each given every kind of damaged input
# (lib-badinput.sh: empty, binary, not UTF-8, 1 GB, /dev/zero, a
# directory, a link loop, missing, unreadable by read() and by
# permissions). Each must exit
# 1 with one line naming the file, and leave its --json/--md output
# neither half-written nor replaced. A truncated input is read as far as
# it goes and said to be cut.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-badinput.sh"

ASM=$CORPUS/dcu/gfx936_triton_hcu_buffer_ld_st_cluster16.amdgcn
LOG=$CORPUS/h200-run1/log_profile.txt
PY=$CORPUS/h200-run1/cache/inductor/d6/cd6tammrytoldkigi6wy4flunwbshyumif2kiduouxqzljcqvh3x.py

# every_kind CMD [OPTIONS]: the matrix for one command; a directory is not
# an error for isa and meta (they walk it), so it is checked on its own.
every_kind() {
	cmd=$1
	shift
	for kind in empty binary nonutf8 huge zero loop missing; do
		check_bad 1 "bad.$kind" -- tko "$cmd" "$@" --json out/out.json "bad.$kind" ||
			{ echo "kind $kind" >&2; return 1; }
	done &&
	if unreadable_works; then
		check_bad 1 "$UNREADABLE" -- tko "$cmd" "$@" --json out/out.json "$UNREADABLE"
	fi
}

test_expect_success 'setup: damaged copies of an AMDGCN file, a log and a kernel module' '
	mkdir isa summarize meta &&
	(cd isa && make_bad_inputs "$ASM") &&
	(cd summarize && make_bad_inputs "$LOG") &&
	(cd meta && make_bad_inputs "$PY")
'

for cmd in isa summarize meta; do
	test_expect_success "tko $cmd: every kind of bad file is one error line, exit 1, no output" "
		cd $cmd && every_kind $cmd
	"
done

test_expect_success 'tko isa --md too leaves nothing behind on a bad input' '
	cd isa &&
	check_bad 1 bad.binary -- tko isa --md out/out.md --json out/out.json bad.binary
'

test_expect_success 'a directory: summarize refuses a non-RUN, isa and meta find nothing' '
	cd isa &&
	check_bad 1 bad.dir -- tko summarize --json out/out.json bad.dir &&
	check_bad 1 bad.dir -- tko isa --json out/out.json bad.dir &&
	check_bad 1 bad.dir -- tko meta --json out/out.json bad.dir
'

test_expect_success 'mode 000 as nobody: cannot open, Permission denied' '
	cd isa && cp "$ASM" locked.s && chmod 000 locked.s &&
	locked_run 1 "locked.s" -- tko isa --json out/out.json "$TRASH/isa/locked.s" &&
	if test -s err; then test_grep "Permission denied" err; fi
'

test_expect_success 'truncated AMDGCN: scanned as far as it goes, with a warning' '
	cd isa &&
	tko isa --json out.json bad.trunc 2>err &&
	json_q out.json ".kernels | length >= 1" &&
	test_grep "warning: .bad.trunc.: " err
'

test_expect_success 'truncated log: the complete records, marked truncated' '
	cd summarize &&
	tko summarize --json out.json bad.trunc &&
	json_q out.json ".inputs[0].truncated == true"
'

test_expect_success 'a kernel module cut inside its decorator: an error naming the file' '
	cd meta &&
	n=$(grep -n "triton_meta=" "$PY" | head -n 1 | cut -d: -f1) &&
	{ head -n $((n - 1)) "$PY" && sed -n "${n}p" "$PY" | head -c 60; } >cut.py &&
	check_bad 1 "cut.py" -- tko meta --json out/out.json cut.py &&
	test_grep "never closed|cut off|line $n" err
'

test_done
