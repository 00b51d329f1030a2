"""Which captured kernels the benchmark compares, and their counterparts.

Input: RUN directories written by `tko capture` (capture/kernels/*/capture.json
and kernel.py, and the models.json that bench/models/run_models.py leaves in
the RUN), and the JSON of `tko tune --json` over those kernel directories.
No torch needed: everything here reads files.

  model_kernels(run)    the kernel directories the models launch, by model:
                        Inductor's generated kernels (triton_poi_/_red_/_per_/
                        _tem_/_for_/_spl_ names) and hand-written ones; the
                        max-autotune benchmark choices (triton_mm, triton_,
                        ...) are captured too but never run in the model
  body_key(dir)         the kernel function's syntax tree without decorators:
                        the same kernel compiled in two runs (with other
                        Inductor settings in its decorator) has the same key
  counterpart(d, run)   the kernel directory of another run with the same
                        name and body_key
  tko_results(doc)      {kernel directory (real path): tko tune's entry}
"""

import ast
import json
import os
import re

INDUCTOR_RE = re.compile(r"^triton_(poi|red|per|tem|for|spl)_")
KINDS = {"poi": "pointwise", "red": "reduction", "per": "persistent_reduction",
         "tem": "template", "for": "foreach", "spl": "split_scan"}


def load_capture(kdir):
    with open(os.path.join(kdir, "capture.json"), encoding="utf-8") as f:
        return json.load(f)


def kernel_dirs(run):
    base = os.path.join(run, "capture", "kernels")
    if not os.path.isdir(base):
        return []
    return [os.path.join(base, n) for n in sorted(os.listdir(base))
            if not n.startswith(".") and os.path.isfile(os.path.join(base, n, "capture.json"))]


def kind_of(cap):
    """pointwise, reduction, ..., template for Inductor's kernels; user for
    hand-written ones; None for a benchmark choice the model never runs."""
    name = cap.get("kernel") or ""
    if cap.get("kind") not in (None, "inductor"):
        return "user"
    m = INDUCTOR_RE.match(name)
    return KINDS[m.group(1)] if m else None


def model_kernels(run):
    """[(model, kernel dir)] of the kernels the models launch, and the
    skipped directories with the reason."""
    names = {}
    try:
        with open(os.path.join(run, "models.json"), encoding="utf-8") as f:
            for model, dirs in json.load(f).items():
                for d in dirs:
                    names[d] = model
    except (OSError, ValueError):
        pass
    picked, skipped = [], []
    for d in kernel_dirs(run):
        cap = load_capture(d)
        if kind_of(cap) is None:
            skipped.append((d, "a max-autotune benchmark choice, not run by the model"))
        else:
            picked.append((names.get(os.path.basename(d), "?"), d))
    return picked, skipped


def body_key(kdir, name=None):
    """ast.dump of the kernel function without its decorators, or None."""
    path = os.path.join(kdir, "kernel.py")
    name = name or load_capture(kdir).get("kernel")
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            node.decorator_list = []
            return ast.dump(node, include_attributes=False)
    return None


def counterpart(kdir, other_run, cache=None):
    """The directory of other_run holding the same kernel, or None."""
    cap = load_capture(kdir)
    key = body_key(kdir, cap["kernel"])
    if key is None:
        return None
    for d in kernel_dirs(other_run):
        c = cache.setdefault(d, load_capture(d)) if cache is not None else load_capture(d)
        if c.get("kernel") == cap["kernel"] and body_key(d, c["kernel"]) == key:
            return d
    return None


def best_config(cap):
    """The config the capture's autotuning chose: {kwargs, num_warps, num_stages}."""
    cfgs = cap.get("configs") or []
    i = cap.get("best_index") or 0
    return cfgs[i] if 0 <= i < len(cfgs) else None


def tko_results(doc):
    """{real path of the kernel directory: kernel entry} of a tko tune JSON."""
    out = {}
    for k in (doc or {}).get("kernels") or []:
        src = k.get("source")
        if src:
            out[os.path.realpath(os.path.dirname(src))] = k
    return out


def winner_variant(entry):
    """tko's winning variant (the base when nothing beat it), or None."""
    w = (entry or {}).get("winner")
    if not w:
        return None
    return next((v for v in entry.get("variants") or [] if v.get("id") == w.get("id")), None)


def main(argv=None):
    """`python match.py RUN`: the model kernels' directories, one per line."""
    import sys
    argv = sys.argv[1:] if argv is None else argv
    picked, _ = model_kernels(argv[0])
    for _, d in picked:
        print(d)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
