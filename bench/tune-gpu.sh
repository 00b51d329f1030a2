#!/usr/bin/env bash
# tko tune against TorchInductor's own tuning, side by side, on a real GPU
# (issue 6's benchmark). In one call of five to nine minutes on an H200:
#
#   capture    tko capture of the two models (tests/gpu/model.py and
#              bench/models/second.py, one process) with Inductor's default
#              autotuning, fresh caches                          -> RUN_A
#   coordesc   the same with TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1, fresh
#              caches: coordinate descent's best config per kernel -> RUN_B
#   tune       tko tune on every kernel the models launch in RUN_A, in one
#              tko run (its workers shared), the budget per kernel chosen so
#              that everything fits the deadline; each winner confirmed in 7
#              alternating rounds against the base (src/tune/confirm.h)
#   agree      tko run on the same kernels (RUN_A/analysis/replay.json),
#              then tko investigate RUN_A with the tune result: the two
#              documents the criteria compare (run and report agree on
#              bytes and GB/s; no rate above 105% of copy printed as a fact)
#   retime     bench/tune_gpu/retime.py: in one process, interleaved, the
#              default config, coordesc's and tko's winner of every kernel,
#              same inputs, warm-up and repetitions, L2 flushed; outputs
#              checked against the default's; the copy bandwidth; the
#              criteria (bench/tune_gpu/criteria.py), printed last
#
#   OUT=/some/dir TKO_PREBUILT=build-static/tko bash bench/tune-gpu.sh
#
# Needs python3 with torch and triton and a GPU; tko is carried in as
# $TKO_PREBUILT (built where jansson is), else build/tko, else
# build-static/tko (tests/gpu/lib.sh). Writes to $OUT (9
# files): tune-gpu.log (everything printed), results.json and results.md
# (per kernel the three times, speedups, correctness, GB/s and the
# criteria), tune.json and tune.md (tko tune's own report), replay.json and
# report.json (tko run's and the report's figures for RUN_A), runs.tar.gz (both
# RUNs and the step logs, without input blobs, binaries or IR),
# tune-files.tar.gz (every variant's source, request and PTX, the winners).
#
# TUNE_GPU_DEADLINE_S (default 530, inside the 600 s of one device call) is
# the time the whole script aims at; TUNE_GPU_STEPS picks steps (default
# "machine capture coordesc tune agree retime pack"); the work folder
# ($TUNE_GPU_WORK, default build-tune-gpu/ in the tree) survives between
# calls on a warm machine, so steps can be split. Stopped by SIGTERM or
# SIGINT (timeout(1)), it still packs runs.tar.gz and tune-files.tar.gz.
set -u
# OUT (required), ROOT, PY, TKO, gpu_log, gpu_on_signal, step
# shellcheck source=SCRIPTDIR/../tests/gpu/lib.sh
. "$(dirname "$0")/../tests/gpu/lib.sh"
WORK=${TUNE_GPU_WORK:-$ROOT/build-tune-gpu}
DEADLINE=${TUNE_GPU_DEADLINE_S:-530}
STEPS=${TUNE_GPU_STEPS:-machine capture coordesc tune agree retime pack}
mkdir -p "$OUT" "$WORK"
gpu_log "$OUT/tune-gpu.log"

want() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

capture() {
	local run=$1
	shift
	rm -rf "${WORK:?}/$run" "$WORK/out-$run"
	env "$@" "$TKO" capture --out "$WORK/$run" -- "$PY" "$ROOT/bench/models/run_models.py" \
		--out "$WORK/out-$run" >"$WORK/$run.out" 2>&1
	echo "exit status: $?"
	tail -4 "$WORK/$run.out"
	echo "kernel dirs: $(find "$WORK/$run/capture/kernels" -mindepth 1 -maxdepth 1 -type d | wc -l)"
}

# no input blobs, binaries or intermediate IR: the JSON, sources, logs, PTX/AMDGCN.
# Also when a signal stops the script, so that a call out of time can be diagnosed.
pack() {
	local skip=("${gpu_pack_blobs[@]}" --exclude=fxgraph --exclude=aotautograd
		--exclude='*.llir' --exclude='*.ttir' --exclude='*.ttgir' --exclude='*.source')
	# the RUNs and the variants optional: over 15 MiB, the biggest files go
	# (lib.sh's gpu_pack), the logs stay
	gpu_pack "$OUT/runs.tar.gz" "$WORK" "${skip[@]}" run-a.out run-b.out tune.out run.out \
		investigate.out retime.out retime.err '?run-a' '?run-b'
	gpu_pack "$OUT/tune-files.tar.gz" "$WORK" "${skip[@]}" '?tune'
}
gpu_on_signal pack

if want machine; then
	step "machine"
	"$PY" -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__, "gpu", torch.cuda.get_device_name(), torch.cuda.get_device_capability())'
	nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.sm,clocks.mem --format=csv,noheader
	gpu_tko_version || exit 3
fi

if want capture; then
	step "capture with Inductor's default autotuning (RUN_A)"
	capture run-a
fi

if want coordesc; then
	step "capture with TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1 (RUN_B)"
	capture run-b TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1
	grep -h "Improve from" "$WORK/run-b/log/model.log" | sed 's/.*coordinate_descent_tuner.py:[0-9]*\] //' | head -30
	# what descent's log claimed per kernel, for the retime table's "cd log" column
	"$TKO" summarize "$WORK/run-b" --json "$WORK/run-b.summary.json" >/dev/null 2>&1 ||
		echo "tko summarize of RUN_B failed: no cd log column"
fi

if want tune; then
	step "tko tune on every kernel the models launch"
	mapfile -t dirs < <("$PY" "$ROOT/bench/tune_gpu/match.py" "$WORK/run-a")
	n=${#dirs[@]}
	# what is left, less 30 s (worker start, copy bandwidth, packing) and 7 s
	# a kernel (its re-timing, about 3 s, its sweep's setup: inputs loaded,
	# base compiled and kept as the reference, and its confirmation: 7 rounds
	# of up to three variants, about 2 s), shared out
	budget=$(( (DEADLINE - SECONDS - 30 - 7 * n) / (n > 0 ? n : 1) ))
	[ "$budget" -gt 60 ] && budget=60
	[ "$budget" -lt 3 ] && budget=3
	echo "$n kernels, --budget $budget s each (of search after the base; $((DEADLINE - SECONDS)) s left)"
	rm -rf "$WORK/tune" "$WORK/tko-triton"
	TRITON_CACHE_DIR="$WORK/tko-triton" "$TKO" tune "${dirs[@]}" --budget "$budget" \
		--max-variants 60 --timeout 60 --out "$WORK/tune" --json "$WORK/tune.json" \
		--md "$WORK/tune.md" >"$WORK/tune.out" 2>&1
	echo "exit status: $?"
	grep -E "^(winner|no variant|stopped|confirmation|not tuned)|: base from|tko tune:" \
		"$WORK/tune.out" | head -80
	cp "$WORK/tune.json" "$WORK/tune.md" "$OUT/" 2>/dev/null
fi

if want agree; then
	step "tko run and tko investigate on RUN_A (the figures the criteria compare)"
	mapfile -t dirs < <("$PY" "$ROOT/bench/tune_gpu/match.py" "$WORK/run-a")
	rm -f "$WORK/run-a/analysis/replay.json"
	"$TKO" run "${dirs[@]}" --timeout 150 >"$WORK/run.out" 2>&1
	echo "tko run exit status: $?"
	grep -E "over 105%|^peak:" "$WORK/run.out" | head -20
	tune_arg=()
	[ -s "$WORK/tune.json" ] && tune_arg=(--tune "$WORK/tune.json")
	"$TKO" -q investigate "$WORK/run-a" "${tune_arg[@]}" >"$WORK/investigate.out" 2>&1
	echo "tko investigate exit status: $?"
	cp "$WORK/run-a/analysis/replay.json" "$WORK/run-a/report/report.json" "$OUT/" 2>/dev/null
fi

if want retime; then
	step "re-time default, coordesc and tko side by side"
	claims=()
	[ -s "$WORK/run-b.summary.json" ] && claims=(--descent-summary "$WORK/run-b.summary.json")
	TRITON_CACHE_DIR="$WORK/tko-triton" "$PY" "$ROOT/bench/tune_gpu/retime.py" \
		--run-a "$WORK/run-a" --run-b "$WORK/run-b" --tune "$WORK/tune.json" "${claims[@]}" \
		--json "$OUT/results.json" --md "$OUT/results.md" >"$WORK/retime.out" 2>"$WORK/retime.err"
	echo "exit status: $?"
	tail -5 "$WORK/retime.err"
fi

if want pack; then
	step "pack"
	pack
	ls -l "$OUT"
fi
step "done"
if [ -f "$OUT/results.json" ]; then
	agree=()
	[ -s "$OUT/replay.json" ] && agree+=(--run "$OUT/replay.json")
	[ -s "$OUT/report.json" ] && agree+=(--report "$OUT/report.json")
	[ -s "$OUT/tune.json" ] && agree+=(--tune "$OUT/tune.json")
	"$PY" "$ROOT/bench/tune_gpu/criteria.py" "$OUT/results.json" "${agree[@]}"
fi
