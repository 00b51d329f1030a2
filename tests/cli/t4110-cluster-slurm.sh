#!/bin/sh
# tko cluster against a real one-node Slurm (tests/slurm/cluster.sh), with
# the fake GPU worker of tests/cli/tune-fake: plan a RUN's tuning as a job
# array, submit it, see each array index run its own kernels, one task
# fail (its tko killed, as a node fault would), resubmit that task alone,
# gather, and get the tune.json that a local tko tune of the same kernels
# writes; a task given two GPUs spreads its kernels over them. Skipped
# (with the reason) when Slurm is not installed.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"
. "$TESTS_DIR/lib-slurm.sh"
. "$TESTS_DIR/lib-cluster.sh"

slurm_start
use_fake_gpu
TKO_FAKE_DEVLOG="$TRASH/dev.log"
TKO_FAKE_KILL="$TRASH/kill"
export TKO_FAKE_DEVLOG TKO_FAKE_KILL

# tasks_of PLAN: "INDEX KERNEL_DIR_SUFFIX..." a line, from plan.json.
tasks_of() {
	jq -r '.tasks[] | "\(.index) \(.kernels | map(sub(".*-"; "")) | join(" "))"' "$1"
}

# sources_of TUNE_JSON: each kernel's directory suffix, in the document's order.
sources_of() {
	jq -r '.kernels[].source | sub("/kernel.py$"; "") | sub(".*-"; "")' "$1" | tr '\n' ' '
}

test_expect_success 'setup: a RUN of five kernels, and a local tko tune of them' '
	make_run run d6 6w sb sk sd &&
	tko tune --max-variants 4 --json local.json run/capture/kernels/* >local.out &&
	test "$(json_q local.json ".kernels | length")" = 5 &&
	rm -rf run/capture/kernels/*/tune dev.log
'

# Predicted costs (tune/cost.c, rule "capture"): 5 + 3 * (0.3 + 60 * time_ms / 1000)
# with time_ms = 0.1 * position, so sd > sk > sb > 6w > d6. Longest first,
# each to the least loaded of 3 tasks: sd, sk, sb take a task each; 6w goes
# to sb's (the least loaded), d6 to sk's (sk's 5.972 s < sd's 5.99 s).
test_expect_success 'plan: 3 tasks, balanced longest first' '
	tko cluster plan --tasks 3 --gpus-per-task 0 --setup "echo set-up ran" run \
		-- --max-variants 4 >plan.out &&
	test_grep "planned 5 kernels in 3 tasks" plan.out &&
	tasks_of run/cluster/plan.json >tasks &&
	printf "%s\n" "0 sd" "1 sk d6" "2 sb 6w" >expect &&
	test_cmp expect tasks &&
	test_grep "^#SBATCH --array=0-2$" run/cluster/tune.sbatch &&
	test_grep "^echo set-up ran$" run/cluster/tune.sbatch &&
	! grep -q -- "--gres" run/cluster/tune.sbatch
'

test_expect_success 'submit --dry-run prints the sbatch command and submits nothing' '
	tko cluster submit --dry-run run/cluster >dry &&
	test_grep "^sbatch --parsable --array=0-2 run/cluster/tune.sbatch$" dry &&
	test ! -e run/cluster/jobs.json &&
	test -z "$(squeue -h -o %i)"
'

test_expect_success 'submit: every task runs its own kernels; task 2 dies (tko killed)' '
	echo 6w >kill &&
	tko cluster submit run/cluster >submit.out &&
	job=$(sed -n "s/^submitted job \([0-9]*\): tasks 0-2 of 3$/\1/p" submit.out) &&
	test -n "$job" &&
	slurm_wait "$job" &&
	test ! -e kill &&
	test "$(sources_of run/cluster/tasks/0/tune.json)" = "sd " &&
	test "$(sources_of run/cluster/tasks/1/tune.json)" = "sk d6 " &&
	test ! -e run/cluster/tasks/2/tune.json &&
	test "$(cat run/cluster/tasks/2/exit)" = 137 &&
	test_grep "^set-up ran$" "run/cluster/log/slurm-${job}_0.out" &&
	slurm_states "$job" >states &&
	printf "%s\n" "0 COMPLETED 0:0" "1 COMPLETED 0:0" "2 FAILED 137:0" >expect &&
	test_cmp expect states
'

test_expect_success 'status: 0 and 1 done, 2 failed (exit 137); exit 1' '
	test_expect_code 1 tko cluster status --json st.json run/cluster >st.out &&
	test "$(json_q st.json "[.tasks[].state] | join(\",\")")" = "done,done,failed" &&
	test "$(json_q st.json ".tasks[2].exit_status")" = 137 &&
	test "$(json_q st.json .finished)" = false
'

test_expect_success 'gather refuses while a task has not finished' '
	test_expect_code 1 tko cluster gather run/cluster 2>err &&
	test_one_line_error err &&
	test_grep "tasks not finished: 2 .failed, exit 137.; run .tko cluster submit run/cluster." err &&
	test ! -e run/cluster/tune.json
'

test_expect_success 'submit again runs task 2 only, and the gather after it' '
	cp dev.log dev.before &&
	tko cluster submit --gather run/cluster >submit2.out &&
	job=$(sed -n "s/^submitted job \([0-9]*\): tasks 2 of 3$/\1/p" submit2.out) &&
	gather=$(sed -n "s/^submitted job \([0-9]*\): the gather.*/\1/p" submit2.out) &&
	test -n "$job" && test -n "$gather" &&
	slurm_wait "$gather" &&
	test "$(json_q run/cluster/jobs.json "[.jobs[].array] | join(\";\")")" = "0-2;2" &&
	test "$(cat run/cluster/tasks/2/exit)" = 0 &&
	tail -n +$(($(wc -l <dev.before) + 1)) dev.log | cut -d" " -f1 | sed "s/.*-//" | sort -u >reran &&
	printf "6w\nsb\n" >expect &&
	test_cmp expect reran
'

test_expect_success 'the gathered tune.json is the local one (but for wall_s)' '
	test "$(sources_of run/cluster/tune.json)" = "sk sd 6w sb d6 " &&
	same_tune local.json run/cluster/tune.json
'

test_expect_success 'gather by hand writes the same, and nothing is left to submit' '
	tko cluster gather --json again.json run/cluster >g.out &&
	test_grep "gathered 5 kernels from 3 tasks" g.out &&
	test_cmp run/cluster/tune.json again.json &&
	tko cluster status run/cluster >st2.out &&
	tko cluster submit run/cluster >submit3.out &&
	test_grep "^nothing to submit" submit3.out
'

test_expect_success 'a task given two GPUs by Slurm tunes its kernels over both (tko tune --gpus)' '
	cp dev.log dev.before &&
	tko cluster plan --dir plan2 --tasks 1 --partition gpu --gpus-per-task 2 run \
		-- --max-variants 4 >/dev/null &&
	test_grep "^#SBATCH --gres=gpu:2$" plan2/tune.sbatch &&
	tko cluster submit --gather plan2 >submit4.out &&
	gather=$(sed -n "s/^submitted job \([0-9]*\): the gather.*/\1/p" submit4.out) &&
	slurm_wait "$gather" &&
	tail -n +$(($(wc -l <dev.before) + 1)) dev.log | cut -d" " -f2 | sort -u >devices &&
	printf "0\n1\n" >expect &&
	test_cmp expect devices &&
	same_tune local.json plan2/tune.json
'

test_done
