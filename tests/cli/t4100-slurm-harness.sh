#!/bin/sh
# The test cluster itself (tests/slurm/cluster.sh): a real slurmctld,
# slurmd and munged on this machine. What tko cluster relies on is shown
# here with plain jobs: a job array runs every index with its own
# SLURM_ARRAY_TASK_ID, a failing task is FAILED with its exit code
# (scontrol, no accounting database), only the indices given run again,
# an afterany dependency runs a gather step after every task, failed or
# not, --gres=gpu:1 gives each task its own device, scancel stops a job;
# and stopping the cluster, or a test script that fails or is killed,
# leaves nothing running.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-slurm.sh"

slurm_start

# alive PID...: succeeds when any of them still runs (a zombie does not).
alive() {
	for p in "$@"; do
		if kill -0 "$p" 2>/dev/null && ! grep -q '^[0-9]* (.*) Z' "/proc/$p/stat" 2>/dev/null; then
			return 0
		fi
	done
	return 1
}

test_expect_success 'setup: a job that fails on the indices listed in fail/' '
	mkdir out fail done &&
	cat >job.sh <<-\EOF &&
	#!/bin/sh
	t=$SLURM_ARRAY_TASK_ID
	echo "$t" >"out/$t"
	sleep "${NAP:-0}"
	touch "done/$t"
	[ ! -e "fail/$t" ] || exit "$t"
	EOF
	chmod +x job.sh &&
	touch fail/3 fail/5
'

test_expect_success 'a job array runs every index, each with its own SLURM_ARRAY_TASK_ID' '
	job=$(sbatch --parsable --array=0-5 -o /dev/null job.sh) &&
	echo "$job" >array.job &&
	slurm_wait "$job" &&
	for t in 0 1 2 3 4 5; do
		test "$(cat "out/$t")" = "$t" || return 1
	done &&
	ls out >ran &&
	test_line_count = 6 ran
'

test_expect_success 'a failing task is FAILED, with its exit status, in scontrol' '
	slurm_states "$(cat array.job)" >states &&
	printf "%s\n" "0 COMPLETED 0:0" "1 COMPLETED 0:0" "2 COMPLETED 0:0" \
		"3 FAILED 3:0" "4 COMPLETED 0:0" "5 FAILED 5:0" >expect &&
	test_cmp expect states
'

test_expect_success 'submitting --array=3,5 again runs those two only' '
	rm -f fail/* out/* &&
	job=$(sbatch --parsable --array=3,5 -o /dev/null job.sh) &&
	slurm_wait "$job" &&
	ls out >ran &&
	printf "3\n5\n" >expect &&
	test_cmp expect ran &&
	slurm_states "$job" >states &&
	printf "%s\n" "3 COMPLETED 0:0" "5 COMPLETED 0:0" >expect &&
	test_cmp expect states
'

test_expect_success 'afterany: the gather step runs once every task is over, failed ones too' '
	rm -f out/* done/* &&
	touch fail/2 &&
	job=$(NAP=1 sbatch --parsable --array=0-3 -o /dev/null job.sh) &&
	gather=$(sbatch --parsable --dependency=afterany:"$job" -o /dev/null \
		--wrap "ls done >gathered") &&
	slurm_wait "$gather" &&
	printf "0\n1\n2\n3\n" >expect &&
	test_cmp expect gathered &&
	slurm_states "$job" >states &&
	test_grep "^2 FAILED 2:0$" states
'

test_expect_success 'afterok: a gather step behind a failed task never runs' '
	job=$(sbatch --parsable --array=2 -o /dev/null job.sh) &&
	gather=$(sbatch --parsable --dependency=afterok:"$job" --kill-on-invalid-dep=yes \
		-o /dev/null --wrap "touch never") &&
	slurm_wait "$job" &&
	slurm_wait "$gather" &&
	test ! -e never
'

test_expect_success '--gres=gpu:1: each task of the gpu partition gets its own device' '
	job=$(sbatch --parsable --array=0-1 -p gpu --gres=gpu:1 -o /dev/null \
		--wrap "echo \$CUDA_VISIBLE_DEVICES >gpu.\$SLURM_ARRAY_TASK_ID; sleep 2") &&
	slurm_wait "$job" &&
	cat gpu.0 gpu.1 | sort >gpus &&
	printf "0\n1\n" >expect &&
	test_cmp expect gpus
'

test_expect_success 'scancel stops a running job and what it started' '
	job=$(sbatch --parsable -o /dev/null --wrap "echo \$\$ >job.pid; exec sleep 300") &&
	i=0 &&
	while [ ! -s job.pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done &&
	test -s job.pid &&
	scancel "$job" &&
	slurm_wait "$job" 20 &&
	scontrol -o show job "$job" >state &&
	test_grep "JobState=CANCELLED" state &&
	! alive "$(cat job.pid)"
'

test_expect_success 'stop ends the daemons and a job still running, within seconds' '
	rm -f job.pid &&
	sbatch --parsable -o /dev/null --wrap "echo \$\$ >job.pid; exec sleep 300" >/dev/null &&
	i=0 &&
	while [ ! -s job.pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done &&
	pids="$(cat job.pid "$SLURM_DIR/slurmctld.pid" "$SLURM_DIR/slurmd.pid" \
		"$SLURM_DIR/munge/munged.pid")" &&
	t0=$(date +%s.%N) &&
	"$CLUSTER_SH" stop "$SLURM_DIR" &&
	t1=$(date +%s.%N) &&
	awk -v a="$t0" -v b="$t1" "BEGIN { printf \"%.1f\n\", b - a }" >"$TRASH/stop.s" &&
	! alive $pids &&
	test_expect_code 1 "$CLUSTER_SH" status "$SLURM_DIR" >status &&
	test_grep "^slurmctld: not running" status
'
[ -s "$TRASH/stop.s" ] && echo "# slurm: stopped in $(cat "$TRASH/stop.s") s"

# A test script of its own that starts a cluster, runs a job, writes the
# pids to watch into $1, then fails (exit) or waits to be killed (wait).
cat >"$TRASH/inner.sh" <<\EOF
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/tko-test.XXXXXX")
cd "$TRASH" || exit 1
say_comment() { sed 's/^/# /'; }
. "$SRC_ROOT/tests/cli/lib-slurm.sh"
slurm_start >/dev/null
sbatch -o /dev/null --wrap "echo \$\$ >$TRASH/job.pid; exec sleep 300" >/dev/null
i=0
while [ ! -s job.pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cat job.pid "$SLURM_DIR/slurmctld.pid" "$SLURM_DIR/slurmd.pid" "$SLURM_DIR/munge/munged.pid" >"$1.tmp"
mv "$1.tmp" "$1"
[ "$2" = exit ] && exit 1
while :; do sleep 0.2; done
EOF

test_expect_success 'a test script that fails stops its cluster on the way out' '
	test_expect_code 1 sh "$TRASH/inner.sh" "$TRASH/pids.exit" exit &&
	test -s pids.exit &&
	! alive $(cat pids.exit)
'

test_expect_success 'a test script killed with SIGTERM stops its cluster too' '
	sh "$TRASH/inner.sh" "$TRASH/pids.term" wait &
	inner=$! &&
	i=0 &&
	while [ ! -s pids.term ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done &&
	test -s pids.term &&
	kill -TERM "$inner" &&
	test_expect_code 143 wait "$inner" &&
	! alive $(cat pids.term)
'

test_done
