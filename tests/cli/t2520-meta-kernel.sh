#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko meta --kernel NAME: an exact match narrows to one kernel; none or
# several is exit 4 with the candidates on stderr.
. "$(dirname "$0")/lib.sh"

KDIR=$CORPUS/h200-run1/cache/inductor
AMD=$CORPUS/scripts/amd_compile.py

test_expect_success '--kernel picks one kernel of a file by its exact name' '
	tko meta --kernel add_scale --json out.json "$AMD" >out &&
	test_grep "^kernel +add_scale$" out &&
	json_q out.json "[.kernels[].name] == [\"add_scale\"]"
'

test_expect_success '--kernel is exact: a prefix matches nothing and lists candidates' '
	test_expect_code 4 tko meta --kernel add_sc "$AMD" 2>err &&
	test_grep "^tko meta: no kernel named '"'"'add_sc'"'"'" err &&
	test_grep "^  add_scale  .*amd_compile.py:10$" err &&
	test_grep "^  add_scale_hint  .*amd_compile.py:19$" err
'

test_expect_success '--kernel naming several kernels lists each with its file, exit 4' '
	n=$(grep -l "^def triton_mm(" "$KDIR"/*/*.py | wc -l) &&
	test_expect_code 4 tko meta --kernel triton_mm "$KDIR" 2>err &&
	test_grep "^tko meta: $n kernels are named '"'"'triton_mm'"'"'" err &&
	test "$(grep -c "^  triton_mm  " err)" -eq "$(( n < 20 ? n : 20 ))"
'

test_expect_success '--kernel matching nothing lists 20 kernels, then how many more' '
	n=$(grep -L "async_compile.triton" "$KDIR"/*/*.py | xargs grep -h "^def triton" | wc -l) &&
	test "$n" -gt 20 &&
	test_expect_code 4 tko meta --kernel zzz "$KDIR" 2>err &&
	test_grep "^tko meta: no kernel named '"'"'zzz'"'"' \($n kernels read\); candidates:$" err &&
	test "$(grep -c "^  triton_.*\.py:[0-9]*$" err)" -eq 20 &&
	test "$(tail -n 1 err)" = "  ... and $((n - 20)) more"
'

test_expect_success '--kernel finds a kernel in a directory, with ATen ops from its wrapper' '
	tko meta --kernel triton_poi_fused_index_add_zeros_1 --json out.json "$KDIR" >out &&
	json_q out.json ".kernels | length == 1" &&
	json_q out.json ".kernels[0].aten.original_aten == [\"aten.zeros\", \"aten.index_add\"]" &&
	test_grep "^aten +from .*/2y/c2y7l3.*\.py line [0-9]+$" out
'

test_expect_success '--kernel without a name is a usage error' '
	test_expect_code 2 tko meta "$AMD" --kernel 2>err &&
	test_grep "kernel" err
'

test_done
