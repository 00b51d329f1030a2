"""The capture hooks against a fake Inductor (tests/python/fakes) and the real
Triton 3.6 Autotuner, in child Pythons started the way `tko capture` starts
the user's command: the hook folder first on PYTHONPATH, TKO_CAPTURE_DIR set,
no import in the "model" script.

Expected values come from the fake's own definitions (its configs, its
timings, what its run returns), never from tko's output.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYDIR = os.path.join(ROOT, "python")
HOOK = os.path.join(PYDIR, "tko", "_hook")
FAKES = os.path.join(os.path.dirname(__file__), "fakes")


def run_model(tmp_path, script, env=None, fakes=True):
    """Runs `script` like tko capture would; returns (proc, events, capture dir)."""
    cap = tmp_path / "run" / "capture"
    (cap / "kernels").mkdir(parents=True)
    path = [HOOK, PYDIR] + ([FAKES] if fakes else [])
    child_env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), TKO_CAPTURE_DIR=str(cap))
    child_env.update(env or {})
    model = tmp_path / "model.py"
    model.write_text(textwrap.dedent(script))
    proc = subprocess.run([sys.executable, str(model)], env=child_env, capture_output=True,
                          text=True, timeout=120)
    events = []
    if (cap / "events.jsonl").exists():
        events = [json.loads(line) for line in (cap / "events.jsonl").read_text().splitlines()]
    return proc, events, cap


def of(events, kind):
    return [e for e in events if e["event"] == kind]


FAKE_MODEL = """
    import json
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner
    k = CachingAutotuner({ctor})
    outs = [k.run(7, 9, 2048, stream=0), k.run(7, 9, 2048, stream=0), k.run(1, 2, 4096, stream=0)]
    print(json.dumps(outs))
"""


def test_hooks_installed_and_model_output_unchanged(tmp_path):
    proc, events, _ = run_model(tmp_path, FAKE_MODEL.format(ctor=""))
    assert proc.returncode == 0, proc.stderr
    # The fake launcher returns the sum of its int arguments.
    assert json.loads(proc.stdout) == [7 + 9 + 2048, 7 + 9 + 2048, 1 + 2 + 4096]
    start = of(events, "session_start")
    assert len(start) == 1
    for hook in ("CachingAutotuner.run", "CachingAutotuner.benchmark_all_configs",
                 "CachingAutotuner.bench", "CachingAutotuner._make_launchers"):
        assert hook in start[0]["hooks"]
    assert of(events, "error") == []


def test_autotune_event_has_every_config_time_and_the_winner(tmp_path):
    proc, events, cap = run_model(tmp_path, FAKE_MODEL.format(ctor=""))
    assert proc.returncode == 0, proc.stderr
    tune = of(events, "autotune")
    assert len(tune) == 1
    t = tune[0]
    assert t["kernel"] == "triton_poi_fused_fake_0"
    assert t["chosen_by"] == "benchmark"
    times = {c["kwargs"]["XBLOCK"]: c["time_ms"] for c in t["configs"]}
    assert times == {1024: 0.5, 512: 0.25}          # the fake's bench()
    best = t["configs"][t["best_index"]]
    assert best["kwargs"] == {"XBLOCK": 512}         # min of the fake's timings
    assert best["n_regs"] == 29 and best["cache_hash"] == "HASH512"
    # Two distinct argument signatures -> two launch events, three launches.
    launches = of(events, "launch")
    assert [e["grid"] for e in launches] == [[4, 1, 1], [8, 1, 1]]   # ceil(2048/512), ceil(4096/512)
    assert [a["value"] for a in launches[0]["args"]] == [7, 9, 2048]
    end = of(events, "session_end")
    assert end and end[0]["launch_counts"] == {"triton_poi_fused_fake_0": 3}
    log = (cap / "autotune.log").read_text()
    assert "triton_poi_fused_fake_0: chosen by benchmark" in log


def test_kernel_dir_written_once_with_capture_json_and_run_py(tmp_path):
    src = tmp_path / "cfake.py"
    src.write_text("# the kernel module\ndef triton_poi_fused_fake_0(in_ptr0, out_ptr0, xnumel, XBLOCK):\n"
                   "    pass\n")
    proc, events, cap = run_model(tmp_path, FAKE_MODEL.format(ctor=""),
                                  env={"FAKE_KERNEL_FILE": str(src)})
    assert proc.returncode == 0, proc.stderr
    import hashlib
    digest = hashlib.sha256(src.read_bytes()).hexdigest()
    kdir = cap / "kernels" / f"triton_poi_fused_fake_0-{digest[:8]}"
    assert sorted(os.listdir(cap / "kernels")) == [kdir.name]
    assert (kdir / "kernel.py").read_bytes() == src.read_bytes()
    doc = json.loads((kdir / "capture.json").read_text())
    assert doc["schema_version"] == 1 and doc["source_hash"] == digest
    assert doc["args"][2] == {"name": "xnumel", "kind": "scalar", "type": "int", "value": 2048}
    assert doc["grid"] == [4, 1, 1] and doc["chosen_by"] == "benchmark"
    assert doc["mutated_arg_names"] == ["out_ptr0"]
    compile((kdir / "run.py").read_text(), "run.py", "exec")
    captures = of(events, "capture")
    assert len(captures) == 1
    assert captures[0]["kernel_dir"] == f"capture/kernels/{kdir.name}"


MODULE = ("# a generated module\n\n@triton_heuristics.template(num_stages=2, num_warps=4)\n"
          "@triton.jit\ndef triton_poi_fused_fake_0(in_ptr0, out_ptr0, xnumel, XBLOCK):\n"
          "    pass\n")


def only_dir(cap):
    dirs = os.listdir(cap / "kernels")
    assert len(dirs) == 1
    return cap / "kernels" / dirs[0]


def test_template_module_is_found_from_the_functions_code(tmp_path):
    # Templates have no CachingAutotuner.filename; the function's code
    # object names the module file PyCodeCache compiled.
    mod = tmp_path / "ctemplate.py"
    mod.write_text(MODULE)
    proc, events, cap = run_model(tmp_path, FAKE_MODEL.format(ctor=""),
                                  env={"FAKE_FN_FILE": str(mod)})
    assert proc.returncode == 0, proc.stderr
    kdir = only_dir(cap)
    assert (kdir / "kernel.py").read_text() == MODULE
    doc = json.loads((kdir / "capture.json").read_text())
    assert doc["source_file"] == str(mod) and doc["source_kind"] == "inductor_module"
    import hashlib
    assert doc["source_hash"] == hashlib.sha256(MODULE.encode()).hexdigest()


def test_module_is_found_in_the_code_cache_from_the_module_key(tmp_path):
    # A kernel pickled back from a compile worker has lost fn.fn; its
    # __module__ still ends in PyCodeCache's key, and the cache keeps the
    # file at <cache>/<key[1:3]>/<key>.py.
    key = "c3tu2qiephyopbnwkkmbhkh6w7mk54oqbvn57rprpwma2ctnqsdg"
    (tmp_path / "cache" / "3t").mkdir(parents=True)
    (tmp_path / "cache" / "3t" / f"{key}.py").write_text(MODULE)
    proc, events, cap = run_model(tmp_path, FAKE_MODEL.format(ctor=""), env={
        "FAKE_FN_MODULE": f"torch._inductor.runtime.compile_tasks.{key}",
        "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr
    assert (only_dir(cap) / "kernel.py").read_text() == MODULE


def test_a_module_without_the_kernel_is_not_taken(tmp_path):
    other = tmp_path / "cother.py"
    other.write_text("def triton_poi_fused_other_1(x):\n    pass\n")
    proc, events, cap = run_model(tmp_path, FAKE_MODEL.format(ctor=""),
                                  env={"FAKE_KERNEL_FILE": str(other)})
    assert proc.returncode == 0, proc.stderr
    kdir = only_dir(cap)
    # The fake's JITFunction.src, the only source left.
    assert (kdir / "kernel.py").read_text().startswith("def triton_poi_fused_fake_0(in_ptr0,")
    doc = json.loads((kdir / "capture.json").read_text())
    assert doc["source_file"] is None and doc["source_kind"] == "function_only"


@pytest.mark.parametrize("out_bytes,copied", [(2 << 20, True), (512 << 10, False)])
def test_cpu_copy_path_and_benchmark_calls_are_recorded(tmp_path, out_bytes, copied):
    # The fake's allocator leaves a 1 MiB budget; out_ptr0 is mutated.
    proc, events, cap = run_model(tmp_path, FAKE_MODEL.format(ctor=""),
                                  env={"FAKE_OUT_BYTES": str(out_bytes), "FAKE_ITERS": "9"})
    assert proc.returncode == 0, proc.stderr
    start = of(events, "session_start")[0]
    assert "CachingAutotuner.copy_args_to_cpu_if_needed" in start["hooks"]
    assert "InductorBenchmarker.get_event_pairs" in start["hooks"]
    assert of(events, "error") == []
    tune = of(events, "autotune")[0]
    assert tune["optimize_mem"] is True
    for c in tune["configs"]:
        assert c["cpu_copy_args"] == ([{"name": "out_ptr0", "bytes": out_bytes}] if copied else [])
        assert c["memory_budget_bytes"] == 1 << 20
        assert c["bench_event_pairs"] == [5, 9] and c["bench_calls"] == 1 + 5 + 9
        assert c["bench_wall_ms"] >= 0
    doc = json.loads((only_dir(cap) / "capture.json").read_text())
    assert doc["optimize_mem"] is True
    assert [c["cpu_copy_args"] for c in doc["configs"]] == [c["cpu_copy_args"] for c in tune["configs"]]
    log = (cap / "autotune.log").read_text()
    assert ("restored from pinned host memory" in log) == copied


def test_kernels_regex_limits_snapshots_not_events(tmp_path):
    proc, events, cap = run_model(tmp_path, FAKE_MODEL.format(ctor=""),
                                  env={"TKO_CAPTURE_KERNELS": "^triton_red_"})
    assert proc.returncode == 0, proc.stderr
    assert of(events, "kernel")[0]["selected"] is False
    assert len(of(events, "autotune")) == 1
    assert os.listdir(cap / "kernels") == []


def test_single_config_and_cache_hit_are_recorded_untimed(tmp_path):
    proc, events, _ = run_model(tmp_path, FAKE_MODEL.format(ctor="configs=(256,)"))
    assert proc.returncode == 0, proc.stderr
    t = of(events, "autotune")[0]
    assert t["chosen_by"] == "single_config"
    assert [c["time_ms"] for c in t["configs"]] == [None]
    proc, events, _ = run_model(tmp_path / "b", FAKE_MODEL.format(
        ctor="configs=(256,), cache_state='hit'"))
    assert of(events, "autotune")[0]["chosen_by"] == "cache_hit"


def test_models_own_exception_passes_through_untouched(tmp_path):
    proc, events, _ = run_model(tmp_path, """
        from torch._inductor.runtime.triton_heuristics import CachingAutotuner
        try:
            CachingAutotuner().run("raise", stream=0)
        except KeyError as e:
            print("caught", type(e).__name__, e.args[0])
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "caught KeyError the model's own error"
    assert of(events, "error") == []


def test_failing_hook_becomes_error_event_and_model_carries_on(tmp_path):
    proc, events, _ = run_model(tmp_path, FAKE_MODEL.format(ctor="broken=True"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [7 + 9 + 2048, 7 + 9 + 2048, 1 + 2 + 4096]
    errors = of(events, "error")
    assert {e["stage"] for e in errors} == {"launch", "autotune", "compile"}
    assert all(e["message"] == "API drift: no name" for e in errors)


def test_unsnapshottable_argument_is_an_error_not_a_crash(tmp_path):
    proc, events, cap = run_model(tmp_path, """
        import torch
        from torch._inductor.runtime.triton_heuristics import CachingAutotuner
        print(CachingAutotuner().run(torch.Tensor(4), 3, 1024, stream=0))
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(3 + 1024)
    errors = of(events, "error")
    assert errors and errors[0]["error_type"] == "AttributeError"
    assert os.listdir(cap / "kernels") == []


def test_missing_method_is_reported_and_the_rest_still_works(tmp_path):
    proc, events, _ = run_model(tmp_path, FAKE_MODEL.format(ctor=""), env={"FAKE_NO_BENCH": "1"})
    assert proc.returncode == 0, proc.stderr
    install = [e for e in of(events, "error") if e["stage"] == "install"]
    assert len(install) == 1 and "'bench'" in install[0]["message"]
    assert of(events, "autotune")[0]["chosen_by"] == "benchmark"


def test_unwritable_capture_dir_leaves_the_model_alone(tmp_path):
    proc, events, cap = run_model(tmp_path, FAKE_MODEL.format(ctor=""),
                                  env={"TKO_CAPTURE_DIR": str(tmp_path / "no" / "such" / "dir")})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)[0] == 7 + 9 + 2048
    assert proc.stderr.count("tko capture: warning:") == 1


def test_bad_kernel_regex_is_reported(tmp_path):
    proc, events, cap = run_model(tmp_path, FAKE_MODEL.format(ctor=""),
                                  env={"TKO_CAPTURE_KERNELS": "("})
    assert proc.returncode == 0, proc.stderr
    assert any("TKO_CAPTURE_KERNELS" in e["message"] for e in of(events, "error"))
    assert os.listdir(cap / "kernels") == []


AUTOTUNER_MODEL = """
    import json
    import triton
    from triton.runtime.autotuner import Autotuner

    class FakeJit:
        # Stands in for a JITFunction: what Autotuner and tko read of one.
        arg_names = ["x_ptr", "n", "BLOCK"]
        src = "def add_kernel(x_ptr, n, BLOCK):\\n    pass\\n"
        __name__ = "add_kernel"
        def __init__(self):
            def add_kernel(x_ptr, n, BLOCK):
                return n
            self.fn = add_kernel
            self.launched = []
        def run(self, *args, grid, warmup, **kwargs):
            g = grid(dict(n=args[1], **kwargs)) if callable(grid) else grid
            self.launched.append((kwargs["BLOCK"], g))

    jit = FakeJit()
    configs = [triton.Config({"BLOCK": 64}, num_warps=2), triton.Config({"BLOCK": 128}, num_warps=4)]
    def do_bench(kernel_call, quantiles):
        kernel_call()
        return [0.2, 0.1, 0.3] if len(jit.launched) % 2 else [0.1, 0.05, 0.15]
    tuner = Autotuner(jit, jit.arg_names, configs, key=["n"], reset_to_zero=None,
                      restore_value=None, do_bench=do_bench)
    tuner[lambda m: (triton.cdiv(m["n"], m["BLOCK"]),)](5, 1000)
    print(json.dumps(jit.launched))
"""


def test_triton_autotuner_timings_and_grids(tmp_path):
    proc, events, cap = run_model(tmp_path, AUTOTUNER_MODEL, fakes=False)
    assert proc.returncode == 0, proc.stderr
    launched = json.loads(proc.stdout)
    # The model itself saw what it would without tko: two benchmark launches
    # and the final one with the faster config (BLOCK 128 timed 0.1 ms).
    assert launched == [[64, [16]], [128, [8]], [128, [8]]]
    start = of(events, "session_start")[0]
    assert "Autotuner.run" in start["hooks"] and "Autotuner._bench" in start["hooks"]
    t = of(events, "autotune")[0]
    assert t["kernel"] == "add_kernel" and t["chosen_by"] == "user_autotune"
    assert [(c["kwargs"]["BLOCK"], c["time_ms"]) for c in t["configs"]] == [(64, 0.2), (128, 0.1)]
    assert t["configs"][t["best_index"]]["kwargs"] == {"BLOCK": 128}
    doc_dirs = os.listdir(cap / "kernels")
    assert len(doc_dirs) == 1 and doc_dirs[0].startswith("add_kernel-")
    doc = json.loads((cap / "kernels" / doc_dirs[0] / "capture.json").read_text())
    assert [c["grid"] for c in doc["configs"]] == [[16, 1, 1], [8, 1, 1]]
    assert doc["grid"] == [8, 1, 1]
    kernel_py = (cap / "kernels" / doc_dirs[0] / "kernel.py").read_text()
    assert "@triton.jit\ndef add_kernel(x_ptr, n, BLOCK):" in kernel_py
    compile(kernel_py, "kernel.py", "exec")


def test_sitecustomize_chains_to_the_next_one(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    marker = tmp_path / "marker"
    (other / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HOOK, PYDIR, str(other)]),
               TKO_CAPTURE_DIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-c",
                           "import sys, tko.capture; print(tko.capture.session() is not None)"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"
    assert marker.read_text() == "ran"


def test_hook_is_inert_without_capture_dir(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HOOK, PYDIR]))
    env.pop("TKO_CAPTURE_DIR", None)
    proc = subprocess.run([sys.executable, "-c", "import sys; print('tko.capture' in sys.modules)"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


@pytest.mark.parametrize("bad", ["not json", json.dumps({"schema_version": 2})])
def test_replay_rejects_a_bad_capture_json(tmp_path, bad):
    sys.path.insert(0, PYDIR)
    try:
        from tko import replay
        (tmp_path / "capture.json").write_text(bad)
        with pytest.raises(replay.ReplayError) as e:
            replay.load_capture(str(tmp_path))
        assert "capture.json" in str(e.value)
    finally:
        sys.path.remove(PYDIR)
