"""The apply plan: what `tko apply` (C) tells the in-process hook to install.

Input: the JSON file of docs/apply.md, "The plan" (schema_version 1).
Output: a Plan with one Winner per kernel, each with the mechanism chosen
for this process. Entry points: load(path), Plan.resolve(facts).

C decides which winners are confirmed and which mechanisms it prefers; this
module only checks, with what is known inside the process (the torch that
is installed, the backend), which of the preferred mechanisms can carry each
winner whole, and takes the first that can. A winner no mechanism carries is
kept with the reasons, so that the proof lists it. Only the standard library
is used.
"""

import json

from . import lookup

SCHEMA_VERSION = 1
MECHANISMS = ("lookup_table", "best_config", "hook", "template_lookup", "autotune_narrow")

# Preference when the plan names none, by the runtime that launches the kernel.
_DEFAULT_PREFERENCE = {
    "inductor": ("lookup_table", "hook"),
    "template": ("template_lookup", "hook"),
    "triton": ("autotune_narrow",),
}


class PlanError(ValueError):
    """The plan file is unreadable or does not follow the schema."""


class Winner:
    """One kernel's confirmed winner and how it is installed here."""

    def __init__(self, d, index):
        self.id = str(d.get("id") or f"k{index}")
        self.kernel = _need(d, "kernel", str, self.id)
        self.launcher = d.get("launcher") or "inductor"
        if self.launcher not in _DEFAULT_PREFERENCE:
            raise PlanError(f"kernel {self.id}: unknown launcher {self.launcher!r}")
        self.config = _need(d, "config", dict, self.id)
        self.lookup_hash = d.get("lookup_hash")
        self.source_hash = d.get("source_hash")
        self.size_hints = d.get("size_hints")
        self.template = d.get("template")
        self.source = d.get("source")
        self.settings = d.get("inductor_settings") or {}
        self.fused = d.get("fused")    # "_fused_" in the function text (C reads it), else by name
        prefs = d.get("mechanisms") or _DEFAULT_PREFERENCE[self.launcher]
        bad = [m for m in prefs if m not in MECHANISMS]
        if bad:
            raise PlanError(f"kernel {self.id}: unknown mechanism {bad[0]!r}")
        self.preference = list(prefs)
        self.mechanism = None       # chosen by resolve()
        self.refused = []           # [{"mechanism", "reason"}] of those not chosen
        self.kwargs = {}            # Config.kwargs the kernel should run with

    def fields(self):
        return {"id": self.id, "kernel": self.kernel, "mechanism": self.mechanism}


class Plan:
    def __init__(self, d, path=None):
        if not isinstance(d, dict):
            raise PlanError("the plan is not a JSON object")
        if d.get("schema_version") != SCHEMA_VERSION:
            raise PlanError(f"schema_version {d.get('schema_version')!r}, expected {SCHEMA_VERSION}")
        self.path = path
        self.backend = d.get("backend")
        if self.backend not in ("cuda", "hip"):
            raise PlanError(f"backend {self.backend!r}: expected \"cuda\" or \"hip\"")
        self.versions = d.get("versions") or {}
        self.settings = dict(d.get("inductor_settings") or {})
        self.source_variants = bool(d.get("source_variants"))
        proof = d.get("proof") or {}
        self.launches_per_kernel = int(proof.get("launches_per_kernel", 3))
        self.max_kernels = int(proof.get("max_kernels", 1000))
        kernels = d.get("kernels")
        if not isinstance(kernels, list):
            raise PlanError("'kernels' is not a list")
        self.winners = [Winner(k if isinstance(k, dict) else _bad_kernel(i), i)
                        for i, k in enumerate(kernels)]
        ids = [w.id for w in self.winners]
        if len(set(ids)) != len(ids):
            raise PlanError("two kernels share an id")
        for w in self.winners:
            for key, value in w.settings.items():
                if key in self.settings and self.settings[key] != value:
                    raise PlanError(f"kernel {w.id} needs {key}={value!r}, another {self.settings[key]!r}")
                self.settings[key] = value

    def resolve(self, facts, launchers):
        """Chooses the mechanism of the winners launched by `launchers`.
        `facts`: {"backend", "has_lookup_table", "has_template_lookup"} of
        this process (the torch facts are known once torch is imported)."""
        for w in self.winners:
            if w.launcher in launchers:
                resolve_winner(w, self, facts)

    def by_hash(self):
        """{lookup_hash: [winners]} of the Inductor winners."""
        out = {}
        for w in self.winners:
            if w.lookup_hash and w.mechanism in ("lookup_table", "hook", "best_config"):
                out.setdefault(w.lookup_hash, []).append(w)
        return out


def resolve_winner(w, plan, facts):
    backend = facts.get("backend") or plan.backend
    w.kwargs = lookup.config_kwargs(w.config, backend)
    if w.source and not plan.source_variants:
        w.refused.append({"mechanism": "source", "reason": "source_variants_off"})
        return
    for m in w.preference:
        reason = _refusal(m, w, facts, backend)
        if reason is None:
            w.mechanism = m
            return
        w.refused.append({"mechanism": m, "reason": reason})


def _refusal(m, w, facts, backend):
    """Why mechanism m cannot carry winner w here, or None when it can."""
    if m == "lookup_table":
        if not facts.get("has_lookup_table"):
            return "no_autotune_lookup_table"
        if not w.lookup_hash:
            return "no_lookup_hash"
        if not (w.fused if w.fused is not None else "_fused_" in w.kernel):
            return "not_fused"
    if m == "template_lookup":
        if not facts.get("has_template_lookup"):
            return "no_template_lookup_table"
        t = w.template or {}
        if not t.get("lookup_key") or not t.get("template_id") or not isinstance(t.get("params"), dict):
            return "no_template_key"
    if m in ("hook", "best_config") and not (w.lookup_hash or w.source_hash):
        return "no_identity"
    if m in ("hook", "best_config") and w.launcher == "template" and w.config.get("body"):
        return "cannot_carry:body"
    if m == "autotune_narrow" and w.launcher != "triton":
        return "not_a_triton_autotuner"
    dropped = lookup.dropped_keys(m, w.config, backend)
    if dropped:
        return "cannot_carry:" + ",".join(dropped)
    return None


def _need(d, key, kind, who):
    value = d.get(key)
    if not isinstance(value, kind):
        raise PlanError(f"kernel {who}: '{key}' missing or not a {kind.__name__}")
    return value


def _bad_kernel(i):
    raise PlanError(f"kernels[{i}] is not an object")


def load(path):
    """The Plan in `path`; PlanError names the problem."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise PlanError(f"cannot read '{path}': {e.strerror or e}") from None
    except ValueError as e:
        raise PlanError(f"'{path}' is not JSON: {e}") from None
    return Plan(data, path)
