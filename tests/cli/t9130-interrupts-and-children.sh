#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# Signals and children that misbehave (issue 22): Ctrl-C (SIGINT to tko's
# process group) and SIGTERM stop tko's children, even those in a group of
# their own, remove its temporary files and end it with 130/143; a child
# that prints forever is stopped at the cap on its output; one that hangs
# is stopped at its time limit with a message that says so; a $TKO_PYTHON
# that answers with one endless line is cut off.
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run
TMPDIR=$TRASH/tmp
TKO_PYTHONPATH="$TRASH/pkg"
export TMPDIR TKO_PYTHONPATH

test_expect_success 'setup: a kernel directory, a replay that hangs, tools that hang or flood' '
	mkdir -p tmp pkg/tko run/capture/kernels/k-0123abcd bin &&
	: >pkg/tko/__init__.py && : >pkg/tko/replay.py &&
	echo "{\"schema_version\": 1, \"kernel\": \"k\", \"args\": []}" \
		>run/capture/kernels/k-0123abcd/capture.json &&
	echo "def k(): pass" >run/capture/kernels/k-0123abcd/kernel.py &&
	cat >hangpy <<-\EOF &&
	#!/bin/sh
	# a replay that writes into its folder, says who it is, and hangs
	while test $# -gt 0; do test "$1" = --json && out=$2; shift; done
	: >"$(dirname "$out")/.replay-partial"
	echo $$ >"$TKO_TEST_CHILD"
	exec sleep 120
	EOF
	printf "#!/bin/sh\nexec yes \"v_add_f32 v0, v1, v2\"\n" >bin/flood &&
	printf "#!/bin/sh\nexec sleep 120\n" >bin/hang &&
	printf "#!/bin/sh\nyes \"{\\\\\"id\\\\\": \\\\\"x\\\\\", \\\\\"pad\\\\\": \\\\\"\" | tr -d \"\\\\n\"\n" >bin/endless &&
	chmod +x hangpy bin/flood bin/hang bin/endless &&
	{ printf "\177ELF\002\001\001\100"; head -c 10 /dev/zero; printf "\340\000";
	  head -c 28 /dev/zero; printf "\114\000\000\000"; head -c 12 /dev/zero; } >k.hsaco
'

# interrupt SIG WHOM: tko run on the hanging replay in a session of its
# own (so its group is what a terminal's Ctrl-C reaches), signalled once
# the replay runs: WHOM "group" or "tko". Leaves the exit status in ./rc.
interrupt() {
	rm -f child rc && TKO_TEST_CHILD=$TRASH/child && export TKO_TEST_CHILD &&
	{ TKO_PYTHON=$TRASH/hangpy setsid env --default-signal=INT "$TKO" run \
		run/capture/kernels/k-0123abcd >out 2>err & } &&
	pid=$! && i=0 &&
	while ! test -s child && test "$i" -lt 100; do sleep 0.1; i=$((i + 1)); done &&
	test -s child &&
	if test "$2" = group; then kill -"$1" -"$pid"; else kill -"$1" "$pid"; fi &&
	{ wait "$pid"; echo $? >rc; } &&
	sleep 0.2
}

test_expect_success_if setsid 'Ctrl-C: the replay (its own group) is stopped, no temporary left, 130' '
	interrupt INT group &&
	test "$(cat rc)" = 130 &&
	! kill -0 "$(cat child)" 2>/dev/null &&
	test "$(ls -A tmp | wc -l)" = 0
'

test_expect_success_if setsid 'SIGTERM to tko alone: the same, 143' '
	interrupt TERM tko &&
	test "$(cat rc)" = 143 &&
	! kill -0 "$(cat child)" 2>/dev/null &&
	test "$(ls -A tmp | wc -l)" = 0
'

test_expect_success 'an interrupted investigate leaves no temporary file, whenever it is hit' '
	cp -R "$EXAMPLE" inv && i=0 &&
	while test $i -lt 40; do
		{ "$TKO" -q investigate inv >/dev/null 2>&1 & } && pid=$! &&
		sleep "0.$((i % 20 / 10))$((i % 10))$((i / 20))" && kill -TERM "$pid" 2>/dev/null;
		wait "$pid";
		left=$(find inv -name ".tko-*" -o -name "*.tmp.*") &&
		test -z "$left" || { echo "left after $i: $left"; return 1; }
		i=$((i + 1))
	done
'

test_expect_success 'a disassembler that prints forever is stopped at the cap' '
	if test "${TKO_VALGRIND:-0}" = 1; then echo "# 256 MiB is slow under valgrind"; exit 0; fi &&
	s=$(date +%s) &&
	TKO_LLVM_OBJDUMP=$TRASH/bin/flood test_expect_code 1 tko isa k.hsaco >/dev/null 2>err &&
	test_one_line_error err &&
	test_grep "cannot disassemble .k.hsaco.: .*flood. printed more than 256 MiB and was stopped" err &&
	test $(($(date +%s) - s)) -lt 60
'

test_expect_success 'a disassembler that hangs is stopped at --timeout, and said so' '
	s=$(date +%s) &&
	TKO_LLVM_OBJDUMP=$TRASH/bin/hang test_expect_code 1 tko isa --timeout 1 k.hsaco >/dev/null 2>err &&
	test_one_line_error err &&
	test_grep "cannot disassemble .k.hsaco.: .*hang. ran past 1 seconds and was stopped" err &&
	test $(($(date +%s) - s)) -lt 30
'

test_expect_success 'tko env: an nvcc that prints forever is stopped at the cap; env goes on' '
	if test "${TKO_VALGRIND:-0}" = 1; then echo "# 256 MiB is slow under valgrind"; exit 0; fi &&
	cp bin/flood bin/nvcc && s=$(date +%s) &&
	PATH="$TRASH/bin:$PATH" TKO_PYTHON=/no/such/python tko env --json env.json >/dev/null 2>err &&
	test $(($(date +%s) - s)) -lt 60 &&
	json_q env.json "[.tools[] | select(.name == \"nvcc\")][0].version == null" >/dev/null &&
	rm bin/nvcc
'

test_expect_success 'a $TKO_PYTHON answering one endless line: the tune worker is cut off' '
	mkdir -p pyd/tko && : >pyd/tko/tune_worker.py && echo "def k(): pass" >k.py &&
	TKO_PYTHON=$TRASH/bin/endless TKO_PYTHON_DIR=$TRASH/pyd test_must_fail \
		tko tune --compile-only k.py --json t.json >/dev/null 2>err &&
	test_grep "reply is longer than 64 MiB" err &&
	test ! -e t.json
'

test_done
