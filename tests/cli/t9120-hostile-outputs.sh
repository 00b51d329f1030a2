#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# Outputs that would destroy or leak something (issue 22): an output that
# names an input, a read-only file, the mode of an existing file and the
# umask of a new one, a 250-byte name, folders of a RUN that are links to
# somewhere else, a disk that fills while investigate publishes, and
# standard output that cannot be written.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-badinput.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run
KD=capture/kernels/triton_poi_fused_index_add_zeros_1-470ead05
ASM=$SRC_ROOT/examples/isa/triton_poi_fused_index_add_zeros_1.gfx942.amdgcn
TKO_PYTHONPATH="$TRASH/pkg"
TKO_PYTHON="$TRASH/fakepy"
export TKO_PYTHONPATH TKO_PYTHON

test_expect_success 'setup: inputs, and a replay that writes a result' '
	cp "$EXAMPLE/log/"*.log log.txt &&
	cp "$ASM" k.amdgcn &&
	cp "$SRC_ROOT/tests/data/profile/rocprof-v1-results.csv" prof.csv &&
	mkdir -p pkg/tko && : >pkg/tko/__init__.py && : >pkg/tko/replay.py &&
	cat >fakepy <<-\EOF &&
	#!/bin/sh
	# tko run starts "$TKO_PYTHON -m tko.replay DIR... --json OUT --reps N"
	shift 2
	dirs=
	while test "$1" != --json; do dirs="$dirs \"$1\""; shift; done
	printf "{\"schema_version\": 1, \"kernels\": [" >"$2"
	sep=
	for d in $dirs; do printf "%s{\"kernel_dir\": %s, \"kernel\": \"k\", \"configs\": []}" "$sep" "$d" >>"$2"; sep=,; done
	printf "]}\n" >>"$2"
	EOF
	chmod +x fakepy
'

test_expect_success 'an output that is an input is refused; the input is kept' '
	cp log.txt keep && cp k.amdgcn keep.s && cp prof.csv keep.csv &&
	for args in "summarize log.txt --json log.txt" "summarize log.txt --md log.txt" \
		"isa k.amdgcn --json k.amdgcn" "isa k.amdgcn --md k.amdgcn" \
		"profile prof.csv --json prof.csv"; do
		# shellcheck disable=SC2086 # split on purpose
		test_expect_code 1 tko $args >/dev/null 2>err &&
		test_one_line_error err &&
		test_grep "refusing to write .* one of this command.s inputs" err || return 1
	done &&
	test_cmp keep log.txt && test_cmp keep.s k.amdgcn && test_cmp keep.csv prof.csv &&
	chmod 444 log.txt &&
	test_expect_code 1 tko summarize log.txt --json log.txt >/dev/null 2>err &&
	test_cmp keep log.txt &&
	ln -s log.txt alias.txt &&
	test_expect_code 1 tko summarize log.txt --json alias.txt >/dev/null 2>err &&
	test_cmp keep log.txt && chmod 644 log.txt
'

test_expect_success 'a read-only output is not replaced' '
	echo old >ro.json && chmod 444 ro.json &&
	test_expect_code 1 tko summarize log.txt --json ro.json >/dev/null 2>err &&
	test_one_line_error err &&
	test_grep "refusing to replace .ro.json.: it is read-only" err &&
	test "$(cat ro.json)" = old
'

test_expect_success 'a new output follows the umask; a replaced one keeps its mode' '
	(umask 077 && tko summarize log.txt --json new.json >/dev/null) &&
	test "$(stat -c %a new.json)" = 600 &&
	(umask 022 && tko summarize log.txt --json new644.json >/dev/null) &&
	test "$(stat -c %a new644.json)" = 644 &&
	chmod 640 new.json &&
	(umask 022 && tko summarize log.txt --json new.json >/dev/null) &&
	test "$(stat -c %a new.json)" = 640
'

test_expect_success 'an output name of 250 bytes and more' '
	n=$(printf "%0250d" 0) &&
	tko summarize log.txt --json "$n.json" >/dev/null &&
	json_q "$n.json" ".schema_version == 1" &&
	test "$(ls -A | grep -c "^\.tko-")" = 0
'

# fresh_run: a copy of the example RUN in ./run, its analysis/ and report/ away.
fresh_run() {
	rm -rf run outside && cp -R "$EXAMPLE" run && mkdir -p outside/a outside/r &&
	mv run/analysis/replay.json outside/a/ && rmdir run/analysis &&
	echo keep >outside/a/kernels.json && echo keep >outside/r/report.md
}

test_expect_success 'RUN/analysis or RUN/report a link out of the RUN: investigate refuses' '
	fresh_run && ln -s ../outside/a run/analysis &&
	test_expect_code 1 tko investigate run >/dev/null 2>err &&
	test_one_line_error err &&
	test_grep "refusing to write through .run/analysis.: it is a symbolic link" err &&
	test "$(cat outside/a/kernels.json)" = keep && test ! -e outside/a/isa.json &&
	rm run/analysis && ln -s ../outside/r run/report &&
	test_expect_code 1 tko investigate run >/dev/null 2>err &&
	test_grep "refusing to write through .run/report." err &&
	test "$(cat outside/r/report.md)" = keep && test ! -e outside/r/report.html &&
	test ! -e run/analysis/kernels.json
'

test_expect_success 'tko report and tko run refuse a RUN/report or RUN/analysis link too' '
	fresh_run && mkdir run/analysis && tko -q investigate run >/dev/null &&
	cp outside/a/replay.json replay.before &&
	rm -rf run/report && ln -s ../outside/r run/report &&
	test_expect_code 1 tko report run >/dev/null 2>err &&
	test_one_line_error err && test_grep "refusing to write through .run/report." err &&
	test "$(cat outside/r/report.md)" = keep &&
	rm -rf run/analysis && ln -s ../outside/a run/analysis &&
	test_expect_code 1 tko run "run/$KD" >/dev/null 2>err &&
	test_grep "refusing to write through .*run/analysis.: it is a symbolic link" err &&
	test "$(cat outside/a/kernels.json)" = keep &&
	test_cmp replay.before outside/a/replay.json
'

test_expect_success 'tko report: an analysis reached through a link out of the RUN is refused' '
	fresh_run && mkdir run/analysis && tko -q investigate run --out-dir other >/dev/null &&
	rmdir run/analysis && ln -s ../other/analysis run/analysis &&
	test_expect_code 1 tko report run >/dev/null 2>err &&
	test_one_line_error err && test_grep "leads out of the RUN" err
'

test_expect_success 'a disk that fills while investigate writes: nothing is published' '
	fresh_run && mkdir run/analysis && cp outside/a/replay.json run/analysis/ &&
	find run -type f | sort | xargs md5sum >before &&
	(trap "" XFSZ && ulimit -f 400 && tko -q investigate run >/dev/null 2>err) ;
	test $? = 1 && test_one_line_error err &&
	test_grep "cannot write .run/analysis/meta.json.: File too large" err &&
	find run -type f | sort | xargs md5sum >after &&
	test_cmp before after &&
	test ! -d run/report &&
	test "$(find run -name ".tko-*" | wc -l)" = 0
'

test_expect_success 'standard output that cannot be written fails the command' '
	fresh_run && mkdir run/analysis && tko -q investigate run >/dev/null &&
	for args in "summarize log.txt" "isa k.amdgcn" "-q investigate run" "-q report run" \
		"summarize log.txt --json -"; do
		# shellcheck disable=SC2086 # split on purpose
		test_expect_code 1 tko $args >/dev/full 2>err &&
		test_one_line_error err &&
		test_grep "cannot write to standard output: No space left on device" err || return 1
	done
'

test_expect_success 'a closed pipe, with SIGPIPE ignored, fails the command' '
	(trap "" PIPE && { sleep 1; tko summarize log.txt 2>err; echo $? >rc; } | true) &&
	test "$(cat rc)" = 1 &&
	test_grep "cannot write to standard output: Broken pipe" err
'

test_done
