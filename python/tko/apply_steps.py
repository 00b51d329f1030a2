"""Step times and losses measured by tko's hook, for `tko apply --ab` on a
command that prints no figures of its own (docs/apply.md, "Step times").

A step ends where the script's training step ends:
  - by default at each optimizer step: torch.optim.optimizer's global
    register_optimizer_step_post_hook (torch 2.11 optim/optimizer.py:312;
    the hooks run after every Optimizer.step, optimizer.py:539). Several
    optimizers stepping for one backward end one step: a boundary counts
    only when a backward ran since the last one;
  - with TKO_APPLY_STEP=MODULE:QUALNAME (`tko apply --step`), at each return
    of that callable: each call is a step and its return value (a scalar
    tensor or a number, or the first element of a tuple) its loss.

The loss of an optimizer step is the scalar tensor the last
torch.autograd.backward (which Tensor.backward calls, torch/_tensor.py) was
given. With CUDA in use a boundary records a CUDA event on the current
stream and keeps the loss as a detached tensor: nothing waits for the GPU,
so the CPU still runs ahead of the GPU across steps as it does without tko
(a synchronisation at every boundary measured 2.47 ms a step where the
script's own clock said 1.96: the H200 A/B of 2026-12-04). A step's time is
the elapsed time between two boundaries' events, read, with the losses, once
every SETTLE_EVERY steps and at exit. Without CUDA the clock is
time.perf_counter and a loss is read with float() at its boundary.

The kernel window (TKO_APPLY_KERNEL_WINDOW=K, `tko apply --kernel-window`;
TKO_APPLY_KERNEL_WINDOW_START=S, default 1): torch.profiler records steps
S .. S+K-1 (CUDA activities; CPU ones where CUDA is not in use, which give
no kernels) and writes its Chrome trace to TKO_APPLY_DIR/kernel_window.json
when they end (or at exit, when the command ran fewer steps). tko apply
reads it with its own trace reader (src/profile/chrome.c) and leaves those
steps out of the step time; starting and stopping the profiler happens
between two steps' clocks, so it is in no step's time.

Output: one `steps` event in apply.jsonl when the process ends, from the
main process only: {"source": "optimizer"|"step_fn", "clock":
"cuda_events"|"perf_counter", "ms": [...], "losses": [...],
"window": [S, E] or None}, ms[i] the time from the end of step i-1 to the
end of step i (None for the first step, whose start is unknown, except for
--step's, whose first call is seen), losses[i] its loss or None, and the
profiled steps S .. E-1. Which steps are warm-up is tko apply's decision
(--step-warmup), not the hook's.
"""

import atexit
import gc
import os
import sys
import time

from . import apply, maindefs, postimport

# Steps between two reads of the recorded events and losses: one wait for
# the GPU per this many steps bounds what is held (events, loss tensors).
SETTLE_EVERY = 1024


class Steps:
    def __init__(self, sess, spec=None):
        self.sess = sess
        self.spec = spec          # "MODULE:QUALNAME" or None
        self.ms = []
        self.losses = []
        self.last = None          # perf_counter at the end of the last step
        self.last_event = None    # the CUDA event of the last boundary
        self.unsettled = False    # self.ms / self.losses hold events / tensors
        self.pending = None       # the loss tensor (or number) of the step in flight
        self.backwards = 0        # backward calls since the last boundary
        self.clock = "perf_counter"
        self.handle = None
        self.ended = False
        self.window = _window_env()   # (S, K) or None
        self.prof = None
        self.profiled = None          # [S, E] once the profiler started

    def begin(self):
        """A --step call starts: the first one's start is the clock's origin."""
        if self.last is None:
            self.last = time.perf_counter()

    def boundary(self, loss):
        """The step in flight ended with `loss` (a tensor, a number or None)."""
        cuda = _cuda_in_use()
        if cuda is not None:
            self.gpu_boundary(cuda, loss)
        else:
            now = time.perf_counter()
            self.ms.append(None if self.last is None else (now - self.last) * 1e3)
            self.last = now
            self.losses.append(_as_float(loss))
        self.pending, self.backwards = None, 0
        if self.window is not None:
            try:  # boundary runs inside apply.guarded already: no nesting of it
                self.profile_window()
            except Exception as e:  # no kernel window: the steps are still timed
                self.window = None
                self.sess.error("kernel_window", e)
            self.last = time.perf_counter()   # the profiler's start and stop in no step

    def gpu_boundary(self, cuda, loss):
        """An event on the stream and the loss as a tensor: read later (settle)."""
        event = cuda.Event(enable_timing=True)
        event.record()
        self.ms.append(None if self.last_event is None else (self.last_event, event))
        self.last_event = event
        self.losses.append(_detached(loss))
        self.clock, self.unsettled = "cuda_events", True
        if len(self.ms) % SETTLE_EVERY == 0:
            self.settle()

    def settle(self):
        """Waits for the GPU once and turns the held events and tensors into numbers."""
        if not self.unsettled:
            return
        sys.modules["torch"].cuda.synchronize()
        self.ms = [v[0].elapsed_time(v[1]) if isinstance(v, tuple) else v for v in self.ms]
        self.losses = [_as_float(v) if hasattr(v, "numel") else v for v in self.losses]
        self.unsettled = False

    def profile_window(self):
        start, k = self.window
        if self.prof is None and self.profiled is None and len(self.ms) == start:
            self.prof = _start_profiler()
            self.profiled = [start, start]
        elif self.prof is not None and len(self.ms) >= start + k:
            self.stop_window()

    def stop_window(self):
        prof, self.prof = self.prof, None
        self.profiled[1] = len(self.ms)
        prof.stop()
        prof.export_chrome_trace(os.path.join(self.sess.out_dir, "kernel_window.json"))
        # Whatever the profiler left to the cycle collector is collected here,
        # between two steps' clocks, rather than inside a step after the window.
        del prof
        gc.collect()

    def end(self):
        if self.ended or self.sess.role != "main":
            return
        self.ended = True
        if self.prof is not None:
            apply.guarded("kernel_window", self.stop_window)
        try:  # at exit, outside any guarded call: the events must be read here
            self.settle()
        except Exception as e:  # tko's failure: the steps go out unread, tko apply says so
            self.ms, self.losses = [], []
            self.sess.error("steps", e)
        if self.ms:
            self.sess.emit("steps", source="step_fn" if self.spec else "optimizer",
                           step_fn=self.spec, clock=self.clock, ms=self.ms, losses=self.losses,
                           window=self.profiled)


def _window_env():
    try:
        k = int(os.environ.get("TKO_APPLY_KERNEL_WINDOW") or 0)
        start = int(os.environ.get("TKO_APPLY_KERNEL_WINDOW_START") or 1)
    except ValueError:
        return None
    return (max(start, 1), k) if k > 0 else None


def _start_profiler():
    import torch.profiler as tp
    cuda = sys.modules["torch"].cuda
    gpu = cuda.is_available() and cuda.is_initialized()
    prof = tp.profile(activities=[tp.ProfilerActivity.CUDA if gpu else tp.ProfilerActivity.CPU])
    prof.start()
    return prof


def _cuda_in_use():
    torch = sys.modules.get("torch")
    cuda = getattr(torch, "cuda", None)
    if cuda is not None and cuda.is_available() and cuda.is_initialized():
        return cuda
    return None


def _detached(loss):
    """The loss held without reading it: a one-element tensor detached, else its float."""
    if isinstance(loss, (tuple, list)):
        loss = loss[0] if loss else None
    if hasattr(loss, "detach") and hasattr(loss, "numel") and loss.numel() == 1:
        return loss.detach()
    return _as_float(loss)


def _as_float(loss):
    if isinstance(loss, (tuple, list)):
        loss = loss[0] if loss else None
    try:
        if hasattr(loss, "numel") and loss.numel() != 1:
            return None
        return float(loss) if loss is not None else None
    except (TypeError, ValueError, RuntimeError):
        return None


def install(sess, spec=None):
    """Starts measuring steps in this process (the main one only); spec
    defaults to TKO_APPLY_STEP."""
    if sess.role != "main":
        return None
    spec = spec or os.environ.get("TKO_APPLY_STEP") or None
    st = Steps(sess, spec)
    sess.steps = st
    atexit.register(st.end)
    if spec is None:
        postimport.install({
            "torch.autograd": lambda m: _patch(sess, patch_autograd, m),
            "torch.optim.optimizer": lambda m: _patch(sess, patch_optimizer, m),
        })
    elif spec.split(":", 1)[0] == "__main__":
        watch_main(st)
    else:
        postimport.install({spec.split(":", 1)[0]: lambda m: _patch(sess, _wrap_module, m)})
    return st


def _patch(sess, fn, module):
    try:
        sess.hooks.extend(fn(sess, module) or [])
    except Exception as e:  # no step times: tko apply says so; the model runs
        sess.error("install", e, message=f"cannot measure steps: {type(e).__name__}: {e}")


def _wrap_module(sess, module):
    wrap_step_fn(sess.steps, module)
    return [sess.steps.spec]


# The optimizer route.

def patch_autograd(sess, mod):
    """torch.autograd: backward keeps the loss of the step in flight."""
    st = getattr(sess, "steps", None)
    if st is None or st.spec:
        return []
    orig = mod.backward

    def backward(tensors, *args, **kwargs):
        apply.guarded("steps", _note_loss, st, tensors)
        return orig(tensors, *args, **kwargs)
    backward.__wrapped__ = orig
    backward.__doc__ = orig.__doc__
    mod.backward = backward
    return ["torch.autograd.backward"]


def _note_loss(st, tensors):
    t = tensors[0] if isinstance(tensors, (tuple, list)) and len(tensors) == 1 else tensors
    if hasattr(t, "numel") and t.numel() == 1:
        st.pending = t.detach()
    st.backwards += 1


def patch_optimizer(sess, mod):
    """torch.optim.optimizer: the global post hook ends a step."""
    st = getattr(sess, "steps", None)
    if st is None or st.spec:
        return []

    def after_step(optimizer, args, kwargs):
        if st.backwards:
            apply.guarded("steps", st.boundary, st.pending)
    st.handle = mod.register_optimizer_step_post_hook(after_step)
    return ["register_optimizer_step_post_hook"]


# The --step route.

def wrap_step_fn(st, module):
    """Replaces MODULE's QUALNAME with a wrapper: each call one step."""
    owner, name = _owner(module, st.spec.split(":", 1)[1])
    fn = getattr(owner, name)
    if getattr(fn, "_tko_step_fn", False):
        return
    setattr(owner, name, _wrapper(st, fn))


def _owner(module, qualname):
    parts = qualname.split(".")
    owner = module
    for p in parts[:-1]:
        owner = getattr(owner, p)
    return owner, parts[-1]


def _wrapper(st, fn):
    def step(*args, **kwargs):
        st.begin()
        out = fn(*args, **kwargs)
        apply.guarded("steps", st.boundary, out)
        return out
    step.__wrapped__ = fn
    step.__name__ = getattr(fn, "__name__", "step")
    step._tko_step_fn = True
    return step


def watch_main(st):
    """A step function in __main__ exists only once the script defined it:
    it is wrapped right after the module-level statement that binds its
    first name (tko.maindefs), before any call, so the watch ends there and
    not at the first step's end, as the profile function below did (torch's
    import and the first compilation under a profile function). Where
    tko.maindefs cannot watch (another trace function, no script), that
    profile function still does."""
    first = st.spec.split(":", 1)[1].split(".")[0]
    if not maindefs.watch(first, lambda main: apply.guarded("steps", wrap_step_fn, st, main)):
        watch_first_call(st)


def watch_first_call(st):
    """A profile function waits for the step function's first call, wraps it
    for the calls after, times this first call to its return, and removes
    itself."""
    qualname = st.spec.split(":", 1)[1]
    main = sys.modules.get("__main__")
    state = {"frame": None}

    def prof(frame, event, arg):
        if event == "call" and state["frame"] is None and frame.f_globals is main.__dict__ \
                and getattr(frame.f_code, "co_qualname", frame.f_code.co_name) == qualname:
            state["frame"] = frame
            st.begin()
            apply.guarded("steps", wrap_step_fn, st, main)
        elif event == "return" and frame is state["frame"]:
            sys.setprofile(None)
            apply.guarded("steps", st.boundary, arg)
            state["frame"] = None
    sys.setprofile(prof)
