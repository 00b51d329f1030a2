#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko meta on bad input: one line on stderr naming the file and the
# problem, exit 1, no crash, and no JSON file left behind.
. "$(dirname "$0")/lib.sh"

KERNEL=$CORPUS/h200-run1/cache/inductor/6w/c6we6jehznv6mm73e6pnamijxure2lcnwxyvx6e4tq52nnfnlrva.py

bad_input() {
	test_expect_code 1 tko meta --json out.json "$1" 2>err &&
	test_one_line_error err &&
	test_grep "$2" err &&
	test_path_is_missing out.json
}

test_path_is_missing() {
	if [ -e "$1" ]; then
		echo "test_path_is_missing: $1 exists" >&2
		return 1
	fi
}

test_expect_success 'an empty file' '
	: >empty.py &&
	bad_input empty.py "'"'"'empty.py'"'"' is empty"
'

test_expect_success 'a binary file' '
	printf "import triton\000\001\002" >bin.py &&
	bad_input bin.py "'"'"'bin.py'"'"' is binary"
'

test_expect_success 'a file that is not UTF-8' '
	printf "import triton\nx = \"\377\376\"\n" >latin1.py &&
	bad_input latin1.py "'"'"'latin1.py'"'"' is not UTF-8 text \\(invalid byte at offset 19\\)"
'

# Cut inside the signature dict: that '{' is the innermost one left open,
# the one Python's own "was never closed" names too.
test_expect_success 'a kernel module cut off in the middle of triton_meta' '
	line=$(grep -n "triton_meta=" "$KERNEL" | cut -d: -f1) &&
	col=$(sed -n "${line}p" "$KERNEL" | awk "{ print index(\$0, \"{'"'"'out_ptr0'"'"'\") }") &&
	head -n "$((line - 1))" "$KERNEL" >cut.py &&
	sed -n "${line}s/'"'"'xnumel'"'"'.*//p" "$KERNEL" >>cut.py &&
	bad_input cut.py "^tko meta: cannot parse '"'"'cut.py'"'"' line $line column $col: .\\{. is never closed$"
'

test_expect_success 'an unterminated string' '
	printf "import triton\nx = \"\"\"abc\n\n" >str.py &&
	bad_input str.py "cannot parse '"'"'str.py'"'"' line 2 column 5: unterminated string"
'

test_expect_success 'a missing file' '
	bad_input missing.py "cannot open '"'"'missing.py'"'"': No such file or directory"
'

test_expect_success 'a file larger than the limit' '
	truncate -s 65M huge.py &&
	bad_input huge.py "'"'"'huge.py'"'"' is larger than"
'

test_expect_success 'a Python file with no kernel' '
	echo "import triton; print(1)" >plain.py &&
	bad_input plain.py "no Triton kernel found in '"'"'plain.py'"'"'"
'

test_expect_success 'a directory with no kernel module' '
	mkdir nothing && echo "print(1)" >nothing/a.py && echo "x" >nothing/b.txt &&
	bad_input nothing "no Triton kernel found in '"'"'nothing'"'"'"
'

test_expect_success 'an unreadable file' '
	cp "$KERNEL" secret.py && chmod 000 secret.py &&
	if cat secret.py >/dev/null 2>&1; then
		echo "# skipped: running as a user who can read mode-000 files"
	else
		bad_input secret.py "cannot open '"'"'secret.py'"'"': Permission denied"
	fi
'

test_expect_success 'a bad file under a directory is skipped with a warning, the rest reported' '
	mkdir run && cp "$KERNEL" run/good.py && head -c 900 "$KERNEL" >run/bad.py &&
	test_expect_code 1 tko meta --json out.json run >out 2>err &&
	test_line_count -eq 1 err &&
	test_grep "^tko meta: warning: skipped: cannot parse '"'"'run/bad.py'"'"' line " err &&
	json_q out.json ".errors == 1" &&
	json_q out.json "[.files[] | .role] == [\"error\", \"kernel\"]" &&
	json_q out.json ".kernels | length == 1" &&
	test_grep "^kernel +triton_poi_fused_embedding_dense_backward_8$" out
'

test_expect_success 'no file name at all is a usage error' '
	test_expect_code 2 tko meta 2>err &&
	test_one_line_error err
'

test_expect_success 'an unknown option is a usage error' '
	test_expect_code 2 tko meta --frob "$KERNEL" 2>err &&
	test_grep "unknown option" err
'

test_expect_success 'an unwritable JSON path fails with one line' '
	test_expect_code 1 tko meta --json no/such/dir/out.json "$KERNEL" >out 2>err &&
	test_one_line_error err &&
	test_grep "no/such/dir/out.json" err
'

test_done
