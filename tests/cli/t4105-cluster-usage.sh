#!/bin/sh
# tko cluster without a Slurm: help, usage errors, bad plans, settings
# files and task folders, a missing sbatch; each a one-line error and its
# exit status, nothing half-written. (t4110 runs it on a real Slurm.)
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"
. "$TESTS_DIR/lib-cluster.sh"

test_expect_success 'setup: a RUN of three kernels' '
	make_run run d6 6w sb
'

test_expect_success '--help on tko cluster and each subcommand' '
	for c in "" plan submit status gather; do
		tko cluster $c --help >out || return 1
		test_grep "^usage: tko cluster" out || return 1
	done
'

test_expect_success 'no subcommand, or an unknown one: exit 2' '
	test_expect_code 2 tko cluster 2>err &&
	test_grep "give a subcommand: plan, submit, status or gather" err &&
	test_expect_code 2 tko cluster frob 2>err &&
	test_one_line_error err &&
	test_grep "unknown subcommand .frob." err
'

test_expect_success 'plan of something that is neither a RUN nor a kernel directory' '
	mkdir empty &&
	test_expect_code 1 tko cluster plan --dir p empty 2>err &&
	test_one_line_error err &&
	test_grep "empty. is neither a RUN .capture/kernels/. nor a kernel directory" err &&
	test ! -e p/plan.json
'

test_expect_success 'kernel directories need --dir; --json is the plan'"'"'s' '
	test_expect_code 2 tko cluster plan run/capture/kernels/* 2>err &&
	test_grep "give --dir DIR" err &&
	test_expect_code 2 tko cluster plan run -- --json x.json 2>err &&
	test_grep "tko tune.s --json and --md are the plan.s" err &&
	test ! -e run/cluster/plan.json
'

test_expect_success 'a settings file: a bad line names the file and the line' '
	printf "partition = p\n# fine\nqueue = q\n" >bad.conf &&
	test_expect_code 1 tko cluster plan --config bad.conf run 2>err &&
	test_one_line_error err &&
	test_grep "bad.conf. line 3: unknown setting .queue." err &&
	test_expect_code 2 tko cluster plan --partition "a b" run 2>err &&
	test_grep "partition .a b. cannot stand in an #SBATCH line" err &&
	test ! -e run/cluster/plan.json
'

test_expect_success 'RUN/cluster that is a link out of the RUN is refused' '
	make_run linked d6 &&
	mkdir elsewhere &&
	ln -s ../elsewhere linked/cluster &&
	test_expect_code 1 tko cluster plan linked 2>err &&
	test_one_line_error err &&
	test_grep "link" err &&
	test -z "$(ls elsewhere)"
'

test_expect_success 'plan, then a second plan in the same folder is refused' '
	tko cluster plan --tasks 2 run >out &&
	test_grep "planned 3 kernels in 2 tasks" out &&
	test "$(json_q run/cluster/plan.json "[.tasks[].kernels | length] | add")" = 3 &&
	test_expect_code 1 tko cluster plan run 2>err &&
	test_grep "holds a plan already" err
'

test_expect_success 'status without squeue: every task not_run, exit 1' '
	test_expect_code 1 tko cluster status --json st.json run/cluster >/dev/null &&
	test "$(json_q st.json "[.tasks[].state] | join(\",\")")" = "not_run,not_run" &&
	test "$(json_q st.json .queue_read)" = false
'

test_expect_success 'submit with no sbatch on PATH: exit 3, nothing recorded' '
	mkdir nobin &&
	(PATH=$PWD/nobin && test_expect_code 3 "$TKO" cluster submit run/cluster 2>err) &&
	test_one_line_error err &&
	test_grep "cannot run sbatch" err &&
	test ! -e run/cluster/jobs.json
'

# Slurm words a refused submission over two lines of standard error (the
# lines below are sbatch 23.11's for a partition that does not exist): the
# error stays one line, and a readable one, not one with "\x0a" in it.
test_expect_success 'submit: sbatch'"'"'s multi-line error is one readable line, exit 5' '
	mkdir -p failbin &&
	cat >failbin/sbatch <<-\EOF &&
	#!/bin/sh
	echo "sbatch: error: invalid partition specified: gpux" >&2
	echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2
	exit 1
	EOF
	printf "#!/bin/sh\nprintf \"queued\\\\nmaybe\\\\n\"\n" >failbin/sbatch-noid &&
	chmod +x failbin/sbatch failbin/sbatch-noid &&
	(PATH=$PWD/failbin:$PATH && test_expect_code 5 "$TKO" cluster submit run/cluster 2>err) &&
	test_one_line_error err &&
	! grep -F "\x0a" err &&
	grep -Fx "tko cluster: sbatch failed (exit 1): error: invalid partition specified: gpux; error: Batch job submission failed: Invalid partition name specified" err &&
	test ! -e run/cluster/jobs.json &&
	mv failbin/sbatch-noid failbin/sbatch &&
	(PATH=$PWD/failbin:$PATH && test_expect_code 5 "$TKO" cluster submit run/cluster 2>err) &&
	test_one_line_error err &&
	grep -Fx "tko cluster: sbatch answered no job id: '"'"'queued; maybe'"'"'" err
'

test_expect_success 'submit --array: indices must be the plan'"'"'s' '
	test_expect_code 2 tko cluster submit --dry-run --array 0-2 run/cluster 2>err &&
	test_grep "is not a list of task indices 0-1" err &&
	tko cluster submit --dry-run --array 1 run/cluster >dry &&
	test_grep "^sbatch --parsable --array=1 run/cluster/tune.sbatch$" dry
'

test_expect_success 'gather: a task folder whose exit file is not a status' '
	mkdir -p run/cluster/tasks/0 &&
	echo done >run/cluster/tasks/0/exit &&
	test_expect_code 1 tko cluster gather run/cluster 2>err &&
	test_one_line_error err &&
	test_grep "tasks/0/exit. does not hold an exit status" err &&
	test ! -e run/cluster/tune.json
'

test_expect_success 'gather of a folder with no plan' '
	test_expect_code 1 tko cluster gather empty 2>err &&
	test_one_line_error err &&
	test_grep "plan.json" err
'

test_done
