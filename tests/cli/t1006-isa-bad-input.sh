#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa on bad input: missing, empty, binary, huge, non-UTF-8,
# unreadable, truncated, a directory, not assembly at all; and outputs
# that cannot be written. Each is one line on stderr and a non-zero exit
# (or, for truncated text, a correct result and a warning), never a crash.
. "$(dirname "$0")/lib.sh"

F=$CORPUS/amd-xcompile/inductor.triton_poi_fused_index_add_zeros_1.gfx942.amdgcn

test_expect_success 'a missing file' '
	test_expect_code 1 tko isa nope.s 2>err &&
	test_one_line_error err &&
	test_grep "cannot open .nope.s.: No such file or directory" err
'

test_expect_success 'an empty file' '
	: >empty.s &&
	test_expect_code 1 tko isa empty.s 2>err &&
	test_one_line_error err &&
	test_grep ".empty.s. is empty" err
'

test_expect_success 'binary garbage' '
	{ printf "\000\001\002"; head -c 4096 /dev/urandom; } >garbage.s &&
	test_expect_code 1 tko isa garbage.s 2>err &&
	test_one_line_error err &&
	test_grep ".garbage.s. is binary, not AMDGCN, PTX or SASS text \(NUL byte at offset 0\)" err
'

test_expect_success 'a 1 GB (sparse) file is refused quickly as binary' '
	truncate -s 1G huge.s &&
	test_expect_code 1 tko isa huge.s 2>err &&
	test_one_line_error err &&
	test_grep ".huge.s. is binary" err
'

test_expect_success 'AMDGCN with a byte that is not UTF-8' '
	{ cat "$F"; printf "; \377\n"; } >latin1.s &&
	test_expect_code 1 tko isa latin1.s 2>err &&
	test_one_line_error err &&
	test_grep ".latin1.s. is not UTF-8 text \(invalid byte at offset [0-9]+\)" err
'

test_expect_success 'a NUL byte late in otherwise good AMDGCN' '
	{ cat "$F" "$F" "$F" "$F" "$F" "$F"; printf "\000"; } >nul.s &&
	test_expect_code 1 tko isa nul.s 2>err &&
	test_one_line_error err &&
	test_grep ".nul.s. is binary" err
'

# As root, chmod 000 locks nothing: run tko as nobody then (setpriv).
test_expect_success 'an unreadable file' '
	cp "$F" locked.s && chmod 000 locked.s &&
	if test "$(id -u)" = 0; then
		command -v setpriv >/dev/null &&
		chmod 755 "$TRASH" &&
		test_expect_code 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$TKO" isa "$TRASH/locked.s" 2>err
	else
		test_expect_code 1 tko isa "$TRASH/locked.s" 2>err
	fi &&
	test_one_line_error err &&
	test_grep "cannot open .*locked.s.: Permission denied" err
'

test_expect_success 'an unreadable file inside a directory is skipped with its reason' '
	mkdir mixed && cp "$F" mixed/good.amdgcn && cp "$F" mixed/locked.amdgcn &&
	chmod 000 mixed/locked.amdgcn && chmod 755 "$TRASH" mixed &&
	if test "$(id -u)" = 0; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$TKO" isa --json - "$TRASH/mixed" >out.json 2>err
	else
		tko isa --json - "$TRASH/mixed" >out.json 2>err
	fi &&
	json_q out.json ".kernels | length == 1" &&
	json_q out.json ".skipped[0].reason | test(\"Permission denied\")"
'

test_expect_success 'text that is not assembly' '
	printf "hello\nworld\n" >notes.txt &&
	test_expect_code 1 tko isa notes.txt 2>err &&
	test_one_line_error err &&
	test_grep ".notes.txt. is not AMDGCN, PTX or SASS text" err
'

test_expect_success 'MLIR named directly is skipped with a note, and no kernels is an error' '
	test_expect_code 1 tko isa "$CORPUS/amd-xcompile/add_scale.gfx942.buf0.ttgir" 2>err &&
	test_grep "no kernels found: skipped .*MLIR" err &&
	test_one_line_error err &&
	test_grep "no kernels found" err
'

test_expect_success 'an empty directory, and one without assembly' '
	mkdir none &&
	test_expect_code 1 tko isa none 2>err &&
	test_one_line_error err &&
	mkdir ir && cp "$CORPUS"/amd-xcompile/add_scale.gfx942.buf0.ll* ir/ &&
	test_expect_code 1 tko isa ir 2>err &&
	test_grep "no kernels found in .ir." err
'

test_expect_success 'truncated assembly gives the counts so far and a warning' '
	n=$(grep -n "amdgpu_metadata" "$F" | head -1 | cut -d: -f1) &&
	head -n $((n + 20)) "$F" >cut.s &&
	tko isa --json out.json cut.s 2>err &&
	test_grep "warning: .cut.s.: ends inside the .amdgpu_metadata block" err &&
	json_q out.json ".kernels[0].families.global_atomic.count == $(grep -c global_atomic_add_f32 "$F")" &&
	head -c 1500 "$F" >cut2.s &&
	tko isa --json out.json cut2.s &&
	json_q out.json ".kernels[0].instructions < 47"
'

test_expect_success 'outputs that cannot be written fail cleanly, leaving nothing behind' '
	mkdir outdir &&
	test_expect_code 1 tko isa --json outdir "$F" 2>err &&
	test_one_line_error err &&
	test_grep "cannot write .outdir.: it is a directory" err &&
	test_expect_code 1 tko isa --md missing/dir/x.md "$F" 2>err &&
	test_one_line_error err &&
	test_grep "cannot create .missing/dir/x.md." err &&
	test -z "$(ls outdir)" &&
	! ls missing >/dev/null 2>&1
'

test_done
