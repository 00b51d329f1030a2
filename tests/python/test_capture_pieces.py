"""The torch-free pieces of tko's Python package: the event writer, config
serialisation and the standalone module written for a hand-written kernel."""
import json
import math
import os
import stat
import sys

import pytest

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "python")))

from tko import configs, events, triton_hooks  # noqa: E402


def test_event_lines_are_json_with_the_common_fields(tmp_path):
    w = events.EventWriter(str(tmp_path))
    assert w.emit("autotune", kernel="k", configs=[{"time_ms": float("inf")}, {"time_ms": 0.5}],
                  shape=(2, 3), tags={"b", "a"})
    assert w.emit("error", stage="write", message="x\ny")
    lines = (tmp_path / "events.jsonl").read_text().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first["schema_version"] == 1 and first["event"] == "autotune"
    assert first["pid"] == os.getpid() and isinstance(first["time"], float)
    assert [c["time_ms"] for c in first["configs"]] == [None, 0.5]   # JSON has no inf
    assert first["shape"] == [2, 3] and first["tags"] == ["a", "b"]
    assert json.loads(lines[1])["message"] == "x\ny"


def test_unwritable_stream_never_raises_and_warns_once(tmp_path, capsys):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        w = events.EventWriter(str(ro / "missing"))
        assert w.emit("launch") is False
        assert w.emit("launch") is False
        assert w.log_line("x") is False
    finally:
        ro.chmod(stat.S_IRWXU)
    assert w.failures == 3
    assert capsys.readouterr().err.count("tko capture: warning:") == 1


def test_json_safe_handles_odd_values():
    import enum

    class Kind(enum.Enum):
        POINTWISE = "pointwise"

    assert events.json_safe(Kind.POINTWISE) == "pointwise"
    assert events.json_safe(float("nan")) is None
    assert events.json_safe({1: (1.5, None)}) == {"1": [1.5, None]}
    assert events.json_safe(object).startswith("<class")
    deep = []
    for _ in range(40):
        deep = [deep]
    json.dumps(events.json_safe(deep))


class FakeConfig:
    def __init__(self, kwargs, num_warps=4, num_stages=2, num_ctas=1, maxnreg=None):
        self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, num_stages
        self.num_ctas, self.maxnreg = num_ctas, maxnreg


def test_config_round_trip_through_the_real_triton_config():
    import triton
    cfg = triton.Config({"XBLOCK": 1024, "R0_BLOCK": 8}, num_warps=8, num_stages=3)
    d = configs.config_to_dict(cfg)
    assert d == {"kwargs": {"XBLOCK": 1024, "R0_BLOCK": 8}, "num_warps": 8, "num_stages": 3,
                 "num_ctas": 1, "maxnreg": None}
    back = configs.config_from_dict(json.loads(json.dumps(d)), triton.Config)
    assert back.kwargs == cfg.kwargs and back.num_warps == 8 and back.num_stages == 3
    assert configs.config_key(d) == configs.config_key(configs.config_to_dict(back))


def test_config_from_dict_skips_what_an_old_config_lacks():
    class OldConfig:
        def __init__(self, kwargs, num_warps=4, num_stages=2):
            self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, num_stages
    old = configs.config_from_dict({"kwargs": {"X": 1}, "num_warps": 2, "maxnreg": 128}, OldConfig)
    assert old.num_warps == 2 and not hasattr(old, "maxnreg")


def test_time_ms_reads_both_autotuners():
    assert configs.time_ms(0.25) == (0.25, None)
    assert configs.time_ms([0.2, 0.1, 0.3]) == (0.2, [0.2, 0.1, 0.3])
    assert configs.time_ms(float("inf")) == (None, None)
    assert configs.time_ms("fast") == (None, None)


def test_launcher_dict_reads_inductor_launcher_attributes():
    class Launcher:
        config = FakeConfig({"XBLOCK": 256}, num_warps=2)
        n_regs, n_spills, shared, cache_hash = 40, 3, 1024, "ABC"
    d = configs.launcher_to_dict(Launcher(), 0.125)
    assert d["time_ms"] == 0.125 and d["n_regs"] == 40 and d["n_spills"] == 3
    assert d["shared_bytes"] == 1024 and d["cache_hash"] == "ABC"
    bare = configs.launcher_to_dict(object())
    assert bare["time_ms"] is None and bare["n_regs"] is None and bare["kwargs"] == {}


def test_compiled_kernel_info_finds_the_cache_dir(tmp_path):
    class Meta:
        shared = 512

    class Compiled:
        metadata = Meta()
        metadata_group = {"k.json": str(tmp_path / "HASHDIR" / "k.json"),
                          "k.ptx": str(tmp_path / "HASHDIR" / "k.ptx")}

    c = Compiled()
    c.n_regs = 32
    info = configs.compiled_kernel_info(c)
    assert info["cache_hash"] == "HASHDIR" and info["n_regs"] == 32
    assert info["shared_bytes"] == 512 and info["n_spills"] is None


HELPER_SRC = "def helper(x):\n    return x * SCALE\n"
KERNEL_SRC = ("def k(x_ptr, n, BLOCK: tl.constexpr):\n"
              "    pid = tl.program_id(0)\n"
              "    return helper(pid) + OFFSET + math.floor(1.5) + unknown_global\n")


class FakeJit:
    def __init__(self, src, globs, name):
        namespace = dict(globs)
        exec(src, namespace)
        self.fn = namespace[name]
        self.src = src
        self.__name__ = name
        self.arg_names = list(self.fn.__code__.co_varnames[:self.fn.__code__.co_argcount])
        self.do_not_specialize = []


def test_user_kernel_module_carries_helpers_and_globals():
    import math as math_mod
    import triton.language as tl
    helper = FakeJit(HELPER_SRC, {"SCALE": tl.constexpr(3)}, "helper")
    helper.fn.__globals__["SCALE"] = tl.constexpr(3)
    globs = {"tl": tl, "helper": helper, "OFFSET": 7, "math": math_mod, "unknown_global": object()}
    k = FakeJit(KERNEL_SRC, globs, "k")
    text = triton_hooks.user_kernel_module(k)
    compile(text, "kernel.py", "exec")
    assert "@triton.jit\ndef helper(x):" in text
    assert "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):" in text
    assert text.index("def helper") < text.index("def k")
    assert "OFFSET = 7" in text and "SCALE = tl.constexpr(3)" in text
    assert "import math" in text
    assert "# tko: global 'unknown_global' (object) could not be captured" in text


def test_grid_recorder_returns_the_grid_unchanged():
    calls = []

    def grid(meta):
        calls.append(meta)
        return (math.ceil(meta["n"] / meta["B"]),)
    kwargs, rec = triton_hooks._record_grid({"grid": grid, "warmup": False})
    assert kwargs["grid"]({"n": 100, "B": 32}) == (4,)
    assert rec.value == [4, 1, 1] and calls == [{"n": 100, "B": 32}]
    fixed, rec2 = triton_hooks._record_grid({"grid": (3, 2)})
    assert fixed["grid"] == (3, 2) and rec2.value == [3, 2, 1]
    odd, rec3 = triton_hooks._record_grid({"grid": object()})
    assert rec3.value is None


@pytest.mark.parametrize("name,want", [("triton_poi_fused_0", "triton_poi_fused_0"),
                                       ("../../etc/passwd", "_.._etc_passwd"),
                                       ("", "kernel")])
def test_kernel_dir_names_are_plain_file_names(name, want):
    from tko import capture
    assert capture.safe_name(name) == want


PYDIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "python"))


def _run_module(args, tmp_path):
    import subprocess
    env = dict(os.environ, PYTHONPATH=PYDIR)
    return subprocess.run([sys.executable, "-m"] + args, env=env, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)


def test_replay_without_torch_exits_3_with_a_json_reason(tmp_path):
    pytest.importorskip("triton")
    try:
        import torch  # noqa: F401
        pytest.skip("torch is installed here")
    except ImportError:
        pass
    proc = _run_module(["tko.replay", str(tmp_path), "--json", str(tmp_path / "r.json")], tmp_path)
    assert proc.returncode == 3
    assert proc.stderr == ""  # the reason is the document's; tko run prints it once
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["schema_version"] == 1 and doc["kernels"] == [] and "no torch" in doc["error"]


def test_probe_without_torch_reports_it_and_exits_0(tmp_path):
    try:
        import torch  # noqa: F401
        pytest.skip("torch is installed here")
    except ImportError:
        pass
    proc = _run_module(["tko.probe", "--measure"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["python"]["version"] == sys.version.split()[0]
    assert doc["torch"]["version"] is None and "torch" in doc["torch"]["error"]
    assert doc["devices"] == [] and doc["bandwidth"] is None
