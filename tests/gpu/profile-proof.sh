#!/usr/bin/env bash
# The whole-step profile proof on a real GPU (issue 19): `tko capture` of
# bench/models/profile_model.py (attention, fp32 and bf16 matmuls, Triton
# norms and cross-entropy) records a profiled window of its steady state;
# `tko profile` and `tko investigate` read it; tests/gpu/profile_check.py
# checks the top library kernels appear under their ATen op with their
# share, that shares add up to the busy time within 2%, and that the step
# time from the profile agrees with the model's own wall clock of the same
# steps within 5%.
#
#   OUT=/some/dir [TKO_PREBUILT=/path/to/tko] bash tests/gpu/profile-proof.sh
#
# Needs python3 ($TKO_PYTHON) with torch (2.11) and triton and a GPU; a few
# minutes (one cold torch.compile). tko is $TKO_PREBUILT, else build/tko,
# else build-static/tko (tests/gpu/lib.sh), else built with make (needs
# libjansson, zlib, libsqlite3 headers). Writes to $OUT:
# profile-proof.log (everything), profile-proof.md and .json (the checks),
# profile.json (tko profile --json), kernels.json, report.md, window.json,
# profile-run.tar.gz (the RUN's profile, events and step times), packed
# also when a signal (timeout(1)) stops the script.
set -u
OUT=${OUT:-$(mktemp -d)}
# ROOT, PY, TKO, gpu_log, gpu_on_signal
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"
mkdir -p "$OUT"
gpu_log "$OUT/profile-proof.log"

# a build/tko older than tko profile is made again
if [ -z "$TKO" ] || ! "$TKO" profile --help >/dev/null 2>&1; then
	if make -C "$ROOT" -j16 all >/dev/null; then
		TKO=$ROOT/build/tko
	else
		echo "profile-proof: no tko binary (set TKO_PREBUILT or install libjansson/zlib/sqlite3 headers)"
		exit 2
	fi
fi
echo "tko: $TKO ($("$TKO" --version 2>&1 | head -1))"
"$PY" -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name(0))' || exit 2

WORK=$(mktemp -d)
RUN=$WORK/run
pack() {
	# the traces optional: over 15 MiB, the biggest go (lib.sh's gpu_pack)
	gpu_pack "$OUT/profile-run.tar.gz" "$WORK" run/tko-run.json run/capture/events.jsonl steps.json '?run/profile'
}
gpu_on_signal pack
export PROOF_STEPS_JSON=$WORK/steps.json
# 60 steps: compilation and autotuning in the first few, then quiet launches,
# the window (5 steps by default) and steps after it
"$TKO" capture --out "$RUN" --profile-steps 8 -- "$PY" "$ROOT/bench/models/profile_model.py" --steps 60
status=$?
echo "capture exit status $status"
ls -la "$RUN/profile" || true
cp "$RUN"/profile/window-*.json "$OUT/window.json" 2>/dev/null
trace=""
for f in "$RUN"/profile/trace-*.json.gz; do
	[ -e "$f" ] && trace=$f
done
if [ -z "$trace" ]; then
	echo "profile-proof: FAIL: no trace in $RUN/profile (see the capture's events: $RUN/capture/events.jsonl)"
	grep '"error"' "$RUN/capture/events.jsonl" | tail -5
	pack	# the events and the manifest say why; they must come back with the failure
	exit 1
fi
/usr/bin/time -v "$TKO" profile --json "$OUT/profile.json" "$trace" 2>"$WORK/time.txt" | tee "$OUT/profile.txt"
grep -E "Elapsed|Maximum resident" "$WORK/time.txt"
"$TKO" investigate --top 5 "$RUN" | tee "$OUT/investigate.txt"
cp "$RUN/analysis/kernels.json" "$OUT/kernels.json"
cp "$RUN/report/report.md" "$OUT/report.md"
"$PY" "$ROOT/tests/gpu/profile_check.py" "$RUN" "$OUT/profile.json" "$PROOF_STEPS_JSON" "$OUT"
rc=$?
pack
echo "profile-proof: exit $rc; results in $OUT"
exit $rc
