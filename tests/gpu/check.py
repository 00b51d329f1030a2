"""The closing checks of tko's GPU proof (run by tests/gpu/proof.sh).

Inputs: the RUN directory of `tko capture`, the replay result (`tko run
--json` or `python -m tko.replay --json`), and the model outputs of a run
under capture and a run without it. It checks, against independent
sources (TorchInductor's own log lines, the model's saved tensors):

  1. kernels captured vs kernels TorchInductor generated: names in the log's
     "Generating kernel code with kernel_name: X" and "CachingAutotuner gets
     N configs for X" lines, against the `kernel` events and kernel dirs;
  2. replay times vs the autotune times in the log: "Benchmark all input
     configs for K, get:" blocks and the max-autotune "AUTOTUNE mm(...)"
     table, matched by config, within 10%; and the hand-written kernel's
     times as its autotuner reported them to the capture;
  3. the model's outputs identical with and without capture.

Writes a Markdown summary and a JSON document, prints the summary, exits 1
when a check fails.
"""
import argparse
import json
import os
import re
import statistics
import sys

TOLERANCE = 0.10
_LOG_MSG = re.compile(r"\] (?:\[[^\]]*\] )?(.*)$")
_BENCH_HEAD = re.compile(r"Benchmark all input configs for (\S+), get:")
_BENCH_ROW = re.compile(r"^(.*): ([0-9.eE+-]+|inf), nreg \S+, nspill \S+, #shared-mem \S+$")
_GEN = re.compile(r"Generating kernel code with kernel_name: (\S+)")
_GETS = re.compile(r"CachingAutotuner gets (\d+) configs for (\S+)")
_TABLE_HEAD = re.compile(r"^AUTOTUNE (\w+)\((.*)\)")
_TABLE_ROW = re.compile(r"^\s+(\S+) ([0-9.]+) ms ([0-9.]+)%\s*(.*)$")
_CONFIG_FIELDS = ("num_warps", "num_stages", "num_ctas", "maxnreg")


def value(text):
    text = text.strip()
    if text in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[text]
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text.strip("'")


def parse_config(text, sep):
    out = {}
    for part in text.split(", "):
        if sep in part:
            k, v = part.split(sep, 1)
            out[k.strip()] = value(v)
    return out


def config_key(kwargs, num_warps, num_stages):
    return (tuple(sorted((k, repr(v)) for k, v in kwargs.items())), num_warps, num_stages)


def parse_log(path):
    """What TorchInductor itself printed about kernels and autotuning."""
    generated, autotuners, bench, table = [], {}, {}, []
    current, in_table = None, False
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            m = _TABLE_HEAD.match(line)
            if m:
                in_table = True
                continue
            if in_table:
                row = _TABLE_ROW.match(line)
                if row:
                    table.append({"choice": row.group(1), "ms": float(row.group(2)),
                                  "config": parse_config(row.group(4), "=")})
                    continue
                if not line.startswith(("strides:", "dtypes:", "  ")):
                    in_table = False
            msg = _LOG_MSG.search(line)
            text = msg.group(1) if msg else line
            if (m := _GEN.search(text)):
                generated.append(m.group(1))
            if (m := _GETS.search(text)):
                autotuners.setdefault(m.group(2), []).append(int(m.group(1)))
            if (m := _BENCH_HEAD.search(text)):
                current = m.group(1)
                bench.setdefault(current, [])
                continue
            if text.startswith(("Best config for", "COORDESC:", "Skip", "Skipped")):
                current = None
            row = _BENCH_ROW.match(text) if current else None
            if row and "triton_heuristics" in line:
                cfg = parse_config(row.group(1), ": ")
                kwargs = {k: v for k, v in cfg.items() if k not in _CONFIG_FIELDS}
                bench[current].append({"kwargs": kwargs, "num_warps": cfg.get("num_warps"),
                                       "num_stages": cfg.get("num_stages"),
                                       "ms": float(row.group(2))})
            elif current and "triton_heuristics" in line and "Benchmark" not in text:
                current = None
    return {"generated": generated, "autotuners": autotuners, "bench": bench, "table": table}


def read_events(path):
    events = []
    if os.path.exists(path):
        with open(path, errors="replace") as f:
            for line in f:
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass
    return events


def check_kernels(log, events, run):
    seen = sorted({e["kernel"] for e in events if e.get("event") == "kernel"})
    dirs = sorted(os.listdir(os.path.join(run, "capture", "kernels")))
    captured = sorted({d.rsplit("-", 1)[0] for d in dirs})
    generated = sorted(set(log["generated"]))
    user = [e["kernel"] for e in events if e.get("event") == "kernel"
            and e.get("kind") in ("user_autotune", "user_jit")]
    return {"generated": generated, "autotuner_names": sorted(log["autotuners"]),
            "seen": seen, "captured_dirs": dirs,
            "generated_not_captured": [k for k in generated if k not in captured],
            "captured_not_generated": [k for k in captured if k not in generated],
            "hand_written": sorted(set(user)),
            "errors": [e for e in events if e.get("event") == "error"],
            "ok": all(k in captured for k in generated) and bool(user)}


def _load_capture(kernel_dir):
    try:
        with open(os.path.join(kernel_dir, "capture.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def _table_key(cfg):
    return tuple(cfg.get(k) for k in ("BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M",
                                      "num_stages", "num_warps"))


def compare_times(log, replay):
    """Each (kernel, config) the log timed, against its replay."""
    rows = []
    table = {_table_key(r["config"]): r for r in log["table"]}
    for k in replay.get("kernels", []):
        if k.get("error"):
            continue
        name = k.get("kernel")
        logged = {config_key(b["kwargs"], b["num_warps"], b["num_stages"]): b["ms"]
                  for b in log["bench"].get(name, [])}
        cap = _load_capture(k.get("kernel_dir", "")) if not logged else {}
        for c in k.get("configs", []):
            cfg = c.get("config") or {}
            key = config_key(cfg.get("kwargs") or {}, cfg.get("num_warps"), cfg.get("num_stages"))
            source, ref = None, None
            if key in logged:
                source, ref = "log: Benchmark all input configs", logged[key]
            elif name == "triton_mm" and cap:
                args = dict((cap.get("inductor_meta") or {}).get("config_args") or {})
                args.update(num_warps=cfg.get("num_warps"), num_stages=cfg.get("num_stages"))
                row = table.get(_table_key(args))
                if row:
                    source, ref = f"log: AUTOTUNE table ({row['choice']})", row["ms"]
            elif k.get("kind") == "user_autotune" and c.get("recorded_time_ms"):
                source, ref = "capture: Triton Autotuner timings", c["recorded_time_ms"]
            if ref is None or not ref:
                continue
            like = c.get("autotuner_method_ms")
            rows.append({"kernel": name, "config": describe(cfg), "source": source,
                         "reference_ms": ref, "replay_autotuner_method_ms": like,
                         "replay_median_ms": c.get("time_ms"),
                         "ratio": like / ref if like else None,
                         "median_ratio": c.get("time_ms") / ref if c.get("time_ms") else None})
    for r in rows:
        r["within_10pct"] = r["ratio"] is not None and abs(r["ratio"] - 1) <= TOLERANCE
    return rows


def describe(cfg):
    parts = [f"{k}={v}" for k, v in (cfg.get("kwargs") or {}).items()]
    parts += [f"{k}={cfg[k]}" for k in ("num_warps", "num_stages") if cfg.get(k) is not None]
    return " ".join(parts) or "(template constants)"


def compare_outputs(a_path, b_path):
    import torch
    a = torch.load(a_path, map_location="cpu")
    b = torch.load(b_path, map_location="cpu")
    out = {}
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            out[key] = {"identical": False, "why": "missing in one run"}
            continue
        same = a[key].shape == b[key].shape and a[key].dtype == b[key].dtype and torch.equal(a[key], b[key])
        diff = None if same or a[key].shape != b[key].shape else \
            float((a[key].double() - b[key].double()).abs().max())
        out[key] = {"identical": bool(same), "max_abs_diff": diff,
                    "shape": list(a[key].shape), "dtype": str(a[key].dtype)}
    return out


def replay_agreement(replay):
    total = bad = 0
    for k in replay.get("kernels", []):
        for c in k.get("configs", []):
            total += 1
            bad += c.get("outputs_match") is False or bool(c.get("error"))
    failed = [k.get("kernel_dir") for k in replay.get("kernels", []) if k.get("error")]
    return {"configs": total, "disagreeing_or_failed": bad, "kernels_failed": failed}


def markdown(res):
    k, t, o, r = res["kernels"], res["times"], res["outputs"], res["replay"]
    within = sum(1 for x in t if x["within_10pct"])
    lines = ["# tko GPU proof", "",
             f"Device: {res.get('device')}; torch {res.get('torch')}, triton {res.get('triton')}.", "",
             "## Kernels captured vs generated", "",
             f"- TorchInductor generated {len(k['generated'])} kernels (log: 'Generating kernel "
             f"code'); {len(k['generated']) - len(k['generated_not_captured'])} of them captured"
             + (f"; not captured: {', '.join(k['generated_not_captured'])}" if k['generated_not_captured'] else "") + ".",
             f"- CachingAutotuner objects named in the log: {len(k['autotuner_names'])} names; "
             f"kernel dirs written: {len(k['captured_dirs'])}; kernels seen by the hooks: {len(k['seen'])}.",
             f"- Captured but not in 'Generating kernel code' (templates, max-autotune choices, "
             f"hand-written): {', '.join(k['captured_not_generated']) or 'none'}.",
             f"- Hand-written kernels captured: {', '.join(k['hand_written']) or 'NONE'}.",
             f"- Capture error events: {len(k['errors'])}.", "",
             "## Replay vs the autotuner's times", "",
             f"{within} of {len(t)} timed configs within 10% (replay timed the autotuner's way / time "
             "the autotuner logged).", "",
             "| kernel | config | source | logged ms | replay ms (autotuner's way) | ratio | replay median ms | ok |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for x in t:
        lines.append(f"| {x['kernel']} | {x['config']} | {x['source']} | {x['reference_ms']:.4f} | "
                     f"{_fmt(x['replay_autotuner_method_ms'])} | {_fmt(x['ratio'], 3)} | "
                     f"{_fmt(x['replay_median_ms'])} | {'yes' if x['within_10pct'] else 'NO'} |")
    lines += ["", "## Outputs with and without capture", ""]
    for key, v in o.items():
        lines.append(f"- {key}: {'identical' if v['identical'] else 'DIFFERENT'} "
                     f"({v.get('shape')}, {v.get('dtype')}"
                     + (f", max |diff| {v['max_abs_diff']}" if v.get("max_abs_diff") else "") + ")")
    lines += ["", "## Replay outputs across configs", "",
              f"{r['configs']} configs replayed; {r['disagreeing_or_failed']} disagree with the captured "
              f"config or failed; kernels that could not be replayed: {len(r['kernels_failed'])}."]
    if t:
        ratios = [x["ratio"] for x in t if x["ratio"]]
        if ratios:
            lines.append(f"Median ratio {statistics.median(ratios):.3f}, range "
                         f"{min(ratios):.3f}-{max(ratios):.3f}.")
    return "\n".join(lines) + "\n"


def _fmt(v, digits=4):
    return f"{v:.{digits}f}" if isinstance(v, (int, float)) else "-"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--run", required=True)
    p.add_argument("--replay", required=True)
    p.add_argument("--outputs", nargs=2, metavar=("CAPTURED", "PLAIN"), required=True)
    p.add_argument("--md", required=True)
    p.add_argument("--json", required=True)
    a = p.parse_args()
    log = parse_log(os.path.join(a.run, "log", "model.log"))
    events = read_events(os.path.join(a.run, "capture", "events.jsonl"))
    with open(a.replay) as f:
        replay = json.load(f)
    versions = replay.get("replay") or replay.get("versions") or {}
    res = {"device": versions.get("device"), "torch": versions.get("torch"),
           "triton": versions.get("triton"),
           "kernels": check_kernels(log, events, a.run), "times": compare_times(log, replay),
           "outputs": compare_outputs(*a.outputs), "replay": replay_agreement(replay)}
    res["ok"] = {"kernels": res["kernels"]["ok"],
                 "times": bool(res["times"]) and all(x["within_10pct"] for x in res["times"]),
                 "outputs": all(v["identical"] for v in res["outputs"].values()),
                 "replay": res["replay"]["disagreeing_or_failed"] == 0}
    with open(a.json, "w") as f:
        json.dump(res, f, indent=1, default=str)
    text = markdown(res)
    with open(a.md, "w") as f:
        f.write(text)
    print(text)
    print("checks:", json.dumps(res["ok"]))
    return 0 if all(res["ok"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
