#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# The bad-input matrix for the commands that read RUN and kernel
# directories: tko collect, tko run and tko tune given damaged files in
# place of capture.json and kernel.py, directories with parts missing,
# and files where directories belong; and tko summarize, meta and isa on
# RUNs with parts missing. Errors are one line naming the file, exit 1
# (4 for a kernel that is not there), and no output is written or
# replaced; a RUN that only lacks some parts is read for what it has.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-badinput.sh"

RUN=$SRC_ROOT/examples/h200-run
NAME=triton_poi_fused_index_add_zeros_1
KDIR=$RUN/capture/kernels/$NAME-470ead05

# damaged_kernel KIND DEST FILE: a copy of the kernel directory with FILE
# replaced by bad.KIND (made by make_bad_inputs from that FILE).
damaged_kernel() {
	rm -rf "$2" && cp -r "$KDIR" "$2" && rm -f "$2/$3" &&
	case $1 in
	missing) ;;
	dir) mkdir "$2/$3" ;;
	loop) ln -s "$3" "$2/$3" ;;
	huge) truncate -s 1G "$2/$3" ;;
	*) cp "bad-$3/bad.$1" "$2/$3" ;;
	esac
}

test_expect_success 'setup: damaged capture.json and kernel.py' '
	mkdir bad-capture.json bad-kernel.py &&
	(cd bad-capture.json && make_bad_inputs "$KDIR/capture.json") &&
	(cd bad-kernel.py && make_bad_inputs "$KDIR/kernel.py")
'

test_expect_success 'tko run: every kind of bad capture.json' '
	for kind in empty trunc binary nonutf8 huge dir loop missing; do
		damaged_kernel $kind k capture.json &&
		check_bad 1 "k/capture.json" -- tko run --json out/out.json k ||
			{ echo "kind $kind" >&2; return 1; }
	done
'

test_expect_success 'tko run: a capture.json that is JSON but not a capture' '
	damaged_kernel empty k capture.json && echo "{\"schema_version\": 1}" >k/capture.json &&
	check_bad 1 "k/capture.json" -- tko run --json out/out.json k &&
	test_grep "not a tko capture" err
'

test_expect_success 'tko run: no kernel.py, a file for a directory, a missing directory' '
	damaged_kernel missing k kernel.py &&
	check_bad 1 "k/kernel.py" -- tko run --json out/out.json k &&
	cp "$KDIR/kernel.py" notadir &&
	check_bad 1 "notadir" -- tko run --json out/out.json notadir &&
	check_bad 1 "nowhere" -- tko run --json out/out.json nowhere
'

test_expect_success 'tko run --env: a bad env.json is an error, not ignored' '
	for kind in empty binary nonutf8 huge loop missing; do
		check_bad 1 "bad.$kind" -- tko run --env "bad-capture.json/bad.$kind" --json out/out.json "$KDIR" ||
			{ echo "kind $kind" >&2; return 1; }
	done
'

test_expect_success 'tko tune: every kind of bad kernel.py, given as a file and in a kernel directory' '
	for kind in empty binary nonutf8 huge dir loop missing; do
		check_bad 1 "bad.$kind" -- tko tune --compile-only --target gfx942 --json out/out.json \
			"bad-kernel.py/bad.$kind" &&
		damaged_kernel $kind k kernel.py &&
		check_bad 1 "k/kernel.py" -- tko tune --compile-only --target gfx942 --json out/out.json k ||
			{ echo "kind $kind" >&2; return 1; }
	done
'

test_expect_success 'tko tune: a bad capture.json in the kernel directory' '
	for kind in empty binary nonutf8 huge dir loop; do
		damaged_kernel $kind k capture.json &&
		check_bad 1 "k/capture.json" -- tko tune --compile-only --target gfx942 --json out/out.json k ||
			{ echo "kind $kind" >&2; return 1; }
	done
'

test_expect_success 'tko collect: a RUN that is missing, a file, empty, or a link loop' '
	for kind in empty binary missing loop; do
		check_bad 1 "bad.$kind" -- tko collect "bad-kernel.py/bad.$kind" --kernel $NAME \
			--out out/c --json out/out.json ||
			{ echo "kind $kind" >&2; return 1; }
	done &&
	mkdir emptyrun &&
	check_bad 4 "emptyrun" -- tko collect emptyrun --kernel $NAME --out out/c --json out/out.json
'

test_expect_success 'tko collect: a damaged capture.json is copied as it is, and tko run then refuses it' '
	cp -r "$RUN" r && printf "{\"args\": [\000" >r/capture/kernels/$NAME-470ead05/capture.json &&
	tko collect r --kernel $NAME --out c >/dev/null &&
	cmp r/capture/kernels/$NAME-470ead05/capture.json c/capture/capture.json &&
	check_bad 1 "c/capture/capture.json" -- tko run --json out/out.json c/capture
'

test_expect_success 'a RUN with parts missing: each command reads what is there' '
	cp -r "$RUN" r2 && rm -rf r2/log r2/capture/events.jsonl r2/capture/autotune.log &&
	tko summarize --json s.json r2 >/dev/null &&
	json_q s.json "[.inputs[].path | select(test(\"best_config\"))] | length >= 1" &&
	rm -rf r2/cache/triton &&
	tko collect r2 --kernel $NAME --out c2 >/dev/null &&
	json_q c2/collect.json "[.files[] | select(.role == \"capture\")] | length >= 3" &&
	rm -rf r2/cache &&
	tko meta --json m.json r2 >/dev/null &&
	json_q m.json ".kernels | length >= 1"
'

test_expect_success 'a RUN with nothing left to read: one error line each' '
	mkdir -p r3/capture/kernels r3/log && cp "$RUN/tko-run.json" r3/ &&
	check_bad 1 "r3" -- tko summarize --json out/out.json r3 &&
	check_bad 1 "r3" -- tko meta --json out/out.json r3 &&
	check_bad 1 "r3" -- tko isa --json out/out.json r3 &&
	check_bad 4 "r3" -- tko collect r3 --kernel $NAME --out out/c --json out/out.json
'

test_done
