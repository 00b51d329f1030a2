#!/usr/bin/env bash
# Issue 20 end to end on a GPU, in one device call: tko capture of
# tests/gpu/apply_model.py (with its profile), tko tune on the kernels it
# launches, then tko apply --ab with the arms default, coordesc,
# max-autotune and applied, and the issue's targets checked by
# tests/gpu/apply_ab_check.py:
#
#   OUT=/some/dir TKO_PREBUILT=build-static/tko bash tests/gpu/apply-ab.sh
#
# APPLY_AB_DEADLINE_S (default 540) is what the whole script aims at: the
# tune budget per kernel is what is left after an estimate of the A/B.
# APPLY_AB_ROUNDS (default 3) measured rounds after one warm-up round;
# APPLY_AB_STEPS (default 40) timed steps in each run of the model.
# Writes $OUT/apply-ab.log, $OUT/apply.json (tko apply's document),
# $OUT/checks.json, $OUT/tune.json and $OUT/apply-ab.tar.gz (the RUN's
# plan, tune results, every run's apply.jsonl and output).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:?set OUT to the folder for the results}
PY=${TKO_PYTHON:-python3}
TKO=${TKO_PREBUILT:-$ROOT/build/tko}
DEADLINE=${APPLY_AB_DEADLINE_S:-540}
ROUNDS=${APPLY_AB_ROUNDS:-3}
export TKO_PYTHON="$PY" PYTHONUNBUFFERED=1
mkdir -p "$OUT"
[ -x "$TKO" ] && TKO="$(cd "$(dirname "$TKO")" && pwd)/$(basename "$TKO")"
WORK=$(mktemp -d)
RUN=$WORK/run
exec > >(tee -a "$OUT/apply-ab.log") 2>&1
step() { printf '\n== %s (t=%ds)\n' "$*" "$SECONDS"; }

step machine
"$PY" -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name())'
"$TKO" --version || exit 3

step "capture (with the profiled window)"
STEPS=20 "$TKO" capture --out "$RUN" -- "$PY" "$ROOT/tests/gpu/apply_model.py" >"$WORK/capture.out" 2>&1
echo "exit status: $?"
tail -3 "$WORK/capture.out"
ls "$RUN/profile" 2>/dev/null

step "tune the kernels the model launches"
mapfile -t dirs < <(find "$RUN/capture/kernels" -mindepth 1 -maxdepth 1 -type d |
	grep -E '/(triton_(poi|red|per|for)_|scale_kernel)' | sort)
n=${#dirs[@]}
# the A/B: 4 arms x (1 + ROUNDS) runs, about 15 s each with warm caches,
# 30 s for a first compile; what is left goes to tuning (2 s a kernel's
# setup, as seen on the H200)
ab_s=$(( 4 * 30 + 4 * ROUNDS * 15 ))
budget=$(( (DEADLINE - SECONDS - ab_s - 2 * n) / (n > 0 ? n : 1) ))
[ "$budget" -gt 30 ] && budget=30
[ "$budget" -lt 3 ] && budget=3
echo "$n kernels, --budget $budget s each; A/B estimate $ab_s s"
"$TKO" tune "${dirs[@]}" --budget "$budget" --max-variants 30 --timeout 60 \
	--json "$OUT/tune.json" >"$WORK/tune.out" 2>&1
echo "exit status: $?"
grep -E "^(winner|no variant|stopped)|: base from|tko tune:" "$WORK/tune.out" | head -40

step "tko apply --ab $ROUNDS: default, coordesc, max-autotune, applied"
STEPS=${APPLY_AB_STEPS:-40} "$TKO" apply --ab "$ROUNDS" --warmup 1 \
	--arms default,coordesc,max-autotune,applied --timeout 150 \
	--write-artifact "$WORK/artifact" --json "$OUT/apply.json" "$RUN" -- \
	"$PY" "$ROOT/tests/gpu/apply_model.py"
echo "exit status: $?"

step "checks"
"$PY" "$ROOT/tests/gpu/apply_ab_check.py" "$OUT/apply.json" "$OUT/checks.json"
rc=$?
(cd "$WORK" && tar czf "$OUT/apply-ab.tar.gz" --exclude='*/cache/*' --exclude='*/inputs/*' \
	--exclude='*.cubin' --exclude='*/variants/*' --exclude='*.bin' run/apply run/profile \
	run/capture/kernels run/log artifact tune.out capture.out 2>/dev/null)
step "done"
exit $rc
