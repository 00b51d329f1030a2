"""Keeping TorchInductor off a region: the A/B's keep-off arms (docs/apply.md,
"The keep-off arm").

Input: TKO_APPLY_KEEP_OFF, "MODULE:QUALNAME[,MODULE:QUALNAME...]" (set by
`tko apply --keep-off` in the keep-off arms only). Entry point:
install(sess), called by tko.apply before the script's first line.

Each region's callable (a function, or a method: "Block.attn") is replaced,
right after its module is imported (tko.postimport) or at once when it
already is, by torch._dynamo.disable over a counter. Dynamo then runs that
frame and everything it calls eagerly, a graph break on each side (torch
2.11 torch/_dynamo/decorators.py disable, recursive=True; eval_frame.py
DisableContext): the region's own code is unchanged, only who runs it.
A region of the script itself (MODULE "__main__": `python train.py`) is
replaced the same way, right after the module-level statement that defines
its class or function (tko.maindefs, which says why not earlier and not by
its code object); the count is the same: calls through the replaced
attribute.

Output: a `keep_off` event in apply.jsonl at exit, from every process but
compile workers and a launcher, under its role (tko.apply process_role: `tko
apply` reads the "main" one), with each region's status: took_effect
(replaced, and called), never_called (replaced, not called), not_imported
(its module was never imported), not_found (no such attribute),
not_callable, class (name a method of it), bad_spec, error
(torch._dynamo.disable failed); for a region of __main__ also not_reached
(it exists at exit, but tko could not watch the script define it: another
trace function was set before tko's, or replaced it) and no_script (this
process runs no script: `python -c`, as Inductor's CPU ISA check and
multiprocessing's spawned workers run, "child" processes; `tko apply` lets
another process decide). A region compiled by its own @torch.compile is kept
off as the function that decorator wraps (_counted). `tko apply` fails the
A/B on any status but took_effect. The model's result is never changed by
tko's failure here: the callable is then left as it was.
"""

import atexit
import functools
import os
import sys

from . import maindefs, postimport

ENV = "TKO_APPLY_KEEP_OFF"


class Region:
    def __init__(self, spec):
        self.spec = spec
        self.module, _, self.qualname = spec.partition(":")
        self.status = "not_imported"
        self.message = None
        self.calls = 0
        self.kind = None          # "function", "method", "staticmethod", "classmethod"

    def fields(self):
        return {"region": self.spec, "module": self.module, "qualname": self.qualname,
                "status": self.status, "kind": self.kind, "calls": self.calls,
                "message": self.message}


def parse(text):
    """The regions of TKO_APPLY_KEEP_OFF's value; a malformed one is kept
    with status bad_spec."""
    regions = []
    for spec in filter(None, (s.strip() for s in (text or "").split(","))):
        r = Region(spec)
        parts = r.qualname.split(".")
        if not r.module or not r.qualname or not all(p.isidentifier() for p in parts) or \
                not all(p.isidentifier() for p in r.module.split(".")):
            r.status = "bad_spec"
            r.message = f"{spec!r} is not MODULE:QUALNAME (e.g. mymodel:Block.attn)"
        regions.append(r)
    return regions


def _resolve(r, module):
    """(owner, attribute name, raw attribute) of r in module, or None with
    r.status and r.message set."""
    owner, parts = module, r.qualname.split(".")
    for i, name in enumerate(parts):
        if not hasattr(owner, name):
            where = r.module + ("." + ".".join(parts[:i]) if i else "")
            r.status, r.message = "not_found", f"{r.spec}: {where} has no attribute {name!r}"
            return None
        if i < len(parts) - 1:
            owner = getattr(owner, name)
    name = parts[-1]
    raw = owner.__dict__.get(name, getattr(owner, name)) if isinstance(owner, type) \
        else getattr(owner, name)
    return owner, name, raw


def _kind(r, owner, raw):
    """(kind, the function to wrap) of r's raw attribute, or None with
    r.status and r.message set."""
    if isinstance(raw, type):
        r.status = "class"
        r.message = f"{r.spec} is a class: name the method to keep off (e.g. {r.spec}.forward)"
        return None
    kind, fn = "method" if isinstance(owner, type) else "function", raw
    if isinstance(raw, (staticmethod, classmethod)):
        kind, fn = type(raw).__name__, raw.__func__
    if not callable(fn):
        r.status, r.message = "not_callable", f"{r.spec} is a {type(fn).__name__}, not a callable"
        return None
    return kind, fn


# What torch.compile (and torch._dynamo.disable) put on their wrapper: the
# function they wrap, and the wrapper's own id (torch 2.11 eval_frame.py
# innermost_fn follows the first only where the second matches).
DYNAMO_LINKS = ("_torchdynamo_orig_callable", "_torchdynamo_wrapper_id")


def _eager(fn):
    """The function a torch.compile wrapper (@torch.compile on the region)
    compiles, which is what keeping off runs eagerly; fn itself otherwise."""
    try:
        from torch._dynamo.eval_frame import innermost_fn
    except Exception:  # a drifted API: the region as it is
        return fn
    return innermost_fn(fn)


def _counted(r, fn):
    """fn behind a counter. A wrapper of a torch.compile'd function would
    otherwise run it compiled (its own wrapper turns Dynamo back on inside the
    disabled frame: torch 2.11), and functools.wraps copies the compiled
    wrapper's link, which innermost_fn followed past the counter, in
    torch._dynamo.disable, before its id check (pytorch/pytorch PR 174335,
    2026-02): never_called."""
    fn = _eager(fn)

    @functools.wraps(fn)
    def region(*args, **kwargs):
        r.calls += 1
        return fn(*args, **kwargs)
    for name in DYNAMO_LINKS:
        region.__dict__.pop(name, None)
    return region


def wrap(r, module):
    """Replaces r's callable in module by torch._dynamo.disable over a counter."""
    found = _resolve(r, module)
    if found is None:
        return
    owner, name, raw = found
    got = _kind(r, owner, raw)
    if got is None:
        return
    kind, fn = got
    try:
        import torch._dynamo
        new = torch._dynamo.disable(_counted(r, fn), reason=f"tko apply --keep-off {r.spec}")
    except Exception as e:  # no torch, or a drifted API: the region stays as it is
        r.status, r.message = "error", f"{r.spec}: torch._dynamo.disable failed: {type(e).__name__}: {e}"
        return
    setattr(owner, name, type(raw)(new) if kind in ("staticmethod", "classmethod") else new)
    r.kind, r.status = kind, "wrapped"


def install(sess, text=None, stderr=None):
    """Wraps the regions named in TKO_APPLY_KEEP_OFF (or text) as their modules
    are imported; records them at exit. Returns the regions."""
    regions = parse(os.environ.get(ENV) if text is None else text)
    # Inductor's compile workers and torchrun run no model code; a child may
    # (a spawned worker), so the region is kept off there too
    if not regions or sess.role in ("compile_worker", "launcher"):
        return []
    table = {}
    for r in regions:
        if r.status == "not_imported" and r.module == "__main__":
            _watch_main(sess, r, stderr)
        elif r.status == "not_imported":
            table.setdefault(r.module, []).append(r)

    pending = []

    def after(rs):
        # torch's own after-hook runs once its code has run: no deferring then
        return lambda module: [_wrap_one(sess, r, module, stderr,
                                         pending if r.module != "torch" else None) for r in rs]

    def torch_done(torch):
        while pending:
            _wrap_one(sess, *pending.pop(0), stderr, None)
    hooks = {name: after(rs) for name, rs in table.items()}
    if "torch" in hooks:
        first = hooks["torch"]
        hooks["torch"] = lambda m: (first(m), torch_done(m))
    else:
        hooks["torch"] = torch_done
    postimport.install(hooks)
    for r in regions:
        if r.status == "bad_spec":
            _say(sess, r, stderr)
    sess.keep_off = regions
    atexit.register(end, sess, regions, stderr)
    return regions


def _watch_main(sess, r, stderr):
    """A region of the script: replaced right after the statement that binds
    its first name (tko.maindefs). A process without a script has no word on
    it (no_script: `tko apply` lets the script's process decide)."""
    if not maindefs.runs_script():
        r.status = "no_script"
        r.message = (f"{r.spec}: this process runs no script (python -c: an Inductor helper, a"
                     " spawned worker); a region of __main__ is the script's")
        return
    maindefs.watch(r.qualname.split(".")[0], _main_after(sess, r, stderr))


def _main_after(sess, r, stderr):
    # the script runs after torch's import ended (its own `import torch`): no deferring
    def after(main):
        try:
            _wrap_one(sess, r, main, stderr, None)
        except Exception as e:  # tko's failure: the region is left as it was
            r.status, r.message = "error", f"{r.spec}: {type(e).__name__}: {e}"
    return after


def _initialising(name):
    spec = getattr(sys.modules.get(name), "__spec__", None)
    return bool(getattr(spec, "_initializing", False))


def _wrap_one(sess, r, module, stderr, pending):
    """Wraps r in module, or later, when torch's own import is still under way
    (a region in torch.nn.functional): torch._dynamo cannot be imported then."""
    if r.status != "not_imported":     # a module imported twice (reload): once is enough
        return
    if pending is not None and _initialising("torch"):
        pending.append((r, module))
        return
    wrap(r, module)
    if r.status == "wrapped":
        sess.log(f"keep-off {r.spec}: torch._dynamo.disable on the {r.kind}")
    else:
        _say(sess, r, stderr)


def _say(sess, r, stderr):
    """The problem in one line on stderr (from the command's own process: a
    helper's word on it is no proof) and in apply.log."""
    sess.log(f"keep-off error: {r.message}")
    if sess.role == "main":
        print(f"tko apply: keep-off: {r.message}", file=stderr or sys.stderr)


def _main_missed(r):
    """Why a region of the script was never replaced, told at exit: it does
    not exist (not_found, class, not_callable), or exists but was not defined
    by a module-level statement tko watched (not_reached)."""
    main = sys.modules["__main__"]
    found = _resolve(r, main)
    if found is None or _kind(r, found[0], found[2]) is None:
        return
    _, why = maindefs.unwatched()
    r.status = "not_reached"
    if why:
        r.message = f"{r.spec}: tko could not watch the script: {why}"
    else:   # tko's trace function was replaced or removed before the name was bound
        r.message = (f"{r.spec}: defined, but tko did not see it defined: the script replaced"
                     " tko's trace function (sys.settrace) before")


def end(sess, regions, stderr=None):
    """The regions' statuses, once, from every process that kept them off,
    each under its own role: `tko apply` reads the main process's alone."""
    if getattr(sess, "keep_off_ended", False):
        return
    sess.keep_off_ended = True
    for r in regions:
        if r.status == "wrapped":
            r.status = "took_effect" if r.calls else "never_called"
            r.message = None if r.calls else f"{r.spec} was replaced but never called in this run"
        if r.status == "not_imported" and r.module == "__main__":
            _main_missed(r)
            _say(sess, r, stderr)
        elif r.status == "not_imported":
            r.message = f"{r.spec}: module {r.module} was never imported"
    try:
        sess.emit("keep_off", regions=[r.fields() for r in regions])
    except Exception:  # the proof then says no_record
        pass
