"""Installing tko's winners in the model's process, and recording that they ran.

Entry point: install(), called by the sitecustomize hook in tko/_hook when
`tko apply` has set TKO_APPLY_PLAN; the user's command is unchanged. The
plan (tko.apply_plan, docs/apply.md) names each kernel's confirmed winner;
the patches in tko.apply_hooks install it when torch's and Triton's modules
are imported, in this process and in Inductor's compile workers (which
inherit PYTHONPATH and so this hook).

Output: TKO_APPLY_DIR/apply.jsonl (default: the plan's folder), one JSON
object per line from every process, each with its role (process_role;
docs/apply.md, "apply.jsonl" and "Processes and roles"): what was
installed, which kernels matched, the config of the first launches of every
planned kernel, and at exit each winner's outcome in this process with the
reason when it did not run. apply.log says the same for people.

Step times and losses for the A/B: tko.apply_steps (TKO_APPLY_STEP).

Environment: TKO_APPLY_PLAN (required), TKO_APPLY_DIR, TKO_APPLY_MODE
("apply", default, or "observe": install nothing, record the same launches;
the A arm of an A/B runs so, paying the same hook costs), and
TKO_APPLY_FLOAT32_MATMUL_PRECISION (the A/B's tf32 arms only: the value given
to torch.set_float32_matmul_precision when torch is imported, in either mode)
and TKO_APPLY_KEEP_OFF (the keep-off arms only: the regions tko.keep_off
puts under torch._dynamo.disable, in either mode).

As with capture, tko's own failures never change what the model computes:
they become `error` events and the model runs as without tko.
"""

import atexit
import os
import sys
import threading

from . import __version__, apply_plan
from .events import EventWriter

_SESSION = None
_LOCAL = threading.local()
_FORK_HOOK = []     # os.register_at_fork cannot be undone: once per process


def session():
    return _SESSION


class WinnerState:
    """What this process saw of one winner."""

    def __init__(self):
        self.constructed = []     # how each construction matched: "lookup_hit", "hook", ...
        self.installed = None     # the mechanism that put the winner in place, once seen
        self.launches = 0
        self.recorded = 0
        self.configs = {}         # config key -> {"config", "launches", "winner"}
        self.other_hashes = set()  # lookup hashes of same-named kernels that did not match
        self.notes = []           # facts explaining a miss (one string each)
        self.template_keys = []   # template lookups that asked for its key


class Session:
    def __init__(self, plan, out_dir, mode, stderr=None):
        self.plan = plan
        self.mode = mode
        self.out_dir = out_dir
        self.writer = EventWriter(out_dir, stderr=stderr)
        self.writer.events_path = os.path.join(out_dir, "apply.jsonl")
        self.writer.log_path = os.path.join(out_dir, "apply.log")
        self.role = process_role(out_dir)
        self.lock = threading.RLock()
        self.state = {w.id: WinnerState() for w in plan.winners} if plan else {}
        self.hooks = []
        self.kernels_seen = 0
        self.errors = 0
        self.ended = False
        self.started = False
        self.installed = []       # {"what", ...} process-wide installs (settings, tables)
        self.by_hash = {}         # lookup hash -> Inductor winners, once resolved
        self.resolved_torch = False
        self.steps = None         # tko.apply_steps.Steps in the main process

    @property
    def applying(self):
        return self.mode == "apply"

    def emit(self, event, **fields):
        with self.lock:
            if not self.started and event != "session_start":
                self.start()
            return self.writer.emit(event, role=self.role, **fields)

    def start(self):
        self.started = True
        torch = sys.modules.get("torch")
        triton = sys.modules.get("triton")
        self.writer.emit("session_start", role=self.role, argv=list(sys.argv),
                         tko=__version__, mode=self.mode,
                         plan=self.plan.path if self.plan else None,
                         winners=len(self.plan.winners) if self.plan else 0,
                         torch=getattr(torch, "__version__", None),
                         triton=getattr(triton, "__version__", None),
                         planned_versions=self.plan.versions if self.plan else None)

    def log(self, text):
        self.writer.log_line(f"[{os.getpid()} {self.role}] {text}")

    def error(self, stage, exc, message=None, winner=None):
        self.errors += 1
        fields = {"stage": stage, "error_type": type(exc).__name__,
                  "message": message or str(exc) or repr(exc)}
        if winner is not None:
            fields.update(winner.fields())
        try:
            self.emit("error", **fields)
            self.log(f"error ({stage}): {fields['message']}")
        except Exception:
            pass

    def winner_state(self, w):
        return self.state[w.id]

    def end(self):
        with self.lock:
            if self.ended:
                return
            self.ended = True
            launched = any(s.launches for s in self.state.values())
            outcomes = [outcome(w, self.state[w.id], self.mode) for w in self.plan.winners] \
                if self.plan and (launched or self.role == "main") else []
            self.emit("session_end", hooks=list(self.hooks), installed=self.installed,
                      errors=self.errors, outcomes=outcomes,
                      float32_matmul_precision=_matmul_precision())
            for o in outcomes:
                self.log(summary_line(o))


def _matmul_precision():
    """What held at the end (the user's code may have set its own), or None
    when torch was never imported."""
    torch = sys.modules.get("torch")
    get = getattr(torch, "get_float32_matmul_precision", None)
    try:
        return get() if get else None
    except Exception:  # a half-imported torch at exit
        return None


def outcome(w, st, mode):
    """One winner's facts in this process (docs/apply.md, "session_end")."""
    ran = [c for c in st.configs.values()]
    on_winner = sum(c["launches"] for c in ran if c["winner"])
    if st.launches == 0:
        status = "not_launched"
    elif on_winner == st.launches:
        status = "ran_winner"
    elif on_winner:
        status = "ran_mixed"
    else:
        status = "ran_other"
    reason = None
    if status != "ran_winner":
        reason = _reason(w, st, status, mode)
    return {"id": w.id, "kernel": w.kernel, "launcher": w.launcher, "mechanism": w.mechanism,
            "refused": w.refused, "installed": st.installed, "constructed": st.constructed,
            "status": status, "reason": reason, "launches": st.launches,
            "configs": ran, "other_hashes": sorted(st.other_hashes), "notes": st.notes,
            "template_keys": st.template_keys}


def _reason(w, st, status, mode):
    """The first fact that explains why the winner did not run (docs/apply.md)."""
    if mode != "apply":
        return "observe"
    if w.mechanism is None:
        return w.refused[0]["reason"] if w.refused else "no_mechanism"
    if status == "not_launched":
        if st.other_hashes:
            return "source_changed"
        if w.mechanism == "template_lookup" and not st.template_keys:
            return "template_key_not_seen"
        return "not_launched"
    if w.mechanism == "lookup_table" and not st.constructed:
        return "lookup_not_consulted"
    if any(c["config"].get("found_by_coordesc") and not c["winner"] for c in st.configs.values()):
        return "coordinate_descent"
    return "other_config"


def summary_line(o):
    head = f"{o['kernel']} ({o['id']}): {o['status']}"
    if o["mechanism"]:
        head += f" via {o['mechanism']}"
    if o["reason"]:
        head += f", reason {o['reason']}"
    return head + f", {o['launches']} launches"


MAIN_ENV = "TKO_APPLY_MAIN"
# Launchers whose children are the command's real processes (docs/apply.md,
# "Processes and roles"): torchrun and its modules.
LAUNCHER_MODULES = ("torch.distributed.run", "torch.distributed.launch")


def process_role(out_dir=None):
    """This process's part in the command (docs/apply.md, "Processes and
    roles"): "compile_worker" (Inductor's compile subprocesses), "main" (the
    command's own process: the first hooked process of the run, or a
    launcher's rank 0), "launcher" (torchrun), "rank" (a launcher's other
    ranks), "child" (any process a main or rank process started: `python -c`
    helpers, multiprocessing's spawned workers). All but compile workers
    claim their role in TKO_APPLY_MAIN, "PID:ROLE:DIR", which every process
    they start inherits; DIR (this run's TKO_APPLY_DIR) makes a claim of
    another run's process count for nothing."""
    argv0 = (sys.argv[0] if sys.argv else "") or ""
    if "compile_worker" in argv0.replace(os.sep, "/"):
        return "compile_worker"
    tag = os.path.abspath(out_dir) if out_dir else ""
    pid, role = _claim(tag)
    if pid == os.getpid():          # this process, exec'd again: the same part
        return role
    if pid is not None and role != "launcher":
        return "child"
    if pid is not None:             # started by a launcher: a rank, or its helper
        role = _rank_role()
        if role is None:
            return "child"
    else:
        role = "launcher" if _launcher() else "main"
    os.environ[MAIN_ENV] = f"{os.getpid()}:{role}:{tag}"
    return role


def _claim(tag):
    """(pid, role) of this run's claim in the environment, else (None, None)."""
    pid, _, rest = (os.environ.get(MAIN_ENV) or "").partition(":")
    role, _, dir_ = rest.partition(":")
    if not pid.isdigit() or not role or dir_ != tag:
        return None, None
    return int(pid), role


def _rank_role():
    """A launcher's worker: torchrun gives each RANK and LOCAL_RANK
    (torch/distributed/elastic/agent/server/local_elastic_agent.py)."""
    rank = os.environ.get("RANK")
    if rank is None or os.environ.get("LOCAL_RANK") is None:
        return None
    return "main" if rank.strip() == "0" else "rank"


def _launcher():
    """torchrun, or python -m torch.distributed.run (or .launch): sys.argv[0]
    is "-m" until runpy runs the module, sys.orig_argv has its name."""
    if sys.argv and os.path.basename(sys.argv[0]) == "torchrun":
        return True
    argv = list(getattr(sys, "orig_argv", None) or [])
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "-m":
            return i + 1 < len(argv) and argv[i + 1] in LAUNCHER_MODULES
        if a in ("-X", "-W"):
            i += 1
        elif a == "-c" or not a.startswith("-"):
            return False
        i += 1
    return False


def _forked():
    """os.fork's child (a DataLoader worker under the fork start method) is a
    copy of its parent's session: it is a child, whatever the parent was."""
    if _SESSION is not None and _SESSION.role != "compile_worker":
        _SESSION.role = "child"


def guarded(stage, fn, *args, winner=None):
    """Runs tko's hook code; its exception becomes an error event and None."""
    if _SESSION is None or getattr(_LOCAL, "busy", False):
        return None
    _LOCAL.busy = True
    try:
        return fn(*args)
    except Exception as e:  # tko's failure, never the model's
        _SESSION.error(stage, e, winner=winner)
        return None
    finally:
        _LOCAL.busy = False


def install(plan_path=None, out_dir=None, mode=None, stderr=None):
    """Starts applying in this process (idempotent); None when TKO_APPLY_PLAN
    is unset. A bad plan is reported and nothing is installed."""
    global _SESSION
    if _SESSION is not None:
        return _SESSION
    plan_path = plan_path or os.environ.get("TKO_APPLY_PLAN")
    if not plan_path:
        return None
    mode = mode or os.environ.get("TKO_APPLY_MODE") or "apply"
    out_dir = out_dir or os.environ.get("TKO_APPLY_DIR") or os.path.dirname(os.path.abspath(plan_path))
    plan, problem = None, None
    try:
        plan = apply_plan.load(plan_path)
    except apply_plan.PlanError as e:
        problem = e
    sess = Session(plan, out_dir, mode if mode in ("apply", "observe") else "apply", stderr)
    _SESSION = sess
    if hasattr(os, "register_at_fork") and not _FORK_HOOK:
        os.register_at_fork(after_in_child=_forked)
        _FORK_HOOK.append(True)
    # the A/B's step times come from here even when the plan is bad (tko.apply_steps)
    from . import apply_steps
    apply_steps.install(sess)
    if problem is not None or mode not in ("apply", "observe"):
        sess.error("plan", problem or ValueError(mode),
                   message=str(problem) if problem else f"TKO_APPLY_MODE {mode!r}: expected apply or observe")
        print(f"tko apply: warning: {problem or 'bad TKO_APPLY_MODE'}; the command runs without "
              "tko's winners", file=stderr or sys.stderr)
        if problem is not None:
            return sess
    from . import apply_hooks, keep_off
    apply_hooks.install(sess)
    keep_off.install(sess)
    atexit.register(sess.end)
    return sess


def uninstall():
    """Forgets the session and its claim (tests)."""
    global _SESSION
    if _SESSION is not None and _claim(os.path.abspath(_SESSION.out_dir))[0] == os.getpid():
        os.environ.pop(MAIN_ENV, None)
    _SESSION = None
