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

CORPUS = os.environ.get("CORPUS", os.path.join(HERE, "..", "corpus"))
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
    rows = check.compare_times(log, replay_doc(log, 1.05, tmp_path), str(tmp_path))
    assert len(rows) == sum(len(v) for v in log["bench"].values()) + 1
    assert all(r["within_10pct"] for r in rows)
    assert any(r["source"].startswith("log: AUTOTUNE table (triton_mm_18)") for r in rows)
    slow = check.compare_times(log, replay_doc(log, 1.2, tmp_path), str(tmp_path))
    assert not any(r["within_10pct"] for r in slow)


def test_kernel_dirs_relative_to_the_run(tmp_path):
    # RUN/analysis/replay.json names kernel dirs relative to the RUN.
    log = check.parse_log(LOG)
    doc = replay_doc(log, 1.05, tmp_path)
    doc["kernels"][-1]["kernel_dir"] = "triton_mm-00000000"
    rows = check.compare_times(log, doc, str(tmp_path))
    assert any(r["source"].startswith("log: AUTOTUNE table (triton_mm_18)") for r in rows)
    slow = check.compare_times(log, replay_doc(log, 1.2, tmp_path), str(tmp_path))
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


EXAMPLE = os.path.join(HERE, "..", "..", "examples", "h200-run")
EXAMPLE_LOG = os.path.join(EXAMPLE, "log", "model.log")
needs_example = pytest.mark.skipif(not os.path.exists(EXAMPLE_LOG), reason="no examples/h200-run")


def example_lines():
    with open(EXAMPLE_LOG, errors="replace") as f:
        return f.read().splitlines()


@needs_example
def test_example_log_coordesc_templates_and_fusion_modules():
    log = check.parse_log(EXAMPLE_LOG)
    text = example_lines()
    coordesc = [l for l in text if "] COORDESC: " in l or "] [2/0] COORDESC: " in l]
    assert sum(len(v) for v in log["coordesc"].values()) == len(coordesc)
    paths = {m.group(1) for l in text for m in [re.search(r"TritonTemplateCaller\(([^,]+\.py),", l)] if m}
    assert set(log["template_modules"]) == paths
    failed = [l for l in text if "Exception" in l and "for benchmark choice" in l]
    assert len(log["template_failed"]) == len(failed)
    fusion = [l for l in text if "kernel src code for" in l]
    assert len(log["fusion_modules"]) == len(fusion)


@needs_example
def test_captured_modules_are_matched_by_file_name(tmp_path):
    log = check.parse_log(EXAMPLE_LOG)
    run = tmp_path / "run"
    kdir = run / "capture" / "kernels"
    kdir.mkdir(parents=True)
    wanted = [p for p in log["template_modules"] if p not in log["template_failed"]]
    wanted += log["fusion_modules"]
    for i, path in enumerate(wanted):
        d = kdir / f"triton_mm-{i:08d}"
        d.mkdir()
        # Elsewhere than the log's machine: matched by the hash-named file.
        (d / "capture.json").write_text(json.dumps({"source_file": "/elsewhere/" + os.path.basename(path),
                                                    "source_kind": "inductor_module"}))
    events = [{"event": "kernel", "kernel": "scale_add_kernel", "kind": "user_autotune"}]
    res = check.check_kernels(log, events, str(run))
    assert res["template_modules_not_captured"] == [] and res["fusion_modules_not_captured"] == []
    assert res["template_modules"] == len(set(log["template_modules"]) - set(log["template_failed"]))
    first = kdir / "triton_mm-00000000" / "capture.json"
    first.write_text(json.dumps({"source_file": None, "source_kind": "function_only"}))
    res = check.check_kernels(log, events, str(run))
    assert res["function_only"] == ["triton_mm-00000000"] and not res["ok"]
    assert len(res["template_modules_not_captured"]) == 1


def row(logged=0.100, replay=0.013, **kw):
    r = {"within_10pct": False, "ratio": replay / logged, "reference_ms": logged,
         "replay_autotuner_method_ms": replay, "capture_cpu_copy_args": [],
         "replay_cpu_copy_args": [], "capture_us_per_call": None, "replay_us_per_call": None}
    r.update(kw)
    return r


def test_every_mismatch_gets_a_measured_cause_or_unexplained():
    assert check.classify(row(within_10pct=True)) == (None, None)
    # Logged 87 us above the replay; the capture's loop 80 us slower per call.
    cause, why = check.classify(row(capture_us_per_call=120.0, replay_us_per_call=40.0))
    assert cause == "host_bound_in_capture" and "120.0 us" in why and "+80.0 us" in why
    assert "+87.0 us" in why
    # Slower by only 30 us a call: less than half the 87 us gap.
    assert check.classify(row(capture_us_per_call=70.0, replay_us_per_call=40.0))[0] == "unexplained"
    assert check.classify(row(logged=0.05, replay=0.09, capture_us_per_call=40.0,
                              replay_us_per_call=90.0))[0] == "host_bound_in_replay"
    assert check.classify(row(capture_us_per_call=41.0, replay_us_per_call=40.0))[0] == "unexplained"
    assert check.classify(row())[0] == "unexplained"
    cause, why = check.classify(row(capture_cpu_copy_args=[{"name": "in_out_ptr0", "bytes": 67108864}]))
    assert cause == "cpu_copy_not_reproduced" and "in_out_ptr0" in why


def test_a_kernel_that_cannot_be_replayed_fails_the_replay_check():
    # The first proof reported 17 failed kernels as "0 disagree" and ok.
    doc = {"kernels": [{"kernel_dir": "a", "error": "TypeError: x", "configs": []},
                       {"kernel_dir": "b", "error": None, "configs": [{"outputs_match": True}]}]}
    res = check.replay_agreement(doc)
    assert res["kernels_failed"] == ["a"] and res["ok"] is False
    doc["kernels"].pop(0)
    assert check.replay_agreement(doc)["ok"] is True


def test_the_block_of_a_shared_name_is_the_one_with_the_captures_times():
    a = [{"kwargs": {"XBLOCK": 1024}, "num_warps": 4, "num_stages": 1, "ms": 0.100320}]
    b = [{"kwargs": {"XBLOCK": 1024}, "num_warps": 4, "num_stages": 1, "ms": 0.051000}]
    cap = {"configs": [{"kwargs": {"XBLOCK": 1024}, "num_warps": 4, "num_stages": 1,
                        "time_ms": 0.0510000023}]}
    assert check.pick_block([a, b], cap) is b
    assert check.pick_block([a, b], {"configs": []}) is None
    assert check.pick_block([a], {}) is a
