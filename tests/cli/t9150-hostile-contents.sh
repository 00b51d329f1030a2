#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# Contents that are hostile or just unlucky (issue 22): control characters
# in kernel names, a RUN whose name is a shell command, JSON fields that
# are null or of the wrong sign, endless and binary streams, captures that
# race for one RUN, and thousands of kernels sharing one name.
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run
TKO_PYTHON=/no/such/python
TKO_PYTHONPATH=$SRC_ROOT/python
export TKO_PYTHON TKO_PYTHONPATH

# no_controls FILE: no byte below 0x20 but tab and newline, no DEL, no C1 control.
no_controls() {
	! LC_ALL=C grep -q "$(printf "[\001-\010\013-\037\177]")" "$1" &&
	! LC_ALL=C grep -q "$(printf "\302[\200-\237]")" "$1"
}

test_expect_success 'setup: events naming kernels with ESC, CR, LF and a C1 CSI' '
	mkdir -p esc/capture &&
	printf "{\"schema_version\": 1, \"event\": \"kernel\", \"kernel\": \"k\\\\u001b[2J\\\\u001b]0;owned\\\\u0007\\\\r\\\\nFAKE\\\\u009b31m\", \"source_hash\": \"aa\", \"heuristic_type\": \"pointwise\"}\n" \
		>esc/capture/events.jsonl &&
	LC_ALL=C grep -q "u001b" esc/capture/events.jsonl
'

test_expect_success 'summarize, investigate and report.md print them escaped' '
	tko summarize esc >s.txt &&
	no_controls s.txt && test_grep "k\\\\x1b\[2J\\\\x1b\]0;owned\\\\x07\\\\x0d\\\\x0aFAKE\\\\u009b31m" s.txt &&
	tko summarize esc --md s.md >/dev/null && no_controls s.md &&
	tko investigate esc --out-dir o >i.txt 2>i.err &&
	no_controls i.txt && no_controls i.err &&
	no_controls o/report/report.md && no_controls o/report/report.html &&
	test_expect_code 4 tko summarize esc --kernel "$(printf "k\033[2J")" >/dev/null 2>err &&
	no_controls err
'

test_expect_success 'a RUN named "r;touch PWNED;#": every suggested command is one quoted path' '
	R="r;touch PWNED;#" && mkdir -p "$R/capture/kernels/k-0123abcd" bin &&
	printf "{\"schema_version\": 1, \"event\": \"kernel\", \"kernel\": \"k\", \"source_hash\": \"aa\", \"kernel_dir\": \"capture/kernels/k-0123abcd\", \"heuristic_type\": \"pointwise\"}\n" \
		>"$R/capture/events.jsonl" &&
	echo "{\"schema_version\": 1, \"args\": []}" >"$R/capture/kernels/k-0123abcd/capture.json" &&
	tko -q investigate "$R" >out.txt &&
	printf "#!/bin/sh\nfor a; do printf \"%%s\\\\n\" \"\$a\"; done >>\"%s/args\"\n" "$TRASH" >bin/tko &&
	chmod +x bin/tko &&
	jq -r "[.gaps[], .kernels[].gaps[]] | .[] | .command // empty | select(startswith(\"tko \"))" \
		"$R/analysis/kernels.json" >cmds &&
	test_line_count -ge 3 cmds &&
	while IFS= read -r c; do PATH="$TRASH/bin:$PATH" sh -c "$c" || return 1; done <cmds &&
	test ! -e PWNED && test ! -e "$R/PWNED" &&
	test_grep "^r;touch PWNED;#/capture/kernels/k-0123abcd$" args &&
	test_grep "^r;touch PWNED;#/analysis/replay.json$" args &&
	test_grep "^r;touch PWNED;#/env.json$" args
'

test_expect_success 'setup: an analysis of the example RUN' '
	cp -R "$EXAMPLE" run && tko -q investigate run >/dev/null
'

test_expect_success 'null where kernels.json has a string: one line naming the field, no crash' '
	for f in ".kernels[0].id" ".kernels[3].name" ".kernels[1].isa.families[0].name"; do
		jq "$f = null" run/analysis/kernels.json >n.json &&
		for fmt in md html json; do
			test_expect_code 1 tko report n.json --$fmt x 2>err &&
			test_one_line_error err && test_grep "n.json.: kernels\[[0-9]\]" err || return 1
		done &&
		test_expect_code 1 tko diff run/analysis/kernels.json n.json >/dev/null 2>err &&
		test_one_line_error err || return 1
	done &&
	jq ".kernels[0].bytes_basis = null" run/analysis/kernels.json >b.json &&
	tko report b.json --md b.md && tko report b.json --html b.html
'

test_expect_success 'a tko isa document with a null or negative field: one line, no crash' '
	tko isa "$SRC_ROOT/examples/isa/triton_poi_fused_index_add_zeros_1.gfx942.amdgcn" --json i.json >/dev/null &&
	jq ".kernels[0].name = null" i.json >in.json &&
	test_expect_code 1 tko diff i.json in.json >/dev/null 2>err &&
	test_one_line_error err && test_grep "in.json.: kernels\[0\]\.name: null" err &&
	jq ".kernels[0].resources.vgprs = -3" i.json >in.json &&
	test_expect_code 1 tko diff i.json in.json >/dev/null 2>err &&
	test_grep "in.json.: kernels\[0\]\.resources: not an object of counts" err
'

test_expect_success 'a negative time or rate in a replay, tune or env file is refused, naming the field' '
	jq ".kernels[0].configs[0].time_ms = -1" run/analysis/replay.json >neg.json &&
	test_expect_code 1 tko -q investigate run --replay neg.json --out-dir o1 >/dev/null 2>err &&
	test_one_line_error err &&
	test_grep "neg.json.: kernels\[0\]\.configs\[0\]\.time_ms: not a time \(a number >= 0\)" err &&
	echo "{\"schema_version\": 1, \"tool\": \"tko tune\", \"kernels\": [{\"kernel\": \"k\", \"winner\": {\"time_ms\": -1.5}}]}" >t.json &&
	test_expect_code 1 tko -q investigate run --tune t.json --out-dir o2 >/dev/null 2>err &&
	test_grep "t.json.: kernels\[0\]\.winner\.time_ms: not a time" err &&
	test ! -e o1/report && test ! -e o2/report &&
	cp -R run run3 && jq ".bandwidth.copy_gbps = -5" run/env.json >run3/env.json &&
	test_expect_code 1 tko -q investigate run3 >/dev/null 2>err &&
	test_grep "run3/env.json.: bandwidth\.copy_gbps: not a rate \(a number >= 0\)" err
'

test_expect_success '/dev/zero to isa, summarize, diff and report: refused at once' '
	for args in "isa /dev/zero" "summarize /dev/zero" "diff /dev/zero run/analysis/kernels.json" \
		"report /dev/zero --md x"; do
		# shellcheck disable=SC2086 # split on purpose
		test_expect_code 1 tko $args >/dev/null 2>err &&
		test_one_line_error err &&
		test_grep "/dev/zero. is binary, not text \(NUL byte at offset 0\)" err || return 1
	done
'

test_expect_success 'an endless text pipe: cut at 256 MiB with one line' '
	if test "${TKO_VALGRIND:-0}" = 1; then echo "# 256 MiB is slow under valgrind"; exit 0; fi &&
	{ yes "I1202 15:29:32.676000 475 x.py:1] line" | tko summarize /dev/stdin >/dev/null 2>err; } ;
	test_one_line_error err &&
	test_grep "./dev/stdin. is a stream of more than 256 MiB; save it to a file" err
'

test_expect_success 'six captures given one --out: one runs, the others refuse before running' '
	mkdir R && i=1 &&
	while test $i -le 6; do
		{ tko -q capture --out R -- sh -c "echo $i >>\"$TRASH/ran\"; sleep 1" >/dev/null 2>err.$i; echo $? >rc.$i; } &
		i=$((i + 1))
	done && wait &&
	test "$(cat rc.* | grep -c "^0$")" = 1 &&
	test "$(cat rc.* | grep -c "^1$")" = 5 &&
	test_line_count = 1 ran &&
	test "$(cat err.* | grep -c "already exists and is not empty")" = 5
'

test_expect_success 'captures with default names started in one second all run' '
	mkdir d && cd d && i=1 &&
	while test $i -le 3; do
		{ tko -q capture -- sh -c "echo $i >>../ran.d" >/dev/null 2>&1; echo $? >rc.$i; } &
		i=$((i + 1))
	done && wait &&
	test "$(cat rc.* | grep -c "^0$")" = 3 &&
	test_line_count = 3 ../ran.d &&
	test "$(ls -d tko-run-* | wc -l)" = 3
'

# 64,000 events: about 1 s now (2 s under ASan), about 25 s when the
# instances of a name are searched one by one (6 s for 32,000 on this VM).
test_expect_success '64000 events of one kernel name: linear, in seconds' '
	if test "${TKO_VALGRIND:-0}" = 1; then echo "# timing is meaningless under valgrind"; exit 0; fi &&
	mkdir -p many/capture &&
	awk "BEGIN { for (i = 0; i < 64000; i++) printf \"{\\\"schema_version\\\": 1, \\\"event\\\": \\\"kernel\\\", \\\"kernel\\\": \\\"k\\\", \\\"source_hash\\\": \\\"%064x\\\"}\\n\", i }" \
		>many/capture/events.jsonl &&
	s=$(date +%s) &&
	tko summarize many --json many.json >/dev/null &&
	test $(($(date +%s) - s)) -lt 8 &&
	json_q many.json ".kernels | length == 64000" >/dev/null
'

test_done
