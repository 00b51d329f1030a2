#!/usr/bin/env bash
# tko tune --gpus on one GPU: two timing workers sharing it (--gpus 0,0)
# against one (--gpus 0), on a few kernels of tests/gpu/model.py, to show
# the multi-GPU mechanism runs on a real GPU (issue 23). It does not
# measure scaling: two workers on one GPU share its SMs and its copy
# engine, so their timings disturb each other; the N-GPU target needs a
# machine with N GPUs (docs/PERFORMANCE.md).
#
#   OUT=/some/dir TKO_PREBUILT=build-static/tko bash bench/tune-gpus-sim.sh
#
# Steps: tko capture of bench/tune_gpus_sim_model.py (tests/gpu/model.py's
# torch.compile'd parts, not its max-autotune matmul); its first
# SIM_KERNELS (default 4) kernel folders in byte order; tko tune of them
# with --budget SIM_BUDGET (default 0: no limit) --max-variants SIM_VARIANTS
# (default 5), first with --gpus 0,0 (a cold Triton cache: it compiles
# every variant), then with --gpus 0 (warm): the order favours one
# worker. Writes $OUT/sim.log, one.json, two.json and sim.txt (the wall
# times and each kernel's winner per run). SIM_REUSE=1 skips the capture
# and tunes $SIM_WORK/run as it is (a second call on a warm machine).
set -u
# OUT (required), ROOT, PY, TKO, gpu_log
# shellcheck source=SCRIPTDIR/../tests/gpu/lib.sh
. "$(dirname "$0")/../tests/gpu/lib.sh"
N=${SIM_KERNELS:-4}
BUDGET=${SIM_BUDGET:-0}
VARIANTS=${SIM_VARIANTS:-5}
WORK=${SIM_WORK:-${TMPDIR:-/tmp}/tko-sim}
mkdir -p "$OUT" "$WORK"
gpu_log "$OUT/sim.log"
gpu_tko_version || exit 3

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ -z "${SIM_REUSE:-}" ]; then
	rm -rf "$WORK/run"
	t0=$(now)
	"$TKO" capture --out "$WORK/run" -- "$PY" "$ROOT/bench/tune_gpus_sim_model.py" \
		>"$WORK/capture.out" 2>&1
	echo "capture exit $? in $(secs "$t0" "$(now)") s"
fi
mapfile -t K < <(find "$WORK/run/capture/kernels" -mindepth 1 -maxdepth 1 -type d -name 'triton_*' | sort | head -n "$N")
echo "kernels: ${#K[@]}"
printf '  %s\n' "${K[@]##*/}"

tune() {
	local gpus=$1 json=$2 t
	rm -rf "${K[@]/%//tune}"
	t=$(now)
	"$TKO" tune --gpus "$gpus" --budget "$BUDGET" --max-variants "$VARIANTS" --json "$OUT/$json" \
		"${K[@]}" >"$OUT/$json.out" 2>&1
	echo "tune --gpus $gpus: exit $? in $(secs "$t" "$(now)") s"
}

tune 0,0 two.json
tune 0 one.json
{
	grep "^tune --gpus" "$OUT/sim.log"
	for f in one two; do
		echo "== $f"
		"$PY" -c 'import json, sys
for k in json.load(open(sys.argv[1]))["kernels"]:
    w = k.get("winner") or {}
    print(k["kernel"], w.get("label", "-"), w.get("time_ms", "-"), "wall_s=%.1f" % k["wall_s"])' "$OUT/$f.json"
	done
} >"$OUT/sim.txt"
cat "$OUT/sim.txt"
