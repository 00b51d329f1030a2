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
# Writes $OUT/summary.txt (one line a proof: name, exit status, seconds) and
# $OUT/<proof>.tar.gz; the last 60 lines of each proof's log are printed.
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

run_one() {
	local name=$1 cap=$2 dir=$WORK/$1
	mkdir -p "$dir"
	local t0=$SECONDS rc
	case $name in
	profile) OUT=$dir timeout "$cap" bash "$ROOT/tests/gpu/profile-proof.sh" >"$dir/log.txt" 2>&1 ;;
	apply) OUT=$dir timeout "$cap" "$PY" "$ROOT/tests/gpu/apply_proof.py" >"$dir/log.txt" 2>&1 ;;
	apply-ab) OUT=$dir timeout "$cap" bash "$ROOT/tests/gpu/apply-ab.sh" \
		>"$dir/log.txt" 2>&1 ;;
	apply-models)
		# word splitting on purpose: APPLY_MODELS is a list of model names
		# shellcheck disable=SC2086
		OUT=$dir timeout "$cap" bash "$ROOT/bench/apply-models.sh" ${APPLY_MODELS:-model second} \
			>"$dir/log.txt" 2>&1 ;;
	logroute) (timeout "$cap" bash -c "$(declare -f logroute); TKO=$TKO PY=$PY ROOT=$ROOT logroute $dir") \
		>"$dir/log.txt" 2>&1 ;;
	tune) OUT=$dir TUNE_GPU_DEADLINE_S=$((cap - 20)) timeout "$cap" bash "$ROOT/bench/tune-gpu.sh" \
		>"$dir/log.txt" 2>&1 ;;
	*) echo "run-proofs: unknown proof '$name'" >"$dir/log.txt"; false ;;
	esac
	rc=$?
	echo "$name exit $rc $((SECONDS - t0)) s" | tee -a "$OUT/summary.txt"
	echo "---- $name: last lines of its log"
	tail -60 "$dir/log.txt"
	# the archive: what the proof wrote, without caches and input blobs
	tar czf "$OUT/$name.tar.gz" -C "$WORK" --exclude='*/inductor/*' --exclude='*/triton/*' \
		--exclude='*/cache/*' --exclude='*/inputs/*' --exclude='*.cubin' "$name" 2>/dev/null
}

for spec in "$@"; do
	run_one "${spec%%:*}" "$(case $spec in *:*) echo "${spec#*:}" ;; *) echo 300 ;; esac)"
done
cat "$OUT/summary.txt"
