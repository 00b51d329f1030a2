"""Compiling one tko tune variant: shared by the tune worker and its compile processes.

Input: a compile request (docs/json.md, "tko tune worker protocol": source,
kernel, signature, constants, attrs, num_warps, num_stages, options,
target, out_dir). Output: the CompiledKernel and the reply fields (every
stage written to out_dir, Triton's metadata, the compile time and the ISA
fingerprint). Entry point: compile_variant(req).

Inductor kernel modules call triton_helpers.set_driver_to_gpu() at import,
which fails without a GPU, and they import torch. So a source file is never
imported: its @triton.jit functions (and its triton imports) are compiled
from the file's own syntax tree, with the file's name and line numbers, so
Triton finds their source and the ISA's line info points into the file.

The compile mirrors Inductor's _precompile_config (torch 2.9-2.11):
triton.compile(ASTSource(fn, signature, constants, attrs),
target=GPUTarget(backend, arch, warp_size), options={num_warps, num_stages,
debug, sanitize_overflow=False, ...}); tko sends debug as Inductor sets it
(assert_indirect_indexing and not HIP) so that a variant keeps the same
tl.device_assert checks as the config it is compared with.
"""

import ast
import dataclasses
import hashlib
import json
import math
import os
import re
import time
import traceback


class _MissingHelpers:
    """Stands in for torch's triton_helpers when torch is not installed."""

    def __getattr__(self, name):
        raise RuntimeError(
            "the kernel calls triton_helpers.%s from torch._inductor; "
            "install torch to compile it" % name)


def _kernel_globals():
    import triton
    import triton.language as tl
    g = {"triton": triton, "tl": tl, "math": math, "__name__": "tko_tune_kernel"}
    try:
        from torch._inductor.runtime import triton_helpers
        from torch._inductor.runtime.triton_helpers import libdevice
        from torch._inductor.runtime.triton_helpers import math as tl_math
        g.update(triton_helpers=triton_helpers, libdevice=libdevice, tl_math=tl_math)
    except ImportError:
        from triton.language.extra import libdevice
        g.update(triton_helpers=_MissingHelpers(), libdevice=libdevice, tl_math=tl.math)
    return g


def is_jit(dec):
    node = dec.func if isinstance(dec, ast.Call) else dec
    if isinstance(node, ast.Attribute):
        return node.attr == "jit"
    return isinstance(node, ast.Name) and node.id == "jit"


def _is_triton_import(node):
    if isinstance(node, ast.Import):
        return all(a.name.split(".")[0] in ("triton", "math") for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] == "triton"
    return False


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return ast.parse(text, filename=path)


def load_jit_functions(path):
    """Returns {name: JITFunction} for the top-level @triton.jit functions."""
    tree = parse(path)
    body = []
    names = []
    for node in tree.body:
        if _is_triton_import(node):
            body.append(node)
        elif isinstance(node, ast.FunctionDef) and any(is_jit(d) for d in node.decorator_list):
            node.decorator_list = [d for d in node.decorator_list if is_jit(d)]
            body.append(node)
            names.append(node.name)
    g = _kernel_globals()
    g["__file__"] = path
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), g)
    return {n: g[n] for n in names}


def jsonable(v):
    """A value as JSON: tuple keys joined by commas, sets sorted."""
    if isinstance(v, dict):
        return {(",".join(str(i) for i in k) if isinstance(k, tuple) else str(k)): jsonable(x)
                for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted(jsonable(x) for x in v)
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return jsonable(dataclasses.asdict(v))
    if hasattr(v, "_asdict"):
        return jsonable(v._asdict())
    return repr(v)


def constant(v):
    import triton.language as tl
    if isinstance(v, str) and v.startswith("tl."):
        return getattr(tl, v[3:])
    return v


def _target(t):
    """GPUTarget of tko's decision (src/target/target.c target_compile_json):
    the compute capability as an int on CUDA, the processor name on HIP."""
    from triton.backends.compiler import GPUTarget
    return GPUTarget(t["backend"], t["arch"], int(t["warp_size"]))


def _attrs(a):
    return {tuple(int(i) for i in str(k).split(",")): v for k, v in (a or {}).items()}


# Lines that carry only debug information: source lines (.loc/.file), the
# labels that delimit them, and comments.
_DEBUG_LABEL = re.compile(r"^[$.]L(__)?(tmp|func_begin|func_end|info_string|debug|line|section)\w*:$")


def fingerprint(asm, isa):
    """A hash of the ISA text without line information: a source variant
    that only moved lines (a hint the compiler already knew) hashes the same
    as the base. PTX comments start with //, AMDGCN comments with ;."""
    comment = "//" if isa == "ptx" else ";"
    keep = []
    in_debug = False
    for line in asm.splitlines():
        s = line.split(comment, 1)[0].strip()
        if s.startswith(".section"):
            in_debug = ".debug" in s
            continue
        if in_debug or not s or s.startswith((".loc", ".file")) or _DEBUG_LABEL.match(s):
            continue
        keep.append(s)
    return hashlib.sha256("\n".join(keep).encode()).hexdigest()[:32]


def asm_fingerprint(k):
    for isa in ("ptx", "amdgcn"):
        text = k.asm.get(isa)
        if isinstance(text, str):
            return fingerprint(text, isa)
    return None


def compile_variant(req, fns=None):
    """Compiles one variant; returns (CompiledKernel, reply fields)."""
    import triton
    from triton.compiler import ASTSource
    fns = fns if fns is not None else load_jit_functions(req["source"])
    if req["kernel"] not in fns:
        raise KeyError("no @triton.jit function '%s' in %s" % (req["kernel"], req["source"]))
    fn = fns[req["kernel"]]
    constants = {k: constant(v) for k, v in (req.get("constants") or {}).items()}
    src = ASTSource(fn=fn, signature=dict(req["signature"]), constexprs=constants,
                    attrs=_attrs(req.get("attrs")))
    options = {"num_warps": int(req.get("num_warps", 4)),
               "num_stages": int(req.get("num_stages", 1)),
               "debug": False, "sanitize_overflow": False}
    options.update(req.get("options") or {})
    t0 = time.perf_counter()
    k = triton.compile(src, target=_target(req["target"]), options=options)
    ms = (time.perf_counter() - t0) * 1e3
    return k, {"compile_ms": round(ms, 3), "files": _write_stages(k, req),
               "metadata": metadata(k), "fingerprint": asm_fingerprint(k)}


def _write_stages(k, req):
    out = req.get("out_dir")
    files = {}
    if not out:
        return files
    os.makedirs(out, exist_ok=True)
    stages = dict(k.asm)
    # Triton's own metadata, as its cache keeps it: options, shared memory,
    # and the cache-invalidating environment (AMDGCN_USE_BUFFER_OPS ...).
    md = k.metadata._asdict() if hasattr(k.metadata, "_asdict") else {}
    stages["json"] = json.dumps(jsonable(md), indent=1, sort_keys=True) + "\n"
    for ext, data in stages.items():
        path = os.path.join(out, "%s.%s" % (req["kernel"], ext))
        mode = "wb" if isinstance(data, bytes) else "w"
        tmp = "%s.tmp%d" % (path, os.getpid())
        with open(tmp, mode) as f:
            f.write(data)
        os.replace(tmp, path)
        files[ext] = path
    return files


def metadata(k):
    md = k.metadata._asdict() if hasattr(k.metadata, "_asdict") else {}
    keep = ("name", "num_warps", "num_stages", "shared", "waves_per_eu", "arch",
            "matrix_instr_nonkdim", "global_scratch_size", "target")
    return {key: jsonable(md[key]) for key in keep if key in md}


def one_line(e):
    """The error on one line: its first line and its last two (Triton's
    CompilationError puts the kernel's source between them)."""
    text = "%s: %s" % (type(e).__name__, e)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and ln.strip() != "^"]
    if len(lines) > 3:
        lines = lines[:1] + lines[-2:]
    return " | ".join(lines)[:1000]


def traceback_tail(limit=2000):
    """The end of the current exception's traceback, for a reply's "traceback"."""
    return traceback.format_exc()[-limit:]


def compile_reply(req):
    """compile_variant as a reply: failures are a compile_error with their traceback."""
    try:
        _, fields = compile_variant(req)
    except Exception as e:  # every failure is a result, never fatal
        return {"status": "compile_error", "error": one_line(e), "traceback": traceback_tail()}
    fields["status"] = "ok"
    return fields
