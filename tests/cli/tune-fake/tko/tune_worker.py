"""A stand-in for tko's tune worker that pretends to have a GPU (tests only).
Its hello reports an H200's facts as python/tko/gpu.py does (tko decides
the arch, sm_90, from the capability).

It answers "bench" with made-up results that depend on
XBLOCK alone: 4096 is the fastest but computes the wrong answer, 2048 is
twice as fast as the base's 1024, everything else is slower. A bench that
is not the base and does not name the base as its reference is an error,
so the test also sees that tko sends references. A mix-order reduction's
request (one with a "workspace") is timed by its RSPLIT_SIZE instead: 8
rows per program is the fastest, and its request is logged with its grid
and the workspace size tko asked for. A softmax kernel's source decides
too: the two-pass form (no online_softmax_combine left, a max2 in its
place) takes 0.6 of the online form's time. With $TKO_FAKE_R0 (a JSON
object keyed by R0_BLOCK, "+twopass" added for the two-pass form) a
variant also takes that factor of its time (1 for a key it lacks), and
its confirm key is "XBLOCK/R0_BLOCK" with "+twopass" for that form.

With $TKO_FAKE_JOBS > 1 it also says it has compile processes, logs the
"precompile" requests it gets, and gives each variant an ISA fingerprint
made of its XBLOCK and num_warps, so a source variant of an already timed
config is a "duplicate" when tko lists that config's fingerprint as known.

With $TKO_FAKE_HINTS (a factor, e.g. 0.97) a variant whose source has
tl.multiple_of (the hints source variant) takes that fraction of its time.
A "confirm" request is answered from $TKO_FAKE_CONFIRM, a JSON object of
per-round times keyed by XBLOCK, "+hints" added for a hints variant (the
test knows them, so it can work out the interval on its own), else with
the bench time in every round (no noise); the request
is logged to $TKO_FAKE_LOG.confirm as "confirm rounds=N offset=K ids=v000,v005
keys=...". $TKO_FAKE_WARPS (a JSON
object num_warps -> ms) times a kernel without XBLOCK (a foreach kernel).
With $TKO_FAKE_BASE_FAIL the base's launch fails. $TKO_FAKE_GPU (JSON)
replaces the hello's GPU facts (an AMD GPU, say); on one, a worker started
with AMDGCN_USE_BUFFER_OPS=1 takes $TKO_FAKE_BUFOPS (a factor) of each
time, and its confirm keys get "+bufops". A confirm request of fewer
rounds than a key has times gets the next ones (tko alternates workers of
different environments one round at a time). With $TKO_FAKE_CONFIRM_WARM
(keyed as $TKO_FAKE_CONFIRM) a confirm request that asks for "warm" times
gets them from it as "warm_times_ms" (a key it lacks: its cold times);
without it the reply has none, as a worker older than them.
For the tests of tko tune --gpus and tko cluster: with $TKO_FAKE_DEVLOG
set, each bench appends "KERNEL_DIR DEVICE PID" to it (DEVICE: the
CUDA_VISIBLE_DEVICES tko gave the worker, or hip:HIP_VISIBLE_DEVICES
when that is the one set, or -); a bench of a kernel whose directory's
name contains the first word of the file $TKO_FAKE_KILL (when it exists)
kills the tko that started the worker (SIGKILL, as the OOM killer or a
node fault would) and removes the file, so it happens once, unless the
file's second word is "always";
with $TKO_FAKE_SLEEP, each bench takes that many seconds.
"""
import json
import os
import signal
import sys
import time

TIMES = {4096: (0.25, "wrong"), 2048: (0.5, "ok"), 1024: (1.0, "ok")}


def fingerprint(req):
    return "fp-%s-%s" % (req["constants"].get("XBLOCK"), req.get("num_warps"))


SPLIT_TIMES = {8: 0.8, 16: 1.0}


def split_bench(req):
    c = req["constants"]
    ws = req["workspace"]
    with open(os.environ["TKO_FAKE_LOG"], "a") as f:
        f.write("%s RSPLIT_SIZE=%s XBLOCK=%s grid=%s ws=%s ws_is_output=%s\n" % (
            req["id"], c.get("RSPLIT_SIZE"), c.get("XBLOCK"), ",".join(map(str, req["grid"])),
            ws["numel"], ws["arg"] in req["outputs"]))
    ms = SPLIT_TIMES.get(c.get("RSPLIT_SIZE"), 1.2)
    checks = [] if req.get("is_reference") else [{"inputs": "captured", "ok": True}]
    return {"status": "ok", "time_ms": ms, "times_ms": [ms], "checks": checks,
            "compile_ms": 1.0, "files": {}, "metadata": {"shared": 0}}


def has_hints(req):
    with open(req["source"], encoding="utf-8") as f:
        return "tl.multiple_of(" in f.read()


def bufops():
    return os.environ.get("AMDGCN_USE_BUFFER_OPS") == "1"


def confirm_key(req):
    if os.environ.get("TKO_FAKE_R0"):
        return r0_key(req, "%s/" % req["constants"].get("XBLOCK"))
    return "%s%s%s" % (req["constants"].get("XBLOCK"), "+hints" if has_hints(req) else "",
                       "+bufops" if bufops() else "")


CONFIRMED = {}   # key -> rounds answered so far: a request of one round gets the next
CONFIRMED_WARM = {}


def warm_times(req, cold):
    """Per request, its warm times from $TKO_FAKE_CONFIRM_WARM, else its cold ones."""
    times = json.loads(os.environ["TKO_FAKE_CONFIRM_WARM"])
    rounds = int(req["rounds"])
    out = []
    for r, c in zip(req["requests"], cold):
        key = confirm_key(r)
        if key in times:
            first = CONFIRMED_WARM.get(key, 0)
            CONFIRMED_WARM[key] = first + rounds
            out.append(times[key][first:first + rounds])
        else:
            out.append(c)
    return out


def confirm(req):
    rep = confirm_cold(req)
    if req.get("warm") and os.environ.get("TKO_FAKE_CONFIRM_WARM"):
        rep["warm_times_ms"] = warm_times(req, rep["times_ms"])
    return rep


def confirm_cold(req):
    times = json.loads(os.environ.get("TKO_FAKE_CONFIRM", "{}"))
    rounds = int(req["rounds"])
    with open(os.environ["TKO_FAKE_LOG"] + ".confirm", "a") as f:
        f.write("confirm rounds=%d offset=%d ids=%s keys=%s\n" % (
            rounds, int(req.get("offset", 0)), ",".join(r["id"] for r in req["requests"]),
            ",".join(confirm_key(r) for r in req["requests"])))
    out = []
    for r in req["requests"]:
        key = confirm_key(r)
        if key in times:
            first = CONFIRMED.get(key, 0)
            CONFIRMED[key] = first + rounds
            out.append(times[key][first:first + rounds])
        elif r.get("workspace"):
            out.append([SPLIT_TIMES.get(r["constants"].get("RSPLIT_SIZE"), 1.2)] * rounds)
        else:
            out.append([sweep_ms(r)[0]] * rounds)
    return {"status": "ok", "ids": [r["id"] for r in req["requests"]], "times_ms": out}


def two_pass(req):
    with open(req["source"], encoding="utf-8") as f:
        text = f.read()
    return "triton_helpers.max2(" in text and "online_softmax_combine(" not in text


def r0_key(req, head=""):
    return "%s%s%s" % (head, req["constants"].get("R0_BLOCK"), "+twopass" if two_pass(req) else "")


def sweep_ms(req):
    """(ms, status) of a bench request's variant."""
    x = req["constants"].get("XBLOCK")
    ms, status = TIMES.get(x, (1.5, "ok"))
    if x is None and os.environ.get("TKO_FAKE_WARPS"):
        ms = json.loads(os.environ["TKO_FAKE_WARPS"]).get(str(req.get("num_warps")), 2.0)
    with open(req["source"], encoding="utf-8") as f:
        text = f.read()
    if "triton_helpers.max2(" in text and "online_softmax_combine(" not in text:
        ms *= 0.6
    if os.environ.get("TKO_FAKE_R0"):
        ms *= json.loads(os.environ["TKO_FAKE_R0"]).get(r0_key(req), 1.0)
    if os.environ.get("TKO_FAKE_HINTS") and "tl.multiple_of(" in text:
        ms *= float(os.environ["TKO_FAKE_HINTS"])
    if os.environ.get("TKO_FAKE_BUFOPS") and bufops():
        ms *= float(os.environ["TKO_FAKE_BUFOPS"])
    return ms, status


def kernel_dir(req):
    """The captured kernel directory a variant's source lies in (KERNEL_DIR/tune/variants/NNN/)."""
    d = os.path.dirname(os.path.abspath(req["source"]))
    while d != "/" and not os.path.isfile(os.path.join(d, "capture.json")):
        d = os.path.dirname(d)
    return d


def cluster_hooks(req):
    devlog = os.environ.get("TKO_FAKE_DEVLOG")
    kdir = kernel_dir(req)
    if devlog:
        with open(devlog, "a") as f:
            dev = os.environ.get("CUDA_VISIBLE_DEVICES")
            if dev is None:
                dev = "hip:" + os.environ["HIP_VISIBLE_DEVICES"] if "HIP_VISIBLE_DEVICES" in os.environ else "-"
            f.write("%s %s %d\n" % (os.path.basename(kdir), dev, os.getpid()))
    kill = os.environ.get("TKO_FAKE_KILL")
    if kill and os.path.isfile(kill):
        with open(kill) as f:
            words = f.read().split()
        if words and words[0] in os.path.basename(kdir):
            if words[1:] != ["always"]:
                os.unlink(kill)
            os.kill(os.getppid(), signal.SIGKILL)
            os._exit(9)
    if os.environ.get("TKO_FAKE_SLEEP"):
        time.sleep(float(os.environ["TKO_FAKE_SLEEP"]))


def bench(req):
    cluster_hooks(req)
    if req.get("workspace"):
        return split_bench(req)
    x = req["constants"].get("XBLOCK")
    ms, status = sweep_ms(req)
    fp = fingerprint(req)
    if os.environ.get("TKO_FAKE_JOBS") and fp in (req.get("known") or {}):
        return {"status": "duplicate", "same_as": req["known"][fp], "fingerprint": fp,
                "compile_ms": 1.0, "files": {}, "metadata": {}}
    if not req.get("is_reference") and req.get("reference") != "v000":
        return {"status": "error", "error": "no reference"}
    if req.get("is_reference") and os.environ.get("TKO_FAKE_BASE_FAIL"):
        return {"status": "launch_error", "error": "the base failed (TKO_FAKE_BASE_FAIL)"}
    log = os.environ.get("TKO_FAKE_LOG")
    if log:
        with open(log, "a") as f:
            f.write("%s XBLOCK=%s ref=%s grid=%s\n" % (req["id"], x, req.get("is_reference"),
                                                       ",".join(map(str, req["grid"]))))
    checks = [] if req.get("is_reference") else [{"inputs": "captured", "ok": status == "ok"}]
    return {"status": status, "time_ms": ms, "times_ms": [ms], "checks": checks,
            "compile_ms": 1.0, "files": {}, "metadata": {"shared": 0},
            "fingerprint": fp if os.environ.get("TKO_FAKE_JOBS") else None}


def main():
    for line in sys.stdin:
        req = json.loads(line)
        op = req.get("op")
        if op == "quit":
            break
        rep = {"id": req.get("id"), "op": op}
        if op == "hello":
            gpu = json.loads(os.environ.get("TKO_FAKE_GPU", "null")) or {
                "name": "fake", "backend": "cuda", "capability": [9, 0]}
            rep.update(status="ok", triton="fake", jobs=int(os.environ.get("TKO_FAKE_JOBS", "1")),
                       gpu=gpu)
        elif op == "precompile":
            with open(os.environ["TKO_FAKE_LOG"] + ".pre", "a") as f:
                f.write(" ".join(r["id"] for r in req["requests"]) + "\n")
            rep.update(status="ok", queued=len(req["requests"]))
        elif op == "copy_bandwidth":
            rep.update(status="ok", gbps=4000.0)
        elif op == "bench":
            rep.update(bench(req))
        elif op == "confirm":
            rep.update(confirm(req))
        else:
            rep.update(status="error", error="unexpected op %r" % op)
        sys.stdout.write(json.dumps(rep) + "\n")
        sys.stdout.flush()


main()
