"""A stand-in for a user's training script under `tko apply`, for the CLI
tests (run with `python3 -S`, so tko's real hook is not loaded): it writes
what tko's hook would write to $TKO_APPLY_DIR/apply.jsonl (docs/apply.md,
"apply.jsonl") for the plan in $TKO_APPLY_PLAN, and prints the step report
line tko apply reads.

  FAKE_LOG       each run appends its arm here ("default", "applied", ...)
  FAKE_MS        "arm=ms,ms,...;arm=...": the k-th run of an arm reports the
                 k-th time of its list (warm-up runs included), the last one
                 once the list is used up
  FAKE_MISS      a kernel name: in apply mode it is reported as not
                 launched, reason source_changed
  FAKE_LOSS_applied  losses of the applied arm ("2.5,2.4"; default 2.5,2.4);
                 FAKE_LOSS_<arm> likewise, "-" and "+" in the arm's name as "_"

It prints the TKO_APPLY_FLOAT32_MATMUL_PRECISION it was given ("unset" when
none) on its standard output, so a test can see which runs had the tf32
arms' setting, and names its arm from that variable as tko's hook would act
on it: observe + precision is "tf32", apply + precision "applied+tf32".
  FAKE_FAIL_ARM  the run of this arm exits 3
  FAKE_STEPS     n: also write the `steps` event tko's hook writes
                 (python/tko/apply_steps.py) for n steps: ms null, 500,
                 then the run's FAKE_MS time n - 2 times; the losses as above
  FAKE_KERNEL_US "arm=us;...": with FAKE_STEPS and TKO_APPLY_KERNEL_WINDOW=K
                 (START S), the kernel window the hook writes: window [S, S+K]
                 in the steps event and kernel_window.json, a Chrome trace with
                 two launches a step of every kernel in the plan, us/2 each;
                 "arm=us,us,..." gives the k-th run of the arm the k-th time,
                 as FAKE_MS does
  FAKE_KERNEL_US_<kernel>  the same for that kernel of the plan only; for a kernel
                 the plan skipped, its launches appear only when this is set
  FAKE_OTHER_US  "arm=us,...;...": with a kernel window, the GPU time a step of
                 what tko tuned none of: a step of the trace also holds a
                 library GEMM of 3/4 of it and a copy of 1/4 (and a GPU-side
                 ProfilerStep range, which is no GPU activity); the k-th run of
                 the arm takes the k-th time, as FAKE_MS does
  FAKE_STDOUT_MS the time the printed JSON line reports, when it must differ
                 from the hook's ("none": no JSON line at all)

With TKO_APPLY_KEEP_OFF (the keep-off arms) its arm is "keep-off" or
"applied+keep-off", it prints that variable as it got it, and it writes the
`keep_off` event tko's hook writes (python/tko/keep_off.py): every region
took_effect with FAKE_KEEP_OFF_CALLS calls (default 7), or, from the k-th run
of that arm on (FAKE_KEEP_OFF_BAD="k:status", k from 1), that status with 0
calls and a message; FAKE_KEEP_OFF_NONE=1 writes no such event.

  FAKE_HANG      "arm:k" (with FAKE_LOG): the k-th run of that arm (from 1,
                 warm-up runs included) creates the file FAKE_HANG_FILE, then
                 sleeps 60 s, for a test to stop tko apply in the middle of a
                 run; with FAKE_HANG_IGNORE_TERM=1 it ignores SIGTERM; with
                 FAKE_HANG_ESCAPE=1 it first starts `sleep 60` in a session of
                 its own, which keeps the run's output open after the run is
                 killed (its pid in FAKE_HANG_FILE.escaped)
"""
import json
import os
import signal
import subprocess
import sys
import time

mode = os.environ["TKO_APPLY_MODE"]
if os.environ.get("TORCHINDUCTOR_COORDINATE_DESCENT_TUNING") == "1":
    arm = "coordesc"
elif os.environ.get("TORCHINDUCTOR_MAX_AUTOTUNE") == "1":
    arm = "max-autotune"
else:
    arm = "applied" if mode == "apply" else "default"
precision = os.environ.get("TKO_APPLY_FLOAT32_MATMUL_PRECISION")
if precision:
    arm = "tf32" if arm == "default" else arm + "+tf32"
keep_off = os.environ.get("TKO_APPLY_KEEP_OFF")
if keep_off:
    arm = "keep-off" if arm == "default" else arm + "+keep-off"

log = os.environ.get("FAKE_LOG")
previous = 0
if log:
    if os.path.exists(log):
        previous = sum(1 for line in open(log) if line.strip() == arm)
    with open(log, "a") as f:
        f.write(arm + "\n")
if os.environ.get("FAKE_HANG") == "%s:%d" % (arm, previous + 1):
    if os.environ.get("FAKE_HANG_IGNORE_TERM") == "1":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.environ.get("FAKE_HANG_ESCAPE") == "1":
        escaped = subprocess.Popen(["sleep", "60"], start_new_session=True)
        with open(os.environ["FAKE_HANG_FILE"] + ".escaped", "w") as f:
            f.write("%d\n" % escaped.pid)
    open(os.environ["FAKE_HANG_FILE"], "w").close()
    time.sleep(60)
if os.environ.get("FAKE_FAIL_ARM") == arm:
    print("fake: failing on purpose", file=sys.stderr)
    sys.exit(3)

plan = json.load(open(os.environ["TKO_APPLY_PLAN"]))
out = open(os.path.join(os.environ["TKO_APPLY_DIR"], "apply.jsonl"), "a")


def emit(event, **fields):
    out.write(json.dumps(dict(schema_version=1, event=event, time=time.time(), pid=os.getpid(),
                              role="main", **fields)) + "\n")


emit("session_start", argv=sys.argv, tko="fake", mode=mode, plan=os.environ["TKO_APPLY_PLAN"],
     winners=len(plan["kernels"]), torch="2.11.0", triton="3.6.0", planned_versions=None)
outcomes = []
for k in plan["kernels"]:
    miss = mode == "apply" and k["kernel"] == os.environ.get("FAKE_MISS")
    if mode == "apply" and not miss:
        emit("construct", id=k["id"], kernel=k["kernel"], mechanism="lookup_table",
             how="lookup_hit", config=k["config"])
    # FAKE_SAME_CONFIG: kernels whose config the default arm (observe) launched too
    same = mode == "observe" and k["kernel"] in os.environ.get("FAKE_SAME_CONFIG", "").split(",")
    status = "ran_winner" if (mode == "apply" and not miss) or same else (
        "not_launched" if miss else "ran_other")
    reason = None if status == "ran_winner" else ("source_changed" if miss else "observe")
    outcomes.append({"id": k["id"], "kernel": k["kernel"], "launcher": k.get("launcher", "inductor"),
                     "mechanism": "lookup_table", "refused": [], "installed": None,
                     "constructed": [], "status": status, "reason": reason,
                     "launches": 0 if miss else 5, "configs": [], "other_hashes": [],
                     "notes": [], "template_keys": []})
installed = [{"what": "float32_matmul_precision", "value": precision, "previous": "highest"}] \
    if precision else []
emit("session_end", hooks=[], installed=installed, errors=0, outcomes=outcomes,
     float32_matmul_precision=precision or "highest")
if keep_off and not os.environ.get("FAKE_KEEP_OFF_NONE"):
    nth, _, bad = os.environ.get("FAKE_KEEP_OFF_BAD", "0:").partition(":")
    bad = bad if int(nth) and previous + 1 >= int(nth) else None
    calls = int(os.environ.get("FAKE_KEEP_OFF_CALLS", "7"))
    emit("keep_off", regions=[{"region": r, "module": r.split(":")[0], "qualname": r.split(":")[1],
                               "status": bad or "took_effect", "kind": "method",
                               "calls": 0 if bad else calls,
                               "message": f"{r}: fake {bad}" if bad else None}
                              for r in keep_off.split(",")])

times = {}
for part in filter(None, os.environ.get("FAKE_MS", "").split(";")):
    name, values = part.split("=")
    times[name] = [float(v) for v in values.split(",")]
listed = times.get(arm, [10.0])
ms = listed[min(previous, len(listed) - 1)]
losses = [float(v) for v in os.environ.get("FAKE_LOSS_" + arm.replace("-", "_").replace("+", "_"),
                                           "2.5,2.4").split(",")]
steps = int(os.environ.get("FAKE_STEPS", 0))
window = None
k = int(os.environ.get("TKO_APPLY_KERNEL_WINDOW", 0))


def kernel_us(name=None, variable="FAKE_KERNEL_US"):
    """This run's time of kernel `name` (any kernel: None) from FAKE_KERNEL_US[_<name>], or None."""
    text = os.environ.get(variable + "_" + name) if name else None
    if text is None:
        text = os.environ.get(variable, "")
    lists = dict(part.split("=") for part in filter(None, text.split(";")))
    if arm not in lists:
        return None
    values = [float(v) for v in lists[arm].split(",")]
    return values[min(previous, len(values) - 1)]


# the plan's kernels, and those it skipped that FAKE_KERNEL_US_<kernel> names
named = plan["kernels"] + [s for s in plan.get("skipped", [])
                           if os.environ.get("FAKE_KERNEL_US_" + s["kernel"]) is not None]
if steps and k and kernel_us() is not None:
    start = int(os.environ["TKO_APPLY_KERNEL_WINDOW_START"])
    window = [start, start + k]
    events = [{"ph": "X", "cat": "kernel", "name": kern["kernel"], "pid": 0, "tid": 7,
               "ts": 1000.0 * n + i, "dur": kernel_us(kern["kernel"]) / 2,
               "args": {"device": 0, "stream": 7}}
              for n in range(2 * k) for i, kern in enumerate(named)]
    other = kernel_us(variable="FAKE_OTHER_US")
    if other is not None:
        for n in range(k):
            events += [{"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32",
                        "pid": 0, "tid": 7, "ts": 1000.0 * n + 600, "dur": other * 3 / 4,
                        "args": {"device": 0, "stream": 7}},
                       {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)",
                        "pid": 0, "tid": 7, "ts": 1000.0 * n + 800, "dur": other / 4,
                        "args": {"device": 0, "stream": 7}},
                       {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#%d" % n,
                        "pid": 0, "tid": 7, "ts": 1000.0 * n, "dur": 999.0,
                        "args": {"device": 0, "stream": 7}}]
    with open(os.path.join(os.environ["TKO_APPLY_DIR"], "kernel_window.json"), "w") as f:
        json.dump({"traceEvents": events}, f)
if steps:
    emit("steps", source="optimizer", step_fn=None, clock="perf_counter",
         ms=([None, 500.0] + [ms] * steps)[:steps], losses=losses, window=window)
printed = os.environ.get("FAKE_STDOUT_MS")
print("TKO_APPLY_FLOAT32_MATMUL_PRECISION=" + (precision or "unset"))
print("TKO_APPLY_KEEP_OFF=" + (keep_off or "unset"))
print("step 1 loss 2.5")
if printed != "none":
    print(json.dumps({"losses": losses, "ms_per_step": float(printed) if printed else ms}))
print("done")
