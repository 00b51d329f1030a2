"""tests/gpu/check.py, the GPU proof's judge, on the real h200-run1 log, so
the one GPU run it gets is not spent finding its bugs. Expected counts come
from grep-like scans of the log written here, not from check.py."""
import json
import os
import re
import sys

import pytest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "gpu"))
import check  # noqa: E402

CORPUS = os.environ.get("CORPUS", os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
LOG = os.path.join(CORPUS, "h200-run1", "log_profile.txt")
pytestmark = pytest.mark.skipif(not os.path.exists(LOG), reason="no corpus")


def lines():
    with open(LOG, errors="replace") as f:
        return f.read().splitlines()


def test_log_kernels_and_autotune_blocks():
    log = check.parse_log(LOG)
    gen = [l for l in lines() if "Generating kernel code with kernel_name:" in l]
    assert len(log["generated"]) == len(gen)
    heads = [l for l in lines() if "Benchmark all input configs for" in l]
    assert sorted(log["bench"]) == sorted({re.search(r"for (\S+),", l).group(1) for l in heads})
    # "<config>: <ms>, nreg N, nspill N" lines, some with a "[3/0]" compile id.
    rows = [l for l in lines() if re.search(r"\] (\[\d+/\d+\] )?[A-Z0-9_]+: \d+.*, nreg \d+, nspill", l)
            and "Best config" not in l and "COORDESC" not in l]
    assert sum(len(v) for v in log["bench"].values()) == len(rows)
    six = log["bench"]["triton_poi_fused_index_add_zeros_1"]
    assert len(six) == 6 and six[0] == {"kwargs": {"XBLOCK": 32, "YBLOCK": 32}, "num_warps": 4,
                                        "num_stages": 1, "ms": 0.130176}
    table = [l for l in lines() if re.match(r"^  (triton_mm_\d+|mm) [0-9.]+ ms", l)]
    assert len(log["table"]) == len(table)
    assert log["table"][0]["choice"] == "triton_mm_18" and log["table"][0]["ms"] == 0.0291


def replay_doc(log, factor, tmp_path):
    kernels = []
    for name, rows in log["bench"].items():
        kernels.append({"kernel": name, "kernel_dir": "", "error": None, "configs": [
            {"config": {"kwargs": r["kwargs"], "num_warps": r["num_warps"], "num_stages": r["num_stages"]},
             "autotuner_method_ms": r["ms"] * factor, "time_ms": r["ms"]} for r in rows]})
    best = log["table"][0]
    kdir = tmp_path / "triton_mm-00000000"
    kdir.mkdir(exist_ok=True)
    args = {k: best["config"][k] for k in ("BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M")}
    (kdir / "capture.json").write_text(json.dumps({"inductor_meta": {"config_args": args}}))
    kernels.append({"kernel": "triton_mm", "kernel_dir": str(kdir), "error": None, "configs": [
        {"config": {"kwargs": {}, "num_warps": best["config"]["num_warps"],
                    "num_stages": best["config"]["num_stages"]},
         "autotuner_method_ms": best["ms"] * factor, "time_ms": best["ms"]}]})
    return {"kernels": kernels}


def test_replay_times_are_matched_to_log_times(tmp_path):
    log = check.parse_log(LOG)
    rows = check.compare_times(log, replay_doc(log, 1.05, tmp_path))
    assert len(rows) == sum(len(v) for v in log["bench"].values()) + 1
    assert all(r["within_10pct"] for r in rows)
    assert any(r["source"].startswith("log: AUTOTUNE table (triton_mm_18)") for r in rows)
    slow = check.compare_times(log, replay_doc(log, 1.2, tmp_path))
    assert not any(r["within_10pct"] for r in slow)


def test_kernels_captured_vs_generated(tmp_path):
    log = check.parse_log(LOG)
    run = tmp_path / "run"
    (run / "capture" / "kernels").mkdir(parents=True)
    for name in sorted(set(log["generated"]))[1:]:
        (run / "capture" / "kernels" / f"{name}-00000000").mkdir()
    events = [{"event": "kernel", "kernel": "scale_add_kernel", "kind": "user_autotune"}]
    res = check.check_kernels(log, events, str(run))
    assert res["generated_not_captured"] == sorted(set(log["generated"]))[:1]
    assert res["hand_written"] == ["scale_add_kernel"] and res["ok"] is False
