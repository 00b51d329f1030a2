#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko env and tko capture with bad surroundings: GPU tools on PATH that
# print binary garbage, non-UTF-8, nothing, a megabyte, or hang; RUN
# directories that cannot be made; commands that cannot be started. tko
# env must still give its table and JSON (the tool's facts null), capture
# must fail before running anything when its RUN cannot be made.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-badinput.sh"

TKO_PYTHON=/no/such/python
export TKO_PYTHON

# fake_tools KIND: every GPU tool env asks for prints KIND of output.
fake_tools() {
	rm -rf bin && mkdir bin &&
	for t in rocminfo hy-smi rocm-smi nvidia-smi nvcc hipcc dccobjdump cuobjdump nvdisasm ncu hipprof; do
		case $1 in
		binary) printf "#!/bin/sh\nprintf 'x\\\\000\\\\001\\\\377y'\n" ;;
		nonutf8) printf "#!/bin/sh\nprintf 'HIP version: 6.\\\\351\\\\n'\n" ;;
		empty) printf "#!/bin/sh\nexit 0\n" ;;
		huge) printf "#!/bin/sh\nhead -c 1048576 /dev/urandom\nexit 1\n" ;;
		lines) printf "#!/bin/sh\nyes 'Name: gfx936 Marketing Name: x Compute Unit: 999999999999999999999' | head -n 20000\n" ;;
		esac >bin/$t && chmod +x bin/$t || return 1
	done
}

for kind in binary nonutf8 empty huge lines; do
	test_expect_success "tko env: every tool prints $kind output" "
		fake_tools $kind &&
		PATH=\$TRASH/bin:\$PATH tko env --json env.json >table 2>err &&
		json_q env.json '.schema_version == 1' &&
		json_q env.json '[.tools[] | select(.path != null and (.path | startswith(\"$TRASH/bin\")))] | length >= 5' &&
		test_grep '^tool ' table
	"
done

test_expect_success 'tko env: a tool that hangs is stopped at its time limit' '
	fake_tools empty && printf "#!/bin/sh\nsleep 600\n" >bin/nvcc &&
	start=$(date +%s) &&
	PATH=$TRASH/bin:$PATH tko env --json env.json >/dev/null 2>err &&
	test $(($(date +%s) - start)) -lt 60 &&
	json_q env.json "[.tools[] | select(.name == \"nvcc\")][0].version == null"
'

test_expect_success 'tko capture: a RUN that cannot be made fails before the command runs' '
	: >afile && mkdir full && : >full/x &&
	for run in afile afile/sub full /proc/self/no-such-run; do
		test_expect_code 1 tko capture --out "$run" -- touch ran >out 2>err &&
		test_one_line_error err &&
		test_grep "$run" err &&
		! test -e ran || { echo "run $run" >&2; return 1; }
	done &&
	test -f afile && ! test -s afile && test "$(ls full)" = x
'

test_expect_success 'tko capture: a command that cannot be started is exit 127, recorded in the RUN' '
	test_expect_code 127 tko capture --out r1 -- ./no-such-program >out 2>err &&
	test_grep "cannot run .\./no-such-program." err &&
	json_q r1/tko-run.json ".exit_status == 127" &&
	mkdir adir &&
	test_expect_code 127 tko capture --out r2 -- ./adir >out 2>err &&
	test_grep "cannot run .\./adir." err
'

# capture prints its summary table on stderr (stdout is the command's).
test_expect_success 'tko capture: an unwritable --json is one error line; the RUN is complete' '
	tko capture --out r3 --json afile/x.json -- true >out 2>err &&
	test "$(grep -c "^tko " err)" = 1 &&
	test_grep "^tko capture: cannot create .afile/x.json." err &&
	json_q r3/tko-run.json ".exit_status == 0"
'

test_done
