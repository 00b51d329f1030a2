#!/usr/bin/env bash
# Runs several GPU proofs in one device call, each under its own time cap,
# and packs what each wrote into one archive, so that the 8 files the
# device tool brings back hold everything:
#
#   OUT=/some/dir TKO_PREBUILT=build-static/tko bash tests/gpu/run-proofs.sh PROOF[:SECONDS]...
#
# PROOF is one of
#   profile   tests/gpu/profile-proof.sh (issue 19: a profiled window, shares, step time)
#   apply     tests/gpu/apply_proof.py   (issue 20: winners installed and shown to have run)
#   apply-ab  tests/gpu/apply-ab.sh      (issue 20: capture, tune, tko apply --ab, the targets)
#   apply-models  bench/apply-models.sh  (issue 20: the same on the benchmark models;
#             $APPLY_MODELS names them, default "model second"; APPLY_AB_* pass through)
#   logroute  tko capture of tests/gpu/model.py: the terminal carries none of the
#             TORCH_LOGS lines tko switched on, RUN/log/model.log carries them (issue 16)
#   tune      bench/tune-gpu.sh (issues 6 and 17)
# Writes $OUT/summary.txt (one line a proof: name, exit status, seconds),
# $OUT/<proof>.log (the proof's log, written there as it runs and printed as
# it grows: a call the device tool kills still returns it, and its output
# tail shows the last lines) and $OUT/<proof>.tar.gz (what the proof wrote,
# its log as log.txt; lib.sh's gpu_pack, bounded by RUN_PROOFS_PACK_S,
# default 15, and under 15 MiB, the proof packing its own archive to 1 MiB
# less). Two files a proof and summary.txt: of the 8 files the device tool
# brings back, three proofs a call fill 7; a fourth's archive may not come.
# tune (bench/tune-gpu.sh) packs two archives, each to that limit: together
# over 15 MiB, the bigger is left out of tune.tar.gz whole.
#
# A proof gets SIGTERM at its cap and SIGKILL RUN_PROOFS_KILL_AFTER_S
# (default 20) later, with everything it started (timeout -k: the proof
# runs in a process group of its own); the GPU scripts end their step and
# pack within that (lib.sh's gpu_run, GPU_PACK_SIGNAL_S). So a proof with
# cap C has ended by C + 20 s and its archive is written by C + 37 s or
# so: give the device call at least cap + 40 s. A SIGTERM or SIGINT to this
# script is passed on to the running proof, which then ends the same way;
# no later proof starts.
set -u
# ROOT, PY (TKO_PYTHON: the same interpreter for every proof), TKO
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
# every proof runs the tko found here
[ -n "$TKO" ] && export TKO_PREBUILT=$TKO
mkdir -p "$OUT"
WORK=$(mktemp -d)

logroute() {
	local run=$1/run
	"$TKO" capture --out "$run" -- "$PY" "$ROOT/tests/gpu/model.py" --out "$1/model-out" >"$1/stdout.txt" 2>"$1/stderr.txt"
	echo "capture exit $?"
	local term log
	term=$(grep -cE '^[VIDW][0-9]{4} ' "$1/stderr.txt")
	log=$(grep -cE '^[VIDW][0-9]{4} ' "$run/log/model.log")
	echo "glog lines on the terminal: $term; in RUN/log/model.log: $log"
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print({k: d.get(k) for k in ("log_lines_not_shown", "exit_status")})' "$run/tko-run.json"
	"$TKO" summarize "$run" | head -12
	tail -5 "$1/stderr.txt"
	[ "$term" -eq 0 ] && [ "$log" -gt 100 ]
}

# proof NAME CAP DIR: the proof under timeout -k (see the header); exec, so
# that the signal on_signal passes on reaches timeout, which passes it on
# to the proof's whole process group
proof() {
	local name=$1 cap=$2 dir=$3 k=$KILL_AFTER
	case $name in
	profile) OUT=$dir exec timeout -k "$k" "$cap" bash "$ROOT/tests/gpu/profile-proof.sh" ;;
	apply) OUT=$dir exec timeout -k "$k" "$cap" "$PY" "$ROOT/tests/gpu/apply_proof.py" ;;
	apply-ab) OUT=$dir exec timeout -k "$k" "$cap" bash "$ROOT/tests/gpu/apply-ab.sh" ;;
	apply-models)
		# word splitting on purpose: APPLY_MODELS is a list of model names
		# shellcheck disable=SC2086
		OUT=$dir exec timeout -k "$k" "$cap" bash "$ROOT/bench/apply-models.sh" ${APPLY_MODELS:-model second} ;;
	logroute)
		# the paths as arguments, not in the command's text: they may hold
		# spaces ($1..$4 are the inner bash's)
		# shellcheck disable=SC2016
		exec timeout -k "$k" "$cap" bash -c "$(declare -f logroute)"'; TKO=$1 PY=$2 ROOT=$3 logroute "$4"' \
			logroute "$TKO" "$PY" "$ROOT" "$dir" ;;
	tune) OUT=$dir TUNE_GPU_DEADLINE_S=$((cap - 20)) exec timeout -k "$k" "$cap" bash "$ROOT/bench/tune-gpu.sh" ;;
	*) echo "run-proofs: unknown proof '$name'"; false ;;
	esac
}

KILL_AFTER=${RUN_PROOFS_KILL_AFTER_S:-20}
stopped=0
proof_pid=""
# shellcheck disable=SC2317  # run by the trap
on_signal() {
	stopped=1
	[ -z "$proof_pid" ] || kill -TERM "$proof_pid" 2>/dev/null
}
trap on_signal TERM INT

run_one() {
	local name=$1 cap=$2 dir=$WORK/$1 log=$OUT/$1.log
	mkdir -p "$dir"
	local t0=$SECONDS rc
	echo "== $name: cap $cap s, SIGKILL $KILL_AFTER s later; its log: $log"
	: >"$log"
	# the proof packs its own archive into this one, with the log beside it
	GPU_PACK_LIMIT_KB=$((GPU_PACK_LIMIT_KB - 1024)) proof "$name" "$cap" "$dir" >"$log" 2>&1 </dev/null &
	proof_pid=$!
	# a signal before that line found no proof to pass on to
	[ "$stopped" = 0 ] || kill -TERM "$proof_pid" 2>/dev/null
	tail -n +1 -f --pid="$proof_pid" "$log" &
	local tail_pid=$!
	gpu_wait "$proof_pid"
	rc=$gpu_wait_rc proof_pid=""
	wait "$tail_pid"
	echo "$name exit $rc $((SECONDS - t0)) s" | tee -a "$OUT/summary.txt"
	cp "$log" "$dir/log.txt"
	# the archive: what the proof wrote, without caches, input blobs, saved
	# tensors and binaries (lib.sh's gpu_pack_blobs); all of it but the log
	# optional (the proof's own archive is under 14 MiB)
	local rest=()
	mapfile -t rest < <(cd "$WORK" && find "$name" -mindepth 1 -maxdepth 1 ! -name log.txt)
	GPU_PACK_TIMEOUT_S=${RUN_PROOFS_PACK_S:-15} gpu_pack "$OUT/$name.tar.gz" "$WORK" "${gpu_pack_blobs[@]}" \
		--exclude='*/inductor/*' --exclude='*/triton/*' --exclude='*/cache/*' "$name/log.txt" "${rest[@]/#/?}"
}

for spec in "$@"; do
	[ "$stopped" = 0 ] || { echo "run-proofs: stopped by a signal: ${spec%%:*} not run"; continue; }
	run_one "${spec%%:*}" "$(case $spec in *:*) echo "${spec#*:}" ;; *) echo 300 ;; esac)"
done
cat "$OUT/summary.txt"
[ "$stopped" = 0 ] || exit 143
