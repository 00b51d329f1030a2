"""Reliability checks of the Python side that need no GPU: capture.json
naming files outside its kernel directory is refused by the replay
(snapshot.inside), and capture faults injected into a model run on the
fake Inductor (tests/python/fakes) -- a capture directory that is a file, a
kernels folder that cannot be made, a disk that fills (RLIMIT_FSIZE) -- leave
the model's outputs identical to an uncaptured run, with each failure an
error event. tests/gpu/faults.sh runs the same faults on a real GPU.
"""
import json
import os
import resource
import signal
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYDIR = os.path.join(ROOT, "python")
HOOK = os.path.join(PYDIR, "tko", "_hook")
FAKES = os.path.join(os.path.dirname(__file__), "fakes")
sys.path.insert(0, PYDIR)

from tko import snapshot  # noqa: E402


def test_inside_accepts_files_of_the_kernel_dir(tmp_path):
    (tmp_path / "inputs").mkdir()
    assert snapshot.inside(str(tmp_path), "inputs/storage0.bin") == \
        os.path.join(str(tmp_path), "inputs/storage0.bin")
    assert snapshot.inside(str(tmp_path), "kernel.py").endswith("/kernel.py")


@pytest.mark.parametrize("rel", ["/etc/passwd", "../x.bin", "inputs/../../x", "", None, 3])
def test_inside_refuses_paths_that_leave_it(tmp_path, rel):
    with pytest.raises(snapshot.SnapshotError):
        snapshot.inside(str(tmp_path), rel)


def test_inside_refuses_a_link_out(tmp_path):
    (tmp_path / "k").mkdir()
    (tmp_path / "secret").write_text("s")
    os.symlink(tmp_path / "secret", tmp_path / "k" / "kernel.py")
    with pytest.raises(snapshot.SnapshotError):
        snapshot.inside(str(tmp_path / "k"), "kernel.py")


MODEL = """
    import json
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner
    k = CachingAutotuner()
    outs = [k.run(7, 9, 2048, stream=0), k.run(7, 9, 2048, stream=0), k.run(1, 2, 4096, stream=0)]
    print(json.dumps(outs))
"""


def run_model(tmp_path, cap, hooked=True, fsize=None, env_add=None):
    """Runs MODEL with capture into `cap` (or without hooks); returns (proc, events)."""
    path = ([HOOK, PYDIR] if hooked else []) + [FAKES]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), **(env_add or {}))
    env.pop("TKO_CAPTURE_DIR", None)
    if hooked:
        env["TKO_CAPTURE_DIR"] = str(cap)
    model = tmp_path / "model.py"
    model.write_text(textwrap.dedent(MODEL))

    def limit():
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    proc = subprocess.run([sys.executable, str(model)], env=env, capture_output=True,
                          text=True, timeout=120, preexec_fn=limit)
    events = []
    ev = cap / "events.jsonl" if hooked else None
    if ev and ev.is_file():
        for line in ev.read_text().splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                pass            # the line the full disk cut
    return proc, events


def baseline(tmp_path):
    proc, _ = run_model(tmp_path, None, hooked=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_kernels_folder_that_cannot_be_made(tmp_path):
    want = baseline(tmp_path)
    cap = tmp_path / "capture"
    cap.mkdir()
    (cap / "kernels").write_text("a file where the folder goes")
    proc, events = run_model(tmp_path, cap)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == want
    errors = [e for e in events if e["event"] == "error"]
    assert any("kernels" in e["message"] for e in errors), errors


def test_capture_dir_that_is_a_file(tmp_path):
    want = baseline(tmp_path)
    cap = tmp_path / "capture"
    cap.write_text("not a directory")
    proc, _ = run_model(tmp_path, cap)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == want
    assert proc.stderr.count("tko capture: warning:") == 1
    assert cap.read_text() == "not a directory"


def test_disk_full_while_capturing(tmp_path):
    # No file may grow past 64 KiB (RLIMIT_FSIZE, as a full disk: writes fail
    # with EFBIG): the events fit, the kernel module copied into the kernel
    # directory (200 KiB) does not.
    want = baseline(tmp_path)
    big = tmp_path / "big_module.py"
    big.write_text("# filler\n" * 20000 + "def triton_poi_fused_fake_0(in_ptr0, out_ptr0, xnumel, XBLOCK):\n    pass\n")
    cap = tmp_path / "capture"
    (cap / "kernels").mkdir(parents=True)
    proc, events = run_model(tmp_path, cap, fsize=65536, env_add={"FAKE_KERNEL_FILE": str(big)})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == want
    errors = [e for e in events if e["event"] == "error"]
    assert any(e["error_type"] == "OSError" or "File too large" in e["message"] for e in errors), events
    # The kernel directory is built under a temporary name and renamed:
    # the failed one leaves nothing, not a cut kernel.py.
    assert list((cap / "kernels").iterdir()) == []


# The GPU fault run's pieces on the CPU: faults_model's API drift applied to
# the fake Inductor, and faults_check's verdicts on hand-made capture folders.
sys.path.insert(0, os.path.join(ROOT, "tests", "gpu"))
import faults_check  # noqa: E402

DRIFT_MODEL = """
    import json, sys
    sys.path.insert(0, {gpu!r})
    import faults_model
    sys.meta_path.insert(0, faults_model._DriftFinder())
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner
    assert "bench" not in CachingAutotuner.__dict__ and hasattr(CachingAutotuner, "bench")
    k = CachingAutotuner()
    outs = [k.run(7, 9, 2048, stream=0), k.run(7, 9, 2048, stream=0), k.run(1, 2, 4096, stream=0)]
    print(json.dumps(outs))
"""


def run_other_model(tmp_path, text):
    """Runs `text` instead of MODEL, uncaptured and captured; returns (want, proc, events)."""
    global MODEL
    saved, MODEL = MODEL, text
    try:
        want = baseline(tmp_path)
        cap = tmp_path / "capture"
        (cap / "kernels").mkdir(parents=True)
        proc, events = run_model(tmp_path, cap)
    finally:
        MODEL = saved
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == want
    return want, proc, events


def test_drifted_inductor_api_is_recorded_and_the_model_carries_on(tmp_path):
    want = baseline(tmp_path)
    _, proc, events = run_other_model(tmp_path, DRIFT_MODEL.format(gpu=os.path.join(ROOT, "tests", "gpu")))
    assert json.loads(proc.stdout) == want
    errors = [e for e in events if e["event"] == "error"]
    ok, why = faults_check.fault_recorded("drift", errors + [
        {"stage": "snapshot", "kernel": "scale_add_kernel", "message": "stands in for the GPU's"}])
    assert ok, (why, errors)
    assert [e for e in events if e["event"] == "autotune"]


UNSAVABLE_MODEL = """
    import json
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    class Ptr:
        # What faults_model passes: data_ptr() like a tensor, but not one.
        def data_ptr(self):
            return 4096

    k = CachingAutotuner()
    outs = [k.run(Ptr(), 9, 2048, stream=0), k.run(7, 9, 2048, stream=0)]
    print(json.dumps(outs))
"""


def test_an_argument_tko_cannot_save_is_a_snapshot_error_of_its_kernel(tmp_path):
    _, _, events = run_other_model(tmp_path, UNSAVABLE_MODEL)
    errors = [e for e in events if e["event"] == "error"]
    assert [(e["stage"], e.get("kernel")) for e in errors] == \
        [("snapshot", "triton_poi_fused_fake_0")], errors
    assert "type Ptr" in errors[0]["message"]
    # The second signature, all ints, is still launched and captured.
    launches = [e for e in events if e["event"] == "launch"]
    assert len(launches) == 1 and launches[0]["args"][0]["value"] == 7, launches


def _cap(tmp_path, lines):
    cap = tmp_path / "cap"
    (cap / "kernels").mkdir(parents=True)
    (cap / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in lines) + '{"cut')
    return cap


def test_faults_check_reads_cut_events_and_judges_each_case(tmp_path):
    cap = _cap(tmp_path, [{"event": "error", "stage": "snapshot",
                           "message": "[Errno 28] No space left on device"}])
    events, cut = faults_check.read_events(str(cap))
    assert len(events) == 1 and cut == 1
    assert faults_check.fault_recorded("full", events)[0]
    assert not faults_check.fault_recorded("readonly", events)[0]
    assert not faults_check.fault_recorded("drift", events)[0]


def test_faults_check_finds_half_written_kernel_dirs(tmp_path):
    cap = _cap(tmp_path, [])
    (cap / "kernels" / ".tmp-k-1-0").mkdir()
    (cap / "kernels" / "k-0123abcd").mkdir()
    (cap / "kernels" / "k-0123abcd" / "capture.json").write_text('{"args": [')
    bad = faults_check.kernel_dirs_whole(str(cap))
    assert len(bad) == 2
