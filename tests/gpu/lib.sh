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
	if [ -n "$gpu_signal_hook" ]; then
		step "stopped by a signal: packing what the runs left"
		"$gpu_signal_hook"
	else
		step "stopped by a signal"
	fi
	exit 143
}

gpu_on_signal() { gpu_signal_hook=$1; }

gpu_exit_hook=""
gpu_tee_pid=""
# shellcheck disable=SC2317  # run by the EXIT trap
gpu_exited() {
	[ -z "$gpu_exit_hook" ] || "$gpu_exit_hook"
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
