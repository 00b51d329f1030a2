#!/usr/bin/env bash
# tko capture under injected faults, on a real GPU: the model's outputs must
# be identical to a run without capture, and each fault must be recorded as
# error events (tests/gpu/faults_check.py checks both).
#
#   OUT=/some/dir TKO_PREBUILT=/path/to/tko bash tests/gpu/faults.sh
#
# Needs python3 with torch and triton and a GPU; about 3 minutes (one cold
# torch.compile, three warm ones), at most ~8. The cases:
#   drift     `tko capture` of tests/gpu/faults_model.py --drift: an argument
#             that cannot be saved (an object with data_ptr(), not a tensor)
#             and a TorchInductor whose CachingAutotuner inherits bench and
#             _make_launchers instead of defining them (an API that changed)
#   readonly  capture/kernels/ that cannot be written: a read-only tmpfs
#             mount when root may mount, else chattr +i, else mode 555 when
#             not root, else a file where the folder goes
#   full      capture/kernels/ on a 4 MiB tmpfs (ENOSPC) when root may mount,
#             else every file of the model capped at 32 MiB (RLIMIT_FSIZE:
#             EFBIG); the captured inputs are bigger than either
# The baseline is the same model without capture, on a copy of the drift
# run's caches (as tests/gpu/proof.sh does); readonly and full run the hook
# by hand (what tko capture sets up) on copies too, so only one compile is
# cold. Without TKO_PREBUILT (or build/tko, or build-static/tko) the drift
# case runs by hand too. Stopped by a signal (timeout(1)), it still packs
# faults-runs.tar.gz; the mount, chattr +i or mode 555 of the case it was
# in is undone first, and at any exit.
#
# Writes to $OUT (4 files): faults.log (everything printed), summary.md and
# faults.json (the checks), faults-runs.tar.gz (each case's events.jsonl,
# tko-run.json, `tko summarize --json` of its events, model logs).
set -u
# OUT (required), ROOT, PY, TKO, gpu_log, gpu_on_signal, gpu_on_exit, step
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
WORK=${FAULTS_WORK:-$ROOT/build-gpu-faults}
[ -x "$TKO" ] || TKO=""
MODEL=$ROOT/tests/gpu/faults_model.py
mkdir -p "$OUT"
rm -rf "$WORK"
mkdir -p "$WORK/logs"
gpu_log "$OUT/faults.log"
NOTES=()

# Each case's events and logs; also when a signal stops the script.
pack() {
	local packed=(logs) c f
	for c in drift readonly full; do
		for f in "$c/capture/events.jsonl" "$c/tko-run.json"; do
			[ -f "$WORK/$f" ] && packed+=("$f")
		done
	done
	gpu_pack "$OUT/faults-runs.tar.gz" "$WORK" "${packed[@]}"
}

# undo: the command that undoes what made the current case's kernels/
# unwritable or small (umount, chattr -i, chmod 755), or empty. undo_case
# runs it at the case's end, and when a signal or anything else ends the
# script inside the case, so no mount or immutable folder outlives the
# script (the next run's rm -rf of WORK would fail on it). A failed undo
# is kept, so the exit tries it once more.
undo=()
undo_case() {
	[ ${#undo[@]} -gt 0 ] || return 0
	if ! "${undo[@]}"; then
		echo "could not undo with: ${undo[*]} (do it by hand)"
		return 1
	fi
	undo=()
}
stopped() {
	undo_case
	pack
}
gpu_on_signal stopped
gpu_on_exit undo_case

# by_hand CAPDIR CACHE TIMEOUT LOG CMD...: CMD with the capture hook, as tko
# capture starts it (hook folder first on PYTHONPATH, the same variables).
by_hand() {
	local cap=$1 cache=$2 limit=$3 log=$4
	shift 4
	env PYTHONPATH="$ROOT/python/tko/_hook:$ROOT/python${PYTHONPATH:+:$PYTHONPATH}" \
		TKO_PYTHONPATH="$ROOT/python" TKO_RUN_DIR="$(dirname "$cap")" TKO_CAPTURE_DIR="$cap" \
		TORCHINDUCTOR_CACHE_DIR="$cache/inductor" TRITON_CACHE_DIR="$cache/triton" \
		PYTHONUNBUFFERED=1 timeout --foreground "$limit" "$@" >"$log" 2>&1
}

step "machine"
"$PY" -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__, "gpu", torch.cuda.get_device_name())'
echo "tko: ${TKO:-none (the drift case runs by hand)}; uid $(id -u)"

step "drift: tko capture, an unsavable argument and a changed CachingAutotuner"
if [ -n "$TKO" ]; then
	timeout --foreground 200 "$TKO" capture --out "$WORK/drift" -- "$PY" "$MODEL" --drift \
		--out "$WORK/out-drift" >"$WORK/logs/drift.out" 2>&1
	s_drift=$?
	cache_src=$WORK/drift/cache
else
	mkdir -p "$WORK/drift/capture/kernels"
	by_hand "$WORK/drift/capture" "$WORK/drift/cache" 200 "$WORK/logs/drift.out" \
		"$PY" "$MODEL" --drift --out "$WORK/out-drift"
	s_drift=$?
	cache_src=$WORK/drift/cache
	NOTES+=("drift ran the hook by hand: no tko binary")
fi
echo "exit status: $s_drift"; tail -3 "$WORK/logs/drift.out"

step "baseline: the same model without capture (a copy of the caches)"
cp -a "$cache_src" "$WORK/cache-plain"
TORCHINDUCTOR_CACHE_DIR="$WORK/cache-plain/inductor" TRITON_CACHE_DIR="$WORK/cache-plain/triton" \
	timeout --foreground 90 "$PY" "$MODEL" --out "$WORK/out-plain" >"$WORK/logs/plain.out" 2>&1
echo "exit status: $?"; tail -1 "$WORK/logs/plain.out"

step "readonly: capture/kernels cannot be written"
K=$WORK/readonly/capture/kernels
mkdir -p "$K"
if [ "$(id -u)" != 0 ]; then
	chmod 555 "$K" && ro_how="mode 555 (not root)" && undo=(chmod 755 "$K")
elif mount -t tmpfs -o ro,size=1m tmpfs "$K" 2>/dev/null; then
	ro_how="a read-only tmpfs mounted on it" && undo=(umount "$K")
elif chattr +i "$K" 2>/dev/null && ! touch "$K/probe" 2>/dev/null; then
	ro_how="chattr +i" && undo=(chattr -i "$K")
else
	rmdir "$K" && echo "not a folder" >"$K"
	ro_how="a file where the folder goes (root here can neither mount nor chattr, and ignores mode bits)"
fi
echo "made unwritable with: $ro_how"
NOTES+=("readonly: kernels/ made unwritable with $ro_how")
cp -a "$cache_src" "$WORK/cache-ro"
by_hand "$WORK/readonly/capture" "$WORK/cache-ro" 90 "$WORK/logs/readonly.out" \
	"$PY" "$MODEL" --out "$WORK/out-readonly"
s_ro=$?
echo "exit status: $s_ro"; tail -2 "$WORK/logs/readonly.out"
undo_case

step "full: capture/kernels runs out of space"
K=$WORK/full/capture/kernels
mkdir -p "$K"
cp -a "$cache_src" "$WORK/cache-full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=4m tmpfs "$K" 2>/dev/null; then
	full_how="a 4 MiB tmpfs mounted on it (ENOSPC)"
	undo=(umount "$K")
	by_hand "$WORK/full/capture" "$WORK/cache-full" 90 "$WORK/logs/full.out" \
		"$PY" "$MODEL" --out "$WORK/out-full"
	s_full=$?
	cp -a "$K" "$WORK/full-kernels" && undo_case && rmdir "$K" && mv "$WORK/full-kernels" "$K"
else
	full_how="every file capped at 32 MiB (RLIMIT_FSIZE, SIGXFSZ ignored: EFBIG)"
	by_hand "$WORK/full/capture" "$WORK/cache-full" 90 "$WORK/logs/full.out" \
		"$PY" -c 'import os, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (32 << 20, 32 << 20))
os.execvp(sys.argv[1], sys.argv[1:])' "$PY" "$MODEL" --out "$WORK/out-full"
	s_full=$?
fi
echo "ran out of space with: $full_how; exit status: $s_full"; tail -2 "$WORK/logs/full.out"
NOTES+=("full: $full_how")

step "the C side reads each case's events (tko summarize)"
for c in drift readonly full; do
	if [ -n "$TKO" ] && [ -f "$WORK/$c/capture/events.jsonl" ]; then
		"$TKO" summarize --json "$WORK/logs/summarize-$c.json" "$WORK/$c/capture/events.jsonl" \
			>"$WORK/logs/summarize-$c.txt" 2>&1
		echo "$c: tko summarize exit $?"
	fi
done

step "checks"
"$PY" "$ROOT/tests/gpu/faults_check.py" --baseline "$WORK/out-plain" \
	--case "drift:$s_drift:$WORK/drift/capture:$WORK/out-drift" \
	--case "readonly:$s_ro:$WORK/readonly/capture:$WORK/out-readonly" \
	--case "full:$s_full:$WORK/full/capture:$WORK/out-full" \
	"${NOTES[@]/#/--note=}" --md "$OUT/summary.md" --json "$OUT/faults.json"
echo "check exit status: $?"

step "pack"
pack
ls -l "$OUT"
step "done"
