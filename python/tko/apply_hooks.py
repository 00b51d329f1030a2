"""The patches tko.apply installs, and the launch records of the proof.

Checked against torch 2.11 (commit 70d99e998b49) and Triton 3.6.0; the file
and line of each fact are in docs/apply.md.

  torch                             set_float32_matmul_precision, when
                                    TKO_APPLY_FLOAT32_MATMUL_PRECISION is set
  torch._inductor.config            settings, autotune_lookup_table entries,
                                    lookup_table.table + inductor_choices_class
  triton_heuristics.lookup_autotune_config(size_hints, fn)
      called by CachingAutotuner.__init__: Inductor's own table lookup; the
      wrapper sees every kernel constructed, and for "hook" winners returns
      the full winner Config (AMD keys, non-_fused_ kernels).
  triton_heuristics.check_autotune_cache(configs, filename, inductor_meta)
      called by cached_autotune before the autotuner exists: "best_config"
      winners get their .best_config entry written just before it is read.
  CachingAutotuner._dynamic_scale_rblock()
      called by precompile after the configs are compiled: for a reduction it
      adds a copy of a config with the largest R*_BLOCK halved, and autotuning
      then picks between them; an installed winner is kept from it.
  CachingAutotuner.run / Autotuner.run
      the launch: the first launches of each planned kernel are recorded
      with the config they ran (launchers[0].config, Autotuner.best_config);
      a "hook" winner whose autotuner was built without passing through the
      lookup (unpickled from Inductor's caches) is compiled in place at its
      first launch; "autotune_narrow" narrows a hand-written kernel's configs.
  AsyncCompile.triton(kernel_name, source_code)
      source-variant winners replace the module text, when the plan allows.
"""

import hashlib
import importlib.util
import os
import sys
import threading

from . import apply, apply_plan, configs, lookup, postimport
from .capture import IdMap
from .events import json_safe

_LOCAL = threading.local()
_RUNS = IdMap()          # per autotuner object: its _Launch record
_MARK = "_tko_apply_original"


class _Launch:
    """One autotuner object as the proof sees it."""

    def __init__(self):
        self.ready = False
        self.winner = None
        self.state = None
        self.launcher = None      # the launcher (or config) the entry was made for
        self.entry = None         # its {"config", "launches", "winner"} in state.configs
        self.hash = None
        self.other = None         # the name of a kernel no winner is for, until noted


def install(sess):
    """Resolves the hand-written kernels' mechanisms and registers the patches."""
    sess.plan.resolve({"backend": sess.plan.backend}, ("triton",))
    postimport.install({
        "torch": lambda m: _patch(sess, "float32 matmul precision", _set_matmul_precision, m),
        "torch._inductor.config": lambda m: _patch(sess, "config", _patch_config, m),
        "torch._inductor.runtime.triton_heuristics":
            lambda m: _patch(sess, "triton_heuristics", _patch_heuristics, m),
        "torch._inductor.async_compile": lambda m: _patch(sess, "async_compile", _patch_async, m),
        "triton.runtime.autotuner": lambda m: _patch(sess, "autotuner", _patch_autotuner, m),
    })


def _patch(sess, what, fn, module):
    try:
        sess.hooks.extend(fn(sess, module) or [])
    except Exception as e:  # a drifted API: that part of apply is off, the model runs
        sess.error("install", e, message=f"cannot patch {what}: {type(e).__name__}: {e}")


def wrap(owner, attr, factory):
    """owner.attr = factory(original), once (marked apart from capture's own
    wrappers, so that both can stack). False when owner has no such attribute."""
    orig = owner.__dict__.get(attr) if isinstance(owner, type) else getattr(owner, attr, None)
    if orig is None:
        return False
    if getattr(orig, _MARK, None) is not None:
        return True
    wrapper = factory(orig)
    wrapper.__name__ = getattr(orig, "__name__", attr)
    wrapper.__doc__ = getattr(orig, "__doc__", None)
    wrapper.__wrapped__ = orig
    setattr(wrapper, _MARK, orig)
    setattr(owner, attr, wrapper)
    return True


# Resolution and process-wide settings.

def _facts(cfg):
    torch = sys.modules.get("torch")
    hip = getattr(getattr(torch, "version", None), "hip", None)
    try:
        has_template = importlib.util.find_spec("torch._inductor.lookup_table") is not None
    except (ImportError, ValueError):
        has_template = False
    return {"backend": "hip" if hip else "cuda",
            "has_lookup_table": isinstance(getattr(cfg, "autotune_lookup_table", None), dict),
            "has_template_lookup": has_template and hasattr(cfg, "lookup_table")}


def _resolve_torch(sess):
    """Chooses the Inductor winners' mechanisms once torch's config exists."""
    if sess.resolved_torch:
        return
    cfg = sys.modules.get("torch._inductor.config")
    if cfg is None:
        # Its own patch (_patch_config) resolves, then sets the tables.
        import torch._inductor.config  # noqa: F401
        return
    sess.resolved_torch = True
    facts = _facts(cfg)
    if facts["backend"] != sess.plan.backend:
        sess.error("plan", ValueError("backend"),
                   message=f"the plan is for {sess.plan.backend}, this process runs "
                           f"{facts['backend']}: no Inductor winner is installed")
        for w in sess.plan.winners:
            if w.launcher != "triton":
                w.refused.append({"mechanism": None, "reason": "backend_mismatch"})
        return
    sess.plan.resolve(facts, ("inductor", "template"))
    sess.by_hash = sess.plan.by_hash()
    for w in sess.plan.winners:
        if w.launcher != "triton":
            sess.emit("winner", **w.fields(), lookup_hash=w.lookup_hash, refused=w.refused)


def _patch_config(sess, cfg):
    _resolve_torch(sess)
    if not sess.applying:
        return []
    for key, value in sess.plan.settings.items():
        _set_setting(sess, cfg, key, value)
    table_winners = [w for w in sess.plan.winners if w.mechanism == "lookup_table"]
    for w in table_winners:
        cfg.autotune_lookup_table[w.lookup_hash] = lookup.table_entry(w.config)
    if any(w.mechanism for w in sess.plan.winners):
        # An entry no kernel hash can equal: it changes the FX graph cache
        # key (the table is part of the config Inductor hashes), so graphs
        # cached by a run without the plan are compiled again and every
        # autotuner passes through the lookup.
        cfg.autotune_lookup_table["tko-plan-" + _plan_digest(sess)] = {}
    if table_winners:
        sess.installed.append({"what": "autotune_lookup_table", "entries": len(table_winners)})
    _install_template_table(sess, cfg)
    return ["torch._inductor.config"]


def _set_setting(sess, cfg, key, value):
    obj = cfg
    *path, last = key.split(".")
    try:
        for part in path:
            obj = getattr(obj, part)
        previous = getattr(obj, last)
    except AttributeError:
        sess.error("setting", AttributeError(key), message=f"this torch has no Inductor setting {key!r}")
        return
    setattr(obj, last, value)
    sess.installed.append({"what": "setting", "name": key, "value": value, "previous": previous})


PRECISION_ENV = "TKO_APPLY_FLOAT32_MATMUL_PRECISION"


def _set_matmul_precision(sess, torch):
    """The A/B's tf32 arms (docs/apply.md): torch.set_float32_matmul_precision
    before the user's code runs, in observe mode too. It changes numerics, so
    only `tko apply --arms ...,tf32` sets the variable; the user's own call
    later in the script still wins (session_end records what held)."""
    value = os.environ.get(PRECISION_ENV)
    if not value:
        return []
    if value not in ("highest", "high", "medium"):
        raise ValueError(f"{PRECISION_ENV}={value!r}: expected highest, high or medium")
    previous = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision(value)
    sess.installed.append({"what": "float32_matmul_precision", "value": value, "previous": previous})
    sess.log(f"torch.set_float32_matmul_precision({value!r}) (was {previous!r})")
    return ["torch.set_float32_matmul_precision"]


def _plan_digest(sess):
    with open(sess.plan.path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def _install_template_table(sess, cfg):
    winners = [w for w in sess.plan.winners if w.mechanism == "template_lookup"]
    if not winners:
        return
    if cfg.inductor_choices_class is not None and cfg.inductor_choices_class is not choices_factory:
        for w in winners:
            w.refused.append({"mechanism": "template_lookup", "reason": "user_choices_class"})
            w.mechanism = None
        sess.error("template", ValueError("inductor_choices_class"),
                   message="inductor_choices_class is already set: template winners not installed")
        return
    table = dict(cfg.lookup_table.table or {})
    for w in winners:
        entry = dict(w.template["params"], template_id=w.template["template_id"])
        table.setdefault(w.template["lookup_key"], []).append(entry)
    cfg.lookup_table.table = table
    cfg.inductor_choices_class = choices_factory
    sess.installed.append({"what": "template_lookup", "entries": len(winners)})


_RECORDING_CLASS = []


def choices_factory():
    """Inductor's LookupTableChoices, recording each lookup for the proof."""
    if not _RECORDING_CLASS:
        from torch._inductor.lookup_table import LookupTableChoices

        class RecordingLookupChoices(LookupTableChoices):
            def lookup_template_configs(self, kernel_inputs, op_name, template_uids,
                                        template_hash_map=None):
                result = super().lookup_template_configs(kernel_inputs, op_name,
                                                         template_uids, template_hash_map)
                apply.guarded("template", _note_template_lookup, self, kernel_inputs,
                              op_name, result)
                return result
        _RECORDING_CLASS.append(RecordingLookupChoices)
    return _RECORDING_CLASS[0]()


def _note_template_lookup(choices, kernel_inputs, op_name, result):
    sess = apply.session()
    keys = [k for k in choices.make_lookup_key_variants(kernel_inputs, op_name) if k]
    for w in sess.plan.winners:
        if w.mechanism == "template_lookup" and w.template["lookup_key"] in keys:
            sess.winner_state(w).template_keys.append({"op": op_name, "hit": bool(result)})
    if sess.kernels_seen < sess.plan.max_kernels:
        sess.kernels_seen += 1
        sess.emit("template_lookup", op=op_name, keys=keys, hit=sorted(result or {}))


# Inductor's autotuners.

def _patch_heuristics(sess, mod):
    _resolve_torch(sess)
    hooks = []
    if wrap(mod, "lookup_autotune_config", lambda orig: _wrap_lookup(orig, mod)):
        hooks.append("triton_heuristics.lookup_autotune_config")
    if any(w.mechanism == "best_config" for w in sess.plan.winners) and \
            wrap(mod, "check_autotune_cache", lambda orig: _wrap_check_cache(orig, mod)):
        hooks.append("triton_heuristics.check_autotune_cache")
    cls = mod.CachingAutotuner
    for klass in [cls] + _subclasses(cls):
        if "run" in klass.__dict__ and wrap(klass, "run", _wrap_inductor_run):
            hooks.append(f"{klass.__name__}.run")
    if sess.applying and wrap(cls, "_dynamic_scale_rblock", _wrap_scale_rblock):
        hooks.append("CachingAutotuner._dynamic_scale_rblock")
    return hooks


# torch 2.11 runtime/triton_heuristics.py:504,532-642: precompile() calls
# _dynamic_scale_rblock(), which for a reduction whose threads use many
# registers appends a config with the largest R*_BLOCK halved; the autotuner
# then benchmarks both, so an installed winner (R0_BLOCK=2048) may launch as
# R0_BLOCK=1024 (seen on the H200). The winner was measured as it is, so the
# rescaling is skipped for an autotuner that holds exactly the winner.
def _wrap_scale_rblock(orig):
    def _dynamic_scale_rblock(self, *args, **kwargs):
        if apply.guarded("rblock", _keeps_winner, self):
            return None
        return orig(self, *args, **kwargs)
    return _dynamic_scale_rblock


def _keeps_winner(tuner):
    sess = apply.session()
    h = lookup.lookup_hash(str(tuner.size_hints), tuner.fn.src)
    w = _winner_by_hash(sess, h)
    if w is None or w.mechanism not in ("lookup_table", "hook", "best_config"):
        return False
    results = list(getattr(tuner, "compile_results", None) or [])
    if not results or not all(_is_winner(w, r.config) for r in results):
        return False
    st = sess.winner_state(w)
    if "rblock_scaling_skipped" not in st.notes:
        st.notes.append("rblock_scaling_skipped")
    return True


def _subclasses(cls):
    out, todo = [], list(cls.__subclasses__())
    while todo:
        sub = todo.pop()
        if sub not in out:
            out.append(sub)
            todo.extend(sub.__subclasses__())
    return out


def _wrap_lookup(orig, mod):
    def lookup_autotune_config(size_hints, fn):
        found = orig(size_hints, fn)
        out = apply.guarded("construct", _on_construct, mod, size_hints, fn, found)
        return found if out is None else out[0]
    return lookup_autotune_config


def _on_construct(mod, size_hints, fn, found):
    """(the config CachingAutotuner gets,) for one constructed kernel."""
    sess = apply.session()
    h = lookup.lookup_hash(str(size_hints), fn.src)
    w = _winner_by_hash(sess, h)
    if w is None:
        # A template's key is judged at its first launch, where its
        # config_args tell a planned body change from another graph's kernel.
        _near_miss(sess, fn.__name__, h, templates=False)
        return (found,)
    st = sess.winner_state(w)
    how = None if sess.applying else "observed"
    if sess.applying and w.mechanism == "lookup_table":
        how = "lookup_hit" if found is not None and _is_winner(w, found) else "lookup_miss"
    elif sess.applying and w.mechanism == "hook":
        found, how = make_config(mod.Config, w), "hook"
    if how in ("lookup_hit", "hook"):
        # Coordinate descent, when on, would start from the winner and move.
        found.found_by_coordesc = True
        st.installed = w.mechanism
    if how is None:     # best_config: the seeding said what happened
        return (found,)
    st.constructed.append(how)
    sess.emit("construct", **w.fields(), lookup_hash=h, how=how,
              config=configs.config_to_dict(found) if found is not None else None)
    return (found,)


def _winner_by_hash(sess, h):
    winners = getattr(sess, "by_hash", {}).get(h)
    return winners[0] if winners else None


def _near_miss(sess, name, h, templates=True):
    for w in sess.plan.winners:
        if w.launcher == "template" and not templates:
            continue
        if w.kernel == name and w.lookup_hash and w.lookup_hash != h:
            st = sess.winner_state(w)
            if h not in st.other_hashes:
                st.other_hashes.add(h)
                sess.emit("near_miss", **w.fields(), lookup_hash=h, planned_hash=w.lookup_hash)


def make_config(config_cls, w):
    """The winner as a Config of this process's class (Inductor's or Triton's)."""
    extra = {k: w.config[k] for k in ("num_ctas", "maxnreg") if w.config.get(k) is not None}
    if w.launcher == "triton":
        return config_cls(dict(w.kwargs), num_warps=w.config["num_warps"],
                          num_stages=w.config["num_stages"], **extra)
    return config_cls(dict(w.kwargs), num_warps=w.config["num_warps"],
                      num_stages=w.config["num_stages"])


def _is_winner(w, cfg):
    return lookup.same_config(getattr(cfg, "kwargs", None), getattr(cfg, "num_warps", None),
                              getattr(cfg, "num_stages", None), w.kwargs, w.config)


def _wrap_check_cache(orig, mod):
    def check_autotune_cache(configs_, filename, inductor_meta):
        apply.guarded("best_config", _seed_best_config, mod, configs_, filename, inductor_meta)
        return orig(configs_, filename, inductor_meta)
    return check_autotune_cache


def _seed_best_config(mod, candidates, filename, inductor_meta):
    """Writes a best_config winner's cache entry just before Inductor reads it."""
    sess = apply.session()
    name = (inductor_meta or {}).get("kernel_name")
    if not sess.applying or not filename or not name:
        return
    with open(filename, encoding="utf-8") as f:
        h = lookup.lookup_hash_of_module(f.read(), name)
    w = _winner_by_hash(sess, h)
    if w is None or w.mechanism != "best_config":
        return
    st = sess.winner_state(w)
    from torch._inductor.runtime.autotune_cache import AutotuneCache
    exact = any(_is_winner(w, c) for c in candidates)
    coordesc = bool(inductor_meta.get("coordinate_descent_tuning"))
    cache = AutotuneCache.create(inductor_meta, filename, mod.hash_configs(candidates))
    if cache is None or inductor_meta.get("force_disable_caches"):
        how = "best_config_cache_off"
    elif not exact and not coordesc:
        how = "best_config_not_a_candidate"
    elif len(candidates) == 1 and not coordesc:
        how = "best_config_single_config"
    else:
        cache.save(make_config(mod.Config, w), 0, found_by_coordesc=not exact)
        how, st.installed = "best_config_seeded", "best_config"
    st.constructed.append(how)
    sess.emit("construct", **w.fields(), lookup_hash=h, how=how, exact=exact)


def _wrap_inductor_run(orig):
    def run(self, *args, **kwargs):
        if getattr(_LOCAL, "depth", 0) or apply.session() is None:
            return orig(self, *args, **kwargs)
        rec = _RUNS.get(self, _Launch)
        if not rec.ready:
            rec.ready = True
            apply.guarded("launch", _first_inductor_launch, self, rec)
        _LOCAL.depth = 1
        try:
            result = orig(self, *args, **kwargs)
        finally:
            _LOCAL.depth = 0
        launchers = self.launchers
        _count(rec, launchers[0] if len(launchers) == 1 else None, self)
        return result
    return run


def _first_inductor_launch(tuner, rec):
    sess = apply.session()
    fn = tuner.fn
    rec.hash = lookup.lookup_hash(str(tuner.size_hints), fn.src)
    w = _winner_by_hash(sess, rec.hash) or _template_winner(sess, fn.__name__, rec.hash, tuner)
    if w is None:
        _near_miss(sess, fn.__name__, rec.hash)
        rec.other = fn.__name__
        return
    rec.winner, rec.state = w, sess.winner_state(w)
    if sess.applying and w.mechanism == "hook":
        _install_at_launch(tuner, w, rec.state)


def _template_winner(sess, name, h, tuner):
    """The template winner of this kernel, installed or not (a refused one's
    launches are recorded too): by name, and by the lookup key where the
    plan has one. Template names repeat across graphs, so a same-named
    kernel of another key is a near miss, never given the winner. A winner
    installed through the template lookup table changed the template's body
    (BLOCK_K), so its key is not the one tune measured: it is known by the
    table's parameters in the kernel's config_args."""
    for w in sess.plan.winners:
        if w.launcher != "template" or w.kernel != name:
            continue
        if w.lookup_hash in (None, h) or (w.mechanism == "template_lookup" and
                                          _has_table_params(w, tuner)):
            return w
    return None


def _has_table_params(w, tuner):
    args = (getattr(tuner, "inductor_meta", None) or {}).get("config_args") or {}
    want = {k: v for k, v in w.template["params"].items() if k in args}
    return bool(want) and all(args[k] == v for k, v in want.items())


def _install_at_launch(tuner, w, st):
    """Puts the winner in place in an autotuner built without passing through
    lookup_autotune_config (one unpickled from Inductor's caches)."""
    have = [x.config for x in tuner.launchers] or [r.config for r in tuner.compile_results]
    if len(have) == 1 and _is_winner(w, have[0]):
        return
    for kind in ("launchers", "compile_results"):
        items = getattr(tuner, kind)
        match = [x for x in items if _is_winner(w, x.config)]
        if match:
            setattr(tuner, kind, match[:1])
    if not any(_is_winner(w, x.config) for x in tuner.compile_results):
        mod = sys.modules[type(tuner).__module__]
        cfg = make_config(mod.Config, w)
        if getattr(tuner.fn, "fn", None) is None and hasattr(tuner, "_reload_kernel"):
            tuner.fn = tuner._reload_kernel().fn
        result = tuner._precompile_config(cfg)
        tuner.compile_results, tuner.launchers = [result], [result.make_launcher()]
    for x in tuner.launchers or tuner.compile_results:
        x.config.found_by_coordesc = True
    tuner.launchers = tuner.launchers[:1]
    st.installed = "hook"
    st.constructed.append("launch")
    apply.session().emit("construct", **w.fields(), how="launch")


def _count(rec, launcher, tuner):
    """Counts a launch; records its config the first times (docs/apply.md)."""
    st = rec.state
    if st is None:
        if rec.other is not None and launcher is not None:
            apply.guarded("launch", _note_kernel, rec.other, rec.hash, tuner, launcher)
            rec.other = None
        return
    st.launches += 1
    if launcher is not rec.launcher:
        apply.guarded("launch", _new_entry, rec, launcher, tuner)
    if rec.entry is not None:
        rec.entry["launches"] += 1
    sess = apply.session()
    if st.recorded < sess.plan.launches_per_kernel:
        st.recorded += 1
        apply.guarded("launch", _emit_launch, sess, rec, st)


def _new_entry(rec, launcher, tuner):
    rec.launcher = launcher
    cfg = getattr(launcher, "config", launcher)
    d = configs.config_to_dict(cfg)
    w = rec.winner
    if w.launcher == "template":
        d["config_args"] = dict((getattr(tuner, "inductor_meta", None) or {}).get("config_args") or {})
        is_w = _template_is_winner(w, d)
    elif w.launcher == "triton":
        is_w = _is_winner(w, cfg) and all(d.get(k) == w.config[k] for k in ("num_ctas", "maxnreg")
                                          if w.config.get(k) is not None)
    else:
        is_w = _is_winner(w, cfg)
    key = repr(configs.config_key(d)) + repr(sorted(d.get("config_args", {}).items()))
    rec.entry = rec.state.configs.setdefault(key, {"config": d, "launches": 0, "winner": is_w})


def _template_is_winner(w, d):
    have = dict(d.get("config_args") or {}, num_warps=d.get("num_warps"),
                num_stages=d.get("num_stages"))
    want = (w.template or {}).get("params")
    if want is None:
        # A hook winner has no template key: its num_warps and num_stages,
        # and the body when an older plan carries one (then refused).
        want = dict(w.config.get("body") or {}, num_warps=w.config.get("num_warps"),
                    num_stages=w.config.get("num_stages"))
    return all(have.get(k) == v for k, v in want.items() if k in have)


def _emit_launch(sess, rec, st):
    sess.emit("launch", **rec.winner.fields(), n=st.launches, lookup_hash=rec.hash,
              config=rec.entry["config"] if rec.entry else None,
              winner=rec.entry["winner"] if rec.entry else None)


def _note_kernel(name, h, tuner, launcher):
    """The first launch of a kernel no winner is for: its identity and config
    (the A arm's defaults; and the hashes a changed source now has)."""
    sess = apply.session()
    if sess.kernels_seen >= sess.plan.max_kernels:
        return
    sess.kernels_seen += 1
    sess.emit("kernel", kernel=name, lookup_hash=h, size_hints=json_safe(tuner.size_hints),
              config=configs.config_to_dict(getattr(launcher, "config", launcher)))


# Hand-written kernels (Triton's Autotuner).

def _patch_autotuner(sess, mod):
    if wrap(mod.Autotuner, "run", _wrap_autotuner_run):
        return ["Autotuner.run"]
    raise AttributeError("triton.runtime.autotuner.Autotuner has no run")


def _wrap_autotuner_run(orig):
    def run(self, *args, **kwargs):
        if apply.session() is None or getattr(_LOCAL, "depth", 0):
            return orig(self, *args, **kwargs)
        rec = _RUNS.get(self, _Launch)
        if not rec.ready:
            rec.ready = True
            apply.guarded("launch", _first_autotuner_launch, self, rec)
        _LOCAL.depth = 1
        try:
            result = orig(self, *args, **kwargs)
        finally:
            _LOCAL.depth = 0
        if rec.state is not None:
            _count(rec, getattr(self, "best_config", None), self)
        return result
    return run


def _jit_of(fn):
    for _ in range(8):
        if fn is None or (hasattr(fn, "src") and hasattr(fn, "arg_names")):
            return fn
        fn = getattr(fn, "fn", None)
    return None


def _first_autotuner_launch(tuner, rec):
    sess = apply.session()
    jit = _jit_of(tuner)
    src_hash = hashlib.sha256(jit.src.encode("utf-8", "replace")).hexdigest()
    rec.hash = src_hash
    w = next((x for x in sess.plan.winners
              if x.launcher == "triton" and x.source_hash == src_hash), None)
    if w is None:
        for x in sess.plan.winners:
            if x.launcher == "triton" and x.kernel == jit.__name__:
                sess.winner_state(x).other_hashes.add(src_hash)
                sess.emit("near_miss", **x.fields(), source_hash=src_hash,
                          planned_hash=x.source_hash)
        return
    rec.winner, rec.state = w, sess.winner_state(w)
    if sess.applying and w.mechanism == "autotune_narrow":
        cfg_cls = type(tuner.configs[0]) if tuner.configs else sys.modules[type(tuner).__module__].Config
        same = [c for c in tuner.configs if _is_winner(w, c)
                and all(getattr(c, k, None) == w.config[k] for k in ("num_ctas", "maxnreg")
                        if w.config.get(k) is not None)]
        tuner.configs = same[:1] or [make_config(cfg_cls, w)]
        rec.state.installed = "autotune_narrow"
        rec.state.constructed.append("narrowed" if same else "narrowed_new_config")
        sess.emit("construct", **w.fields(), source_hash=src_hash, how=rec.state.constructed[-1])


# Source variants.

def _patch_async(sess, mod):
    _resolve_torch(sess)
    if not any(w.source and w.mechanism for w in sess.plan.winners) or not sess.applying:
        return []
    if wrap(mod.AsyncCompile, "triton", _wrap_async_triton):
        return ["AsyncCompile.triton"]
    raise AttributeError("AsyncCompile has no triton")


def _wrap_async_triton(orig):
    def triton(self, kernel_name, source_code, *args, **kwargs):
        variant = apply.guarded("source", _variant_for, kernel_name, source_code)
        return orig(self, kernel_name, variant or source_code, *args, **kwargs)
    return triton


def _variant_for(kernel_name, source_code):
    """The winner's module text for a kernel module it replaces, else None."""
    sess = apply.session()
    h = lookup.lookup_hash_of_module(source_code, kernel_name)
    for w in sess.plan.winners:
        if w.source and w.mechanism and w.source.get("replaces") == h:
            with open(w.source["path"], encoding="utf-8") as f:
                text = f.read()
            if lookup.function_source(text, kernel_name) is None:
                raise ValueError(f"{w.source['path']} does not define {kernel_name}")
            sess.winner_state(w).notes.append("source_variant_installed")
            sess.emit("construct", **w.fields(), how="source_variant", replaces=h)
            return text
    return None


__all__ = ["install", "choices_factory", "make_config", "wrap", "apply_plan"]
