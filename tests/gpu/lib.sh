# shellcheck shell=bash
# What every GPU script (tests/gpu/*.sh, bench/*.sh that run tko on a GPU)
# does first, in one place. Sourced from tests/gpu/ (from bench/, the path
# is ../tests/gpu/lib.sh), the directive above it for make lint (-x):
#
#   # shellcheck source=SCRIPTDIR/lib.sh
#   . "$(dirname "$0")/lib.sh"
#
# It stops the script at once when OUT (the folder for the results) is not
# set, and sets
#   ROOT  the repository root (from this file's place, not the caller's);
#   PY    $TKO_PYTHON, default python3, exported back as TKO_PYTHON so that
#         tko and every script a script starts use the same interpreter;
#   TKO   the tko binary, absolute (tko finds its Python package beside it,
#         <dir>/../python): $TKO_PREBUILT when set; else build/tko; else
#         build-static/tko, the static binary a fresh device machine has
#         when the call carries it (make static) and no build/; else empty.
#         A TKO_PREBUILT that is not there stays as given, so the script's
#         `"$TKO" --version` names it when it fails;
# and exports PYTHONUNBUFFERED=1: a Python child's lines reach the log as
# they are printed, not lost in its buffer when a signal stops the call.
#
# gpu_log FILE: everything printed from here on goes to stdout and FILE
# (appended). The tee ignores SIGTERM and SIGINT: timeout(1) signals the
# whole process group, and the lines printed after the signal (what was
# stopped, what got packed) must still reach FILE. At exit the script waits
# up to 2 s for the tee (a leftover child may hold its pipe open), so the
# last lines are in FILE and on stdout when the call returns.
#
# gpu_on_signal FUNC: on SIGTERM or SIGINT, print "== stopped by a signal:
# packing what the runs left", run FUNC (it packs the archive from what the
# runs left: a call that ran out of time can still be diagnosed) and exit
# with status 143. Without it, gpu_log's trap prints "== stopped by a
# signal" and exits 143.
#
# A step the script wraps in timeout(1) uses `timeout --foreground`: a plain
# timeout moves its step into a process group of its own, which the SIGTERM
# of the timeout around the whole script does not reach, and bash runs the
# signal hook only when that step ends, up to its own limit (a 600 s step
# outlives the device call). run-proofs.sh, the outermost, is the exception.
#
# gpu_on_exit FUNC: run FUNC when the script exits, however it exits (its
# end, exit, set -u, after a signal), before gpu_log's wait for the tee, so
# what FUNC prints is in the log too; the exit status stays the script's.
# For what must not outlive the script (a mount, chattr +i): FUNC should
# undo only what is still done, as it may run after the signal hook did.
#
# gpu_run CMD...: runs a long step (tko capture, tune, apply) in the
# background and waits for it; CMD's status. bash runs a trap only once the
# foreground child it waits for has ended, so a step that outlives SIGTERM
# (tko apply waiting on a model whose Inductor workers linger, a child that
# ignores it) would hold the signal hook back until timeout -k's SIGKILL,
# which leaves no archive; `wait` returns at the signal instead. On a
# signal, gpu_stopped ends the step and what it started (gpu_stop_step:
# SIGTERM to the whole tree, found with ps before anything dies, SIGKILL to
# what is left after 2 s) before the hook packs. The step's stdin is
# /dev/null and it ignores SIGINT (a background job); the tree's SIGTERM
# stands for both.
#
# gpu_wait PID: waits for a background job through the traps that do not
# end the script; its status in gpu_wait_rc.
#
# gpu_pack ARCHIVE DIR [--tar-option]... MEMBER... ?MEMBER...: the one way
# the scripts pack their archives: tar czf of the MEMBERs (paths relative
# to DIR; those not there are skipped) with the options (--exclude=...),
# MEMBERs marked ? optional (no MEMBER inside another: tar would pack its
# files twice). The device tool brings back no file over 16
# MiB, so when the archive is over GPU_PACK_LIMIT_KB (default 15360, 15
# MiB) the biggest optional files go (as many as the archive's compression
# ratio says make up the excess, up to three rounds, then every optional
# one), each named in the log, and it is packed again; what is still over
# is kept and said to be over. A required member's file over
# GPU_PACK_FILE_MAX_KB (default 8192: 8 MiB, none of the texts a result is
# read from comes near it) is left out before tar runs, each named in the
# log: a binary no --exclude named (the H200's tune/reference.pt, 1-3 GB a
# kernel, made tar run past its time and left no archive) costs one line,
# not the archive. Bounded in time: GPU_PACK_TIMEOUT_S (default
# 60; GPU_PACK_SIGNAL_S, default 10, in the signal hook, which must end
# before run-proofs.sh's SIGKILL), two thirds of it for the rounds with
# optional files, the rest for one with the required ones alone. It packs
# into a temporary folder and moves the whole archive into place, so a
# stop half way leaves the earlier ARCHIVE or none, never a cut one.
# Prints one line: the archive's size (or why there is none). Status 0
# when ARCHIVE was written.
#
# gpu_pack_blobs: --exclude options for gpu_pack of what tko capture, tune
# and Triton leave that no archive needs and no restore reads: the captured
# inputs (inputs/, *.bin: 0.5-1 GB a kernel on the H200), tensors torch
# saved (*.pt: tune's reference.pt, 1-3 GB a kernel) and compiled kernels
# (*.cubin, *.hsaco, *.so). A script adds its own (caches, variants/).
#
# gpu_tko_version: prints tko's version, or why there is none (status 1).
#
# step TEXT: a section header with the seconds since the script started.

OUT=${OUT:?set OUT to the folder for the results}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PY=${TKO_PYTHON:-python3}
export TKO_PYTHON="$PY" PYTHONUNBUFFERED=1

gpu_find_tko() {
	local t
	if [ -n "${TKO_PREBUILT:-}" ]; then
		t=$TKO_PREBUILT
	elif [ -x "$ROOT/build/tko" ]; then
		t=$ROOT/build/tko
	elif [ -x "$ROOT/build-static/tko" ]; then
		t=$ROOT/build-static/tko
	else
		return 0
	fi
	[ -x "$t" ] && t="$(cd "$(dirname "$t")" && pwd)/$(basename "$t")"
	printf '%s\n' "$t"
}
TKO=$(gpu_find_tko)

# gpu_tko_version: tko's version line; status 1, with the reason, when
# there is no tko to run.
gpu_tko_version() {
	[ -n "$TKO" ] && "$TKO" --version && return 0
	echo "no tko${TKO:+ at $TKO}: set TKO_PREBUILT, or build it (make), or carry build-static/ (make static)"
	return 1
}

step() { printf '\n== %s (t=%ds)\n' "$*" "$SECONDS"; }

gpu_signal_hook=""
# shellcheck disable=SC2317  # run by the traps gpu_log sets
gpu_stopped() {
	trap '' TERM INT
	GPU_PACK_TIMEOUT_S=$GPU_PACK_SIGNAL_S
	if [ -n "$gpu_signal_hook" ]; then
		step "stopped by a signal: packing what the runs left"
		gpu_stop_step
		"$gpu_signal_hook"
	else
		step "stopped by a signal"
		gpu_stop_step
	fi
	exit 143
}

gpu_on_signal() { gpu_signal_hook=$1; }

gpu_exit_hook=""
gpu_tee_pid=""
# shellcheck disable=SC2317  # run by the EXIT trap
gpu_exited() {
	# ending: a signal now (the wait for the tee takes up to 2 s) would run
	# the signal hook, pack again and turn the script's status into 143
	trap '' TERM INT
	[ -z "$gpu_exit_hook" ] || "$gpu_exit_hook"
	[ -z "$gpu_pack_tmp" ] || rm -rf "$gpu_pack_tmp"
	[ -z "$gpu_tee_pid" ] || gpu_wait_tee
}

gpu_on_exit() {
	gpu_exit_hook=$1
	trap gpu_exited EXIT
}

# shellcheck disable=SC2317  # run by the EXIT trap
gpu_wait_tee() {
	exec >/dev/null 2>&1
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$gpu_tee_pid" || break
		sleep 0.2
	done
}

gpu_log() {
	exec > >(trap '' TERM INT; exec tee -a "$1") 2>&1
	gpu_tee_pid=$!
	trap gpu_exited EXIT
	trap gpu_stopped TERM INT
}
# gpu_wait PID: waits for the background job PID to end, through the traps
# that do not end the script (`wait` returns at each one, the job still
# running); its status in gpu_wait_rc
gpu_wait() {
	local r
	while :; do
		wait "$1"
		gpu_wait_rc=$?
		[ "$gpu_wait_rc" -gt 128 ] && kill -0 "$1" 2>/dev/null && continue
		break
	done
	# a trap that came just before the job ended: its status is still there,
	# mostly; bash 5.2 loses it when the trap comes as it reaps the job, and
	# wait says -1 (300 jobs, traps every 2 ms: 11-24 times), which is left
	# as it is: not a status a step can have
	if [ "$gpu_wait_rc" -gt 128 ]; then
		wait "$1" 2>/dev/null
		r=$?
		[ "$r" = 127 ] || gpu_wait_rc=$r
	fi
}

# gpu_run CMD...: see the header. gpu_step_pid: the step gpu_stop_step ends.
gpu_step_pid=""
gpu_run() {
	"$@" &
	gpu_step_pid=$!
	gpu_wait "$gpu_step_pid"
	gpu_step_pid=""
	return "$gpu_wait_rc"
}

# gpu_children PID: its child processes (ps; without procps, from /proc)
gpu_children() {
	if command -v ps >/dev/null; then
		ps -o pid= --ppid "$1"
		return 0
	fi
	local f s ppid
	for f in /proc/[0-9]*/stat; do
		# read, not $(cat): a process a file read, for each process of the
		# tree, took 16-20 s for a tree of 21 on 2 busy cores (the hook has 20 s)
		read -r s 2>/dev/null <"$f" || continue
		# after the command name, which may hold spaces: state, ppid
		read -r _ ppid _ <<<"${s##*) }"
		[ "$ppid" = "$1" ] && f=${f%/stat} && echo "${f#/proc/}"
	done
}

# gpu_tree PID: PID and its descendants, parents first
gpu_tree() {
	local c
	echo "$1"
	for c in $(gpu_children "$1" 2>/dev/null); do
		gpu_tree "$c"
	done
}

# gpu_names PID...: "PID NAME" of each on one line (from /proc: with or
# without ps)
gpu_names() {
	local p n out=""
	for p; do
		read -r n 2>/dev/null </proc/"$p"/comm || n="?"
		out="$out $p $n"
	done
	echo "${out# }"
}

# gpu_alive PID...: those still running
gpu_alive() {
	local p
	for p; do
		kill -0 "$p" 2>/dev/null && echo "$p"
	done
}

# gpu_stop_step: the running step (gpu_run's, or gpu_pack's tar) and what
# it started: SIGTERM, then SIGKILL to what is left GPU_STOP_GRACE_S
# (default 2) seconds later.
GPU_STOP_GRACE_S=${GPU_STOP_GRACE_S:-2}
gpu_stop_step() {
	[ -n "$gpu_step_pid" ] || return 0
	local pids left i
	pids=$(gpu_tree "$gpu_step_pid")
	# shellcheck disable=SC2086  # a list of pids
	kill -TERM $pids 2>/dev/null
	for ((i = 0; i < GPU_STOP_GRACE_S * 5; i++)); do
		# shellcheck disable=SC2086
		left=$(gpu_alive $pids)
		[ -n "$left" ] || break
		sleep 0.2
	done
	if [ -n "$left" ]; then
		# shellcheck disable=SC2086  # a list of pids
		echo "gpu: still running $GPU_STOP_GRACE_S s after SIGTERM, killed: $(gpu_names $left)"
		# with what they started since
		# shellcheck disable=SC2046  # a list of pids
		kill -KILL $(for p in $left; do gpu_tree "$p"; done) 2>/dev/null
	fi
	gpu_step_pid=""
}

GPU_PACK_LIMIT_KB=${GPU_PACK_LIMIT_KB:-15360}
GPU_PACK_TIMEOUT_S=${GPU_PACK_TIMEOUT_S:-60}
GPU_PACK_SIGNAL_S=${GPU_PACK_SIGNAL_S:-10}
GPU_PACK_FILE_MAX_KB=${GPU_PACK_FILE_MAX_KB:-8192}
# shellcheck disable=SC2034  # used by the scripts that source this file
gpu_pack_blobs=(--exclude='*/inputs/*' --exclude='*.bin' --exclude='*.pt' --exclude='*.cubin'
	--exclude='*.hsaco' --exclude='*.so')
gpu_pack_tmp=""

# gpu_pack_tar SECONDS: tar of gpu_pack's members into $gpu_pack_tmp/a.tar.gz,
# the files in $gpu_pack_tmp/drop left out; 124 when out of time, 2 when
# stopped by a signal. A step of its own (gpu_run): a signal in the middle
# of the script's last pack ends it at once, and the signal hook packs anew
# within GPU_PACK_SIGNAL_S.
gpu_pack_tar() {
	[ "$1" -gt 0 ] || return 124
	rm -f "$gpu_pack_tmp/a.tar.gz"
	gpu_run timeout --foreground -k 2 "$1" tar -C "$pack_dir" -czf "$gpu_pack_tmp/a.tar.gz" "${pack_opts[@]}" \
		--anchored --no-wildcards --exclude-from="$gpu_pack_tmp/drop" -- "${pack_need[@]}" "${pack_opt[@]}" \
		2>/dev/null
	case $? in
	124 | 137) return 124 ;;
	# stopped by a signal: the archive is cut (its gzip stream is whole)
	129 | 1[3-9][0-9] | 2[0-9][0-9]) return 2 ;;
	esac
	[ -s "$gpu_pack_tmp/a.tar.gz" ]
}

# gpu_pack_files: "SIZE NAME" of each plain file in tar's verbose listing
# on stdin
gpu_pack_files() {
	awk '$1 ~ /^-/ { s = $3; sub(/^[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, ""); print s, $0 }'
}

# gpu_pack_big SECONDS: writes to $gpu_pack_tmp/drop the required members'
# files over GPU_PACK_FILE_MAX_KB, each named. The listing is tar's own,
# with the script's options, so an excluded file is not named; into
# /dev/null, which GNU tar writes without reading a file (a 100 GiB one
# takes no longer than an empty one).
gpu_pack_big() {
	local size name n=0 max=$((GPU_PACK_FILE_MAX_KB * 1024))
	while read -r size name; do
		[ "$size" -gt "$max" ] || continue
		echo "$name" >>"$gpu_pack_tmp/drop"
		n=$((n + 1))
		[ "$n" -gt 20 ] && continue
		echo "pack: ${pack_name}: left out $name ($((size / 1024)) KiB): a required file over GPU_PACK_FILE_MAX_KB"
	done < <(timeout --foreground -k 2 "$1" tar -C "$pack_dir" -cvvf /dev/null --quoting-style=literal \
		"${pack_opts[@]}" -- "${pack_need[@]}" 2>/dev/null | gpu_pack_files)
	[ "$n" -le 20 ] || echo "pack: ${pack_name}: left out $((n - 20)) more required files over GPU_PACK_FILE_MAX_KB"
}

# gpu_pack_optional: "SIZE NAME" of each optional file in the archive (under
# an optional member, not under a required one), biggest first
gpu_pack_optional() {
	local size name o
	tar -tvzf "$gpu_pack_tmp/a.tar.gz" --quoting-style=literal 2>/dev/null | gpu_pack_files |
		while read -r size name; do
			for o in "${pack_need[@]}"; do
				case $name in "$o" | "$o"/*) continue 2 ;; esac
			done
			for o in "${pack_opt[@]}"; do
				case $name in "$o" | "$o"/*) echo "$size $name"; break ;; esac
			done
		done | sort -rn
}

# gpu_pack_drop EXCESS ALL: writes to $gpu_pack_tmp/drop the biggest optional
# files that make up EXCESS bytes of the archive (all of them when ALL is 1);
# status 1 when there was none left
gpu_pack_drop() {
	local size name raw target got=0 n=0
	raw=$(tar -tvzf "$gpu_pack_tmp/a.tar.gz" 2>/dev/null | awk '{ s += $3 } END { print s + 0 }')
	# the excess in uncompressed bytes, by the archive's own ratio
	target=$(($1 * raw / $(stat -c %s "$gpu_pack_tmp/a.tar.gz")))
	while read -r size name; do
		[ "$2" = 1 ] || [ "$got" -lt "$target" ] || break
		echo "$name" >>"$gpu_pack_tmp/drop"
		echo "pack: ${pack_name}: left out $name ($((size / 1024)) KiB)"
		got=$((got + size)) n=$((n + 1))
	done < <(gpu_pack_optional)
	[ "$n" -gt 0 ]
}

gpu_pack() {
	local dest=$1 pack_dir=$2 pack_name=${1##*/} a size round=0 rc
	local limit=$((GPU_PACK_LIMIT_KB * 1024)) start=$SECONDS soft=$((GPU_PACK_TIMEOUT_S * 2 / 3))
	local pack_opts=() pack_need=() pack_opt=()
	shift 2
	for a; do
		case $a in
		--*) pack_opts+=("$a") ;;
		\?*) [ -e "$pack_dir/${a#\?}" ] && pack_opt+=("${a#\?}") ;;
		*) [ -e "$pack_dir/$a" ] && pack_need+=("$a") ;;
		esac
	done
	if [ $((${#pack_need[@]} + ${#pack_opt[@]})) = 0 ]; then
		echo "pack: ${pack_name}: not written: none of its members is there"
		return 1
	fi
	[ -z "$gpu_pack_tmp" ] || rm -rf "$gpu_pack_tmp"
	gpu_pack_tmp=$(mktemp -d) || return 1
	: >"$gpu_pack_tmp/drop"
	[ ${#pack_need[@]} = 0 ] || gpu_pack_big "$soft"
	while :; do
		if [ ${#pack_opt[@]} -gt 0 ]; then
			gpu_pack_tar $((start + soft - SECONDS))
		else
			gpu_pack_tar $((start + GPU_PACK_TIMEOUT_S - SECONDS))
		fi
		rc=$?
		if [ "$rc" = 124 ] && [ ${#pack_opt[@]} -gt 0 ]; then
			echo "pack: ${pack_name}: not done in $((SECONDS - start)) s; the required members alone"
			pack_opt=()
			continue
		fi
		[ "$rc" = 0 ] || break
		size=$(stat -c %s "$gpu_pack_tmp/a.tar.gz")
		[ "$size" -gt "$limit" ] || break
		round=$((round + 1))
		echo "pack: ${pack_name}: $((size / 1024)) KiB, over the limit of $GPU_PACK_LIMIT_KB KiB (GPU_PACK_LIMIT_KB)"
		gpu_pack_drop $((size - limit)) $((round > 3)) || {
			echo "pack: ${pack_name}: no optional member left to leave out: it is kept, over the limit"
			break
		}
	done
	if [ "$rc" != 0 ]; then
		if [ "$rc" = 124 ]; then
			echo "pack: ${pack_name}: not written: tar ran past $GPU_PACK_TIMEOUT_S s (GPU_PACK_TIMEOUT_S)"
		elif [ "$rc" = 2 ]; then
			echo "pack: ${pack_name}: not written: tar stopped by a signal"
		else
			echo "pack: ${pack_name}: not written: tar wrote nothing"
		fi
		rm -rf "$gpu_pack_tmp"
		gpu_pack_tmp=""
		return 1
	fi
	mv -f "$gpu_pack_tmp/a.tar.gz" "$dest.part" && mv -f "$dest.part" "$dest"
	rc=$?
	echo "pack: ${pack_name}: $(((size + 1023) / 1024)) KiB in $((SECONDS - start)) s"
	rm -rf "$gpu_pack_tmp"
	gpu_pack_tmp=""
	return "$rc"
}
