#!/usr/bin/env bash
# Issue 20's A/B on the benchmark models (the two bench/tune-gpu.sh tunes):
# tests/gpu/apply-ab.sh once a model, each with its own work folder
# (build-apply-ab/<name>/) and results ($OUT/<name>/):
#
#   OUT=/some/dir TKO_PREBUILT=build-static/tko bash bench/apply-models.sh [MODEL...]
#
# MODEL is one of (default: both, in this order)
#   model    tests/gpu/model.py: compiled LayerNorm/GELU/softmax block,
#            index_add_, a max-autotune matmul, a hand-written autotune
#            kernel; no optimizer: --step __main__:step, 500 steps (about
#            1.7 ms each by its sizes); 100 under tko capture: its steady
#            state (python/tko/profiling.py: 200 launches with no new kernel,
#            then 3 periods and the 5 profiled steps) needs about 60 steps of
#            its 4 kernels before the profile that the prediction reads
#   second   bench/models/second.py: a bf16 training step with a hand-written
#            AdamW (no torch.optim): --step __main__:train_step, 250 steps
#            (about 6 ms each by its sizes); 40 under tko capture (about 17
#            kernels a step)
# Every APPLY_AB_* variable of apply-ab.sh passes through (phases, arms,
# rounds, budget, timeout...); APPLY_AB_STEPS, when set, replaces the
# per-model step count (APPLY_AB_CAPTURE_STEPS the capture's); APPLY_AB_WORK,
# when set, holds one folder a model. Device seconds and the calls that fit
# 600 s: the header of tests/gpu/apply-ab.sh. Exit status: the first
# non-zero one. Each model's apply-ab.tar.gz gets an equal share of
# GPU_PACK_LIMIT_KB (tests/gpu/lib.sh), so that run-proofs.sh's archive,
# which holds them all, stays under the device tool's 16 MiB.
set -u
# OUT (required), ROOT, GPU_PACK_LIMIT_KB
# shellcheck source=SCRIPTDIR/../tests/gpu/lib.sh
. "$(dirname "$0")/../tests/gpu/lib.sh"
[ $# -gt 0 ] || set -- model second
share=$((GPU_PACK_LIMIT_KB / $#))
rc=0
# Stopped (run-proofs.sh's timeout signals the whole process group): the
# trap waits for apply-ab.sh, which packs what its runs left, then no other
# model starts.
stop=0
trap 'stop=1' TERM INT
for name in "$@"; do
	case $name in
	model) model=tests/gpu/model.py fn=__main__:step steps=500 capture=100 ;;
	second) model=bench/models/second.py fn=__main__:train_step steps=250 capture=40 ;;
	*) echo "apply-models: unknown model '$name' (model, second)" >&2; exit 2 ;;
	esac
	mkdir -p "$OUT/$name"
	OUT=$OUT/$name GPU_PACK_LIMIT_KB=$share APPLY_AB_WORK=${APPLY_AB_WORK:+$APPLY_AB_WORK/$name} APPLY_AB_MODEL=$model \
		APPLY_AB_STEP_FN=$fn APPLY_AB_STEPS=${APPLY_AB_STEPS:-$steps} \
		APPLY_AB_CAPTURE_STEPS=${APPLY_AB_CAPTURE_STEPS:-$capture} \
		bash "$ROOT/tests/gpu/apply-ab.sh"
	r=$?
	echo "apply-models: $name exit $r"
	[ "$rc" -eq 0 ] && rc=$r
	[ "$stop" = 1 ] && { echo "apply-models: stopped by a signal after $name"; exit 143; }
done
exit "$rc"
