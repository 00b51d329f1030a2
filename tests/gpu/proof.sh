#!/usr/bin/env bash
# tko's proof on a real GPU: capture tests/gpu/model.py with `tko capture`,
# run it again without capture, replay every captured kernel with `tko run`,
# and check (tests/gpu/check.py) kernels captured vs generated, replay times
# vs the autotune times in the log (within 10%), and identical outputs.
#
#   OUT=/some/dir bash tests/gpu/proof.sh
#
# Needs python3 with torch and triton and a GPU. tko is built when make, a C
# compiler and libjansson are there; otherwise the script does by hand what
# `tko capture` and `tko run` do (same environment, same Python package), so
# the Python side is proven anyway and everything the C side needs comes back.
#
# Writes to $OUT (at most 6 files): proof.log (everything printed),
# summary.md and check.json (the checks), run.json (the replay), h200-run.tar.gz
# (the RUN directory trimmed for examples/h200-run/), extras.tar.gz (raw
# nvidia-smi/nvcc texts for parser tests, env.json, tko collect output, logs).
#
# PROOF_STEPS picks steps (default "machine build capture plain replay check
# pack"); the work folder ($PROOF_WORK, default build-gpu-proof/ in the tree)
# survives between calls on a warm machine, so steps can be split.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:?set OUT to the folder for the results}
WORK=${PROOF_WORK:-$ROOT/build-gpu-proof}
RUN=$WORK/run
PY=${TKO_PYTHON:-python3}
export TKO_PYTHON="$PY"
STEPS=${PROOF_STEPS:-machine build capture plain replay tunesmoke check pack}
mkdir -p "$OUT" "$WORK/raw"
exec > >(tee -a "$OUT/proof.log") 2>&1

step() { printf '\n== %s (t=%ds)\n' "$*" "$SECONDS"; }
want() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
TKO=""
[ -x "$ROOT/build/tko" ] && TKO="$ROOT/build/tko"

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
	for t in cc gcc make pkg-config; do printf '%s: %s\n' "$t" "$(command -v $t || echo missing)"; done
fi

if want build; then
	step "build tko"
	TKO=""
	if [ -n "${TKO_PREBUILT:-}" ] && "$TKO_PREBUILT" --version; then
		TKO=$TKO_PREBUILT	# carried in, built where jansson is
	elif command -v make >/dev/null && command -v cc >/dev/null; then
		if command -v pkg-config >/dev/null && pkg-config --exists jansson; then
			# A newer compiler may warn where the VM's did not: retry without -Werror.
			{ make -C "$ROOT" -j16 all || make -C "$ROOT" -j16 all WARN=-w; } \
				>"$WORK/build.log" 2>&1 && TKO="$ROOT/build/tko"
		elif [ -f /usr/include/jansson.h ]; then
			{ make -C "$ROOT" -j16 all LIBS="-ljansson -lm" ||
				make -C "$ROOT" -j16 all LIBS="-ljansson -lm" WARN=-w; } \
				>"$WORK/build.log" 2>&1 && TKO="$ROOT/build/tko"
		else
			echo "no libjansson headers" >"$WORK/build.log"
		fi
	fi
	tail -3 "$WORK/build.log" 2>/dev/null
	echo "tko: ${TKO:-not built: the Python side runs alone, by hand}"
fi

# What `tko capture --out RUN --measure -- CMD` does, for a machine without tko.
capture_by_hand() {
	mkdir -p "$RUN/log" "$RUN/capture/kernels" "$RUN/cache/inductor" "$RUN/cache/triton"
	PYTHONPATH="$ROOT/python" "$PY" -m tko.probe --measure >"$RUN/env.json"
	env PYTHONPATH="$ROOT/python/tko/_hook:$ROOT/python${PYTHONPATH:+:$PYTHONPATH}" \
		TKO_PYTHONPATH="$ROOT/python" TKO_RUN_DIR="$RUN" TKO_CAPTURE_DIR="$RUN/capture" \
		TORCHINDUCTOR_CACHE_DIR="$RUN/cache/inductor" TRITON_CACHE_DIR="$RUN/cache/triton" \
		TORCH_LOGS=+inductor TRITON_PRINT_AUTOTUNING=1 TORCHINDUCTOR_BENCHMARK_KERNEL=1 \
		PYTHONUNBUFFERED=1 "$@" 2>&1 | tee "$RUN/log/model.log" >/dev/null
	return "${PIPESTATUS[0]}"
}

if want capture; then
	step "capture (tko capture -- python tests/gpu/model.py)"
	rm -rf "$RUN"
	if [ -n "$TKO" ]; then
		"$TKO" capture --out "$RUN" --measure -- "$PY" "$ROOT/tests/gpu/model.py" \
			--out "$WORK/out_captured.pt" >"$WORK/capture.out" 2>&1
		echo "exit status: $?"
		tail -6 "$WORK/capture.out"
	else
		capture_by_hand "$PY" "$ROOT/tests/gpu/model.py" --out "$WORK/out_captured.pt"
		echo "exit status: $?"
		tail -2 "$RUN/log/model.log"
	fi
	echo "kernel dirs: $(find "$RUN/capture/kernels" -mindepth 1 -maxdepth 1 -type d | wc -l);" \
		"events: $(wc -l <"$RUN/capture/events.jsonl")"
	grep -c '"event": "error"' "$RUN/capture/events.jsonl" | sed 's/^/error events: /'
	grep '"event": "error"' "$RUN/capture/events.jsonl" | head -5
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
	step "replay every captured kernel (tko run)"
	if [ -n "$TKO" ]; then
		"$TKO" run "$RUN"/capture/kernels/* --json "$OUT/run.json" --timeout 420
		echo "exit status: $?"
		"$TKO" env --json "$WORK/env-check.json" >/dev/null
		for k in "$RUN"/capture/kernels/scale_add_kernel-*; do
			[ -d "$k" ] && "$TKO" collect "$RUN" --kernel "${k##*/}" --out "$WORK/collected" \
				--json "$WORK/collect.json"
			break
		done
	else
		PYTHONPATH="$ROOT/python" TRITON_CACHE_DIR="$RUN/cache/triton" timeout 420 \
			"$PY" -m tko.replay "$RUN"/capture/kernels/* --json "$OUT/run.json"
		echo "exit status: $?"
	fi
fi

# A first run of the GPU path of tko tune on a few captured kernels, to see
# it work on real hardware (the tuning benchmark proper is bench/tune-gpu).
if want tunesmoke && [ -n "$TKO" ]; then
	step "tune smoke (tko tune on three captured kernels)"
	mkdir -p "$WORK/tune"
	picked=$(printf "%s\n" "$RUN"/capture/kernels/triton_poi_* "$RUN"/capture/kernels/triton_red_* \
		"$RUN"/capture/kernels/scale_add_kernel-* | grep -v "[*]" | awk -F/ '{split($NF, a, "_fused"); if (!seen[a[1]]++) print}' | head -3)
	for k in $picked; do
		echo "-- $k"
		timeout 150 "$TKO" tune "$k" --budget 40 --max-variants 12 --out "$WORK/tune" \
			--md "$WORK/tune/${k##*/}.md" >"$WORK/tune/${k##*/}.log" 2>&1
		echo "exit status: $?"
		tail -15 "$WORK/tune/${k##*/}.log"
	done
	tar -C "$WORK" -czf "$OUT/tune-smoke.tar.gz" tune 2>/dev/null
fi

if want check; then
	step "checks"
	"$PY" "$ROOT/tests/gpu/check.py" --run "$RUN" --replay "$OUT/run.json" \
		--outputs "$WORK/out_captured.pt" "$WORK/out_plain.pt" \
		--md "$OUT/summary.md" --json "$OUT/check.json"
	echo "check exit status: $?"
fi

if want pack; then
	step "pack"
	"$PY" "$ROOT/tests/gpu/pack.py" "$RUN" "$OUT/h200-run.tar.gz"
	cp "$RUN/env.json" "$RUN/tko-run.json" "$WORK/raw/" 2>/dev/null
	tar -C "$WORK" -czf "$OUT/extras.tar.gz" raw build.log plain.log capture.out \
		env-check.json collect.json collected 2>/dev/null
	ls -l "$OUT"
fi
step "done"
