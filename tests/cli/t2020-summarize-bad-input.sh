#!/bin/sh
# tko summarize on bad inputs: one line naming the file and the problem,
# exit 1, no crash and no output file left behind; a truncated log still
# gives every complete record.
# Test bodies are single-quoted and run by eval in lib.sh, as in git's t/:
# their $variables expand then, and variables set here are used there.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

LOG=$CORPUS/h200-run1/log_profile.txt

# fails_with FILE PATTERN: exit 1, one-line error matching PATTERN, no JSON written
fails_with() {
	test_expect_code 1 tko summarize "$1" --json out.json >stdout 2>err &&
	test_one_line_error err &&
	test_grep "$2" err &&
	test_line_count -eq 0 stdout &&
	test ! -e out.json
}

test_expect_success 'a missing file' '
	fails_with nosuch.log "^tko summarize: cannot open .nosuch.log.: No such file or directory$"
'

test_expect_success 'an empty file' '
	: >empty.log &&
	fails_with empty.log "^tko summarize: .empty.log. is empty$"
'

test_expect_success 'a binary file' '
	printf "V1202 \000\001\002 binary" >bin.log &&
	fails_with bin.log "^tko summarize: .bin.log. is binary, not text \(NUL byte at offset 6\)$"
'

test_expect_success 'a file that is not UTF-8' '
	printf "Best config for caf\351: x\n" >latin1.log &&
	fails_with latin1.log "^tko summarize: .latin1.log. is not UTF-8 text \(invalid byte at offset 19\)$"
'

test_expect_success 'garbage text with no autotune record' '
	printf "hello\nworld\n" >words.txt &&
	fails_with words.txt "^tko summarize: no autotune records in .words.txt. \(2 lines, none recognised\)$"
'

test_expect_success 'random bytes' '
	awk "BEGIN { srand(7); for (i = 0; i < 4096; i++) printf \"%c\", 1 + int(rand() * 255) }" >random.bin &&
	test_expect_code 1 tko summarize random.bin 2>err &&
	test_one_line_error err &&
	test_grep "random.bin" err
'

test_expect_success 'a directory that is not a RUN' '
	mkdir plain &&
	fails_with plain "^tko summarize: .plain. is a directory but not a RUN directory"
'

# Root reads any file, so as root the check runs as "nobody" through setpriv.
as_reader() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

test_expect_success_if setpriv 'an unreadable file' '
	mkdir -m 777 locked && cp "$LOG" locked/log.txt && chmod 000 locked/log.txt &&
	test_expect_code 1 as_reader "$TKO" summarize locked/log.txt 2>err &&
	test_one_line_error err &&
	test_grep "^tko summarize: cannot open .locked/log.txt.: Permission denied$" err
'

test_expect_success 'malformed autotune lines are counted and named, the rest is read' '
	{
		sed -n "1,1480p" "$LOG" &&
		echo "V1202 15:29:32.921000 475 torch/_inductor/runtime/triton_heuristics.py:1185] Best config for k: XBLOCK: 1: soon, nreg 1" &&
		echo "AUTOTUNE mm(" &&
		sed -n "1481,\$p" "$LOG"
	} >damaged.log &&
	tko summarize damaged.log --json out.json >table.txt &&
	json_q out.json ".inputs[0].malformed == 2 and .inputs[0].malformed_lines == [1481, 1482]" &&
	test_grep "malformed at line 1481, 1482" table.txt &&
	json_q out.json "[.kernels[].tunings[]] | length == 11"
'

test_expect_success 'a truncated log gives every complete record and says it was cut' '
	head -c 790000 "$LOG" >cut.log &&
	tail -c 60 cut.log | grep -q . &&
	tko summarize cut.log --json out.json >/dev/null &&
	complete=$(grep -c "Best config for " cut.log) &&
	json_q out.json "[.kernels[].tunings[] | select(.method == \"benchmark\" and .complete)] | length == $complete" &&
	json_q out.json ".inputs[0].lines == $(wc -l <cut.log) + 1"
'

test_expect_success 'a log cut inside a record keeps the record, incomplete' '
	n=$(grep -n "Benchmark all input configs for triton_poi_fused_index_add_zeros_1" "$LOG" | cut -d: -f1) &&
	head -n $((n + 3)) "$LOG" >cut2.log &&
	tko summarize cut2.log --json out.json >/dev/null &&
	json_q out.json ".kernels[] | select(.name == \"triton_poi_fused_index_add_zeros_1\")
		| .tunings[0].complete == false and (.tunings[0].configs | length) == 3 and .best == null"
'

test_expect_success 'an existing output is left alone when the input is bad' '
	echo keep >out.json &&
	test_expect_code 1 tko summarize empty.log --json out.json 2>err &&
	echo keep >expect &&
	test_cmp expect out.json
'

test_expect_success 'an unwritable output is an error naming it' '
	test_expect_code 1 tko summarize "$LOG" --json nodir/out.json >stdout 2>err &&
	test_one_line_error err &&
	test_grep "nodir/out.json" err
'

test_done
