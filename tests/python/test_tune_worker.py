"""tko tune's Python worker: the JSON-lines protocol (real process, real
Triton, no GPU) and the bench logic (timing, restoring, comparing) with a
CPU stand-in for torch. Expected values come from the kernel sources
themselves, read with regular expressions."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKER = os.path.join(ROOT, "python", "tko", "tune_worker.py")
CORPUS = os.environ.get("CORPUS", os.path.join(ROOT, "tests", "corpus"))
USER = os.path.join(CORPUS, "scripts", "amd_compile.py")

sys.path.insert(0, os.path.dirname(WORKER))
import tune_bench  # noqa: E402
import tune_worker  # noqa: E402


def talk(lines):
    """Runs the worker on raw request lines; returns its replies."""
    p = subprocess.run([sys.executable, WORKER], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return [json.loads(x) for x in p.stdout.splitlines()]


def req(**kw):
    return json.dumps(kw)


def test_hello_and_errors_keep_the_worker_alive():
    reps = talk([req(op="hello", id="h"), "{not json", req(op="frob", id="f"),
                 req(op="hello", id="h2")])
    assert [r["id"] for r in reps] == ["h", None, "f", "h2"]
    assert reps[0]["status"] == "ok" and reps[0]["protocol"] == 1
    import triton
    assert reps[0]["triton"] == triton.__version__
    assert reps[1]["status"] == "error" and "bad request" in reps[1]["error"]
    assert reps[2]["status"] == "error" and "unknown op" in reps[2]["error"]
    assert reps[3]["status"] == "ok"


ADD_SCALE = dict(source=USER, kernel="add_scale",
                 signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "o_ptr": "*fp32",
                            "n": "i32", "scale": "fp32", "BLOCK": "constexpr"},
                 constants={"BLOCK": 1024},
                 attrs={"0": [["tt.divisibility", 16]], "1": [["tt.divisibility", 16]],
                        "2": [["tt.divisibility", 16]], "3": [["tt.divisibility", 16]]},
                 num_warps=4, num_stages=1,
                 target={"backend": "hip", "arch": "gfx942", "warp_size": 64})


def test_compile_writes_every_stage(tmp_path):
    rep = talk([req(op="compile", id="c", out_dir=str(tmp_path), **ADD_SCALE)])[0]
    assert rep["status"] == "ok", rep
    assert set(rep["files"]) >= {"ttir", "ttgir", "llir", "amdgcn", "hsaco", "json"}
    asm = open(rep["files"]["amdgcn"]).read()
    assert '.amdgcn_target "amdgcn-amd-amdhsa--gfx942' in asm
    md = json.load(open(rep["files"]["json"]))
    assert md["num_warps"] == 4 and md["target"]["arch"] == "gfx942"


def test_compile_failures_are_results(tmp_path):
    bad = dict(ADD_SCALE, kernel="nope")
    worse = dict(ADD_SCALE, constants={"BLOCK": 1000})  # tl.arange needs a power of 2
    reps = talk([req(op="compile", id="a", out_dir=str(tmp_path), **bad),
                 req(op="compile", id="b", out_dir=str(tmp_path), **worse),
                 req(op="hello", id="c")])
    assert reps[0]["status"] == "compile_error" and "no @triton.jit function 'nope'" in reps[0]["error"]
    assert reps[1]["status"] == "compile_error" and "\n" not in reps[1]["error"]
    assert reps[2]["status"] == "ok"


# ---- the bench logic, with a CPU stand-in for torch ------------------------

class T(list):
    """A 'tensor': a list with a dtype."""
    dtype = "float32"


class FakeOps:
    def __init__(self, times):
        self.times = list(times)
        self.restores = 0
        self.flushes = 0

    def input_sets(self, req):
        captured = [T([1.0, 2.0, 3.0]), T([0.0, 0.0, 0.0]), 3]
        random = [T([500.0, -7.0, 0.5]), T([9.0, 9.0, 9.0]), 3]
        return [("captured", captured), ("random", random)]

    def clone(self, t):
        return T(t) if isinstance(t, list) else t

    def copy_(self, dst, src):
        self.restores += 1
        dst[:] = src

    def synchronize(self):
        pass

    def flush_cache(self):
        self.flushes += 1

    def time_one(self, launch):
        launch()
        return self.times.pop(0) if self.times else 1.0

    def dtype_name(self, t):
        return t.dtype

    def allclose(self, a, b, rtol, atol):
        return all(abs(x - y) <= atol + rtol * abs(y) for x, y in zip(a, b))

    def max_abs_err(self, a, b):
        return max(abs(x - y) for x, y in zip(a, b))

    def save(self, outputs, path):
        with open(path, "w") as f:
            json.dump({n: {str(i): list(t) for i, t in o.items()} for n, o in outputs.items()}, f)

    def load(self, path):
        with open(path) as f:
            return {n: {int(i): T(t) for i, t in o.items()} for n, o in json.load(f).items()}


def double(args):
    args[1][:] = [2 * x for x in args[0]]


def doubling(order, name):
    # double() as variant `name`, noting each launch in `order`
    def launch(args):
        order.append(name)
        double(args)
    return launch


def double_small_only(args):
    # right on the captured inputs, wrong once an input exceeds 100
    args[1][:] = [2 * x if x < 100 else 0.0 for x in args[0]]


def accumulate(args):
    # an in-place kernel (index_add-like): wrong unless restored each time
    args[1][:] = [o + x for o, x in zip(args[1], args[0])]


BASE = dict(reference="v000", mutated=[1], outputs=[1], reps=5, warmup=2,
            tolerances={"float32": [1e-4, 1e-5]})


def test_bench_times_median_and_restores_every_rep():
    ops = FakeOps([3.0, 1.0, 2.0, 9.0, 0.5])
    out = tune_worker.Bench(ops).run(dict(BASE, is_reference=True), double)
    assert out["status"] == "ok"
    assert out["times_ms"] == [3.0, 1.0, 2.0, 9.0, 0.5]
    assert out["time_ms"] == 2.0
    # per input set: one restore before the checked launch, one per warmup
    # and timed rep (captured set only), one at the end
    assert ops.restores == (1 + 2 + 5 + 1) + (1 + 1)
    assert ops.flushes == 5


def test_a_variant_wrong_on_random_inputs_is_wrong():
    bench = tune_worker.Bench(FakeOps([]))
    assert bench.run(dict(BASE, is_reference=True), double)["status"] == "ok"
    out = bench.run(dict(BASE, is_reference=False), double_small_only)
    assert out["status"] == "wrong"
    by = {c["inputs"]: c for c in out["checks"]}
    assert by["captured"]["ok"] is True and by["random"]["ok"] is False
    assert by["random"]["outputs"][0]["max_abs_err"] == 1000.0
    assert bench.run(dict(BASE, is_reference=False), double)["status"] == "ok"


def test_in_place_outputs_are_compared_after_a_restored_launch():
    bench = tune_worker.Bench(FakeOps([]))
    assert bench.run(dict(BASE, is_reference=True), accumulate)["status"] == "ok"
    # the same kernel again: equal, because every run starts from the
    # pristine output, not from what the timing reps left behind
    assert bench.run(dict(BASE, is_reference=False), accumulate)["status"] == "ok"


def test_a_new_worker_reads_the_saved_reference(tmp_path):
    ref = str(tmp_path / "reference")
    first = tune_worker.Bench(FakeOps([]))
    assert first.run(dict(BASE, is_reference=True, reference_file=ref), double)["status"] == "ok"
    # another process (a restart, another environment): only the file is shared
    second = tune_worker.Bench(FakeOps([]))
    assert second.run(dict(BASE, reference_file=ref), double_small_only)["status"] == "wrong"
    assert second.run(dict(BASE, reference_file=ref), double)["status"] == "ok"


class SplitOps(FakeOps):
    """Inputs of a mix-order reduction: 8 rows of one column, a workspace
    of one partial per program (2 programs of the base's 4 rows)."""

    def input_sets(self, req):
        return [("captured", [T([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]), T([0.0, 0.0]), 8])]

    def zeros_numel(self, like, numel):
        return T([0.0] * numel)

    def max_abs(self, t):
        return max(abs(x) for x in t)

    def partial_totals(self, t, partials, row):
        n = len(t) // (partials * row)
        return T([sum(t[(p * n + i) * row + c] for i in range(n))
                  for p in range(partials) for c in range(row)])


def split_sum(rows, drop_last=False):
    """A kernel whose programs sum `rows` rows each into their workspace row."""
    def run(args):
        x, ws = args[0], args[1]
        assert len(ws) == len(x) // rows, "the workspace was not sized for the split"
        for i in range(len(ws) - (1 if drop_last else 0)):
            ws[i] = sum(x[i * rows:(i + 1) * rows])
    return run


def test_a_workspace_is_resized_for_its_split_and_compared_after_the_sum():
    base = dict(BASE, mutated=[1], outputs=[1],
                workspace={"arg": 1, "numel": 2, "partials": 1, "row": 1})
    bench = tune_worker.Bench(SplitOps([]))
    assert bench.run(dict(base, is_reference=True), split_sum(4))["status"] == "ok"
    # 4 programs of 2 rows: another workspace (4 partials), the same total 36
    four = dict(base, workspace=dict(base["workspace"], numel=4))
    out = bench.run(four, split_sum(2))
    assert out["status"] == "ok", out
    # a split that loses its last program's rows sums to 36 - 15
    out = bench.run(four, split_sum(2, drop_last=True))
    assert out["status"] == "wrong"
    assert out["checks"][0]["outputs"][0]["max_abs_err"] == 15.0


def test_workspace_totals_allow_the_rounding_of_a_reordered_sum():
    # a column whose total is near zero, summed in another order: 4.6e-5 off
    # (as the H200 showed for a norm backward's random inputs), within 1e-4
    # of the largest total but not of its own value
    ws = {"arg": 0, "numel": 2, "partials": 1, "row": 2}
    tol = {"float32": [1e-4, 1e-5]}
    ops = SplitOps([])
    want = {0: T([90.0, 0.0])}
    near = {0: T([90.0, 4.6e-5])}
    lost = {0: T([80.0, 4.6e-5])}
    assert tune_bench.check_outputs(ops, near, want, tol, ws)[0]["ok"] is True
    assert tune_bench.check_outputs(ops, near, want, tol)[0]["ok"] is False
    assert tune_bench.check_outputs(ops, lost, want, tol, ws)[0]["ok"] is False


def test_no_reference_is_an_error():
    out = tune_worker.Bench(FakeOps([])).run(dict(BASE, is_reference=False), double)
    assert out["status"] == "error" and "no reference" in out["error"]


def test_inductor_modules_are_not_imported(tmp_path):
    # A module whose top level would fail (as set_driver_to_gpu() does on a
    # GPU-less host) still yields its @triton.jit function.
    src = tmp_path / "k.py"
    src.write_text("import triton\nimport triton.language as tl\n"
                   "raise RuntimeError('Could not find an active GPU backend')\n\n"
                   "@triton.jit\ndef k(x_ptr, XBLOCK: tl.constexpr):\n"
                   "    tl.store(x_ptr + tl.arange(0, XBLOCK), 1.0)\n")
    fns = tune_worker.load_jit_functions(str(src))
    assert list(fns) == ["k"]
    assert fns["k"].arg_names == ["x_ptr", "XBLOCK"]


# ---- the GPU's arch, fingerprints, duplicates, the compile processes ------

class Props:
    """torch.cuda.get_device_properties() as torch 2.11 fills it."""

    def __init__(self, name, major, minor, gcn):
        self.name, self.major, self.minor, self.gcnArchName = name, major, minor, gcn
        self.multi_processor_count, self.warp_size = 132, 32


def test_gpu_facts_are_raw():
    # torch on CUDA puts the marketing name in gcnArchName: the first H200
    # run sent it to tko as the arch. gpu.py reports it as it is, with the
    # capability beside it; tko decides (src/target/target.c, test-target.c).
    import gpu
    h200 = gpu.facts(Props("NVIDIA H200", 9, 0, "NVIDIA H200"), None)
    assert h200 == {"name": "NVIDIA H200", "backend": "cuda", "gcn_arch_name": "NVIDIA H200",
                    "capability": [9, 0], "warp_size": 32, "multiprocessor_count": 132}
    mi300 = gpu.facts(Props("AMD Instinct MI300X", 9, 4, "gfx942:sramecc+:xnack-"), "6.3.42131")
    assert mi300["backend"] == "hip" and mi300["gcn_arch_name"] == "gfx942:sramecc+:xnack-"
    assert "arch" not in mi300
    assert gpu.facts(Props("x", 9, 4, ""), "6.3")["gcn_arch_name"] is None


def test_hello_names_the_bundled_tools_and_compile_processes():
    rep = talk([req(op="hello", id="h")])[0]
    import triton
    # the wheel's own copy, where Triton 3.3 keeps it and 3.5/3.6's knobs find it
    bundled = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    assert os.path.realpath(rep["tools"]["cuobjdump"]) == os.path.realpath(bundled)
    assert rep["jobs"] >= 1
    assert "nvidia" in rep["backends"] and "amd" in rep["backends"]


PTX = os.path.join(CORPUS, "h200-run1", "cache", "triton")


def _ptx_files():
    out = []
    for d in sorted(os.listdir(PTX)):
        for f in sorted(os.listdir(os.path.join(PTX, d))):
            if f.endswith(".ptx"):
                out.append(os.path.join(PTX, d, f))
    return out


def test_fingerprint_ignores_line_info_only():
    import tune_compile
    files = _ptx_files()
    text = open(files[0]).read()
    # the same code with every source line moved down by 2 (a hint inserted above)
    moved = re.sub(r"(\.loc\s+\d+ )(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + 2), text)
    moved = moved.replace(".file\t1", ".file\t1 \"/elsewhere/kernel.py\" //")
    assert moved != text
    assert tune_compile.fingerprint(moved, "ptx") == tune_compile.fingerprint(text, "ptx")
    # one instruction changed: another fingerprint
    body = re.search(r"^\s+(\S* ?(ld|st)\.global[^\n]*)$", text, re.M)
    assert body is not None
    changed = text.replace(body.group(1), body.group(1).replace(".global", ".global.cs", 1), 1)
    assert tune_compile.fingerprint(changed, "ptx") != tune_compile.fingerprint(text, "ptx")
    # distinct kernels of the corpus: distinct fingerprints
    prints = {tune_compile.fingerprint(open(f).read(), "ptx") for f in files}
    # (compared here without debug sections, line directives, their labels and comments)
    def bare(t):
        t = re.sub(r"^\s*\.(loc|file)\b.*$|^\$L__\w+:$|//.*$", "",
                   t.split("\t.section\t.debug")[0], flags=re.M)
        return re.sub(r"\s+", "", t)
    texts = {bare(open(f).read()) for f in files}
    assert len(prints) == len(texts) > 20


def test_a_variant_with_a_known_isa_is_not_timed(tmp_path):
    # no GPU here: the duplicate answer comes before any launch
    first = talk([req(op="compile", id="c", out_dir=str(tmp_path / "a"), **ADD_SCALE)])[0]
    assert first["status"] == "ok" and first["fingerprint"]
    bench = dict(ADD_SCALE, out_dir=str(tmp_path / "b"), grid=[1, 1, 1],
                 known={first["fingerprint"]: "v000"})
    rep = talk([req(op="bench", id="b", **bench)])[0]
    assert rep["status"] == "duplicate" and rep["same_as"] == "v000"
    assert os.path.exists(rep["files"]["amdgcn"])


def test_a_request_without_a_grid_is_refused_before_launch():
    rep = talk([req(op="bench", id="b", grid_error="grid type 'X' is not one tko tune computes",
                    **ADD_SCALE)])[0]
    assert rep["status"] == "error" and "no launch grid" in rep["error"]


def test_errors_carry_their_traceback():
    rep = talk([req(op="copy_bandwidth", id="b", bytes="many")])[0]
    assert rep["status"] == "error"
    assert "ValueError" in rep["error"]
    assert "Traceback" in rep["traceback"] and "op_copy_bandwidth" in rep["traceback"]


def test_describe_is_gone():
    # tko reads kernels in C (parse/triton_meta.c); the worker no longer does.
    rep = talk([req(op="describe", id="d", source=USER)])[0]
    assert rep["status"] == "error" and "unknown op" in rep["error"]


def test_precompiled_variants_compile_in_other_processes(tmp_path):
    env = dict(os.environ, TKO_TUNE_JOBS="2")
    reqs = [dict(ADD_SCALE, out_dir=str(tmp_path / ("v%d" % i)),
                 constants={"BLOCK": b}) for i, b in enumerate((256, 1024))]
    lines = [req(op="hello", id="h"), req(op="precompile", id="p", requests=reqs)]
    lines += [req(op="compile", id="c%d" % i, **r) for i, r in enumerate(reqs)]
    p = subprocess.run([sys.executable, WORKER], input="\n".join(lines) + "\n", env=env,
                       capture_output=True, text=True, timeout=300)
    reps = [json.loads(x) for x in p.stdout.splitlines()]
    assert reps[0]["jobs"] == 2
    assert reps[1]["status"] == "ok" and reps[1]["queued"] == 2
    for r, q in zip(reps[2:], reqs):
        assert r["status"] == "ok", r
        md = json.load(open(r["files"]["json"]))
        assert md["num_warps"] == 4 and os.path.dirname(r["files"]["amdgcn"]) == q["out_dir"]
    # different block sizes, different code
    assert reps[2]["fingerprint"] != reps[3]["fingerprint"]


def test_one_worker_keeps_each_sweeps_reference_apart(tmp_path):
    bench = tune_worker.Bench(FakeOps([]))
    a, b = str(tmp_path / "a.ref"), str(tmp_path / "b.ref")
    assert bench.run(dict(BASE, is_reference=True, reference_file=a), double)["status"] == "ok"
    # the next kernel's base is also "v000": its own reference
    assert bench.run(dict(BASE, is_reference=True, reference_file=b),
                     double_small_only)["status"] == "ok"
    assert bench.run(dict(BASE, reference_file=b), double_small_only)["status"] == "ok"
    assert bench.run(dict(BASE, reference_file=a), double_small_only)["status"] == "wrong"


class BatchOps(FakeOps):
    """A FakeOps that times repetitions in batches, as TorchOps does."""

    def __init__(self, ms):
        super().__init__([])
        self.ms = ms
        self.batches = []

    def time_reps(self, launch, restore, n, flush=True):
        self.batches.append(n)
        for _ in range(n):
            restore()
            if flush:
                self.flush_cache()
            launch()
        return [self.ms] * n


def test_short_kernels_get_more_repetitions():
    # 30 ms of timed work: 0.2 ms is 150 repetitions, 0.05 ms 600, capped at
    # 300; 1 ms would be 30, below the requested 50
    for ms, want in ((0.2, 150), (0.05, 300), (1.0, 50)):
        ops = BatchOps(ms)
        out = tune_worker.Bench(ops).run(dict(BASE, reps=50, is_reference=True), double)
        assert len(out["times_ms"]) == want, (ms, ops.batches)
        assert ops.batches[0] == 10 and ops.flushes == want


def test_a_reply_that_cannot_be_json_is_an_error_reply():
    line = tune_worker._encode({"id": "v1", "op": "bench", "status": "ok", "time_ms": float("nan")})
    rep = json.loads(line)
    assert rep["id"] == "v1" and rep["status"] == "error" and "unencodable" in rep["error"]


def test_what_children_and_c_code_print_stays_out_of_the_replies():
    # ptxas and the compile processes inherit descriptor 1, not sys.stdout:
    # a request whose handling writes there, from C and from a child process
    prog = (
        "import os, sys\n"
        "sys.path.insert(0, %r)\n"
        "import tune_worker\n"
        "real = tune_worker.handle\n"
        "def noisy(req):\n"
        "    os.write(1, b'ptxas fatal : from C\\n')\n"
        "    os.system('echo from a child process')\n"
        "    print('from print')\n"
        "    return real(req)\n"
        "tune_worker.handle = noisy\n"
        "sys.exit(tune_worker.main())\n" % os.path.dirname(WORKER))
    p = subprocess.run([sys.executable, "-c", prog],
                       input=req(op="hello", id="a") + "\n" + req(op="frob", id="b") + "\n",
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    reps = [json.loads(x) for x in p.stdout.splitlines()]
    assert [r["id"] for r in reps] == ["a", "b"]
    for said in ("ptxas fatal : from C", "from a child process", "from print"):
        assert p.stderr.count(said) == 2


def test_confirm_rounds_take_turns_and_time_each_turn_like_a_bench():
    # three rounds of two variants, one timed repetition each, no warm-up:
    # the fake's times are handed out in launch order, so the order of the
    # turns (A B, B A, A B) decides which time each variant gets
    ops = FakeOps([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    order = []
    reqs = [dict(BASE, id=n, reps=1, warmup=0) for n in ("A", "B")]
    variants = [(reqs[0], doubling(order, "A")), (reqs[1], doubling(order, "B"))]
    out = tune_bench.confirm_rounds(ops, variants, 3)
    assert order == ["A", "B", "B", "A", "A", "B"]
    assert out == [[1.0, 4.0, 5.0], [2.0, 3.0, 6.0]]
    # every timed launch restored and flushed first, plus one restore after each turn
    assert ops.flushes == 6
    assert ops.restores == 6 + 6


def test_confirm_rounds_offset_starts_with_another_variant():
    # one round with offset 1 (tko asks one round at a time of each worker
    # environment): the second variant goes first
    ops = FakeOps([7.0, 8.0])
    order = []
    reqs = [dict(BASE, id=n, reps=1, warmup=0) for n in ("A", "B")]
    out = tune_bench.confirm_rounds(ops, [(reqs[0], lambda a: order.append("A")),
                                          (reqs[1], lambda a: order.append("B"))], 1, offset=1)
    assert order == ["B", "A"]
    assert out == [[8.0], [7.0]]


def test_confirm_rounds_warm_times_each_turn_again_without_a_flush():
    # two rounds of two variants, one repetition each, no warm-up: the
    # fake's times go out in launch order, each turn being a cold timing
    # then a warm one of the same variant (A A B B, then B B A A)
    ops = FakeOps([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    order = []
    reqs = [dict(BASE, id=n, reps=1, warmup=0) for n in ("A", "B")]
    cold, warm = tune_bench.confirm_rounds_warm(
        ops, [(reqs[0], doubling(order, "A")), (reqs[1], doubling(order, "B"))], 2)
    assert order == ["A", "A", "B", "B", "B", "B", "A", "A"]
    assert cold == [[1.0, 7.0], [3.0, 5.0]]
    assert warm == [[2.0, 8.0], [4.0, 6.0]]
    # only the cold launches are flushed; every launch is restored first,
    # plus one restore after each turn
    assert ops.flushes == 4
    assert ops.restores == 8 + 4


def test_warm_repetitions_in_batches_skip_the_flush():
    # the batched path (TorchOps): 0.2 ms is 150 repetitions (30 ms of
    # work), restored each time, none flushed
    ops = BatchOps(0.2)
    restored = []
    times = tune_bench.time_launches(ops, lambda: None, lambda: restored.append(1), 50, 0,
                                     flush=False)
    assert len(times) == 150 and ops.batches == [10, 140]
    assert ops.flushes == 0 and len(restored) == 150


class HealthyOps(FakeOps):
    def healthy(self):
        return True


def _confirm_through_the_worker(monkeypatch, times, **extra):
    monkeypatch.setattr(tune_worker, "_compiled", lambda r: (object(), {}))
    monkeypatch.setattr(tune_worker, "launcher", lambda k, r: double)
    monkeypatch.setitem(tune_worker._state, "bench", tune_worker.Bench(HealthyOps(times)))
    reqs = [dict(BASE, id=n, reps=1, warmup=0) for n in ("v000", "v001")]
    return tune_worker.handle(dict(op="confirm", id="confirm", rounds=1, requests=reqs, **extra))


def test_a_warm_confirm_request_replies_warm_times_too(monkeypatch):
    rep = _confirm_through_the_worker(monkeypatch, [1.0, 0.5, 2.0, 0.75], warm=True)
    assert rep["status"] == "ok" and rep["ids"] == ["v000", "v001"]
    assert rep["times_ms"] == [[1.0], [2.0]]
    assert rep["warm_times_ms"] == [[0.5], [0.75]]


def test_a_confirm_request_without_warm_has_no_warm_times(monkeypatch):
    rep = _confirm_through_the_worker(monkeypatch, [1.0, 2.0])
    assert rep["times_ms"] == [[1.0], [2.0]] and "warm_times_ms" not in rep
