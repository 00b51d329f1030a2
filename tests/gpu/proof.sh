#!/usr/bin/env bash
# tko's proof on a real GPU: capture tests/gpu/model.py with `tko capture`,
# run it again without capture (warm caches: outputs; fresh caches: what
# Inductor's autotuner logs with no tko in the process), replay every
# captured kernel with `tko run` (which keeps RUN/analysis/replay.json), run
# `tko tune` on a template and a pointwise kernel, and check
# (tests/gpu/check.py) kernels captured vs generated, replay times vs the
# autotune times in the log (within 10%, every miss with a measured cause),
# and identical outputs.
#
#   OUT=/some/dir bash tests/gpu/proof.sh
#
# Needs python3 with torch and triton and a GPU. tko is $TKO_PREBUILT, or
# built when make, a C compiler and libjansson are there; otherwise the
# script does by hand what `tko capture` and `tko run` do (same
# environment, same Python package), so the Python side is proven anyway.
# About 4 minutes on an H200.
#
# Writes to $OUT (7 files, each well under 16 MiB): proof.log (everything
# printed), summary.md and check.json (the checks), run.json (the replay:
# RUN/analysis/replay.json), h200-run.tar.gz (the RUN trimmed for
# examples/h200-run/), tune-smoke.tar.gz (tko tune's reports), extras.tar.gz
# (nvidia-smi/nvcc texts, env.json, logs, tko collect's output without its
# input blobs), investigate.tar.gz (tko investigate's report on the RUN,
# with the tune smoke's results, on a capture it made itself with
# `tko investigate -- CMD`, and, step invtune, that capture's report after
# `tko investigate --tune-top 2` tuned its two hottest kernels marked tune).
# Stopped by a signal (timeout(1)), it still packs extras.tar.gz.
#
# PROOF_STEPS picks steps (default "machine build capture plain replay
# plaincold tunesmoke check pack investigate invcmd invtune"); the work folder ($PROOF_WORK, default
# build-gpu-proof/ in the tree) survives between calls on a warm machine.
set -u
# OUT (required), ROOT, PY, TKO (empty when there is none: the build step makes one), gpu_log, step
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
WORK=${PROOF_WORK:-$ROOT/build-gpu-proof}
RUN=$WORK/run
STEPS=${PROOF_STEPS:-machine build capture plain replay plaincold tunesmoke check pack investigate invcmd invtune}
mkdir -p "$OUT" "$WORK/raw"
gpu_log "$OUT/proof.log"

want() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
[ -x "$TKO" ] || TKO=""
# The texts and logs; also when a signal stops the script. Input blobs stay
# out: the RUN's own (storage*.bin) and tko collect's copies of them, and
# the other binaries lib.sh's gpu_pack_blobs names.
pack_extras() {
	cp "$RUN/env.json" "$RUN/tko-run.json" "$WORK/raw/" 2>/dev/null
	gpu_pack "$OUT/extras.tar.gz" "$WORK" "${gpu_pack_blobs[@]}" \
		raw build.log plain.log plaincold.log capture.out env-check.json collect.json \
		'?collected'
}
gpu_on_signal pack_extras
# What tko capture sets for the command, for the runs without it.
INDUCTOR_ENV=(TORCH_LOGS=+inductor TRITON_PRINT_AUTOTUNING=1 TORCHINDUCTOR_BENCHMARK_KERNEL=1
	PYTHONUNBUFFERED=1)

if want machine; then
	step "machine"
	"$PY" -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__, "gpu", torch.cuda.get_device_name())'
	nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total \
		--format=csv,noheader,nounits >"$WORK/raw/nvidia-smi-query.csv" 2>&1
	nvidia-smi --version >"$WORK/raw/nvidia-smi-version.txt" 2>&1
	nvidia-smi >"$WORK/raw/nvidia-smi.txt" 2>&1
	for t in nvcc cuobjdump nvdisasm ncu; do
		command -v "$t" >/dev/null && "$t" --version >"$WORK/raw/$t-version.txt" 2>&1
	done
	cat "$WORK/raw/nvidia-smi-query.csv"
fi

if want build; then
	step "build tko"
	# carried in (TKO_PREBUILT, build-static/), built where jansson is; build/tko
	# is made again from the sources here
	if [ -n "$TKO" ] && [ "$TKO" != "$ROOT/build/tko" ] && "$TKO" --version; then
		:
	elif command -v make >/dev/null && command -v cc >/dev/null; then
		libs=""
		command -v pkg-config >/dev/null && pkg-config --exists jansson ||
			libs="-ljansson -lm"	# headers without pkg-config
		# A newer compiler may warn where the VM's did not: retry without -Werror.
		{ make -C "$ROOT" -j16 all ${libs:+LIBS="$libs"} ||
			make -C "$ROOT" -j16 all ${libs:+LIBS="$libs"} WARN=-w; } \
			>"$WORK/build.log" 2>&1 && TKO="$ROOT/build/tko"
	fi
	echo "tko: ${TKO:-not built: the Python side runs alone, by hand}"
fi

# What `tko capture --out RUN --measure -- CMD` does, for a machine without tko.
capture_by_hand() {
	mkdir -p "$RUN/log" "$RUN/capture/kernels" "$RUN/cache/inductor" "$RUN/cache/triton"
	PYTHONPATH="$ROOT/python" "$PY" -m tko.probe --measure >"$RUN/env.json"
	env PYTHONPATH="$ROOT/python/tko/_hook:$ROOT/python${PYTHONPATH:+:$PYTHONPATH}" \
		TKO_PYTHONPATH="$ROOT/python" TKO_RUN_DIR="$RUN" TKO_CAPTURE_DIR="$RUN/capture" \
		TORCHINDUCTOR_CACHE_DIR="$RUN/cache/inductor" TRITON_CACHE_DIR="$RUN/cache/triton" \
		"${INDUCTOR_ENV[@]}" "$@" 2>&1 | tee "$RUN/log/model.log" >/dev/null
	return "${PIPESTATUS[0]}"
}

if want capture; then
	step "capture (tko capture -- python tests/gpu/model.py)"
	rm -rf "$RUN"
	if [ -n "$TKO" ]; then
		"$TKO" capture --out "$RUN" --measure -- "$PY" "$ROOT/tests/gpu/model.py" \
			--out "$WORK/out_captured.pt" >"$WORK/capture.out" 2>&1
		echo "exit status: $?"
		tail -4 "$WORK/capture.out"
	else
		capture_by_hand "$PY" "$ROOT/tests/gpu/model.py" --out "$WORK/out_captured.pt"
		echo "exit status: $?"
	fi
	echo "kernel dirs: $(find "$RUN/capture/kernels" -mindepth 1 -maxdepth 1 -type d | wc -l);" \
		"events: $(wc -l <"$RUN/capture/events.jsonl")"
	grep -c '"event": "error"' "$RUN/capture/events.jsonl" | sed 's/^/error events: /'
	grep '"event": "error"' "$RUN/capture/events.jsonl" | head -5
	"$PY" - "$RUN"/capture/kernels/*/capture.json <<-\EOF
	import collections, json, sys
	kinds, copies = collections.Counter(), []
	for path in sys.argv[1:]:
	    doc = json.load(open(path))
	    kinds[doc.get("source_kind")] += 1
	    copies += [(doc["kernel"], c.get("kwargs"), a["name"], a["bytes"])
	               for c in doc.get("configs", []) for a in c.get("cpu_copy_args") or []]
	print("kernel.py holds (source_kind):", dict(kinds))
	print("configs whose bench restored arguments from pinned host memory:", len(copies))
	for c in copies:
	    print("  %s %s: %s, %s bytes" % c)
	EOF
fi

if want plain; then
	step "the same model without capture (same caches, same Inductor config)"
	rm -rf "$WORK/plain-cache"
	cp -a "$RUN/cache" "$WORK/plain-cache"
	TORCHINDUCTOR_CACHE_DIR="$WORK/plain-cache/inductor" TRITON_CACHE_DIR="$WORK/plain-cache/triton" \
		TORCHINDUCTOR_BENCHMARK_KERNEL=1 "$PY" "$ROOT/tests/gpu/model.py" \
		--out "$WORK/out_plain.pt" >"$WORK/plain.log" 2>&1
	echo "exit status: $?"
	tail -1 "$WORK/plain.log"
fi

if want replay; then
	step "replay every captured kernel (tko run, no --json: keeps RUN/analysis/replay.json)"
	rm -f "$RUN/analysis/replay.json" "$OUT/run.json"
	if [ -n "$TKO" ]; then
		"$TKO" run "$RUN"/capture/kernels/* --timeout 420
		echo "exit status: $?"
		if [ -f "$RUN/analysis/replay.json" ]; then
			cp "$RUN/analysis/replay.json" "$OUT/run.json"
			echo "RUN/analysis/replay.json: $(wc -c <"$OUT/run.json") bytes, copied to run.json"
		else
			echo "FAIL: tko run left no RUN/analysis/replay.json (a tko built before branch capfix?)"
		fi
		"$TKO" env --json "$WORK/env-check.json" >/dev/null
		for k in "$RUN"/capture/kernels/scale_add_kernel-*; do
			[ -d "$k" ] && "$TKO" collect "$RUN" --kernel "${k##*/}" --out "$WORK/collected" \
				--json "$WORK/collect.json"
			break
		done
	else
		mkdir -p "$RUN/analysis"
		PYTHONPATH="$ROOT/python" TRITON_CACHE_DIR="$RUN/cache/triton" timeout --foreground 420 \
			"$PY" -m tko.replay "$RUN"/capture/kernels/* --json "$OUT/run.json"
		echo "exit status: $?"
		cp "$OUT/run.json" "$RUN/analysis/replay.json"
	fi
fi

if want plaincold; then
	step "the model without tko on fresh caches (what the autotuner logs with no tko in the process)"
	rm -rf "$WORK/cold"
	mkdir -p "$WORK/cold/inductor" "$WORK/cold/triton"
	env TORCHINDUCTOR_CACHE_DIR="$WORK/cold/inductor" TRITON_CACHE_DIR="$WORK/cold/triton" \
		"${INDUCTOR_ENV[@]}" "$PY" "$ROOT/tests/gpu/model.py" --out "$WORK/out_cold.pt" \
		>"$WORK/plaincold.log" 2>&1
	echo "exit status: $?"
	tail -1 "$WORK/plaincold.log"
fi

# tko tune's GPU path on a captured template (its kernel.py is now the
# whole module Inductor generated) and on a pointwise kernel.
if want tunesmoke && [ -n "$TKO" ]; then
	step "tune smoke (tko tune on a template and a pointwise kernel)"
	rm -rf "$WORK/tune"
	mkdir -p "$WORK/tune"
	for pat in triton_tem_fused_mm_relu_0 triton_poi_fused_add_addmm_gelu_mul_view_1; do
		for k in "$RUN"/capture/kernels/"$pat"-*; do
			[ -d "$k" ] || continue
			echo "-- ${k##*/}"
			timeout --foreground 100 "$TKO" tune "$k" --budget 15 --max-variants 6 --out "$WORK/tune" \
				--json "$WORK/tune/${k##*/}.json" --md "$WORK/tune/${k##*/}.md" \
				>"$WORK/tune/${k##*/}.log" 2>&1
			echo "exit status: $?"
			tail -12 "$WORK/tune/${k##*/}.log"
			break
		done
	done
	# reference.pt holds the base variant's outputs (tens of MB): left out.
	gpu_pack "$OUT/tune-smoke.tar.gz" "$WORK" --exclude='reference.pt' '?tune'
fi

if want check; then
	step "checks"
	"$PY" "$ROOT/tests/gpu/check.py" --run "$RUN" --replay "$OUT/run.json" \
		--outputs "$WORK/out_captured.pt" "$WORK/out_plain.pt" \
		--plain-log "$WORK/plaincold.log" --md "$OUT/summary.md" --json "$OUT/check.json"
	echo "check exit status: $?"
fi

if want pack; then
	step "pack"
	"$PY" "$ROOT/tests/gpu/pack.py" "$RUN" "$OUT/h200-run.tar.gz"
	pack_extras
	ls -l "$OUT"
fi
# tko's main job on the GPU: the report on the RUN above (with the tune
# smoke's results), then the whole of it from a command line.
if want investigate && [ -n "$TKO" ]; then
	step "investigate the RUN (tko investigate RUN --tune ...)"
	rm -rf "$WORK/inv"
	tunes=()
	for t in "$WORK"/tune/*.json; do [ -f "$t" ] && tunes+=(--tune "$t"); done
	"$TKO" investigate --out-dir "$WORK/inv" "${tunes[@]}" --top 0 "$RUN"
	echo "exit status: $?"
fi
if want invcmd && [ -n "$TKO" ]; then
	step "investigate from a command (tko investigate --measure -- python tests/gpu/model.py)"
	rm -rf "$WORK/invrun"
	"$TKO" investigate --out "$WORK/invrun" --measure -- "$PY" "$ROOT/tests/gpu/model.py" \
		--out "$WORK/out_inv.pt" >"$WORK/invcmd.out" 2>&1
	echo "exit status: $?"
	tail -30 "$WORK/invcmd.out"
fi
# tko investigate --tune-top on the RUN invcmd made: the two hottest kernels
# marked tune, tuned into that RUN's capture folders, and the report again
# (under invtune/, so invcmd's own report stays as it was).
if want invtune && [ -n "$TKO" ] && [ -d "$WORK/invrun" ]; then
	step "investigate and tune (tko investigate --tune-top 2 --tune-budget 15 RUN)"
	rm -rf "$WORK/invtune"
	timeout --foreground 600 "$TKO" investigate --tune-top 2 --tune-budget 15 --out-dir "$WORK/invtune" \
		--top 0 "$WORK/invrun" >"$WORK/invtune.out" 2>&1
	echo "exit status: $?"
	tail -30 "$WORK/invtune.out"
	ls "$WORK"/invrun/capture/kernels/*/tune/tune.json
fi
if want investigate || want invcmd || want invtune; then
	mkdir -p "$WORK/invpack"
	[ -d "$WORK/inv/report" ] && cp -r "$WORK/inv/report" "$WORK/invpack/run-report"
	[ -d "$WORK/invrun/report" ] && cp -r "$WORK/invrun/report" "$WORK/invpack/cmd-report"
	cp "$WORK/invcmd.out" "$WORK/invpack/" 2>/dev/null
	if [ -d "$WORK/invtune/report" ]; then
		cp -r "$WORK/invtune/report" "$WORK/invpack/tune-report"
		cp "$WORK/invtune.out" "$WORK/invpack/"
		for t in "$WORK"/invrun/capture/kernels/*/tune/tune.json; do
			[ -f "$t" ] || continue
			k=${t%/tune/tune.json}
			cp "$t" "$WORK/invpack/tune-${k##*/}.json"
		done
	fi
	gpu_pack "$OUT/investigate.tar.gz" "$WORK" invpack
fi
step "done"
