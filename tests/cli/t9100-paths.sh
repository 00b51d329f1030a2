#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# Path safety of every command that writes: outputs land exactly where
# they were asked for, with "..", absolute paths and symbolic links in the
# inputs, and nothing else in the tree changes (a before/after listing of
# every path with its type and checksum, outside the requested output,
# must be equal). tko collect and tko tune refuse to write through links
# in their output folders; a capture.json naming files outside its kernel
# directory is refused by the replay.
. "$(dirname "$0")/lib.sh"

RUN=$SRC_ROOT/examples/h200-run
NAME=triton_poi_fused_index_add_zeros_1
ASM=$CORPUS/dcu/gfx936_triton_hcu_buffer_ld_st_cluster16.amdgcn
LOG=$CORPUS/h200-run1/log_profile.txt
TKO_PYTHON="$SRC_ROOT/.venv/bin/python"
export TKO_PYTHON

# tree_state DIR: every path under DIR with its type, and a checksum for
# files and link targets, sorted. The tests work inside t/, and keep their
# own files (before, after, err) beside it.
tree_state() {
	(cd "$1" && find . -print | LC_ALL=C sort | while IFS= read -r p; do
		if test -L "$p"; then
			echo "$p link $(readlink "$p")"
		elif test -f "$p"; then
			echo "$p file $(cksum <"$p")"
		else
			echo "$p dir"
		fi
	done)
}

test_expect_success 'setup: a RUN whose inputs include links pointing outside it' '
	mkdir -p t/outside t/elsewhere t/sub t/sub2 && cd t &&
	echo secret >outside/secret.py && cp -r "$RUN" run &&
	K=run/capture/kernels/$NAME-470ead05 &&
	ln -s "$TRASH/t/outside/secret.py" "$K/extra.py" &&
	ln -s "$TRASH/t/outside" "$K/inputs/more" &&
	ln -s ../../../outside "$K/up"
'

test_expect_success 'tko collect: outputs only under --out, links skipped, nothing else touched' '
	cd t && tree_state . >../before &&
	tko collect run --kernel $NAME --out sub/../got --json sub2/../got.json >/dev/null &&
	test -z "$(ls -A sub)" && test -z "$(ls -A sub2)" &&
	test -z "$(find got -type l)" &&
	json_q got/collect.json "[.skipped[] | select(.why | test(\"link\"))] | length == 1" &&
	! test -e got/capture/extra.py && ! test -e got/capture/up && ! test -e got/capture/inputs/more &&
	tree_state . >../after &&
	grep -v -e "^\./got.json " -e "^\./got[ /]" ../after >../after.rest &&
	test_cmp ../before ../after.rest &&
	test_expect_code 1 tko collect run --kernel $NAME --out got2 --json nosuch/../got2.json 2>../err &&
	test_grep "nosuch/../got2.json" ../err
'

test_expect_success 'tko collect --out: an absolute path works, a link is refused' '
	cd t && tko collect run --kernel $NAME --out "$TRASH/t/abs" >/dev/null &&
	test -f abs/collect.json &&
	ln -s elsewhere linkout &&
	test_expect_code 1 tko collect run --kernel $NAME --out linkout 2>../err &&
	test_grep "link" ../err &&
	test -z "$(ls elsewhere)"
'

test_expect_success 'isa, summarize, meta: the output is written where asked, and nothing else' '
	cd t && mkdir -p w/a && tree_state . >../before &&
	tko isa --json w/a/../isa.json "$ASM" >/dev/null &&
	tko summarize --json "$TRASH/t/w/a/../sum.json" "$LOG" >/dev/null &&
	tko meta --json ./w/./meta.json run/cache/inductor >/dev/null &&
	tree_state . >../after &&
	grep -v -e "^\./w/isa.json " -e "^\./w/sum.json " -e "^\./w/meta.json " ../after >../after.rest &&
	test_cmp ../before ../after.rest &&
	test "$(grep -c "^\./w/[a-z]*\.json file" ../after)" = 3
'

test_expect_success 'an output path that is a link to a file replaces the link, not its target' '
	cd t && echo keep >elsewhere/target.json && ln -s elsewhere/target.json lnk.json &&
	tko isa --json lnk.json "$ASM" >/dev/null &&
	test "$(cat elsewhere/target.json)" = keep &&
	! test -L lnk.json && json_q lnk.json ".kernels | length >= 1"
'

test_expect_success_if jq 'tko tune: a link in the kernel directory output folder is refused' '
	cd t && cp -r "$RUN/capture/kernels/$NAME-470ead05" kd &&
	ln -s "$TRASH/t/elsewhere" kd/tune &&
	tree_state elsewhere >../before &&
	test_expect_code 1 tko tune --compile-only --target gfx942 --max-variants 1 kd >../out 2>../err &&
	test_grep "kd/tune. is a symbolic link" ../err &&
	tree_state elsewhere >../after &&
	test_cmp ../before ../after &&
	rm kd/tune && mkdir -p kd/tune && ln -s "$TRASH/t/elsewhere" kd/tune/variants &&
	test_expect_code 1 tko tune --compile-only --target gfx942 --max-variants 1 kd >../out 2>../err &&
	test_grep "variants. is a symbolic link" ../err &&
	tree_state elsewhere >../after &&
	test_cmp ../before ../after
'

test_expect_success 'the tree holds no call that goes through a shell' '
	! grep -rnE "\b(system|popen|wordexp)[[:space:]]*\(" "$SRC_ROOT/src" --include=*.c | grep -v banned.h &&
	! grep -rnE "\"/bin/sh\"|\"sh\", *\"-c\"" "$SRC_ROOT/src" &&
	! grep -rnE "shell=True|os\.system\(|os\.popen\(" "$SRC_ROOT/python"
'

test_done
