#!/usr/bin/env bash
# A short GPU check of tko tune's confirmation (issue 17, src/tune/confirm.h)
# in one device call of about two to three minutes: capture a small model
# (bench/models/confirm_model.py: a softmax and a compiled foreach AdamW
# step), tko tune every kernel it launches with --confirm-rounds, then
# bench/tune_gpu/retime.py re-times default and winner side by side (RUN_B
# is the same RUN: no coordinate-descent column) and the last lines set,
# per kernel, the sweep's gain, the confirmed one with its interval and the
# re-timed one side by side, with the "confirmed" criterion of
# bench/tune_gpu/criteria.py.
#
#   OUT=/some/dir TKO_PREBUILT=build-static/tko bash bench/tune-confirm.sh
#
# TUNE_CONFIRM_BUDGET (default 4) is --budget per kernel, TUNE_CONFIRM_ROUNDS
# (default 7) --confirm-rounds. Writes tune.json, results.json, confirm.txt
# and tune-confirm.log to $OUT.
set -u
# OUT (required), ROOT, PY, TKO, gpu_log, step
# shellcheck source=SCRIPTDIR/../tests/gpu/lib.sh
. "$(dirname "$0")/../tests/gpu/lib.sh"
WORK=${TUNE_GPU_WORK:-$ROOT/build-tune-confirm}
BUDGET=${TUNE_CONFIRM_BUDGET:-4}
ROUNDS=${TUNE_CONFIRM_ROUNDS:-7}
mkdir -p "$OUT" "$WORK"
gpu_log "$OUT/tune-confirm.log"
gpu_tko_version || exit 3

step "capture"
rm -rf "${WORK:?}/run" "$WORK/tune" "$WORK/triton"
"$TKO" capture --out "$WORK/run" -- "$PY" "$ROOT/bench/models/confirm_model.py" \
	--out "$WORK/model.pt" >"$WORK/capture.out" 2>&1
echo "exit status: $?"
tail -3 "$WORK/capture.out"

step "tune (--budget $BUDGET, --confirm-rounds $ROUNDS)"
mapfile -t dirs < <("$PY" "$ROOT/bench/tune_gpu/match.py" "$WORK/run")
echo "${#dirs[@]} kernels"
TRITON_CACHE_DIR="$WORK/triton" "$TKO" tune "${dirs[@]}" --budget "$BUDGET" --max-variants 40 \
	--timeout 60 --confirm-rounds "$ROUNDS" --out "$WORK/tune" --json "$WORK/tune.json" \
	>"$WORK/tune.out" 2>&1
echo "exit status: $?"
grep -E "^(winner|no variant|stopped|confirmation|not tuned|plan)|: base from|tko tune:" "$WORK/tune.out"
cp "$WORK/tune.json" "$OUT/"

step "retime"
TRITON_CACHE_DIR="$WORK/triton" "$PY" "$ROOT/bench/tune_gpu/retime.py" --run-a "$WORK/run" \
	--run-b "$WORK/run" --tune "$WORK/tune.json" --json "$OUT/results.json" \
	>"$WORK/retime.out" 2>"$WORK/retime.err"
echo "exit status: $?"
tail -3 "$WORK/retime.err"

step "confirmed against re-timed"
"$PY" - "$WORK/tune.json" "$OUT/results.json" <<'PY' | tee "$OUT/confirm.txt"
import json, sys
sys.path.insert(0, sys.path[0] or ".")
tune = {k["kernel"]: k for k in json.load(open(sys.argv[1]))["kernels"]}
res = json.load(open(sys.argv[2]))
for r in res["kernels"]:
    k, w = tune.get(r["kernel"], {}), (tune.get(r["kernel"], {}).get("winner") or {})
    c = w.get("confirmation") or {}
    d, t = (r.get("default") or {}).get("ms"), (r.get("tko") or {}).get("ms")
    print("%-50s %-10s plan=%s n=%d sweep=%s conf=%s ci=%s accepted=%s winner=%s retimed=%s" % (
        r["kernel"][:50], r.get("kind"), k.get("plan"), len(k.get("variants") or []),
        "%.3f" % c["sweep_speedup"] if c.get("sweep_speedup") else "-",
        "%.3f" % c["ratio"] if c.get("ratio") else "-",
        "[%.3f, %.3f]" % tuple(c["ci95"]) if c.get("ci95") else "-", c.get("accepted"),
        w.get("label"), "%.3f" % (d / t) if d and t else "-"))
    if c.get("vs_config_only"):
        v = c["vs_config_only"]
        print("    vs config-only %s: %.3f [%.3f, %.3f]" % (v["label"], v["ratio"], *v["ci95"]))
    if c.get("round_ratios"):
        print("    rounds: " + " ".join("%.3f" % x for x in c["round_ratios"]))
for c in res.get("criteria") or []:
    print("%s %s %s %s" % ("PASS" if c["pass"] else "FAIL", c["name"], c["applies_to"],
                           "; ".join(c["failing"])))
PY
step "done"
