"""Checks the whole-step proof (tests/gpu/profile-proof.sh) and writes its summary.

Inputs: the RUN (its profile/window-<pid>.json), `tko profile --json` of its
trace, `tko investigate`'s analysis/kernels.json, and the model's own step
end times. Checks:
  1. the top library groups are there with their ATen op: a GEMM group under
     an aten:: matmul op and an attention group under an aten:: SDPA op;
  2. the groups' busy times add up to the busy time within 2%;
  3. the step time tko takes from the profile agrees within 5% with the wall
     clock of the same steps (the model's loss.item()-synchronised step ends
     between the window's start and stop).
    python3 tests/gpu/profile_check.py RUN PROFILE_JSON STEPS_JSON OUT_DIR
"""
import glob
import json
import os
import statistics
import sys


def main():
    run, prof_path, steps_path, out = sys.argv[1:5]
    prof = json.load(open(prof_path))
    steps = json.load(open(steps_path))["step_end_times"]
    windows = sorted(glob.glob(os.path.join(run, "profile", "window-*.json")))
    window = json.load(open(windows[-1])) if windows else None
    kernels = json.load(open(os.path.join(run, "analysis", "kernels.json")))
    checks = []

    def check(name, ok, detail):
        checks.append({"check": name, "ok": bool(ok), "detail": detail})

    groups = prof["groups"]
    gemm = [g for g in groups if g["class"] == "gemm" and (g["op"] or "").startswith("aten::")]
    attn = [g for g in groups if g["class"] == "attention" and "attention" in (g["op"] or "")]
    check("gemm_under_aten_op", gemm, [(g["op"], round(g["share"], 4), g["dtype"],
                                        g["top_kernel"]) for g in gemm[:3]])
    check("attention_under_aten_op", attn, [(g["op"], round(g["share"], 4), g["top_kernel"])
                                            for g in attn[:2]])
    total = sum(g["busy_us"] for g in groups)
    check("shares_sum_to_busy_2pct", abs(total - prof["busy_us"]) <= 0.02 * prof["busy_us"],
          {"sum_us": total, "busy_us": prof["busy_us"]})
    tko_step = prof["steps"]["step_time_us"]
    wall = None
    if window:
        inside = [t for t in steps if window["start_time"] <= t <= window["stop_time"]]
        diffs = [b - a for a, b in zip(inside, inside[1:])]
        wall = statistics.mean(diffs) * 1e6 if diffs else None
        check("window", not window["partial"] and window["autotune_benchmarks_in_window"] == 0,
              window)
    ok = wall is not None and tko_step is not None and abs(tko_step - wall) <= 0.05 * wall
    check("step_time_vs_wall_5pct", ok, {"tko_step_us": tko_step, "wall_step_us": wall})
    check("investigate_uses_profile", kernels.get("profile") and kernels["step_groups"],
          {"share_method": kernels.get("share_method"),
           "step_rules": [r["rule"] for r in kernels.get("step_rules", [])],
           "decided": [(g.get("op"), g["rules"][0]["rule"]) for g in kernels.get("step_groups", [])
                       if g.get("rules")]})
    lines = ["# whole-step profile proof", ""]
    lines += [f"- {'PASS' if c['ok'] else 'FAIL'} {c['check']}: {json.dumps(c['detail'])[:400]}"
              for c in checks]
    lines += ["", "top groups:"] + [
        f"  {g['rank']:2d} {100 * g['share']:5.1f}% {g['class']:9s} {g['key'][:60]} ({g['dtype']})"
        for g in groups[:10]]
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(out, "profile-proof.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(out, "profile-proof.json"), "w") as f:
        json.dump({"checks": checks, "profile": {k: prof[k] for k in
                   ("busy_us", "span_us", "idle_us", "device", "format", "classes", "steps")}},
                  f, indent=2)
    return 0 if all(c["ok"] for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
