#!/bin/sh
# A real single-node Slurm for tko's tests (Debian's slurm-wlm and munge):
#
#	tests/slurm/cluster.sh start DIR    config, munged, slurmctld, slurmd in DIR;
#	                                    returns when sinfo shows the node idle
#	tests/slurm/cluster.sh stop DIR     cancels the jobs, stops the daemons, kills
#	                                    what is left of their jobs; nothing runs after
#	tests/slurm/cluster.sh status DIR   which daemons run, and the node's state
#
# DIR is a scratch folder (start makes it; it must be new or empty). A
# client talks to the cluster with SLURM_CONF=DIR/slurm.conf (DIR/env holds
# that line). Exits 0 when done, 1 on a failure (one line saying what, then
# the end of the daemon's log), 2 for a bad command line, 77 when Slurm
# cannot run here (not installed): a caller skips on 77. Nothing is shared
# with another cluster on the same host: own munge key and socket, own
# ports (chosen at random among the free ones), own state, spool and logs,
# so two test suites may run side by side.
#
# What works in a VM or container with no systemd and no cgroup delegation
# (docs/cluster.md, "The test cluster"): proctrack/linuxproc (finds a job's
# processes through /proc, no cgroup), task/none, jobacct_gather/none, no
# accounting database (accounting_storage/none: no sacct; a job's state
# comes from squeue and scontrol), select/cons_tres over CPUs = nproc.
# batch_sched_delay=0 starts a batch job when it is submitted instead of up
# to 3 s later, and KillWait=2 lets scancel finish in 2 s instead of 30.
# The partitions share each CPU between up to 4 jobs (OverSubscribe=FORCE:4):
# test jobs wait on files and fake workers, not on CPUs, and a 2-core CI
# machine would otherwise run an array two tasks a second.
# The daemons run in the foreground (-D) detached with setsid, each writing
# its pid file; munged runs with --force because its socket is in a
# private folder (mode 0700), which it would refuse otherwise.
#
# TKO_SLURM_TIMEOUT (seconds, default 30) bounds the wait for the node.
set -u

die() {
	echo "cluster.sh: $*" >&2
	exit 1
}

usage() {
	echo "usage: tests/slurm/cluster.sh start|stop|status DIR" >&2
	exit 2
}

[ $# -eq 2 ] || usage
cmd=$1
case $2 in
/*) DIR=$2 ;;
*) DIR=$(pwd)/$2 ;;
esac
CONF=$DIR/slurm.conf
NODE=tkonode
# Every daemon and every slurmstepd they start carry this variable, so stop
# can find what a killed daemon left behind (and nothing else).
MARK="TKO_SLURM_CLUSTER=$DIR"

have_slurm() {
	for t in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
		command -v "$t" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
		command -v "$t" >/dev/null 2>&1 || {
			echo "cluster.sh: no $t: install slurm-wlm and munge (script/bootstrap)" >&2
			exit 77
		}
	done
}

# free_port: a TCP port in 20000-59999 with nothing listening on it or on
# the next one (slurmctld takes it, slurmd the next).
free_port() {
	busy=$(awk 'FNR > 1 && $4 == "0A" { split($2, a, ":"); print a[2] }' \
		/proc/net/tcp /proc/net/tcp6 2>/dev/null)
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		n=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
		p=$((20000 + n % 40000))
		h1=$(printf '%04X' "$p")
		h2=$(printf '%04X' $((p + 1)))
		case " $(echo "$busy" | tr '\n' ' ') " in
		*" $h1 "* | *" $h2 "*) continue ;;
		esac
		echo "$p"
		return 0
	done
	return 1
}

write_conf() {
	user=$(id -un)
	cpus=$(nproc)
	host=$(hostname -s 2>/dev/null || hostname)
	cat >"$CONF" <<-EOF &&
	# Written by tests/slurm/cluster.sh for one test; SLURM_CONF points here.
	ClusterName=tkotest
	SlurmctldHost=$host(127.0.0.1)
	SlurmctldPort=$1
	SlurmdPort=$(($1 + 1))
	SlurmUser=$user
	SlurmdUser=$user
	AuthType=auth/munge
	AuthInfo=socket=$DIR/munge/socket
	CredType=cred/munge
	StateSaveLocation=$DIR/state
	SlurmdSpoolDir=$DIR/spool
	SlurmctldPidFile=$DIR/slurmctld.pid
	SlurmdPidFile=$DIR/slurmd.pid
	SlurmctldLogFile=$DIR/log/slurmctld.log
	SlurmdLogFile=$DIR/log/slurmd.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	JobCompType=jobcomp/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
	MpiDefault=none
	ReturnToService=2
	KillWait=2
	MinJobAge=3600
	MailProg=/bin/true
	GresTypes=gpu
	NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus Gres=gpu:2 State=UNKNOWN
	PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE OverSubscribe=FORCE:4 State=UP
	PartitionName=gpu Nodes=ALL MaxTime=INFINITE OverSubscribe=FORCE:4 State=UP
	EOF
	# Two stand-in GPUs, so --gres=gpu:N is accepted and Slurm sets
	# CUDA_VISIBLE_DEVICES per job as on a GPU node. Slurm wants a device
	# file for each and never opens it (task/none confines nothing).
	printf 'AutoDetect=off\nNodeName=%s Name=gpu File=/dev/null\nNodeName=%s Name=gpu File=/dev/zero\n' \
		"$NODE" "$NODE" >"$DIR/gres.conf" &&
	echo "SLURM_CONF=$CONF" >"$DIR/env"
}

start_munge() {
	mkdir -p "$DIR/munge" || die "cannot make $DIR/munge"
	chmod 700 "$DIR/munge" || die "cannot make $DIR/munge private"
	# A fresh 1 KiB key (munge's own size) for this cluster alone.
	(umask 077 && dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 2>/dev/null) ||
		die "cannot write $DIR/munge/munge.key"
	env "$MARK" munged --force --socket="$DIR/munge/socket" \
		--key-file="$DIR/munge/munge.key" --pid-file="$DIR/munge/munged.pid" \
		--log-file="$DIR/munge/munged.log" --seed-file="$DIR/munge/munged.seed" \
		>"$DIR/log/munged.out" 2>&1 ||
		fail_log "munged did not start" "$DIR/log/munged.out" "$DIR/munge/munged.log"
	i=0
	while [ ! -S "$DIR/munge/socket" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -S "$DIR/munge/socket" ] || fail_log "munged made no socket" "$DIR/munge/munged.log"
}

# fail_log MESSAGE LOG...: the message, the last lines of each log, exit 1.
fail_log() {
	msg=$1
	shift
	echo "cluster.sh: $msg (cluster in $DIR)" >&2
	for f in "$@"; do
		[ -s "$f" ] || continue
		echo "--- last lines of $f" >&2
		tail -n 8 "$f" >&2
	done
	stop_all >/dev/null 2>&1
	exit 1
}

start_daemons() {
	(
		cd "$DIR" &&
		SLURM_CONF=$CONF &&
		export SLURM_CONF &&
		env "$MARK" setsid slurmctld -D -f "$CONF" </dev/null >"$DIR/log/slurmctld.out" 2>&1 &
		env "$MARK" setsid slurmd -D -N "$NODE" -f "$CONF" </dev/null >"$DIR/log/slurmd.out" 2>&1 &
	)
}

pid_file() {
	case $1 in
	munged) echo "$DIR/munge/munged.pid" ;;
	*) echo "$DIR/$1.pid" ;;
	esac
}

pid_of() {
	f=$(pid_file "$1")
	[ -s "$f" ] && cat "$f"
}

# alive NAME: the daemon runs (a zombie whose parent has not reaped it does not).
alive() {
	p=$(pid_of "$1") && [ -n "$p" ] && running "$p"
}

running() {
	kill -0 "$1" 2>/dev/null && ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null
}

node_state() {
	SLURM_CONF=$CONF sinfo -h -n "$NODE" -o %T 2>/dev/null | head -n 1
}

# wait_idle: 0 when the node is idle, 1 when a daemon died, 2 on timeout.
wait_idle() {
	limit=$(( ${TKO_SLURM_TIMEOUT:-30} * 10 ))
	i=0
	while [ $i -lt "$limit" ]; do
		[ "$(node_state)" = idle ] && return 0
		if [ $i -gt 10 ]; then
			alive slurmctld || return 1
			alive slurmd || return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 2
}

start() {
	have_slurm
	if [ -e "$DIR" ] && [ -n "$(ls -A "$DIR")" ]; then
		echo "cluster.sh: $DIR is not empty" >&2
		exit 1
	fi
	mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log" || die "cannot make $DIR"
	port=$(free_port) || die "no free TCP port pair found"
	write_conf "$port" || die "cannot write $CONF"
	start_munge
	start_daemons
	wait_idle
	case $? in
	0) return 0 ;;
	1) fail_log "a Slurm daemon died" "$DIR/log/slurmctld.out" "$DIR/log/slurmctld.log" \
		"$DIR/log/slurmd.out" "$DIR/log/slurmd.log" ;;
	*) fail_log "the node is not idle after ${TKO_SLURM_TIMEOUT:-30} s (state: $(node_state))" \
		"$DIR/log/slurmctld.log" "$DIR/log/slurmd.log" ;;
	esac
}

# marked_pids: this cluster's processes, found in /proc: its daemons (they
# carry $MARK) and their slurmstepd (slurmd gives each its own
# environment, with SLURM_CONF naming this cluster's file).
marked_pids() {
	for e in /proc/[0-9]*/environ; do
		p=${e#/proc/}
		p=${p%/environ}
		[ "$p" = "$$" ] && continue
		env=$({ tr '\0' '\n' <"$e"; } 2>/dev/null) || continue
		if echo "$env" | grep -qxF "$MARK"; then
			echo "$p"
		elif [ "$(cat "/proc/$p/comm" 2>/dev/null)" = slurmstepd ] &&
			echo "$env" | grep -qxF "SLURM_CONF=$CONF"; then
			echo "$p"
		fi
	done
}

# The processes of the sessions of the given pids (a slurmstepd and the
# job it runs share one).
session_pids() {
	sids=$(for p in "$@"; do ps -o sid= -p "$p" 2>/dev/null; done | tr -d ' ' | sort -u)
	[ -n "$sids" ] || return 0
	ps -e -o pid=,sid= | awk -v s=" $(echo "$sids" | tr '\n' ' ')" -v me="$$" \
		'index(s " ", " " $2 " ") && $1 != me { print $1 }'
}

# term_wait PID...: SIGTERM to each, SIGKILL to those alive after 5 s. The
# daemons are stopped together: each takes about 2 s to notice.
term_wait() {
	# shellcheck disable=SC2086 # a list of pids
	kill "$@" 2>/dev/null
	i=0
	while [ $i -lt 50 ]; do
		up=""
		for p in "$@"; do
			running "$p" && up="$up $p"
		done
		[ -n "$up" ] || return 0
		sleep 0.1
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # a list of pids
	kill -9 $up 2>/dev/null
	return 0
}

cancel_jobs() {
	alive slurmctld || return 0
	SLURM_CONF=$CONF scancel --full --quiet --user="$(id -un)" 2>/dev/null
	i=0
	while [ -n "$(SLURM_CONF=$CONF squeue -h -o %i 2>/dev/null)" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

stop_all() {
	cancel_jobs
	left=$(marked_pids)
	daemons=$(for d in slurmd slurmctld munged; do pid_of "$d"; done)
	# shellcheck disable=SC2086 # a list of pids
	[ -z "$daemons" ] || term_wait $daemons
	# What the daemons left: a slurmstepd ignores SIGTERM, and its job
	# outlives it unless killed with it.
	# shellcheck disable=SC2046,SC2086 # lists of pids
	rest=$(session_pids $left $(marked_pids))
	# shellcheck disable=SC2086 # lists of pids
	[ -z "$rest" ] || kill -9 $rest 2>/dev/null
	return 0
}

stop() {
	[ -f "$CONF" ] || die "no cluster in $DIR (no slurm.conf)"
	stop_all
	sleep 0.1
	left=$(marked_pids)
	[ -z "$left" ] || die "processes left running after stop: $(echo "$left" | tr '\n' ' ')"
	return 0
}

status() {
	[ -f "$CONF" ] || die "no cluster in $DIR (no slurm.conf)"
	up=0
	for d in munged slurmctld slurmd; do
		if alive "$d"; then
			echo "$d: running (pid $(pid_of "$d"))"
			up=$((up + 1))
		else
			echo "$d: not running"
		fi
	done
	# sinfo waits out its message timeout (10 s) for a controller that is gone
	if alive slurmctld; then
		echo "node $NODE: $(node_state)"
	fi
	[ $up -eq 3 ]
}

case $cmd in
start) start ;;
stop) stop ;;
status) status ;;
*) usage ;;
esac
