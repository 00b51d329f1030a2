"""tests/gpu/apply_ab_check.py's INFO lines on tune's cold and warm
predictions (docs/apply.md, "Warm timings"), on a hand-written apply.json
whose differences were worked out by hand: step measured 1.02x against
cold 1.05x (-3.00 pp) and warm 1.025x (-0.50 pp); kernel A measured 0.91x,
tune cold 1.06x (0.15 away), warm 0.93x (0.02 away). The GPU clock: the
default arm 0.2 GPU ms of a 0.8 ms wall step (busy 0.25), measured GPU gain
1.105x against 1.1x predicted (+0.50 pp, within 1 pp)."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "tests", "gpu", "apply_ab_check.py")


def kernel(name, planned=True, **kw):
    k = {"kernel": name, "planned": planned, "status": "ran_winner", "reason": None,
         "predicted_speedup": None, "measured_speedup": None, "measured_gain_ci95": None,
         "verdict": None}
    k.update(kw)
    return k


DOC = {
    "kernels": [
        kernel("A", predicted_speedup=1.06, predicted_warm_speedup=0.93,
               predicted_warm_ci95=[0.9, 0.96], measured_speedup=0.91,
               measured_gain_ci95=[0.885, 0.935], verdict="slower"),
        kernel("B", predicted_speedup=1.27, predicted_warm_speedup=1.27,
               predicted_warm_ci95=[1.2, 1.3], measured_speedup=1.27, verdict="faster"),
        kernel("C", predicted_speedup=1.1, measured_speedup=1.05),
        kernel("D", planned=False, status="not_planned", reason="slower_warm",
               predicted_speedup=1.06, predicted_warm_speedup=0.9),
    ],
    "runs": [],
    "left_out": [{"id": "D-1", "kernel": "D", "reason": "slower_warm", "detail": "x", "of": "plan"}],
    "ab": {"arms": [], "applied_vs": [], "loss_rtol": 1e-3,
           "step": {"predicted_gain": 1.025, "predicted_gain_cold": 1.05,
                    "predicted_gain_warm": 1.025, "warm_kernels": 2, "measured_gain": 1.02,
                    "measured_gain_ci95": [1.01, 1.03], "difference_pp": -0.5,
                    "within_1pp": True, "conclusive": True,
                    "gpu_step_ms": 0.2, "gpu_predicted_gain": 1.1, "gpu_measured_gain": 1.105,
                    "gpu_measured_gain_ci95": [1.1, 1.11], "gpu_difference_pp": 0.5,
                    "gpu_within_1pp": True, "gpu_conclusive": True, "gpu_busy": 0.25,
                    "gpu_note": "the GPU is busy 25% of the step"}},
}


def run_check(tmp_path, doc, prefix="INFO"):
    path = tmp_path / "apply.json"
    path.write_text(json.dumps(doc))
    p = subprocess.run([sys.executable, CHECK, str(path), str(tmp_path / "checks.json")],
                       capture_output=True, text=True)
    return [x for x in p.stdout.splitlines() if x.startswith(prefix)]


def test_gpu_time_gain_checked_and_gpu_busy_reported(tmp_path):
    doc = json.loads(json.dumps(DOC))
    doc["ab"]["arms"] = [{"arm": "default", "loss_equal": True, "loss_max_rel_diff": 0,
                          "gpu_median_ms": 0.2, "gpu_vs_default": None},
                         {"arm": "applied", "loss_equal": True, "loss_max_rel_diff": 0,
                          "gpu_median_ms": 0.181, "gpu_vs_default": {"median": 0.905}}]
    lines = run_check(tmp_path, doc, prefix="")
    assert any(x.startswith("PASS measured GPU-time step gain within 1 pp of the predicted: ") and
               '"gpu_difference_pp": 0.5' in x for x in lines)
    assert ('INFO gpu_busy 0.250 (GPU ms/step over wall ms/step, default arm); arms [GPU ms/step, '
            'vs default]: {"default": [0.2, null], "applied": [0.181, 0.905]}; '
            'the GPU is busy 25% of the step') in lines
    # too wide an interval to judge 1 pp: neither pass nor failure, whatever the median
    doc["ab"]["step"].update(gpu_within_1pp=False, gpu_conclusive=False)
    path = tmp_path / "apply.json"
    path.write_text(json.dumps(doc))
    p = subprocess.run([sys.executable, CHECK, str(path), str(tmp_path / "checks.json")],
                       capture_output=True, text=True)
    assert any(x.startswith("INCONCLUSIVE measured GPU-time step gain within 1 pp of the "
                            "predicted (inconclusive: ") for x in p.stdout.splitlines())
    assert not any(x.startswith("FAIL measured GPU-time") for x in p.stdout.splitlines())
    checks = json.loads((tmp_path / "checks.json").read_text())["checks"]
    assert [c["pass"] for c in checks if c["name"].startswith("measured GPU-time")] == [None]
    doc["ab"]["step"].update(gpu_conclusive=True)
    assert any(x.startswith("FAIL measured GPU-time step gain within 1 pp")
               for x in run_check(tmp_path, doc, prefix="FAIL"))


def test_no_kernel_window_fails_the_gpu_check_and_says_null(tmp_path):
    doc = json.loads(json.dumps(DOC))
    for key in [k for k in doc["ab"]["step"] if k.startswith("gpu_")]:
        doc["ab"]["step"][key] = None
    assert any(x.startswith("FAIL measured GPU-time step gain within 1 pp")
               for x in run_check(tmp_path, doc, prefix="FAIL"))
    assert any(x.startswith("INFO gpu_busy null (") for x in run_check(tmp_path, doc))


def test_both_step_predictions_beside_the_measured_gain(tmp_path):
    info = run_check(tmp_path, DOC)
    assert ("INFO step gain predicted cold 1.0500x, warm 1.0250x (2 winners timed warm); "
            "measured 1.0200x [1.01, 1.03]: cold -3.00 pp, warm -0.50 pp, closer: warm") in info


def test_per_winner_cold_warm_and_measured(tmp_path):
    info = run_check(tmp_path, DOC)
    assert ("INFO kernel A: tune cold 1.060x, warm 0.930x [0.9, 0.96], measured in the step "
            "0.910x [0.885, 0.935] (slower): closer: warm") in info
    assert any(x.startswith("INFO kernel B: ") and x.endswith("closer: equal") for x in info)
    # C has no warm figure, D did not run
    assert not any(x.startswith(("INFO kernel C", "INFO kernel D")) for x in info)
    assert "INFO per winner measured, the closer prediction: warm 1, cold 0, equal 1" in info
    assert "INFO not measured in the step: D (slower_warm; APPLY_AB_KEEP_SLOWER=1 runs it)" in info


def test_a_document_without_warm_figures_has_no_warm_lines(tmp_path):
    doc = json.loads(json.dumps(DOC))
    for k in doc["kernels"]:
        k.pop("predicted_warm_speedup", None)
    for key in ("predicted_gain_cold", "predicted_gain_warm", "warm_kernels"):
        del doc["ab"]["step"][key]
    doc["left_out"] = []
    info = run_check(tmp_path, doc)
    assert not any("warm" in x for x in info)


def test_loss_check_is_tkos_verdict_with_its_floor(tmp_path):
    # The check passes on tko's loss_equal, whatever loss_max_rel_diff reads
    # (the floor of docs/apply.md, "The loss check", is tko's to apply), and
    # names the scale; an arm with numerics is no target; a null verdict fails.
    doc = json.loads(json.dumps(DOC))
    doc["ab"]["loss_scale"] = 10.5
    doc["ab"]["arms"] = [{"arm": "coordesc", "loss_equal": True, "loss_max_rel_diff": 2.9e-4},
                         {"arm": "applied", "loss_equal": False, "loss_max_rel_diff": 0.9},
                         {"arm": "keep-off", "loss_equal": None, "loss_max_rel_diff": None},
                         {"arm": "tf32", "numerics": "tf32", "loss_equal": None,
                          "loss_max_rel_diff": 0.02}]
    lines = [x for x in run_check(tmp_path, doc, prefix="") if " loss equal " in x]
    tail = " (relative to the larger of the step's loss and 1% of loss_scale 10.5): "
    assert lines == ["PASS coordesc: loss equal to default's within 0.001" + tail + "0.00029",
                     "FAIL applied: loss equal to default's within 0.001" + tail + "0.9",
                     "FAIL keep-off: loss equal to default's within 0.001" + tail + "null"]


def test_applied_vs_an_arm_on_both_clocks(tmp_path):
    """A wall ratio inside the noise and a GPU ratio above it: two checks, the GPU one fails."""
    doc = json.loads(json.dumps(DOC))
    doc["ab"]["applied_vs"] = [{"arm": "coordesc", "numerics": None,
                                "ratio": {"rounds": 3, "median": 0.99, "ci95": [0.97, 1.01], "level": 0.75},
                                "slower_beyond_noise": False,
                                "gpu_ratio": {"rounds": 3, "median": 1.02, "ci95": [1.01, 1.03], "level": 0.75},
                                "gpu_slower_beyond_noise": True},
                               {"arm": "default", "numerics": None, "ratio": None,
                                "slower_beyond_noise": None, "gpu_ratio": None,
                                "gpu_slower_beyond_noise": None}]
    lines = run_check(tmp_path, doc, prefix="")
    assert any(x.startswith("PASS applied not slower than coordesc beyond noise: ") for x in lines)
    assert any(x.startswith("FAIL applied not slower than coordesc beyond noise on GPU time: ")
               for x in lines)
    assert not any("default beyond noise on GPU time" in x for x in lines)


def test_a_stopped_ab_is_said(tmp_path):
    doc = json.loads(json.dumps(DOC))
    doc["ab"]["rounds"] = 3
    doc["ab"]["stopped"] = {"signal": "SIGTERM", "run": 5, "complete_rounds": 2}
    assert "INFO stopped by SIGTERM in run 5 (not counted): 2 of 3 measured rounds complete" \
        in run_check(tmp_path, doc)
    doc["ab"]["stopped"] = None
    assert not [x for x in run_check(tmp_path, doc) if x.startswith("INFO stopped")]
