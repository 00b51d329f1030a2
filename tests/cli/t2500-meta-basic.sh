#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko meta on single files: the table, one kernel's page, JSON to a file or
# to stdout, and --help. Expected names, lines and counts come from grep
# and awk over the same files, not from tko.
. "$(dirname "$0")/lib.sh"

AMD=$CORPUS/scripts/amd_compile.py
KDIR=$CORPUS/h200-run1/cache/inductor
# The index_add kernel module: one pointwise kernel with an atomic add.
INDEX_ADD=$KDIR/4o/c4ozvdwlpyaddht6a4ul6rkjva5blwznb2f63rrzscxxd35yh4vt.py

test_expect_success 'tko meta --help shows the usage and options' '
	tko meta --help >out &&
	test_grep "^usage: tko meta" out &&
	test_grep "\-\-kernel" out &&
	test_grep "\-\-json" out
'

test_expect_success 'tko help meta is the same help' '
	tko help meta >out &&
	test_grep "^usage: tko meta" out
'

test_expect_success 'a hand-written file: one table row per @triton.jit kernel' '
	tko meta "$AMD" >out &&
	grep -c "^@triton.jit" "$AMD" >want &&
	sed -n "s/ kernels*$//p" out >got &&
	test_cmp want got &&
	for name in $(awk "/^@triton.jit/ { getline; sub(/^def /, \"\"); sub(/\\(.*/, \"\"); print }" "$AMD"); do
		test_grep "^$name +jit +scripts/amd_compile.py:[0-9]+ " out || return 1
	done
'

test_expect_success 'the table counts tl.assume and tl.multiple_of per kernel' '
	tko meta "$AMD" >out &&
	assume=$(sed -n "/^def add_scale_hint/,/^$/p" "$AMD" | grep -c "tl.assume(") &&
	mult=$(sed -n "/^def add_scale_hint/,/^$/p" "$AMD" | grep -c "tl.multiple_of(") &&
	test_grep "^add_scale_hint .* $assume +$mult +0 +0 +0\$" out
'

test_expect_success 'one kernel gets a detailed page with each tl.* use and its line' '
	tko meta "$INDEX_ADD" >out &&
	line=$(grep -n "tl.atomic_add(" "$INDEX_ADD" | cut -d: -f1) &&
	test_grep "^kernel +triton_poi_fused_index_add_zeros_1$" out &&
	test_grep "^kind +pointwise$" out &&
	test_grep "^ *$line +tl.atomic_add +out_ptr0 +xmask & ymask " out &&
	test_grep "^device +cuda sm_90, warp size 32, 132 multiprocessors$" out &&
	test_grep "^pointers without tt.pointer_range: in_ptr0 in_ptr1 out_ptr0$" out
'

test_expect_success '--json FILE writes the document and still prints the table' '
	tko meta --json meta.json "$AMD" >out &&
	test_grep "^add_scale " out &&
	json_q meta.json ".schema_version == 1 and .tool == \"tko meta\"" &&
	json_q meta.json "[.kernels[].name] == [\"add_scale\", \"add_scale_hint\"]" &&
	json_q meta.json ".kernels[1].counts[\"tl.assume\"] == 2"
'

test_expect_success '--json - writes only JSON to stdout' '
	tko meta --json - "$AMD" >out.json &&
	json_q out.json ".kernels | length == 2" &&
	test_grep -v "^add_scale " out.json
'

test_expect_success 'several files on the command line are read together' '
	tko meta --json - "$AMD" "$INDEX_ADD" >out.json &&
	json_q out.json "[.files[].role] == [\"kernel\", \"kernel\"]" &&
	json_q out.json ".kernels | length == 3"
'

test_expect_success '--json to a FIFO writes into it and leaves it a FIFO' '
	mkfifo out.fifo &&
	{ cat out.fifo >got.json & } &&
	tko meta --json out.fifo "$AMD" >out &&
	wait &&
	test -p out.fifo &&
	json_q got.json ".kernels | length == 2"
'

test_done
