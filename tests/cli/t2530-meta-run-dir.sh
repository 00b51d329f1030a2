#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko meta on a directory: every kernel module under it, wrapper modules
# recognised and linked, non-Python files ignored. Counts from grep.
. "$(dirname "$0")/lib.sh"

KDIR=$CORPUS/h200-run1/cache/inductor

test_expect_success 'every kernel module of the Inductor cache is read' '
	tko meta --json out.json "$KDIR" >out &&
	wrappers=$(grep -l "async_compile.triton(" "$KDIR"/*/*.py | wc -l) &&
	modules=$(ls "$KDIR"/*/*.py | wc -l) &&
	json_q out.json "[.files[] | select(.role == \"wrapper\")] | length == $wrappers" &&
	json_q out.json "[.files[] | select(.role == \"kernel\")] | length == $((modules - wrappers))" &&
	kernels=$(grep -L "async_compile.triton(" "$KDIR"/*/*.py | xargs grep -h -c "^@triton.jit" | paste -sd+ | bc) &&
	json_q out.json ".kernels | length == $kernels" &&
	test_grep "^$kernels kernels$" out
'

test_expect_success 'each wrapper block names a kernel file that was read' '
	tko meta --json out.json "$KDIR" &&
	blocks=$(grep -h -c "= async_compile.triton(" "$KDIR"/*/*.py | paste -sd+ | bc) &&
	json_q out.json ".wrapped | length == $blocks" &&
	json_q out.json "[.wrapped[] | select(.resolved == null)] | length == 0" &&
	json_q out.json "[.kernels[] | select(.aten != null)] | length == $blocks"
'

test_expect_success 'a RUN copied elsewhere still links wrappers to kernels' '
	mkdir -p run/cache && cp -r "$KDIR" run/cache/inductor &&
	tko meta --json out.json run &&
	json_q out.json "[.wrapped[] | select(.resolved == null)] | length == 0" &&
	json_q out.json "[.wrapped[].resolved | startswith(\"run/cache/inductor/\")] | all"
'

test_expect_success 'a wrapper module alone: its embedded kernels, lines counted in the wrapper' '
	w=$KDIR/2y/c2y7l3hjoz3kucv3lz3rfl7oyyzrqcnwaetgeepjff5eravxqr37.py &&
	tko meta --json out.json "$w" &&
	grep -n "^def triton_" "$w" | cut -d: -f1 >want &&
	jq -r ".kernels[].line" out.json >got &&
	test_cmp want got &&
	json_q out.json "[.kernels[].embedded_at] | all(. != null)"
'

test_done
