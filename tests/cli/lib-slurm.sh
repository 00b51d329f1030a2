# Helpers for the tests that need a real Slurm (sourced after lib.sh):
# tests/slurm/cluster.sh starts a one-node cluster in $TRASH/slurm, and the
# traps set here stop it however the script ends (a test that fails, a
# crash, Ctrl-C, prove's SIGTERM), so nothing is left running.

SLURM_DIR="$TRASH/slurm"
CLUSTER_SH="$SRC_ROOT/tests/slurm/cluster.sh"

slurm_stop() {
	if [ -f "$SLURM_DIR/slurm.conf" ]; then
		"$CLUSTER_SH" stop "$SLURM_DIR" >/dev/null 2>&1
	fi
}

# slurm_start: starts the cluster and exports SLURM_CONF; when Slurm cannot
# run here the whole script is skipped (TAP "1..0 # SKIP") with the reason.
slurm_start() {
	trap 'slurm_stop; cd /; [ "${TKO_TEST_KEEP:-0}" = 1 ] || rm -rf "$TRASH"' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	t0=$(date +%s.%N)
	"$CLUSTER_SH" start "$SLURM_DIR" 2>"$TRASH/slurm-start.err"
	rc=$?
	t1=$(date +%s.%N)
	if [ $rc -eq 77 ]; then
		echo "1..0 # SKIP $(head -n 1 "$TRASH/slurm-start.err")"
		exit 0
	elif [ $rc -ne 0 ]; then
		echo "Bail out! the test cluster did not start"
		say_comment <"$TRASH/slurm-start.err"
		exit 1
	fi
	SLURM_CONF="$SLURM_DIR/slurm.conf"
	export SLURM_CONF
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "# slurm: started in %.1f s\n", b - a }'
}

# slurm_wait JOB [SECONDS]: waits until squeue lists no task of the job
# (default limit 60 s); 1 when it is still there.
slurm_wait() {
	i=0
	while [ -n "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; do
		[ $i -lt $((${2:-60} * 10)) ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# slurm_states JOB: "TASK STATE EXIT" a line for each array task of the job,
# sorted by task, from `scontrol show job` (no accounting database needed).
slurm_states() {
	scontrol -o show job "$1" |
		sed -n 's/.*ArrayTaskId=\([0-9]*\) .*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\).*/\1 \2 \3/p' |
		sort -n
}
