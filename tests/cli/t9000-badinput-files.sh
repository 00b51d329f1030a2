#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# The bad-input matrix for the commands that read files: tko isa, tko
# summarize, tko meta, tko profile (a Chrome trace and a rocprofv3 CSV) and
# tko investigate --profile, each given every kind of damaged input
# (lib-badinput.sh: empty, binary, not UTF-8, 1 GB, /dev/zero, a
# directory, a link loop, missing, unreadable by read() and by
# permissions). Each must exit
# 1 with one line naming the file, and leave its --json/--md output
# neither half-written nor replaced. A truncated input is read as far as
# it goes and said to be cut. Profiles also come through pipes: read
# whole when they are profiles, refused when binary or endless.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-badinput.sh"

ASM=$CORPUS/dcu/gfx936_triton_hcu_buffer_ld_st_cluster16.amdgcn
LOG=$CORPUS/h200-run1/log_profile.txt
PY=$CORPUS/h200-run1/cache/inductor/d6/cd6tammrytoldkigi6wy4flunwbshyumif2kiduouxqzljcqvh3x.py
TRACE=$SRC_ROOT/tests/data/profile/kineto-mi300x-torch-compile.json.gz
CSV=$SRC_ROOT/tests/data/profile/rocprofv3-jacobi_kernel_trace.csv
RUN=$SRC_ROOT/examples/h200-run

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

test_expect_success 'setup: damaged copies of a Chrome trace and a rocprofv3 CSV' '
	mkdir profile profile-csv &&
	(cd profile && zcat "$TRACE" >good.json && make_bad_inputs good.json) &&
	(cd profile-csv && make_bad_inputs "$CSV")
'

for dir in profile profile-csv; do
	test_expect_success "tko profile ($dir): every kind of bad file is one error line, exit 1, no output" "
		cd $dir && every_kind profile &&
		check_bad 1 bad.dir -- tko profile --json out/out.json bad.dir
	"
done

test_expect_success 'tko investigate --profile: every kind of bad file is one error line, exit 1, nothing written' '
	cd profile &&
	for kind in empty binary nonutf8 huge zero dir loop missing; do
		check_bad 1 "bad.$kind" -- tko investigate --out-dir out --profile "bad.$kind" "$RUN" ||
			{ echo "kind $kind" >&2; return 1; }
	done &&
	if unreadable_works; then
		check_bad 1 "$UNREADABLE" -- tko investigate --out-dir out --profile "$UNREADABLE" "$RUN"
	fi
'

test_expect_success 'a RUN whose own profile is binary: investigate goes on without it and says why' '
	cp -R "$RUN" run && mkdir run/profile && cp profile/bad.binary run/profile/trace-1.json &&
	tko investigate run >/dev/null 2>err &&
	json_q run/analysis/kernels.json ".profile == null" &&
	json_q run/analysis/kernels.json "[.. | strings | select(test(\"trace-1.json. is binary\"))] | length > 0"
'

test_expect_success 'mode 000 as nobody: tko profile cannot open it, Permission denied' '
	cd profile && cp good.json locked.json && chmod 000 locked.json &&
	locked_run 1 "locked.json" -- tko profile --json out/out.json "$TRASH/profile/locked.json" &&
	if test -s err; then test_grep "Permission denied" err; fi
'

test_expect_success 'a truncated trace: the events before the cut, partial, a warning' '
	cd profile &&
	tko profile --json out.json bad.trunc >/dev/null 2>err &&
	json_q out.json ".partial == true and .activities > 0" &&
	tko profile --json whole.json good.json >/dev/null &&
	test "$(jq .activities out.json)" -lt "$(jq .activities whole.json)" &&
	test_grep "ends early" err
'

test_expect_success 'a truncated CSV: the whole rows before the cut' '
	cd profile-csv &&
	tko profile --json out.json bad.trunc >/dev/null &&
	n=$(($(wc -l <bad.trunc) - 1)) &&
	test "$(jq .activities out.json)" -le "$n" && test "$(jq .activities out.json)" -ge 1
'

test_expect_success 'a profile through a pipe is read whole, as from its file' '
	tko profile --json file.json "$TRACE" >/dev/null &&
	zcat "$TRACE" >plain.json &&
	tko profile --json pipe.json /dev/stdin <plain.json >/dev/null &&
	test "$(jq .busy_us pipe.json)" = "$(jq .busy_us file.json)" &&
	test "$(jq .activities pipe.json)" = "$(jq .activities file.json)" &&
	mkfifo fifo && { cat "$TRACE" >fifo & } &&
	tko profile --json fifo.json fifo >/dev/null &&
	test "$(jq .busy_us fifo.json)" = "$(jq .busy_us file.json)"
'

test_expect_success 'a binary pipe and an endless one: one error line each' '
	mkdir out &&
	test_expect_code 1 tko profile --json out/out.json /dev/stdin </dev/zero 2>err &&
	test_one_line_error err && test_grep "/dev/stdin. is binary" err &&
	{ printf "{\"traceEvents\": [{\"name\": \""; yes x | tr -d "\n"; } |
		test_expect_code 1 tko profile --json out/out.json /dev/stdin 2>err &&
	test_one_line_error err && test_grep "over 64 MiB" err &&
	{ printf "{\"traceEvents\": ["; yes "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 1},"; } |
		test_expect_code 1 tko profile --json out/out.json /dev/stdin 2>err &&
	test_one_line_error err && test_grep "stream of more than 256 MiB" err &&
	test -z "$(ls -A out)"
'

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
