#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# Robustness pass over real files (ctags' chop/slap/noise): every corpus
# DCU file and a sample of AMDGCN, PTX and SASS text, cut at several
# points from the end and from the start, and with bytes overwritten.
# tko isa must exit 0 or 1 and never crash (the sanitizer build aborts on
# any memory error, which test_must_fail-style checks turn into a failure).
. "$(dirname "$0")/lib.sh"

files="$CORPUS/dcu/*.s $CORPUS/dcu/*.amdgcn
$CORPUS/amd-xcompile/add_scale.gfx1100.buf0.amdgcn
$CORPUS/amd-xcompile/inductor.triton_mm.gfx942.amdgcn
$CORPUS/amd-xcompile/inductor.triton_.gfx90a.amdgcn
$CORPUS/h200-run1/cache/triton/VZOCIUMWPAPLYL7CE4G34I2D74EVAPJFGGB527M4SJMNTX35IMPQ/triton_poi_fused_index_add_zeros_1.ptx
$CORPUS/h200-run1/cache/triton/I2HAEDFYDFBTJU2MYLDWHWDR7NFL5HI3UXPPEOL44D53K3GNZ4TA/triton_mm.ptx"

# run_ok FILE: tko isa exits 0 (scanned) or 1 (refused), nothing else.
run_ok() {
	tko -q isa --json - "$1" >/dev/null 2>err
	code=$?
	if [ "$code" -gt 1 ]; then
		echo "exit $code on $1" >&2
		cat err >&2
		return 1
	fi
}

test_expect_success 'cut from the end at 1%, 10%, 33%, 50%, 77%, 99%' '
	for f in $files; do
		size=$(wc -c <"$f") &&
		for pct in 1 10 33 50 77 99; do
			head -c $((size * pct / 100)) "$f" >cut.s &&
			run_ok cut.s || { echo "in $f at $pct%"; return 1; }
		done || return 1
	done
'

test_expect_success 'cut from the start at 10%, 50%, 90%' '
	for f in $files; do
		size=$(wc -c <"$f") &&
		for pct in 10 50 90; do
			tail -c $((size - size * pct / 100)) "$f" >cut.s &&
			run_ok cut.s || { echo "in $f at $pct%"; return 1; }
		done || return 1
	done
'

test_expect_success 'noise: bytes overwritten with quotes, brackets and newlines' '
	for f in $files; do
		size=$(wc -c <"$f") &&
		cp "$f" noisy.s &&
		for off in 7 $((size / 7)) $((size / 3)) $((size / 2)) $((size - 9)); do
			printf "\"[/*:\n.if \n" | dd of=noisy.s bs=1 seek="$off" conv=notrunc 2>/dev/null
		done &&
		run_ok noisy.s || { echo "in $f"; return 1; }
	done
'

test_done
