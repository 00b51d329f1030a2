#!/usr/bin/env bash
# Issue 20 end to end on a GPU: tko capture of a model (APPLY_AB_MODEL,
# default tests/gpu/apply_model.py; with its profile), tko tune on the
# kernels it launches (bench/tune_gpu/match.py: Inductor's and hand-written
# ones, not max-autotune's benchmark choices), then tko apply --ab with the
# arms default, coordesc, max-autotune and applied, the model printing no
# step report (APPLY_MODEL_PRINT=0: tko's hook times the steps and profiles
# a 5-step kernel window in every measured run), and the issue's targets
# checked by tests/gpu/apply_ab_check.py:
#
#   OUT=/some/dir TKO_PREBUILT=build-static/tko bash tests/gpu/apply-ab.sh
#
# The benchmark models (tests/gpu/model.py, bench/models/second.py, which
# bench/tune-gpu.sh tunes) through bench/apply-models.sh, which calls this
# script once a model with its --step function and step count:
#
#   OUT=/some/dir TKO_PREBUILT=build-static/tko bash bench/apply-models.sh [model] [second]
#
# What the H200 calls on apply_model.py showed (docs/PERFORMANCE.md, "tko
# apply"): capture 27-33 s; tune about 2 s a kernel plus its --budget plus
# about 2 s of confirmation (a budget of 3 s times the base alone); a run of
# the model under tko apply 19-27 s with warm caches, its first run 30 s
# (default, applied), 67 s (coordesc), 167-185 s (max-autotune). All of it
# does not fit one 600 s call, so the phases can run in separate calls on a
# warm machine (the work folder stays while the machine is warm: 30 s after
# a call), e.g. for apply_model.py
#
#   1. APPLY_AB_PHASES="capture tune"                       about 250 s
#   2. APPLY_AB_PHASES="ab check" APPLY_AB_ROUNDS=4 \
#      APPLY_AB_ARMS=default,coordesc,applied                about 470 s
#   3. APPLY_AB_PHASES="ab check" APPLY_AB_ROUNDS=3 \
#      APPLY_AB_ARMS=default,max-autotune,applied            about 500 s
#   4. APPLY_AB_PHASES="ab check" APPLY_AB_ROUNDS=3 \
#      APPLY_AB_ARMS=default,applied,tf32,applied+tf32       (not yet run)
#      the opt-in arms that change numerics (the model's Linear layers are
#      fp32): apply.json shows their time and loss difference side by side;
#      apply_ab_check.py leaves them out of the targets.
#   5. APPLY_AB_PHASES="ab check" APPLY_AB_ROUNDS=3 \
#      APPLY_AB_ARMS=default,applied,keep-off                about 400 s (not yet run)
#      issue 21: TorchInductor kept off APPLY_AB_KEEP_OFF (default
#      torch.nn.functional:cross_entropy, the model's loss: the eager op called
#      directly, a graph break on each side; a region of apply_model.py itself
#      would be __main__:NAME, but its only function is the compiled step).
#      apply_ab_check.py asserts the region took effect in every keep-off run
#      and the loss is equal, and reports the verdict (faster, not faster,
#      slower) without asserting it.
#
# The benchmark models, estimated from those costs (not yet run under tko
# apply; with APPLY_AB_WARMUP=0 the hook leaves each run's first steps out,
# compilation and coordinate descent's tuning included, so no warm-up round):
# model.py has about 4 kernels to tune (bench/tune-gpus-sim.sh captured 4)
# and a max-autotune matmul in every arm;
# second.py about 17 (of the 21 tune-gpu.sh tunes) and a 6 ms step.
#
#   a. model, whole flow, about 420 s:
#      APPLY_AB_BUDGET=10 APPLY_AB_WARMUP=0 APPLY_AB_ROUNDS=3 \
#      APPLY_AB_ARMS=default,coordesc,applied bash bench/apply-models.sh model
#      (capture ~40 s, tune 4 x ~14 s, 9 runs: 45 + 85 + 45 s, its matmul
#      autotuned in each arm's first, then 6 x ~25 s)
#   b. second, whole flow, about 470 s:
#      APPLY_AB_BUDGET=8 APPLY_AB_WARMUP=0 APPLY_AB_ROUNDS=2 \
#      APPLY_AB_ARMS=default,coordesc,applied bash bench/apply-models.sh second
#      (capture ~45 s, tune 17 x ~12 s, 6 runs: 30 + 80 + 30 s, then 3 x ~25 s)
#   c. max-autotune, on the warm machine right after a (or b), one model a call,
#      about 320 s (model) and 400 s (second: its bf16 matmuls forward and
#      backward are autotuned; not measured, hence the longer timeout):
#      APPLY_AB_PHASES="ab check" APPLY_AB_WARMUP=0 APPLY_AB_ROUNDS=2 APPLY_AB_TIMEOUT=450 \
#      APPLY_AB_ARMS=default,max-autotune,applied bash bench/apply-models.sh model
#
# --step __main__:FN (both models have no torch.optim optimizer) wraps FN
# right after the script defines it (python/tko/maindefs.py); a trace
# function runs until then (torch's import), no longer until the first step
# returns (the first compile too) as the profile function before did.
#
# APPLY_AB_MODEL (the script, a path from the repository root or absolute;
# its STEPS variable sets the step count), APPLY_AB_STEP_FN (tko apply --step
# MODULE:QUALNAME, for a model without an optimizer; none by default),
# APPLY_AB_WARMUP (unmeasured rounds first, default 1; 0 is fine when the hook
# times the steps: it leaves out each run's first steps, compilation included),
# APPLY_AB_WORK (default build-apply-ab/<model name>/ in the tree),
# APPLY_AB_BUDGET (tune seconds a kernel, default 15), APPLY_AB_ROUNDS
# (measured rounds after the warm-up, default 3), APPLY_AB_ARMS (default all
# four), APPLY_AB_KEEP_OFF (the --keep-off regions, comma-separated, when
# APPLY_AB_ARMS names keep-off or applied+keep-off), APPLY_AB_STEPS (timed
# steps of each run, default 500: at 2 ms a step, 40 steps gave run-to-run
# differences of 10%), APPLY_AB_CAPTURE_STEPS (steps under tko capture,
# default 20, enough for apply_model.py's 13 kernels: the profiled window,
# which the prediction needs, waits for 200 launches with no new kernel,
# then 3 repeats of the step), APPLY_AB_TIMEOUT (tko apply
# --timeout, seconds a run, default 240), APPLY_AB_LOSS_RTOL (tko apply
# --loss-rtol, default tko's 1e-3; on the H200 two default runs of
# second.py gave the same 250 losses, and coordesc and applied stayed within
# 3e-4 under the check's floor, docs/apply.md "The loss check"), APPLY_AB_KEEP_SLOWER (1: tko apply
# --keep-slower, so winners tune timed slower warm run and are measured too),
# APPLY_AB_FORGET (1: the ab phase drops an earlier ab phase's judgements;
# by default RUN/apply/apply.json stays, so a second "ab" call leaves out the
# winners the first one measured slower inside the step, as tko apply does
# for a user; its runs and per-arm caches always go: a cache could hold a
# winner's seeded .best_config that this plan no longer has).
# A phase that finds no RUN (a fresh machine, whose work folder is gone)
# stops at once with exit status 4: restore the work folder from an earlier
# call's apply-ab.tar.gz (tar xzf FILE -C WORK) or run capture and tune.
# Stopped by SIGTERM or SIGINT (timeout(1) around it, inside the device
# call's limit), it ends the running step at once (lib.sh's gpu_run: what
# ignores SIGTERM is killed GPU_STOP_GRACE_S, here 5, seconds later: tko
# apply stopped in its A/B stops the model, SIGKILL 2 s on, then writes
# apply.json from the runs before it; docs/apply.md, "Stopping an A/B")
# and still packs apply-ab.tar.gz with what the runs left.
# Writes $OUT/apply-ab.log, $OUT/apply.json (tko apply's document),
# $OUT/checks.json, $OUT/tune.json and $OUT/apply-ab.tar.gz (the plan,
# tune results, every run's apply.jsonl and output, kernel_window.json of
# one run per arm; at most GPU_PACK_LIMIT_KB, lib.sh's gpu_pack).
set -u
# OUT (required), ROOT, PY, TKO, gpu_log, gpu_on_signal, step
GPU_STOP_GRACE_S=${GPU_STOP_GRACE_S:-5}
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
PHASES=${APPLY_AB_PHASES:-capture tune ab check}
ROUNDS=${APPLY_AB_ROUNDS:-3}
MODEL=${APPLY_AB_MODEL:-tests/gpu/apply_model.py}
case $MODEL in /*) ;; *) MODEL=$ROOT/$MODEL ;; esac
NAME=$(basename "$MODEL" .py)
WORK=${APPLY_AB_WORK:-$ROOT/build-apply-ab/$NAME}
APPLY_ARGS=()
[ -n "${APPLY_AB_STEP_FN:-}" ] && APPLY_ARGS=(--step "$APPLY_AB_STEP_FN")
[ -n "${APPLY_AB_LOSS_RTOL:-}" ] && APPLY_ARGS+=(--loss-rtol "$APPLY_AB_LOSS_RTOL")
[ "${APPLY_AB_KEEP_SLOWER:-0}" = 1 ] && APPLY_ARGS+=(--keep-slower)
mkdir -p "$OUT" "$WORK"
RUN=$WORK/run
gpu_log "$OUT/apply-ab.log"
want() { case " $PHASES " in *" $1 "*) return 0 ;; esac; return 1; }
# What the runs left (no caches, inputs or binaries): also after a failed
# phase or a signal, so that a call that ran out of time can be diagnosed.
# Always: every run's stdout, stderr and apply.jsonl, the plan, apply.json,
# the kernels with their tune results (an ab phase on a fresh machine
# restores them from here: tko apply reads capture.json, kernel.py,
# tune.json and winner/, the A/B runs the model, not the kernels' inputs)
# and the outputs, and the capture's events (the template lookup keys tko
# apply matches template winners to: 2026-12-05's archives lacked them, so
# the keys the H200 recorded could not be checked); not the kernels' inputs, tune's reference.pt, the
# variants (sources, IR, binaries) or anything lib.sh's gpu_pack_blobs
# names: on the H200 they made up gigabytes a kernel and tar ran past its
# time. Optional (gpu_pack leaves the
# biggest out when the archive is over the device tool's 16 MiB): the
# capture's profile, its log, and kernel_window.json, the hook's Chrome
# trace of each measured run (the first H200 call's 9 put the archive over
# 16 MiB), of one run per arm only: tko apply has read every one into
# apply.json's kernel_window, the trace is there to check that reading.
pack() {
	local runs=() windows=()
	mapfile -t runs < <(cd "$WORK" && find run/apply -path run/apply/cache -prune -o -type f \
		! -name kernel_window.json -print 2>/dev/null)
	mapfile -t windows < <(cd "$WORK" && first_window_per_arm)
	gpu_pack "$OUT/apply-ab.tar.gz" "$WORK" "${gpu_pack_blobs[@]}" --exclude='*/cache/*' \
		--exclude='*/variants/*' "${runs[@]}" \
		run/capture/kernels '?run/capture/events.jsonl' run/tko-run.json run/env.json \
		artifact tune.out capture.out \
		'?run/profile' '?run/log' "${windows[@]/#/?}"
}
# run/apply/runs/N-ARM/kernel_window.json of the lowest N of each ARM
first_window_per_arm() {
	local f run seen=" "
	find run/apply/runs -mindepth 2 -maxdepth 2 -name kernel_window.json 2>/dev/null | sort -t/ -k4,4n |
		while read -r f; do
			run=${f%/*}
			run=${run##*/}
			case $seen in *" ${run#*-} "*) continue ;; esac
			seen="$seen${run#*-} "
			echo "$f"
		done
}
gpu_on_signal pack
# The phases after capture need its RUN: on a fresh machine it is not there.
need_run() {
	[ -d "$RUN/capture/kernels" ] && return 0
	echo "apply-ab: no RUN at $RUN (a fresh machine?): run the capture phase, or restore" \
		"an earlier call's apply-ab.tar.gz with tar xzf FILE -C $WORK"
	exit 4
}

step "machine ($NAME, work folder $WORK)"
gpu_run "$PY" -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name())'
gpu_tko_version || exit 3

if want capture; then
	step "capture (with the profiled window)"
	rm -rf "$RUN"
	STEPS=${APPLY_AB_CAPTURE_STEPS:-20} gpu_run "$TKO" capture --out "$RUN" -- "$PY" "$MODEL" >"$WORK/capture.out" 2>&1
	echo "exit status: $?"
	tail -3 "$WORK/capture.out"
	ls "$RUN/profile" 2>/dev/null
fi

if want tune; then
	step "tune the kernels the model launches"
	# Inductor's kernels and hand-written ones, not max-autotune's benchmark choices
	need_run
	mapfile -t dirs < <("$PY" "$ROOT/bench/tune_gpu/match.py" "$RUN")
	echo "${#dirs[@]} kernels, --budget ${APPLY_AB_BUDGET:-15} s each"
	gpu_run "$TKO" tune "${dirs[@]}" --budget "${APPLY_AB_BUDGET:-15}" --max-variants 30 --timeout 60 \
		--json "$OUT/tune.json" >"$WORK/tune.out" 2>&1
	echo "exit status: $?"
	grep -E "^(winner|no variant|confirmation|warning: .* inputs are in L2)|tko tune:" "$WORK/tune.out" | head -80
fi

if want ab; then
	step "tko apply --ab $ROUNDS"
	need_run
	earlier=$WORK/earlier-apply.json
	rm -f "$earlier"
	if [ "${APPLY_AB_FORGET:-0}" != 1 ] && [ -f "$RUN/apply/apply.json" ]; then
		mv "$RUN/apply/apply.json" "$earlier"
	fi
	rm -rf "$RUN/apply"
	if [ -f "$earlier" ]; then
		mkdir -p "$RUN/apply" && mv "$earlier" "$RUN/apply/apply.json"
		echo "the earlier A/B's judgements stay (RUN/apply/apply.json; APPLY_AB_FORGET=1 drops them)"
	fi
	ARMS=${APPLY_AB_ARMS:-default,coordesc,max-autotune,applied}
	keep_off=()
	case ",$ARMS," in
	*,keep-off,* | *,applied+keep-off,*)
		IFS=, read -ra regions <<<"${APPLY_AB_KEEP_OFF:-torch.nn.functional:cross_entropy}"
		for r in "${regions[@]}"; do keep_off+=(--keep-off "$r"); done
		echo "keep-off: ${regions[*]}"
		;;
	esac
	# the model prints no step report: every time must come from tko's hook
	APPLY_MODEL_PRINT=0 STEPS=${APPLY_AB_STEPS:-500} gpu_run "$TKO" apply --ab "$ROUNDS" --warmup "${APPLY_AB_WARMUP:-1}" \
		--arms "$ARMS" "${keep_off[@]}" "${APPLY_ARGS[@]}" --timeout "${APPLY_AB_TIMEOUT:-240}" \
		--write-artifact "$WORK/artifact" --json "$OUT/apply.json" "$RUN" -- \
		"$PY" "$MODEL"
	echo "exit status: $?"
fi

rc=0
if want check; then
	step "checks"
	if [ -f "$OUT/apply.json" ]; then
		"$PY" "$ROOT/tests/gpu/apply_ab_check.py" "$OUT/apply.json" "$OUT/checks.json"
		rc=$?
	else
		echo "no checks: tko apply wrote no $OUT/apply.json (its runs: apply-ab.tar.gz, run/apply/runs)"
		rc=1
	fi
fi
pack
step "done"
exit $rc
