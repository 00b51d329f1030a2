"""The closing checks of tko's GPU proof (run by tests/gpu/proof.sh).

Inputs: the RUN directory of `tko capture`, the replay result (`tko run`'s
document), the model outputs of a run under capture and a run without it,
and optionally the log of a run without tko on fresh caches. It checks,
against independent sources (TorchInductor's own log lines and output code,
the model's saved tensors):

  1. kernels captured vs kernels TorchInductor generated: names in the log's
     "Generating kernel code with kernel_name: X" lines and in the output
     code's async_compile.triton('X', ...) calls; the max-autotune template
     modules the log names (TritonTemplateCaller(<module>, ...)) less those
     it reports failed, and the benchmark-fusion modules ("kernel src code
     for ... written to: <module>"), against the kernel dirs' source files;
  2. replay times vs the times the autotuner logged, within 10%: "Benchmark
     all input configs for K, get:" blocks, "COORDESC:" lines after "Do
     coordinate descent tuning for K", the max-autotune "AUTOTUNE mm(...)"
     table, and for the hand-written kernel the times its autotuner
     reported to the capture. The replay's number is the one timed the
     autotuner's way (tko.autotuner_way: the real CachingAutotuner.bench with
     the host-copy path the capture recorded). Every config outside 10% gets
     a cause, from measurements only (see classify());
  3. the model's outputs identical with and without capture.

Writes a Markdown summary and a JSON document, prints the summary, exits 1
when a check fails. The 10% criterion is never relaxed: a mismatch with a
measured cause is still a mismatch (ok.times false); ok.times_explained says
whether every one has a cause.
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
_COORDESC_HEAD = re.compile(r"= Do coordinate descent tuning for (\S+) =")
_COORDESC_ROW = re.compile(r"^COORDESC: (.*): ([0-9.eE+-]+|inf), nreg \S+, nspill \S+, #shared-mem \S+$")
_GEN = re.compile(r"Generating kernel code with kernel_name: (\S+)")
_GETS = re.compile(r"CachingAutotuner gets (\d+) configs for (\S+)")
_TABLE_HEAD = re.compile(r"^AUTOTUNE (\w+)\((.*)\)")
_TABLE_ROW = re.compile(r"^\s+(\S+) ([0-9.]+) ms ([0-9.]+)%\s*(.*)$")
_TEMPLATE = re.compile(r"TritonTemplateCaller\(([^,()]+\.py),")
_TEMPLATE_FAILED = re.compile(r"Exception .* for benchmark choice TritonTemplateCaller\(([^,()]+\.py),")
_FUSION = re.compile(r"kernel src code for .* written to: (\S+\.py)")
_OUTPUT = re.compile(r"Output code written to: (\S+\.py)")
_ASYNC = re.compile(r"async_compile\.triton\(\s*'(\w+)'")
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


def _bench_row(cfg_text, ms):
    cfg = parse_config(cfg_text, ": ")
    kwargs = {k: v for k, v in cfg.items() if k not in _CONFIG_FIELDS}
    return {"kwargs": kwargs, "num_warps": cfg.get("num_warps"),
            "num_stages": cfg.get("num_stages"), "ms": float(ms)}


class _LogState:
    """What parse_log has gathered so far, and where it is in the log."""

    def __init__(self):
        self.out = {"generated": [], "autotuners": {}, "bench": {}, "bench_blocks": {},
                    "coordesc": {}, "table": [], "template_modules": [],
                    "template_failed": [], "fusion_modules": [], "output_code": []}
        self.block = None       # rows of the "Benchmark all input configs" block being read
        self.name = None        # its kernel
        self.coordesc = None    # kernel whose coordinate descent is being read
        self.in_table = False

    def table_line(self, line):
        """True when `line` belonged to the AUTOTUNE table."""
        if _TABLE_HEAD.match(line):
            self.in_table = True
            return True
        if not self.in_table:
            return False
        row = _TABLE_ROW.match(line)
        if row:
            self.out["table"].append({"choice": row.group(1), "ms": float(row.group(2)),
                                      "config": parse_config(row.group(4), "=")})
            return True
        if not line.startswith(("strides:", "dtypes:", "  ")):
            self.in_table = False
        return False

    def modules(self, line):
        o = self.out
        for rx, key in ((_TEMPLATE_FAILED, "template_failed"), (_TEMPLATE, "template_modules"),
                        (_FUSION, "fusion_modules"), (_OUTPUT, "output_code")):
            m = rx.search(line)
            if m and m.group(1) not in o[key]:
                o[key].append(m.group(1))

    def message(self, line, text):
        o = self.out
        if (m := _GEN.search(text)):
            o["generated"].append(m.group(1))
        if (m := _GETS.search(text)):
            o["autotuners"].setdefault(m.group(2), []).append(int(m.group(1)))
        if (m := _COORDESC_HEAD.search(text)):
            self.coordesc = o["coordesc"].setdefault(m.group(1), [])
        if (m := _COORDESC_ROW.match(text)) and self.coordesc is not None:
            self.coordesc.append(_bench_row(m.group(1), m.group(2)))
        if (m := _BENCH_HEAD.search(text)):
            self.block = []
            o["bench_blocks"].setdefault(m.group(1), []).append(self.block)
            o["bench"].setdefault(m.group(1), [])
            self.name = m.group(1)
            return
        if text.startswith(("Best config for", "COORDESC:", "Skip", "Skipped")):
            self.block = None
        row = _BENCH_ROW.match(text) if self.block is not None else None
        if row and "triton_heuristics" in line:
            r = _bench_row(row.group(1), row.group(2))
            self.block.append(r)
            o["bench"][self.name].append(r)
        elif self.block is not None and "triton_heuristics" in line and "Benchmark" not in text:
            self.block = None


def parse_log(path):
    """What TorchInductor itself printed about kernels and autotuning."""
    st = _LogState()
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if st.table_line(line):
                continue
            st.modules(line)
            msg = _LOG_MSG.search(line)
            st.message(line, msg.group(1) if msg else line)
    return st.out


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


def local_path(run, path):
    """`path` on this machine: itself, or RUN/cache/inductor/<dir>/<file>
    (Inductor's code cache layout) when the RUN was made elsewhere."""
    if os.path.exists(path):
        return path
    tail = os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))
    return os.path.join(run, "cache", "inductor", tail)


def output_code_kernels(run, log):
    """Kernel names the output code modules launch (async_compile.triton)."""
    names = []
    for path in log["output_code"]:
        try:
            with open(local_path(run, path), errors="replace") as f:
                names += _ASYNC.findall(f.read())
        except OSError:
            pass
    return names


def _load_capture(kernel_dir):
    try:
        with open(os.path.join(kernel_dir, "capture.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def _modules_missing(paths, captured_files):
    return [p for p in paths if os.path.basename(p) not in captured_files]


def check_kernels(log, events, run):
    seen = sorted({e["kernel"] for e in events if e.get("event") == "kernel"})
    kdir = os.path.join(run, "capture", "kernels")
    dirs = sorted(os.listdir(kdir))
    captured = sorted({d.rsplit("-", 1)[0] for d in dirs})
    caps = {d: _load_capture(os.path.join(kdir, d)) for d in dirs}
    files = {os.path.basename(c.get("source_file") or "") for c in caps.values()}
    generated = sorted(set(log["generated"]) | set(output_code_kernels(run, log)))
    failed = set(log.get("template_failed", []))
    templates = [p for p in log.get("template_modules", []) if p not in failed]
    user = [e["kernel"] for e in events if e.get("event") == "kernel"
            and e.get("kind") in ("user_autotune", "user_jit")]
    res = {"generated": generated, "autotuner_names": sorted(log["autotuners"]),
           "seen": seen, "captured_dirs": dirs,
           "generated_not_captured": [k for k in generated if k not in captured],
           "captured_not_generated": [k for k in captured if k not in generated],
           "template_modules": len(templates), "template_modules_failed": sorted(failed),
           "template_modules_not_captured": _modules_missing(templates, files),
           "fusion_modules": len(log.get("fusion_modules", [])),
           "fusion_modules_not_captured": _modules_missing(log.get("fusion_modules", []), files),
           "function_only": [d for d, c in caps.items() if c.get("source_kind") == "function_only"],
           "hand_written": sorted(set(user)),
           "errors": [e for e in events if e.get("event") == "error"]}
    res["ok"] = (not res["generated_not_captured"] and not res["template_modules_not_captured"]
                 and not res["fusion_modules_not_captured"] and not res["function_only"]
                 and bool(user))
    return res


def _table_key(cfg):
    return tuple(cfg.get(k) for k in ("BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M",
                                      "num_stages", "num_warps"))


def _keyed(rows):
    return {config_key(r["kwargs"], r["num_warps"], r["num_stages"]): r["ms"] for r in rows}


def _cfg_key(cfg):
    return config_key(cfg.get("kwargs") or {}, cfg.get("num_warps"), cfg.get("num_stages"))


def pick_block(blocks, cap):
    """The log block of this kernel dir when several kernels share a name
    (every benchmark-fusion kernel is `triton_`): the one whose printed
    times are the capture's recorded ones (6 decimals in the log). The
    reference values still come from the log."""
    if len(blocks) == 1:
        return blocks[0]
    recorded = {_cfg_key(c): c.get("time_ms") for c in cap.get("configs", [])}
    for block in blocks:
        for key, ms in _keyed(block).items():
            if isinstance(recorded.get(key), float) and abs(recorded[key] - ms) < 1.5e-6:
                return block
    return None


def _reference(name, kind, cfg, logged, table, cap, c):
    """(source, ms) the log (or the capture, for hand-written kernels) gives."""
    key = _cfg_key(cfg)
    if key in logged:
        return logged[key]
    tkey = _template_key(name, cap, cfg)
    if tkey and tkey in table:
        return f"log: AUTOTUNE table ({table[tkey]['choice']})", table[tkey]["ms"]
    if kind == "user_autotune" and c.get("recorded_time_ms"):
        return "capture: Triton Autotuner timings", c["recorded_time_ms"]
    return None, None


def _template_key(name, cap, cfg):
    """The AUTOTUNE table key of a max-autotune choice, or None. The table
    times the choices themselves (triton_mm), not the final kernel with its
    epilogue fused."""
    args = dict((cap.get("inductor_meta") or {}).get("config_args") or {})
    if not args or name != "triton_mm":
        return None
    args.update(num_warps=cfg.get("num_warps"), num_stages=cfg.get("num_stages"))
    return _table_key(args)


def _per_call_us(wall_ms, calls):
    return wall_ms * 1e3 / calls if isinstance(wall_ms, (int, float)) and calls else None


def _captured_config(cap, cfg):
    key = _cfg_key(cfg)
    return next((c for c in cap.get("configs", []) if _cfg_key(c) == key), {})


def _logged_refs(log, name, cap):
    """{config key: (source, ms)} from the bench block and COORDESC lines of
    this kernel dir's kernel."""
    refs = {}
    blocks = log.get("bench_blocks", {}).get(name) or [log["bench"].get(name, [])]
    cd = log.get("coordesc", {}).get(name)
    if cd and len(blocks) == 1:
        refs.update({k: ("log: COORDESC", ms) for k, ms in _keyed(cd).items()})
    block = pick_block(blocks, cap)
    if block:
        refs.update({k: ("log: Benchmark all input configs", ms) for k, ms in _keyed(block).items()})
    return refs


def compare_times(log, replay, run, plain=None):
    """Each (kernel dir, config) the log timed, against its replay. A
    replay's kernel_dir is relative to the RUN (RUN/analysis/replay.json)."""
    rows = []
    table = {_table_key(r["config"]): r for r in log["table"]}
    for k in replay.get("kernels", []):
        if k.get("error"):
            continue
        name = k.get("kernel")
        cap = _load_capture(os.path.join(run, k.get("kernel_dir", "")))
        logged = _logged_refs(log, name, cap)
        for c in k.get("configs", []):
            cfg = c.get("config") or {}
            source, ref = _reference(name, k.get("kind"), cfg, logged, table, cap, c)
            if not ref:
                continue
            rows.append(_time_row(name, k, cfg, c, source, ref, cap, plain))
    for r in rows:
        r["within_10pct"] = r["ratio"] is not None and abs(r["ratio"] - 1) <= TOLERANCE
        r["cause"], r["why"] = classify(r)
        if r["cause"] and r["logged_without_tko_ms"]:
            r["why"] += f"; the run without tko logged {r['logged_without_tko_ms']:.4f} ms"
    return rows


def _time_row(name, k, cfg, c, source, ref, cap, plain):
    like, capc = c.get("autotuner_method_ms"), _captured_config(cap, cfg)
    row = {"kernel": name, "kernel_dir": os.path.basename(k.get("kernel_dir") or ""),
           "config": describe(cfg), "source": source, "reference_ms": ref,
           "method": c.get("autotuner_method"), "replay_autotuner_method_ms": like,
           "replay_median_ms": c.get("time_ms"),
           "replay_no_cpu_copy_ms": c.get("autotuner_method_no_cpu_copy_ms"),
           "ratio": like / ref if like else None,
           "median_ratio": c.get("time_ms") / ref if c.get("time_ms") else None,
           "capture_cpu_copy_args": capc.get("cpu_copy_args"),
           "replay_cpu_copy_args": c.get("autotuner_method_cpu_copy_args"),
           "capture_us_per_call": _per_call_us(capc.get("bench_wall_ms"), capc.get("bench_calls")),
           "replay_us_per_call": _per_call_us(c.get("autotuner_method_wall_ms"),
                                              c.get("autotuner_method_calls")),
           "logged_without_tko_ms": None}
    if plain is not None:
        row["logged_without_tko_ms"] = _plain_ms(plain, name, cfg, source, cap)
    return row


def _plain_ms(plain, name, cfg, source, cap):
    """The same config's time in the log of the run without tko, when the
    log names it once (a name shared by several kernels gives none)."""
    if source.startswith("log: Benchmark"):
        blocks = plain.get("bench_blocks", {}).get(name, [])
        found = {_keyed(b).get(_cfg_key(cfg)) for b in blocks} - {None}
        return found.pop() if len(found) == 1 else None
    tkey = _template_key(name, cap, cfg)
    if source.startswith("log: AUTOTUNE") and tkey:
        rows = [r["ms"] for r in plain.get("table", []) if _table_key(r["config"]) == tkey]
        return rows[0] if len(rows) == 1 else None
    return None


def classify(r):
    """(cause, why) of a config outside 10%, from measured numbers only:

    cpu_copy_not_reproduced  the capture saw bench restore arguments from
        pinned host memory inside the timed call and the replay did not;
    host_bound_in_capture    the log's time is above the replay's, and the
        capture's benchmark loop ran slower per timed call (bench's wall
        time / the benchmarker's calls, counted through get_event_pairs)
        than the replay's loop of the same code and kernel, by at least half
        the gap between the two times. The device work per call is the same
        on both sides (the L2 flush and the kernel call), so the capture's
        extra loop time is time the GPU waited for the host, and the part of
        it between a start event and the launch is in the logged time;
    host_bound_in_replay     the same the other way round;
    unexplained              no measurement accounts for it.
    (None, None) for a config within 10%."""
    if r["within_10pct"]:
        return None, None
    if r["ratio"] is None:
        return "unexplained", "the replay has no autotuner-way time"
    if r["capture_cpu_copy_args"] and not r["replay_cpu_copy_args"]:
        return "cpu_copy_not_reproduced", "the capture restored " + ", ".join(
            a["name"] for a in r["capture_cpu_copy_args"]) + " from host memory; the replay did not"
    cap, rep = r["capture_us_per_call"], r["replay_us_per_call"]
    if not (cap and rep):
        return "unexplained", "no per-call measurement on one side"
    gap = (r["reference_ms"] - r["replay_autotuner_method_ms"]) * 1e3
    what = (f"the benchmark loop took {cap:.1f} us per timed call in the capture and {rep:.1f} us "
            f"in the replay ({cap - rep:+.1f} us); the logged time is {gap:+.1f} us from the "
            "replay's")
    if gap > 0 and cap - rep >= 0.5 * gap:
        return "host_bound_in_capture", what
    if gap < 0 and rep - cap >= 0.5 * -gap:
        return "host_bound_in_replay", what
    return "unexplained", what


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
    no_method = [f"{k.get('kernel_dir')} cfg {c.get('index')}: {c['autotuner_method_error']}"
                 for k in replay.get("kernels", []) for c in k.get("configs", [])
                 if c.get("autotuner_method_error")]
    return {"configs": total, "disagreeing_or_failed": bad, "kernels_failed": failed,
            "autotuner_method_errors": no_method,
            "ok": bad == 0 and not failed and not no_method}


def _kernel_lines(k):
    lines = [f"- TorchInductor generated {len(k['generated'])} kernels (log 'Generating kernel code' "
             f"and the output code's async_compile.triton); "
             f"{len(k['generated']) - len(k['generated_not_captured'])} of them captured"
             + (f"; not captured: {', '.join(k['generated_not_captured'])}" if k['generated_not_captured'] else "") + ".",
             f"- Max-autotune template modules benchmarked (log: TritonTemplateCaller, less "
             f"{len(k['template_modules_failed'])} that failed to compile): {k['template_modules']}; "
             f"not captured: {len(k['template_modules_not_captured'])}"
             + "".join(f"\n  - {p}" for p in k["template_modules_not_captured"]),
             f"- Benchmark-fusion modules (log: 'kernel src code ... written to'): {k['fusion_modules']}; "
             f"not captured: {len(k['fusion_modules_not_captured'])}"
             + "".join(f"\n  - {p}" for p in k["fusion_modules_not_captured"]),
             f"- CachingAutotuner objects named in the log: {len(k['autotuner_names'])} names; "
             f"kernel dirs written: {len(k['captured_dirs'])}; kernels seen by the hooks: {len(k['seen'])}.",
             f"- Kernel dirs whose kernel.py is only the function (no module found): "
             f"{', '.join(k['function_only']) or 'none'}.",
             f"- Hand-written kernels captured: {', '.join(k['hand_written']) or 'NONE'}.",
             f"- Capture error events: {len(k['errors'])}."]
    return lines


def _time_lines(t):
    within = sum(1 for x in t if x["within_10pct"])
    causes = {}
    for x in t:
        if x["cause"]:
            causes[x["cause"]] = causes.get(x["cause"], 0) + 1
    lines = [f"{within} of {len(t)} timed configs within 10% (replay timed the autotuner's way / "
             "time the autotuner logged)"
             + (": the others " + ", ".join(f"{n} {c}" for c, n in sorted(causes.items())) if causes else "")
             + ".", "",
             "| kernel dir | config | source | logged ms | without tko ms | replay ms (autotuner's way) "
             "| ratio | without host copy ms | replay median ms | us/call capture | us/call replay | cause |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for x in t:
        lines.append(f"| {x['kernel_dir']} | {x['config']} | {x['source']} | {x['reference_ms']:.4f} | "
                     f"{_fmt(x['logged_without_tko_ms'])} | {_fmt(x['replay_autotuner_method_ms'])} | "
                     f"{_fmt(x['ratio'], 3)} | {_fmt(x['replay_no_cpu_copy_ms'])} | "
                     f"{_fmt(x['replay_median_ms'])} | {_fmt(x['capture_us_per_call'], 1)} | "
                     f"{_fmt(x['replay_us_per_call'], 1)} | "
                     f"{'ok' if x['within_10pct'] else x['cause']} |")
    lines += [f"- {x['kernel_dir']} {x['config']}: {x['cause']}: {x['why']}" for x in t if x["cause"]]
    return lines


def markdown(res):
    k, t, o, r = res["kernels"], res["times"], res["outputs"], res["replay"]
    lines = ["# tko GPU proof", "",
             f"Device: {res.get('device')}; torch {res.get('torch')}, triton {res.get('triton')}.", "",
             "## Kernels captured vs generated", ""] + _kernel_lines(k)
    lines += ["", "## Replay vs the autotuner's times", ""] + _time_lines(t)
    lines += ["", "## Outputs with and without capture", ""]
    for key, v in o.items():
        lines.append(f"- {key}: {'identical' if v['identical'] else 'DIFFERENT'} "
                     f"({v.get('shape')}, {v.get('dtype')}"
                     + (f", max |diff| {v['max_abs_diff']}" if v.get("max_abs_diff") else "") + ")")
    lines += ["", "## Replay outputs across configs", "",
              f"{r['configs']} configs replayed; {r['disagreeing_or_failed']} disagree with the captured "
              f"config or failed; kernels that could not be replayed: {len(r['kernels_failed'])}"
              + "".join(f"\n- {d}" for d in r["kernels_failed"])
              + (f"; autotuner-way timing failed for {len(r['autotuner_method_errors'])} configs"
                 + "".join(f"\n- {e}" for e in r["autotuner_method_errors"])
                 if r["autotuner_method_errors"] else "") + "."]
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
    p.add_argument("--plain-log", help="the log of the model run without tko, on fresh caches")
    p.add_argument("--md", required=True)
    p.add_argument("--json", required=True)
    a = p.parse_args()
    log = parse_log(os.path.join(a.run, "log", "model.log"))
    plain = parse_log(a.plain_log) if a.plain_log and os.path.exists(a.plain_log) else None
    events = read_events(os.path.join(a.run, "capture", "events.jsonl"))
    with open(a.replay) as f:
        replay = json.load(f)
    versions = replay.get("replay") or replay.get("versions") or {}
    res = {"device": versions.get("device"), "torch": versions.get("torch"),
           "triton": versions.get("triton"),
           "kernels": check_kernels(log, events, a.run), "times": compare_times(log, replay, a.run, plain),
           "outputs": compare_outputs(*a.outputs), "replay": replay_agreement(replay)}
    res["ok"] = {"kernels": res["kernels"]["ok"],
                 "times": bool(res["times"]) and all(x["within_10pct"] for x in res["times"]),
                 "times_explained": all(x["cause"] in (None, "host_bound_in_capture",
                                                       "host_bound_in_replay") for x in res["times"]),
                 "outputs": all(v["identical"] for v in res["outputs"].values()),
                 "replay": res["replay"]["ok"]}
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
