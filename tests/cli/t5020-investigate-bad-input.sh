#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko investigate on bad input: one line naming the file and the problem,
# a non-zero exit, no half-written report.
. "$(dirname "$0")/lib.sh"

RUN=$CORPUS/h200-run1

test_expect_success '--help lists the options and both forms' '
	tko investigate --help >out &&
	test_grep "^usage: tko investigate \[options\] RUN" out &&
	test_grep "\-\- CMD \[ARGS...\]" out &&
	test_grep "\-\-peak-gbps X" out && test_grep "\-\-out-dir DIR" out &&
	tko help investigate >out2 && test_cmp out out2
'

test_expect_success 'usage errors exit 2 with one line' '
	test_expect_code 2 tko investigate 2>err && test_one_line_error err &&
	test_expect_code 2 tko investigate a b 2>err && test_one_line_error err &&
	test_expect_code 2 tko investigate -- 2>err && test_grep "no command after" err &&
	test_expect_code 2 tko investigate "$RUN" -- true 2>err && test_grep "not both" err &&
	test_expect_code 2 tko investigate --kernels x "$RUN" 2>err && test_grep "go with" err &&
	test_expect_code 2 tko investigate --no-replay "$RUN" 2>err && test_grep "go with" err &&
	test_expect_code 2 tko investigate --md - --json - "$RUN" 2>err && test_one_line_error err &&
	test_expect_code 2 tko investigate --top -1 "$RUN" 2>err && test_one_line_error err &&
	test_expect_code 2 tko investigate --bogus "$RUN" 2>err
'

test_expect_success 'a missing path, a file, a directory that is no RUN' '
	test_expect_code 1 tko investigate --out-dir o nope 2>err && test_one_line_error err &&
	test_grep "nope. is not a directory" err &&
	echo hi >file &&
	test_expect_code 1 tko investigate --out-dir o file 2>err && test_one_line_error err &&
	mkdir empty &&
	test_expect_code 1 tko investigate --out-dir o empty 2>err && test_one_line_error err &&
	test_grep "is not a RUN directory" err &&
	test ! -e o/report
'

test_expect_success 'a read-only RUN without --out-dir: says where and how to fix it' '
	mkdir -p ro/log && cp "$RUN/log_profile.txt" ro/log/model.log && chmod a-w ro &&
	if [ "$(id -u)" = 0 ]; then chmod u+w ro; echo "root can write anyway"; else
		test_expect_code 1 tko investigate ro 2>err && test_one_line_error err &&
		test_grep "use --out-dir" err
	fi
'

test_expect_success 'a broken replay or tune document is an error naming it' '
	mkdir -p run/log && cp "$RUN/log_profile.txt" run/log/model.log &&
	printf "{\"kernels\": [" >bad.json &&
	test_expect_code 1 tko investigate --replay bad.json run 2>err && test_one_line_error err &&
	test_grep "bad.json" err &&
	echo "{}" >norun.json &&
	test_expect_code 1 tko investigate --replay norun.json run 2>err && test_one_line_error err &&
	test_grep "not a .tko run. document" err &&
	test_expect_code 1 tko investigate --tune bad.json run 2>err && test_one_line_error err &&
	mkdir -p run/analysis && : >run/analysis/replay.json &&
	test_expect_code 1 tko investigate run 2>err && test_one_line_error err &&
	test_grep "replay.json. is empty" err
'

test_expect_success 'tko-run.json: a field of the wrong type is one line naming it, an unknown field is read past' '
	mkdir -p m/log && cp "$RUN/log_profile.txt" m/log/model.log &&
	echo "{\"argv\": [\"python\", 3]}" >m/tko-run.json &&
	test_expect_code 1 tko -q investigate --out-dir o1 m >/dev/null 2>err && test_one_line_error err &&
	test_grep "m/tko-run.json.: argv: not a list of strings" err && test ! -e o1/report &&
	echo "{\"exit_status\": \"0\"}" >m/tko-run.json &&
	test_expect_code 1 tko -q investigate --out-dir o1 m >/dev/null 2>err && test_one_line_error err &&
	test_grep "m/tko-run.json.: exit_status: not an integer" err &&
	echo "{\"argv\": [\"python\", \"my model.py\"], \"newer\": {\"x\": [1]}}" >m/tko-run.json &&
	tko -q investigate --out-dir o2 m >/dev/null 2>err &&
	json_q o2/report/report.json ".command == \"python '"'"'my model.py'"'"'\""
'

test_expect_success 'a replay document'"'"'s peak: a rate of 0 is the peak, a peak without a rate is none' '
	mkdir -p p/log && cp "$RUN/log_profile.txt" p/log/model.log &&
	echo "{\"kernels\": [], \"peak\": {\"copy_gbps\": 0, \"source\": \"x\"}}" >zero.json &&
	echo "{\"kernels\": [], \"peak\": {\"source\": \"x\"}}" >norate.json &&
	tko -q investigate --replay zero.json --out-dir oz p >/dev/null &&
	json_q oz/report/report.json ".peak_gbps == 0 and .peak_source == \"the replay document'"'"'s peak (tko run)\"" &&
	tko -q investigate --replay norate.json --out-dir on p >/dev/null &&
	json_q on/report/report.json ".peak_gbps == null and .peak_source == null"
'

test_expect_success 'env.json: the device is its first GPU when the capture names none; a bad GPU field is one line' '
	mkdir -p e/log && cp "$RUN/log_profile.txt" e/log/model.log &&
	cp "$SRC_ROOT/tests/data/env/tko-env-dcu.json" e/env.json &&
	tko -q investigate --out-dir oe e >/dev/null &&
	jq -c "[.gpus[0].name, .gpus[0].arch, .gpus[0].backend]" e/env.json >want &&
	jq -c "[.device, .arch, .backend]" oe/report/report.json >got && test_cmp want got &&
	jq ".gpus[1].arch = 936" "$SRC_ROOT/tests/data/env/tko-env-dcu.json" >e/env.json &&
	test_expect_code 1 tko -q investigate --out-dir oe2 e >/dev/null 2>err && test_one_line_error err &&
	test_grep "e/env.json.: gpus\[1\]\.arch: not a string" err
'

test_expect_success 'a RUN with only a truncated, binary-laced log still gives a report' '
	mkdir -p cut/log && head -c 300000 "$RUN/log_profile.txt" >cut/log/model.log &&
	tko investigate cut >out 2>err &&
	json_q cut/report/report.json ".kernels | type == \"array\"" &&
	mkdir -p bin/log && head -c 4096 /dev/urandom >bin/log/model.log &&
	tko investigate bin >out 2>err &&
	json_q bin/report/report.json "(.kernels | length) == 0 and (.notes | length) >= 1"
'

test_done
