"""Inductor's lookup keys for a kernel, computed from its module text.

torch 2.11 (commit 70d99e998b49, torch/_inductor/runtime/triton_heuristics.py
:118-143) overrides a kernel's configs with
config.autotune_lookup_table[generate_lookup_hash_from_source_code(
str(size_hints), fn.src)] when "_fused_" is in fn.src, keeping only the
entry's keys that contain "BLOCK", num_warps and num_stages. fn.src is
Triton 3.6's JITFunction.src (python/triton/runtime/jit.py:461-470): the
function's lines from inspect.getsourcelines, dedented, starting at
`def <name>(`. docs/apply.md has the details; the C side computes the same
key from a kernel.py and must agree with lookup_hash_of_module() here.

Only the standard library is used: the apply hook, the plain loader and the
tests run it without torch.
"""

import hashlib
import io
import re
import textwrap

# triton_heuristics.py:117: the name is cut so that the key is name-agnostic.
_NAME = re.compile(r"^def [^(]+\(")
# async_compile.py:77-79: how the parent process finds size_hints in a module.
_SIZE_HINTS = re.compile(r"size_hints=(\{.*?\})")
# Keys that Inductor's lookup keeps besides num_warps and num_stages.
_LOOKUP_KEEPS = "BLOCK"
# On HIP, Inductor passes these through Config.kwargs (triton_heuristics.py:746-751).
HIP_CONFIG_KEYS = ("waves_per_eu", "matrix_instr_nonkdim", "kpack")


def lookup_hash(size_hints_str, src):
    """generate_lookup_hash_from_source_code(size_hints_str, src), torch 2.11."""
    stripped = _NAME.sub("(", src.strip(), count=1)
    return hashlib.sha256((size_hints_str + stripped).encode("utf-8")).hexdigest()


def size_hints_text(module_text):
    """The size_hints literal of a kernel module as str(size_hints) prints it
    (Inductor writes the dict's repr), or "None" for kernels without one
    (templates, user kernels)."""
    m = _SIZE_HINTS.search(module_text)
    return m.group(1) if m else "None"


def function_source(module_text, name):
    """What Triton's JITFunction.src holds for the module-level function
    `name`: from `def name(` to the last line of its body, or None.

    inspect.getsourcelines ends a function where its indented block ends: the
    first later line that starts at column 0 (another def, the benchmark
    harness Inductor appends with benchmark_kernel) closes it; trailing blank
    lines and comments less indented than the body are not part of it.
    """
    # linecache's lines: universal newlines, a newline added to the last line.
    lines = io.StringIO(module_text, newline=None).readlines()
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    start = None
    pattern = re.compile(r"def\s+" + re.escape(name) + r"\s*\(")
    for i, line in enumerate(lines):
        if pattern.match(line):
            start = i
            break
    if start is None:
        return None
    end, body_col, open_brackets = start + 1, None, _bracket_depth(lines[start])
    for i in range(start + 1, len(lines)):
        line = lines[i]
        text = line.strip()
        if open_brackets > 0:          # the signature goes on over several lines
            open_brackets += _bracket_depth(line)
            end = i + 1
            continue
        if not text:
            continue
        col = len(line) - len(line.lstrip())
        if col == 0:
            break
        if text.startswith("#") and (body_col is None or col < body_col):
            continue
        if body_col is None and not text.startswith("#"):
            body_col = col
        end = i + 1
    # JITFunction dedents the lines, which also empties whitespace-only lines.
    return textwrap.dedent("".join(lines[start:end]))


def _bracket_depth(line):
    code = line.split("#", 1)[0]
    return sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")


def lookup_hash_of_module(module_text, name):
    """The autotune_lookup_table key of kernel `name` in a module's text, or
    None when the module does not define it."""
    src = function_source(module_text, name)
    if src is None:
        return None
    return lookup_hash(size_hints_text(module_text), src)


def consults_lookup(src):
    """Whether torch 2.11 consults autotune_lookup_table for this fn.src."""
    return "_fused_" in src


def table_entry(config):
    """The autotune_lookup_table value for a winner config {"kwargs",
    "num_warps", "num_stages", "options"}: its BLOCK keys, num_warps and
    num_stages (what Inductor keeps). Check dropped_keys() first."""
    entry = {k: v for k, v in (config.get("kwargs") or {}).items() if _LOOKUP_KEEPS in k}
    entry["num_warps"] = config.get("num_warps")
    entry["num_stages"] = config.get("num_stages")
    return entry


# What reaches the compiled kernel through each way into Inductor, torch 2.11:
# the lookup table keeps BLOCK keys (triton_heuristics.py:136); a Config in
# CachingAutotuner.configs passes its kwargs as constants except, on HIP,
# waves_per_eu and matrix_instr_nonkdim, which become compile options, and
# kpack, which is popped and then never passed (:746-751, :816-821); neither
# passes num_ctas or maxnreg (:779-826). Triton's own Autotuner passes all
# of Config.all_kwargs() to the JIT (autotuner.py:250-254, 341-353).
def dropped_keys(mechanism, config, backend):
    """Names of the winner's settings that `mechanism` cannot carry on
    `backend`; empty when the kernel would run exactly the winner."""
    kwargs = dict(config.get("kwargs") or {})
    options = {k: v for k, v in (config.get("options") or {}).items() if v is not None}
    extra = [f for f in ("num_ctas", "maxnreg") if config.get(f) not in (None, 1) and
             not (f == "maxnreg" and not config.get(f))]
    if mechanism == "autotune_narrow":
        return []
    if mechanism == "lookup_table":
        dropped = [k for k in kwargs if _LOOKUP_KEEPS not in k] + list(options)
    elif mechanism in ("hook", "launch", "best_config"):
        passed = ("waves_per_eu", "matrix_instr_nonkdim") if backend == "hip" else ()
        dropped = [k for k in options if k not in passed]
        if backend == "hip":
            dropped += [k for k in kwargs if k == "kpack"]
    elif mechanism == "template_lookup":
        passed = HIP_CONFIG_KEYS if backend == "hip" else ()
        dropped = [k for k in options if k not in passed]
    else:
        raise ValueError(f"unknown mechanism {mechanism!r}")
    if config.get("num_warps") is None:
        dropped.append("num_warps")
    if config.get("num_stages") is None:
        dropped.append("num_stages")
    return sorted(set(dropped + extra))


def config_kwargs(config, backend):
    """The Config.kwargs Inductor would hold for a winner: its constexprs, and
    on HIP the options Inductor passes through kwargs (waves_per_eu,
    matrix_instr_nonkdim, kpack)."""
    kwargs = dict(config.get("kwargs") or {})
    if backend == "hip":
        for key in HIP_CONFIG_KEYS:
            value = (config.get("options") or {}).get(key)
            if value is not None:
                kwargs[key] = value
    return kwargs


def same_config(kwargs, num_warps, num_stages, winner_kwargs, winner):
    """Whether a launched config (its kwargs, num_warps, num_stages) is the winner."""
    return (dict(kwargs or {}) == dict(winner_kwargs)
            and num_warps == winner.get("num_warps")
            and num_stages == winner.get("num_stages"))
