"""The targets of issue 20, checked on tko apply's document (docs/json.md,
"tko apply") after tests/gpu/apply-ab.sh:

  every planned winner ran (status ran_winner in every measured applied run)
  applied is not slower than any other arm beyond noise (the interval
    of the ratio applied/arm does not lie wholly above 1), on the wall clock
    and, where the kernel windows give it, on the step's GPU time
  the losses of every arm equal the default's within the document's tolerance
    (tko's verdict loss_equal: a step's difference relative to the larger of
    the default's loss and 1% of its largest, loss_scale)
  the measured step gain is within 1 percentage point of the predicted one
  the same on the GPU clock: the step's GPU time from the kernel windows
    (every GPU activity, library kernels included), its measured gain within
    1 pp of the predicted saving over the default arm's GPU time; gpu_busy
    (GPU ms/step over wall ms/step of the default arm: below 0.5 the step is
    bound by the CPU side and the wall clock cannot see kernel gains) is
    reported, not asserted
  every arm's step times came from tko's hook (step_source "hook"), the
    model printing none
  every winner that ran has a measured per-kernel gain (its kernel window);
    each winner's in-step verdict (faster / slower / inconclusive beyond the
    window's noise) and what tko apply left out are reported, not asserted
  tune's warm timings (no L2 flush, docs/apply.md "Warm timings"): the step
    gain predicted from tune's cold speedups and from its warm ones, each
    beside the measured gain, and per winner measured in the step its cold
    and warm figures beside the measured one, with which is closer; winners
    left out as slower_warm are named (APPLY_AB_KEEP_SLOWER=1 runs them so
    they are measured too); reported, not asserted
  keep-off arms (issue 21): every run proved its regions took effect (replaced
    by torch._dynamo.disable and called); the loss equal as for any arm; the
    verdict (faster / not faster / slower, confirming or withdrawing the
    proposal to keep TorchInductor off) is reported, not asserted, and those
    arms are not targets that applied must beat

  python3 tests/gpu/apply_ab_check.py apply.json checks.json

Prints PASS, FAIL or INCONCLUSIVE (a 1 pp check whose interval is too wide
to judge) a check; exit 0 when none fails."""
import json
import sys


def main(path, out):
    doc = json.load(open(path))
    ab = doc.get("ab") or {}
    planned = [k for k in doc["kernels"] if k["planned"]]
    checks = [{"name": "every planned winner ran",
               "pass": bool(planned) and all(k["status"] == "ran_winner" for k in planned),
               "value": {k["kernel"]: [k["status"], k["reason"]] for k in planned}}]
    # Arms that change numerics (tf32) are for the user to weigh, not targets;
    # keep-off arms measure a proposal, whatever their verdict.
    for v in [v for v in ab.get("applied_vs", []) if not v.get("numerics") and "keep-off" not in v["arm"]]:
        checks.append({"name": f"applied not slower than {v['arm']} beyond noise",
                       "pass": v["slower_beyond_noise"] is False, "value": v["ratio"]})
        if v.get("gpu_ratio"):
            checks.append({"name": f"applied not slower than {v['arm']} beyond noise on GPU time",
                           "pass": v["gpu_slower_beyond_noise"] is False, "value": v["gpu_ratio"]})
    # tko's verdict, not recomputed here: a step's difference is relative to
    # the larger of the default loss and 1% of its largest (loss_scale;
    # docs/apply.md, "The loss check"), which only tko's C code applies.
    for a in [a for a in ab.get("arms", []) if not a.get("numerics")]:
        checks.append({"name": f"{a['arm']}: loss equal to default's within {ab['loss_rtol']} "
                               f"(relative to the larger of the step's loss and 1% of "
                               f"loss_scale {ab.get('loss_scale')})",
                       "pass": a["loss_equal"] is True, "value": a["loss_max_rel_diff"]})
    checks.append({"name": "every arm's step time from the hook",
                   "pass": bool(ab.get("arms")) and all(a.get("step_source") == "hook" for a in ab["arms"]),
                   "value": {a["arm"]: a.get("step_source") for a in ab.get("arms", [])}})
    ran = [k for k in planned if k["status"] == "ran_winner"]
    checks.append({"name": "a measured per-kernel gain for every winner that ran",
                   "pass": bool(ran) and all(isinstance(k.get("measured_speedup"), (int, float)) for k in ran),
                   "value": {k["kernel"]: [k.get("predicted_speedup"), k.get("measured_speedup"),
                                           k.get("measured_gain_ci95"), k.get("verdict")] for k in ran}})
    checks += keep_off_checks(doc, ab)
    st = ab.get("step") or {}
    value = {k: st.get(k) for k in ("predicted_gain", "measured_gain", "measured_gain_ci95",
                                     "difference_pp")}
    checks.append(within_1pp("measured step gain within 1 pp of the predicted",
                             st.get("within_1pp"), st.get("conclusive"), value,
                             "the measured gain's interval is wider than +-1 pp; more rounds"))
    checks.append(gpu_check(st))
    with open(out, "w") as f:
        json.dump({"schema_version": 1, "tool": "tests/gpu/apply_ab_check", "checks": checks,
                   "not_planned": [[k["kernel"], k["reason"]] for k in doc["kernels"] if not k["planned"]]},
                  f, indent=1)
    for c in checks:
        word = "INCONCLUSIVE " if c["pass"] is None else "PASS " if c["pass"] else "FAIL "
        print(word + c["name"] + ": " + json.dumps(c["value"]))
    for a in [a for a in ab.get("arms", []) if a.get("keep_off")]:
        k = a["keep_off"]
        print(f"INFO {a['arm']} vs {k['vs']}: verdict {k['verdict']}, proposal {k['proposal']}, "
              f"ratio {json.dumps(k['ratio'])}, calls {json.dumps(k['regions'])}")
    for k in [k for k in planned if k.get("verdict") == "slower"]:
        print(f"INFO drop {k['kernel']}: slower inside the step, {k['measured_speedup']} "
              f"{json.dumps(k['measured_gain_ci95'])} (tune predicted {k['predicted_speedup']})")
    for e in doc.get("left_out", []):
        print(f"INFO left out of the {e['of']}: {e['kernel']} ({e['reason']}: {e['detail']})")
    for line in warm_info(doc, ab):
        print(line)
    print(gpu_info(ab))
    if ab.get("stopped"):
        s = ab["stopped"]
        print(f"INFO stopped by {s['signal']}"
              + (f" in run {s['run']} (not counted)" if s.get("run") else " between runs")
              + f": {s['complete_rounds']} of {ab.get('rounds')} measured rounds complete")
    return 1 if any(c["pass"] is False for c in checks) else 0


def within_1pp(name, within, conclusive, value, why):
    """A 1 pp check: pass None (INCONCLUSIVE, no failure) where tko apply judged
    the measured gain's interval too wide to resolve 1 pp, for then its median
    alone can neither meet nor miss the target (the own model on the H100,
    2026-12-05: wall steps of 2.0-2.7 ms in one call, interval [0.93, 1.32])."""
    if conclusive is False:
        return {"name": f"{name} (inconclusive: {why})", "pass": None, "value": value}
    return {"name": name, "pass": within is True, "value": value}


def gpu_check(st):
    """The step's GPU-time gain (the kernel windows' whole GPU time) within 1 pp of the predicted."""
    value = {k: st.get(k) for k in ("gpu_step_ms", "gpu_predicted_gain", "gpu_measured_gain",
                                     "gpu_measured_gain_ci95", "gpu_difference_pp")}
    return within_1pp("measured GPU-time step gain within 1 pp of the predicted",
                      st.get("gpu_within_1pp"), st.get("gpu_conclusive"), value,
                      "its interval is wider than +-1 pp; more rounds")


def gpu_info(ab):
    """INFO line: how busy the GPU keeps the default arm's step, and every arm's GPU ms/step."""
    st = ab.get("step") or {}
    busy = st.get("gpu_busy")
    per_arm = {a["arm"]: [a.get("gpu_median_ms"), (a.get("gpu_vs_default") or {}).get("median")]
               for a in ab.get("arms", [])}
    line = "INFO gpu_busy " + (f"{busy:.3f}" if num(busy) else "null")
    line += f" (GPU ms/step over wall ms/step, default arm); arms [GPU ms/step, vs default]: {json.dumps(per_arm)}"
    if st.get("gpu_note"):
        line += "; " + st["gpu_note"]
    return line


def closer(measured, cold, warm):
    """Which prediction is nearer the measured figure: "warm", "cold" or "equal"."""
    dc, dw = abs(measured - cold), abs(measured - warm)
    return "equal" if abs(dc - dw) < 1e-12 else "warm" if dw < dc else "cold"


def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def warm_info(doc, ab):
    """INFO lines on tune's cold and warm predictions against what the step measured."""
    out = []
    st = ab.get("step") or doc.get("step") or {}
    m, c, w = st.get("measured_gain"), st.get("predicted_gain_cold"), st.get("predicted_gain_warm")
    if num(c) and num(w):
        line = (f"INFO step gain predicted cold {c:.4f}x, warm {w:.4f}x "
                f"({st.get('warm_kernels', 0)} winners timed warm)")
        if num(m):
            line += (f"; measured {m:.4f}x {json.dumps(st.get('measured_gain_ci95'))}: "
                     f"cold {(m - c) * 100:+.2f} pp, warm {(m - w) * 100:+.2f} pp, "
                     f"closer: {closer(m, c, w)}")
        out.append(line)
    tally = {"warm": 0, "cold": 0, "equal": 0}
    for k in doc["kernels"]:
        c, w, m = k.get("predicted_speedup"), k.get("predicted_warm_speedup"), k.get("measured_speedup")
        if not (k["planned"] and num(c) and num(w) and num(m)):
            continue
        side = closer(m, c, w)
        tally[side] += 1
        out.append(f"INFO kernel {k['kernel']}: tune cold {c:.3f}x, warm {w:.3f}x "
                   f"{json.dumps(k.get('predicted_warm_ci95'))}, measured in the step {m:.3f}x "
                   f"{json.dumps(k.get('measured_gain_ci95'))} ({k.get('verdict')}): closer: {side}")
    if sum(tally.values()):
        out.append(f"INFO per winner measured, the closer prediction: warm {tally['warm']}, "
                   f"cold {tally['cold']}, equal {tally['equal']}")
    for e in [e for e in doc.get("left_out", []) if e["reason"] == "slower_warm"]:
        out.append(f"INFO not measured in the step: {e['kernel']} (slower_warm; "
                   f"APPLY_AB_KEEP_SLOWER=1 runs it)")
    return out


def keep_off_checks(doc, ab):
    """Every keep-off run (warm-up included) proved each region took effect."""
    checks = []
    for a in [a for a in ab.get("arms", []) if a.get("keep_off")]:
        runs = [r for r in doc["runs"] if r["arm"] == a["arm"]]
        proofs = [[(x["region"], x["status"], x["calls"]) for x in (r.get("keep_off") or [])] for r in runs]
        ok = bool(runs) and all(p and all(s == "took_effect" and n > 0 for _, s, n in p) for p in proofs)
        checks.append({"name": f"{a['arm']}: the regions took effect in every run", "pass": ok,
                       "value": proofs})
    return checks


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
