"""`tko meta` checked against an independent reader of the same files.

Expected values come from Python's own parsers, never from tko: `ast.parse`
finds the kernels, decorators, parameters and tl.* calls, `ast.literal_eval`
reads every literal of triton_meta / inductor_meta / triton.Config, and
`tokenize` reads the comments of Inductor's wrapper modules. Each test then
compares `tko meta --json -` with that, field by field.

Files: every kernel module and wrapper module in the corpus's Inductor
cache (h200-run1), the hand-written corpus/scripts/amd_compile.py, and the
hand-written kernels in tests/data/meta/.
"""
import ast
import io
import json
import math
import os
import subprocess
import tokenize
from pathlib import Path

import pytest

TKO = os.environ["TKO"]
CORPUS = Path(os.environ.get("CORPUS", Path(__file__).resolve().parents[1] / "corpus"))
INDUCTOR = CORPUS / "h200-run1" / "cache" / "inductor"
AMD_COMPILE = CORPUS / "scripts" / "amd_compile.py"
DATA = Path(__file__).resolve().parents[1] / "data" / "meta"

# The triton.language calls the issue asks about, and where their mask goes
# positionally (triton.language's signatures: load(pointer, mask, other, ...),
# store(pointer, value, mask, ...), atomic_add(pointer, val, mask, ...)).
MASK_POS = {"load": 1, "store": 2}
ATOMICS = ["atomic_add", "atomic_and", "atomic_cas", "atomic_max", "atomic_min",
           "atomic_or", "atomic_xchg", "atomic_xor"]
for _a in ATOMICS:
    MASK_POS[_a] = None if _a == "atomic_cas" else 2
OTHER_OPS = ["assume", "multiple_of", "max_contiguous", "max_constancy", "where",
             "dot", "dot_scaled", "make_block_ptr", "make_tensor_descriptor"]
OPS = list(MASK_POS) + OTHER_OPS
JIT = {"triton.jit", "jit"}


def run_meta(*paths):
    out = subprocess.run([TKO, "meta", "--json", "-", *map(str, paths)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["schema_version"] == 1 and doc["tool"] == "tko meta"
    return doc


# --- an independent evaluator of decorator arguments -----------------------

class Call:
    def __init__(self, name, args, kwargs):
        self.name, self.args, self.kwargs = name, args, kwargs


class Name:
    def __init__(self, name):
        self.name = name


def pyval(node):
    """The value of a decorator argument: literal_eval for literals, Call/Name for the rest."""
    if isinstance(node, ast.Call):
        if ast.unparse(node.func) == "set" and not node.args and not node.keywords:
            return set()
        return Call(ast.unparse(node.func), [pyval(a) for a in node.args],
                    {k.arg: pyval(k.value) for k in node.keywords})
    if isinstance(node, (ast.Name, ast.Attribute)):
        return Name(ast.unparse(node))
    if isinstance(node, ast.Dict):
        return {pyval(k): pyval(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.List):
        return [pyval(e) for e in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(pyval(e) for e in node.elts)
    return ast.literal_eval(node)


def to_json(v):
    """The shape docs/json.md gives a Python value in tko's JSON."""
    if isinstance(v, Call):
        return {"$call": v.name, "args": [to_json(a) for a in v.args],
                "kwargs": {k: to_json(x) for k, x in v.kwargs.items()}}
    if isinstance(v, Name):
        return {"$name": v.name}
    if isinstance(v, dict):
        return {(k if isinstance(k, str) else repr(k)): to_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set)):
        return [to_json(x) for x in (sorted(v) if isinstance(v, set) else v)]
    return v


def same(a, b, where):
    """Deep equality with floats compared to 9 significant digits (tko writes 10)."""
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), where
        assert math.isclose(a, b, rel_tol=1e-9), f"{where}: {a} != {b}"
    elif isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), f"{where}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{where}: {a} != {b}"
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


# --- what ast says about one kernel ----------------------------------------

def dotted(node):
    return ast.unparse(node.func if isinstance(node, ast.Call) else node)


def tl_aliases(tree):
    names = {"tl", "triton.language"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.asname for a in node.names if a.name == "triton.language" and a.asname}
        elif isinstance(node, ast.ImportFrom) and node.module == "triton":
            names |= {a.asname or a.name for a in node.names if a.name == "language"}
    return names


def leftmost_name(node):
    while isinstance(node, ast.BinOp):
        node = node.left
    return node.id if isinstance(node, ast.Name) else None


def kw(call, name):
    return next((k.value for k in call.keywords if k.arg == name), None)


def kind_of(decorators):
    kind = "jit"
    for name in decorators:
        if "triton_heuristics." in name:
            return name.split("triton_heuristics.")[1]
        if name in ("triton.autotune", "autotune"):
            kind = "autotune"
    return kind


def expected_hints(configs, nargs):
    """{arg index: {hint: value}} from triton_meta['configs'][0], in all its formats."""
    hints = {}
    if not configs:
        return hints

    def add(i, name, value):
        if isinstance(i, int) and 0 <= i < nargs:
            hints.setdefault(i, {})
            hints[i][name] = max(value, hints[i].get(name, 0))

    cfg = configs[0]
    if isinstance(cfg, dict):
        for key, pairs in cfg.items():
            for name, value in pairs:
                add(key[0], name, value)
    elif isinstance(cfg, Call):
        old = {"divisible_by_16": ("tt.divisibility", 16), "divisible_by_8": ("tt.divisibility", 8),
               "equal_to_1": ("tt.equal_to_1", 1), "tt.divisibility": ("tt.divisibility", 16),
               "tt.equal_to": ("tt.equal_to_1", 1), "tt.pointer_range": ("tt.pointer_range", 32)}
        props = cfg.args[0]["arg_properties"] if cfg.args else cfg.kwargs
        for key, idx in props.items():
            if key in old:
                for i in idx:
                    add(i, *old[key])
    return hints


class Expected:
    """Everything tko meta reports about one kernel, computed from ast."""

    def __init__(self, fn, tree, source, offset):
        self.fn, self.offset = fn, offset
        self.aliases = tl_aliases(tree)
        self.source = source
        self.name = fn.name
        self.line = fn.lineno + offset
        self.decorators = [(dotted(d), d.lineno + offset) for d in fn.decorator_list]
        self.kind = kind_of([n for n, _ in self.decorators])
        self.calls = {dotted(d): d for d in fn.decorator_list if isinstance(d, ast.Call)}
        heur = next((d for n, d in self.calls.items() if "triton_heuristics." in n), None)
        self.heuristic = heur
        self.tm = pyval(kw(heur, "triton_meta")) if heur is not None and kw(heur, "triton_meta") else None
        self.im = pyval(kw(heur, "inductor_meta")) if heur is not None and kw(heur, "inductor_meta") else None
        self._args()
        self._uses()

    def _constexpr_annotation(self, text):
        return text == "constexpr" or any(text == a + ".constexpr" for a in self.aliases)

    def _args(self):
        params = self.fn.args.args
        defaults = [None] * (len(params) - len(self.fn.args.defaults)) + list(self.fn.args.defaults)
        self.args = []
        for p, d in zip(params, defaults):
            ann = ast.unparse(p.annotation) if p.annotation is not None else None
            self.args.append({"name": p.arg, "annotation": ann,
                              "default": ast.unparse(d) if d is not None else None,
                              "type": None, "constexpr": bool(ann and self._constexpr_annotation(ann)),
                              "constant": None})
        tm = self.tm or {}
        for key, typ in (tm.get("signature") or {}).items():
            a = self.args[key] if isinstance(key, int) else next(x for x in self.args if x["name"] == key)
            a["type"] = typ
            a["constexpr"] = a["constexpr"] or typ == "constexpr"
        for key, value in (tm.get("constants") or {}).items():
            a = self.args[key] if isinstance(key, int) else next(x for x in self.args if x["name"] == key)
            a["constexpr"], a["constant"] = True, to_json(value)
        self.hints_known = "configs" in tm
        hints = expected_hints(tm.get("configs"), len(self.args))
        for i, a in enumerate(self.args):
            a["hints"] = hints.get(i, {})

    def _roots(self):
        """Plain assignments `x = <name> ...` followed to a parameter, in source order."""
        params = {a["name"] for a in self.args}
        roots = {}
        assigns = [n for n in ast.walk(ast.Module(body=self.fn.body, type_ignores=[]))
                   if isinstance(n, (ast.Assign, ast.AnnAssign))]
        for n in sorted(assigns, key=lambda n: (n.lineno, n.col_offset)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if len(targets) != 1 or not isinstance(targets[0], ast.Name) or n.value is None:
                continue
            src = leftmost_name(n.value)
            root = roots.get(src, src if src in params else None)
            if root:
                roots[targets[0].id] = root
        return roots, params

    def _uses(self):
        roots, params = self._roots()
        calls = []
        for n in ast.walk(ast.Module(body=self.fn.body, type_ignores=[])):
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and ast.unparse(n.func.value) in self.aliases and n.func.attr in OPS):
                calls.append(n)
        calls.sort(key=lambda n: (n.lineno, n.col_offset))
        self.uses = []
        for a in self.args:
            a["loads"] = a["stores"] = a["atomics"] = 0
        for c in calls:
            op = c.func.attr
            use = {"op": "tl." + op, "line": c.lineno + self.offset, "base": None, "mask": None}
            if op in MASK_POS:
                ptr = kw(c, "pointer") or (c.args[0] if c.args else None)
                name = leftmost_name(ptr) if ptr is not None else None
                use["base"] = roots.get(name, name if name in params else None)
                pos = MASK_POS[op]
                mask = kw(c, "mask") or (c.args[pos] if pos is not None and len(c.args) > pos else None)
                if mask is not None and not (isinstance(mask, ast.Constant) and mask.value is None):
                    use["mask"] = ast.unparse(mask)
                counter = "loads" if op == "load" else "stores" if op == "store" else "atomics"
                for a in self.args:
                    if a["name"] == use["base"]:
                        a[counter] += 1
            self.uses.append(use)
        for a in self.args:
            if a["type"]:
                a["pointer"] = a["type"].startswith("*")
            elif a["constexpr"]:
                a["pointer"] = False
            elif a["loads"] or a["stores"] or a["atomics"]:
                a["pointer"] = True
            else:
                a["pointer"] = None

    def body_constexprs(self):
        out = []
        for n in ast.walk(ast.Module(body=self.fn.body, type_ignores=[])):
            if (isinstance(n, ast.AnnAssign) and n.value is not None
                    and self._constexpr_annotation(ast.unparse(n.annotation))):
                out.append({"name": n.target.id, "value": to_json(pyval(n.value)),
                            "line": n.lineno + self.offset})
        return sorted(out, key=lambda c: c["line"])


def kernels_in(source, offset=0):
    tree = ast.parse(source)
    fns = [n for n in ast.walk(tree)
           if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
           and any(dotted(d) in JIT for d in n.decorator_list)]
    return [Expected(f, tree, source, offset) for f in sorted(fns, key=lambda f: f.lineno)]


def normalize_expr(text):
    return ast.unparse(ast.parse(text, mode="eval").body)


def check_kernel(got, exp):
    where = f"{exp.name}@{exp.line}"
    assert got["name"] == exp.name and got["line"] == exp.line, where
    assert got["kind"] == exp.kind, where
    assert [(d["name"], d["line"]) for d in got["decorators"]] == exp.decorators, where
    assert got["signature_source"] == ("triton_meta" if exp.tm and "signature" in exp.tm else "def")
    assert len(got["args"]) == len(exp.args), where
    for i, (g, e) in enumerate(zip(got["args"], exp.args)):
        w = f"{where} arg {e['name']}"
        assert g["index"] == i and g["name"] == e["name"], w
        for field in ("type", "annotation", "default", "constexpr", "pointer",
                      "loads", "stores", "atomics"):
            assert g[field] == e[field], f"{w} {field}: {g[field]!r} != {e[field]!r}"
        assert g["hints"] == e["hints"], w
        same(g["constant"], e["constant"], w + " constant")
    assert got["pointer_args"] == [a["name"] for a in exp.args if a["pointer"]], where
    assert got["constexpr_args"] == [a["name"] for a in exp.args if a["constexpr"]], where
    assert got["hints_known"] == exp.hints_known, where
    if exp.hints_known:
        for hint in ("tt.divisibility", "tt.pointer_range"):
            want = [a["name"] for a in exp.args if a["pointer"] and hint not in a["hints"]]
            assert got["pointers_without"][hint] == want, f"{where} {hint}"
    else:
        assert got["pointers_without"] is None, where
    assert len(got["uses"]) == len(exp.uses), where
    for g, e in zip(got["uses"], exp.uses):
        w = f"{where} {e['op']} line {e['line']}"
        assert (g["op"], g["line"], g["base"]) == (e["op"], e["line"], e["base"]), w
        assert (g["mask"] is None) == (e["mask"] is None), w
        if e["mask"] is not None:
            assert normalize_expr(g["mask"]) == e["mask"], w
    counts = {op: 0 for op in ("tl." + o for o in OPS)}
    for e in exp.uses:
        counts[e["op"]] += 1
    assert got["counts"] == counts, where
    assert got["body_constexprs"] == exp.body_constexprs(), where
    check_metadata(got, exp, where)


def check_metadata(got, exp, where):
    if exp.tm is None:
        assert got["triton_meta"] is None and got["device"] is None, where
    else:
        same(got["triton_meta"], to_json(exp.tm), where + " triton_meta")
        dev = exp.tm.get("device")
        if isinstance(dev, Call):
            props = {k: to_json(v) for k, v in dev.kwargs.items()}
            cc = props.get("cc")
            arch = cc.split(":")[0] if isinstance(cc, str) else f"sm_{cc}" if cc is not None else None
            assert got["device"] == {"backend": props.get("type"), "arch": arch,
                                     "warp_size": props.get("warp_size"),
                                     "multi_processor_count": props.get("multi_processor_count"),
                                     "properties": props}, where
    if exp.im is None:
        assert got["inductor_meta"] is None, where
    else:
        same(got["inductor_meta"], to_json(exp.im), where + " inductor_meta")
        for key in ("kernel_name", "grid_type", "mutated_arg_names", "kernel_num_gb",
                    "num_load", "num_store", "num_reduction", "atomic_add_found", "origins"):
            same(got["inductor"][key], to_json(exp.im.get(key)), f"{where} inductor.{key}")
        assert got["kernel_name"] == exp.im.get("kernel_name"), where
    if exp.heuristic is not None:
        for key in ("size_hints", "num_warps", "num_stages"):
            node = kw(exp.heuristic, key)
            assert got["inductor"][key] == (to_json(pyval(node)) if node else None), where
        hint = kw(exp.heuristic, "reduction_hint")
        assert got["inductor"]["reduction_hint"] == (ast.unparse(hint) if hint else None), where


# --- the corpus -----------------------------------------------------------

def corpus_files():
    files = sorted(INDUCTOR.rglob("*.py"))
    assert len(files) > 50
    return files


def is_wrapper(tree):
    return any(isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
               and ast.unparse(n.value.func) == "async_compile.triton" for n in ast.walk(tree))


KERNEL_FILES = [f for f in corpus_files() if not is_wrapper(ast.parse(f.read_text()))]
WRAPPER_FILES = [f for f in corpus_files() if is_wrapper(ast.parse(f.read_text()))]


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: p.parent.name + "/" + p.name[:10])
def test_corpus_kernel_file(path):
    doc = run_meta(path)
    exp = kernels_in(path.read_text())
    assert exp, "every kernel file in the corpus holds a kernel"
    assert len(doc["kernels"]) == len(exp)
    for got, e in zip(doc["kernels"], exp):
        assert got["file"] == str(path) and got["embedded_at"] is None
        check_kernel(got, e)


def wrapper_blocks(path):
    """(name, assignment line, source string line, source) per async_compile.triton block."""
    tree = ast.parse(path.read_text())
    out = []
    for n in tree.body:
        if (isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                and ast.unparse(n.value.func) == "async_compile.triton"):
            name, code = (ast.literal_eval(a) for a in n.value.args[:2])
            out.append((name, n.lineno, n.value.args[1].lineno, code))
    return out


def comments_above(path, line):
    """The comment-only lines directly above `line`, read with tokenize."""
    comments = {}
    with open(path, "rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type == tokenize.COMMENT and tok.line.lstrip().startswith("#"):
                comments[tok.start[0]] = tok.string[1:]
    block = []
    while line - 1 in comments:
        line -= 1
        block.insert(0, comments[line])
    return block, line


def bracket(text):
    inner = text[text.index("[") + 1:text.index("]")]
    return [x.strip() for x in inner.split(",") if x.strip()]


def expected_aten(path, line):
    block, first = comments_above(path, line)
    aten = {"wrapper": str(path), "line": first, "kernel_path": None, "source_nodes": [],
            "original_aten": [], "node_mapping": {}, "aten_nodes": [], "graph_targets": []}
    section = None
    for c in block:
        s = c.strip()
        if s.startswith("kernel path:"):
            aten["kernel_path"] = s[len("kernel path:"):].strip()
        elif "Source Nodes:" in s and not c.startswith("  "):
            nodes, _, orig = s.partition("Original ATen:")
            aten["source_nodes"], aten["original_aten"] = bracket(nodes), bracket(orig)
        elif s == "Source node to ATen node mapping:":
            section = "map"
        elif s == "Graph fragment:":
            section = "graph"
        elif section == "map" and "=>" in s:
            node, _, targets = s.partition("=>")
            names = [t.strip() for t in targets.split(",")]
            aten["node_mapping"][node.strip()] = names
            aten["aten_nodes"] += [n for n in names if n not in aten["aten_nodes"]]
        elif section == "graph" and "call_function[target=" in s:
            t = s.split("call_function[target=")[1].split("]")[0]
            if t not in aten["graph_targets"]:
                aten["graph_targets"].append(t)
    return aten


def test_corpus_directory_links_wrappers_to_kernel_files():
    doc = run_meta(INDUCTOR)
    roles = {f["path"]: f["role"] for f in doc["files"]}
    assert sorted(roles) == [str(f) for f in corpus_files()]
    assert sorted(p for p, r in roles.items() if r == "wrapper") == [str(f) for f in WRAPPER_FILES]
    assert sorted(p for p, r in roles.items() if r == "kernel") == [str(f) for f in KERNEL_FILES]
    assert doc["errors"] == 0
    assert len(doc["kernels"]) == sum(len(kernels_in(f.read_text())) for f in KERNEL_FILES)
    blocks = [(w, b) for w in WRAPPER_FILES for b in wrapper_blocks(w)]
    assert [(x["wrapper"], x["name"], x["line"]) for x in doc["wrapped"]] == \
        [(str(w), b[0], b[1]) for w, b in blocks]
    by_file = {k["file"]: k for k in doc["kernels"]}
    attributed = 0
    for (w, (name, line, _, _)), got in zip(blocks, doc["wrapped"]):
        aten = expected_aten(w, line)
        assert got["kernel_path"] == aten["kernel_path"]
        tail = aten["kernel_path"].split("/")[-2:]
        assert got["resolved"] == str(INDUCTOR / tail[0] / tail[1])
        k = by_file[got["resolved"]]
        assert k["aten"] == aten, f"{name} from {w}"
        attributed += 1
    assert attributed == len(blocks) == len([k for k in doc["kernels"] if k["aten"]])


@pytest.mark.parametrize("path", WRAPPER_FILES, ids=lambda p: p.parent.name)
def test_corpus_wrapper_alone_reports_embedded_kernels(path):
    doc = run_meta(path)
    blocks = wrapper_blocks(path)
    got = iter(doc["kernels"])
    for name, line, src_line, code in blocks:
        for e in kernels_in(code, offset=src_line - 1):
            k = next(got)
            assert k["file"] == str(path) and k["embedded_at"] == src_line
            check_kernel(k, e)
            assert k["aten"] == expected_aten(path, line)
    assert next(got, None) is None


# --- hand-written kernels -----------------------------------------------

def test_amd_compile_hand_written_kernels():
    doc = run_meta(AMD_COMPILE)
    exp = kernels_in(AMD_COMPILE.read_text())
    assert [k["name"] for k in doc["kernels"]] == [e.name for e in exp] == ["add_scale", "add_scale_hint"]
    for got, e in zip(doc["kernels"], exp):
        check_kernel(got, e)
        assert got["kind"] == "jit" and got["device"] is None and not got["hints_known"]
    hint = doc["kernels"][1]
    # Counted by hand in the file: two tl.assume calls, one tl.multiple_of.
    assert [(u["op"], u["line"]) for u in hint["uses"] if u["op"] != "tl.load" and u["op"] != "tl.store"] == \
        [("tl.assume", 21), ("tl.assume", 22), ("tl.multiple_of", 24)]
    assert hint["pointer_args"] == ["x_ptr", "y_ptr", "o_ptr"]


@pytest.mark.parametrize("name", ["autotune_kernels.py", "hip_pointwise.py", "old_attrs.py"])
def test_hand_written_files(name):
    path = DATA / name
    doc = run_meta(path)
    exp = kernels_in(path.read_text())
    assert len(doc["kernels"]) == len(exp)
    for got, e in zip(doc["kernels"], exp):
        check_kernel(got, e)
        check_autotune(got, e)


def check_autotune(got, exp):
    at = exp.calls.get("triton.autotune")
    if at is None:
        assert got["autotune"] is None
    else:
        cfgs = kw(at, "configs")
        if isinstance(cfgs, ast.List):
            want = []
            for c in cfgs.elts:
                params = ["kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg", "pre_hook"]
                d = dict(zip(params, (to_json(pyval(a)) for a in c.args)))
                d.update({k.arg: to_json(pyval(k.value)) for k in c.keywords})
                want.append(d)
            assert got["autotune"]["configs"] == want
        else:
            assert got["autotune"]["configs"] is None
            assert got["autotune"]["configs_expr"] == ast.unparse(cfgs)
        assert got["autotune"]["key"] == to_json(pyval(kw(at, "key")))
        assert got["autotune"]["other"] == {k.arg: to_json(pyval(k.value)) for k in at.keywords
                                            if k.arg not in ("configs", "key")}
    heur = exp.calls.get("triton.heuristics")
    if heur is None:
        assert got["heuristics"] is None
    else:
        values = heur.args[0]
        assert got["heuristics"] == [
            {"name": ast.literal_eval(k), "expr": ast.get_source_segment(exp.source, v)}
            for k, v in zip(values.keys, values.values)]
    jit = exp.calls.get("triton.jit")
    assert got["jit_options"] == ({k.arg: to_json(pyval(k.value)) for k in jit.keywords} if jit else {})


def test_hand_written_specifics():
    """A few facts about tests/data/meta read by eye, so the comparison itself is checked."""
    doc = run_meta(DATA / "autotune_kernels.py", DATA / "hip_pointwise.py")
    k = {x["name"]: x for x in doc["kernels"]}
    assert sorted(k) == ["_load_scaled", "matmul_splitk", "scaled_copy", "triton_poi_fused_add_mul_0"]
    mm = k["matmul_splitk"]
    assert mm["kind"] == "autotune" and len(mm["autotune"]["configs"]) == 3
    assert mm["autotune"]["configs"][2] == {"kwargs": {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 64},
                                            "num_warps": 2, "num_stages": 4}
    assert [u["base"] for u in mm["uses"] if u["op"] == "tl.load"] == ["a_ptr", "b_ptr", "a_ptr", "b_ptr"]
    assert [u["line"] for u in mm["uses"] if u["op"] == "tl.atomic_add"] == [72]
    sc = k["scaled_copy"]
    assert sc["jit_options"] == {"do_not_specialize": ["n_elements"]}
    assert sc["autotune"]["configs_expr"] == "configs()"
    assert [u["op"] for u in sc["uses"]] == ["tl.store", "tl.atomic_max", "tl.atomic_cas", "tl.store"]
    hip = k["triton_poi_fused_add_mul_0"]
    assert hip["device"]["backend"] == "hip" and hip["device"]["arch"] == "gfx936"
    assert hip["device"]["warp_size"] == 64
    assert hip["pointers_without"] == {"tt.divisibility": [], "tt.pointer_range": ["in_ptr1"]}
