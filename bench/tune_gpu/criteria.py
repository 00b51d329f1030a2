"""The tuning benchmark's criteria (issue 6), judged from its results file.

Input: the document bench/tune_gpu/retime.py writes: per kernel the times
of Inductor's default autotuned config, coordinate descent's config and
tko's winner (median ms of the same interleaved repetitions), whether the
latter two computed the default's outputs, the bytes the kernel moves, its
kind, and tko's sweep time; and the copy bandwidth measured in the same run.
Output: evaluate() gives one verdict per criterion, table() the short
report the benchmark prints last, write() the JSON and Markdown files.

The criteria, as the issue states them, with NOISE = 2%:
  never_slower   tko's time <= Inductor's default autotuned time x 1.02, every kernel
  geomean        geomean over Inductor's kernels of default / tko >= 1.15
  vs_coordesc    tko's time <= coordinate descent's x 1.02, every kernel that has one
  bandwidth      memory-bound kernels (pointwise and reductions without atomics)
                 moving >= 64 MB: bytes / tko's time >= 85% of the copy bandwidth
  sweep_time     every tko sweep took <= 60 s
  correct        every coordesc and tko config computed the default's outputs
  confirmed      every winner tko's confirmation kept (src/tune/confirm.h; not the
                 base): its confirmed gain within CONFIRM_MATCH (2%) of the gain
                 re-timed here (default / tko), and that re-timed gain >= 1.00
and, from issue 17 (one truth for bytes and rates):
  rate_within_copy  no rate above 105% of the copy bandwidth: bytes / tko's
                 time here, and every rate tko run, tko tune and the report
                 print as a fact (a rate they flag with rate_doubt is not one)
  run_report_agree  tko run (its replay.json) and the report (report.json)
                 give every replayed kernel the same bytes and GB/s
The bytes are tko's own count (src/model/traffic.h, docs/json.md "Bytes and
rates"), which retime.py reads from tko tune's result (num_gb, bytes_estimate):
this file never counts bytes itself. A kernel whose bytes are an estimate (a
gather's bound) is left out of the bandwidth verdict, which it cannot judge.
A kernel tko gave no winner for counts at the default's time (the user keeps
Inductor's config). Needs no torch: it runs on any results file.

Beside the bandwidth verdict, not in it: where the results give the rate of
a plain copy moving the kernel's bytes (copy_same_size_gbps), the table's
"size%" column is tko's rate as a share of it. A copy moving 84 MB reaches
only about 73% of a 1 GiB copy's rate on an H200 (bench/copy_sizes.py), so
that column tells a kernel held back by its size from one held back by its
code.

Also beside the verdicts: where the results carry coordesc_logged_speedup
(what coordinate descent's own log claimed, "Improve from ... 1.98x"), the
"cd log" column shows it next to the re-timed coordesc/default, and
descent_claims() sets the two geomeans side by side over the kernels
whose log claimed a gain. The geomean target was set from such log
claims, so this says how much of them a careful re-timing keeps.
"""

import json
import math
import os
import tempfile

NOISE = 0.02
GEOMEAN_MIN = 1.15
BANDWIDTH_MIN = 0.85
BANDWIDTH_BYTES = 64e6
SWEEP_MAX_S = 60.0
OVER_COPY = 1.05            # TRAFFIC_OVER_COPY in src/model/traffic.h
AGREE = 1e-6                # relative: tko run's and the report's GB/s
CONFIRM_MATCH = 0.02
MEMORY_KINDS = ("pointwise", "reduction", "persistent_reduction", "foreach")


def _ms(row, role):
    r = row.get(role)
    return r.get("ms") if isinstance(r, dict) else None


def tko_ms(row):
    """tko's time, or the default's when tko gave no winner."""
    return _ms(row, "tko") if _ms(row, "tko") is not None else _ms(row, "default")


def speedups(row):
    d, c, t = _ms(row, "default"), _ms(row, "coordesc"), tko_ms(row)
    return {"tko_vs_default": d / t if d and t else None,
            "tko_vs_coordesc": c / t if c and t else None,
            "coordesc_vs_default": d / c if d and c else None}


def gbps(row):
    """bytes / tko's time in GB/s (bytes from tko's count), or None."""
    t, b = tko_ms(row), row.get("bytes")
    return b / (t / 1e3) / 1e9 if t and b else None


def over_copy(g, copy):
    return bool(g and copy and g > OVER_COPY * copy)


def _unflagged(doc):
    """Rates tko printed as facts above 105% of its copy rate: tko run's
    configs (replay.json), the report's kernels (report.json or
    kernels.json), tko tune's variants; as 'kernel (where)'."""
    out = []
    run, report, tune = doc.get("tko_run"), doc.get("tko_report"), doc.get("tko_tune")
    peak = ((run or {}).get("peak") or {}).get("copy_gbps")
    for k in (run or {}).get("kernels") or []:
        for i, c in enumerate(k.get("configs") or []):
            if over_copy(c.get("gbps"), peak) and not c.get("rate_doubt"):
                out.append("%s (tko run cfg %d)" % (k.get("kernel"), i))
    for k in (report or {}).get("kernels") or []:
        if over_copy(k.get("gbps"), (report or {}).get("peak_gbps")) and not k.get("rate_doubt"):
            out.append("%s (report)" % k.get("id", k.get("name")))
    for k in (tune or {}).get("kernels") or []:
        for v in k.get("variants") or []:
            if over_copy(v.get("gbps"), k.get("peak_gbps")) and not v.get("rate_doubt"):
                out.append("%s (tko tune %s)" % (k.get("kernel"), v.get("id")))
    return out


def _dir_key(path):
    return os.path.basename(os.path.normpath(path or ""))


def run_report_pairs(doc):
    """[(kernel, run bytes, run GB/s, report bytes, report GB/s)] for every
    kernel tko run replayed and the report timed from that replay."""
    report = {_dir_key(k.get("kernel_dir")): k for k in (doc.get("tko_report") or {}).get("kernels") or []
              if k.get("kernel_dir") and k.get("time_basis") == "replay"}
    pairs = []
    for k in (doc.get("tko_run") or {}).get("kernels") or []:
        rep = report.get(_dir_key(k.get("kernel_dir")))
        cap = next((c for c in k.get("configs") or [] if c.get("captured")), None)
        if rep is not None and cap is not None:
            pairs.append((k.get("kernel"), k.get("bytes"), cap.get("gbps"), rep.get("bytes"), rep.get("gbps")))
    return pairs


def _disagree(pairs):
    def close(a, b):
        return a is None and b is None or (a is not None and b is not None and
                                           abs(a - b) <= AGREE * max(abs(a), abs(b)))
    return ["%s (run %s B %s GB/s, report %s B %s GB/s)" % p for p in pairs
            if not (close(p[1], p[3]) and close(p[2], p[4]))]


def same_size_fraction(row):
    """tko's rate as a share of a copy moving the same bytes, or None."""
    g, c = gbps(row), row.get("copy_same_size_gbps")
    return g / c if g and c else None


def memory_bound(row):
    return row.get("kind") in MEMORY_KINDS and not row.get("atomic")


def _geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def descent_claims(doc):
    """Over the kernels whose descent log claimed a gain and whose
    descent config was re-timed: how many, the geomean claimed, the
    geomean re-timed (coordesc / default), or None when there are none."""
    pairs = [(r["coordesc_logged_speedup"], speedups(r)["coordesc_vs_default"])
             for r in doc.get("kernels") or []
             if not r.get("error") and (r.get("coordesc_logged_speedup") or 0) > 1
             and speedups(r)["coordesc_vs_default"]]
    if not pairs:
        return None
    return {"kernels": len(pairs), "claimed_geomean": _geomean([c for c, _ in pairs]),
            "retimed_geomean": _geomean([m for _, m in pairs])}


def confirmed_speedup(row):
    """The gain tko's confirmation stands by for the winner it kept, or None
    (no confirmation, or the base stayed)."""
    t = row.get("tko")
    return t.get("confirmed_speedup") if isinstance(t, dict) else None


def confirmation_misses(rows):
    """(kernels whose confirmed gain is off the re-timed one by more than
    CONFIRM_MATCH or re-times below 1.00, how many were judged)."""
    judged = [r for r in rows if confirmed_speedup(r) and speedups(r)["tko_vs_default"]]
    bad = []
    for r in judged:
        c, t = confirmed_speedup(r), speedups(r)["tko_vs_default"]
        if abs(c / t - 1) > CONFIRM_MATCH or t < 1.0:
            bad.append("%s (confirmed %.3fx, re-timed %.3fx)" % (r["kernel"], c, t))
    return bad, len(judged)


def _verdict(name, target, failing, applies, value=None):
    return {"name": name, "target": target, "pass": applies > 0 and not failing,
            "applies_to": applies, "failing": failing, "value": value}


def evaluate(doc):
    rows = [r for r in doc.get("kernels") or [] if not r.get("error")]
    errors = [r.get("kernel") for r in doc.get("kernels") or [] if r.get("error")]
    copy = doc.get("copy_gbps") or 0
    timed = [r for r in rows if _ms(r, "default") and tko_ms(r)]
    inductor = [r for r in timed if r.get("kind") != "user"]
    slower = [r["kernel"] for r in timed if tko_ms(r) > _ms(r, "default") * (1 + NOISE)]
    with_cd = [r for r in timed if _ms(r, "coordesc")]
    behind = [r["kernel"] for r in with_cd if tko_ms(r) > _ms(r, "coordesc") * (1 + NOISE)]
    geo = _geomean([_ms(r, "default") / tko_ms(r) for r in inductor])
    big = [r for r in timed if memory_bound(r) and (r.get("bytes") or 0) >= BANDWIDTH_BYTES
           and not r.get("bytes_estimate")]
    over = ["%s%s" % (r["kernel"], " (bytes an estimate)" if r.get("bytes_estimate") else "")
            for r in timed if over_copy(gbps(r), copy)]
    rated = [r for r in timed if gbps(r)]
    slow_bw = [r["kernel"] for r in big if not copy or gbps(r) < BANDWIDTH_MIN * copy]
    sweeps = [r for r in rows if isinstance(r.get("tko"), dict) and r["tko"].get("sweep_s") is not None]
    long_sweeps = [r["kernel"] for r in sweeps if r["tko"]["sweep_s"] > SWEEP_MAX_S]
    checked = [(r, role) for r in rows for role in ("coordesc", "tko")
               if isinstance(r.get(role), dict) and "correct" in r[role]]
    wrong = ["%s (%s)" % (r["kernel"], role) for r, role in checked if not r[role]["correct"]]
    out = [
        _verdict("never_slower", "tko <= Inductor default x %.2f on every kernel" % (1 + NOISE),
                 slower, len(timed)),
        _verdict("geomean", "geomean default / tko >= %.2f over Inductor's kernels" % GEOMEAN_MIN,
                 [] if geo is not None and geo >= GEOMEAN_MIN else ["geomean %.3f" % (geo or 0)],
                 len(inductor), geo),
        _verdict("vs_coordesc", "tko <= coordesc x %.2f on every kernel" % (1 + NOISE),
                 behind, len(with_cd)),
        _verdict("bandwidth", "memory-bound kernels moving >= 64 MB reach >= 85%% of %.0f GB/s"
                 % copy, slow_bw, len(big)),
        _verdict("sweep_time", "every tko sweep <= %.0f s" % SWEEP_MAX_S, long_sweeps, len(sweeps),
                 max((r["tko"]["sweep_s"] for r in sweeps), default=None)),
        _verdict("correct", "coordesc's and tko's configs compute the default's outputs",
                 wrong, len(checked)),
        _verdict("confirmed", "every winner tko's confirmation kept: confirmed gain within "
                 "%.0f%% of the re-timed one, re-timed >= 1.00x" % (100 * CONFIRM_MATCH),
                 *confirmation_misses(rows)),
    ]
    if "tko_run" in doc or "tko_report" in doc or "tko_tune" in doc:
        out.append(_verdict("rate_within_copy", "no rate above %.0f%% of the copy bandwidth, here or"
                            " printed by tko as a fact" % (100 * OVER_COPY),
                            over + _unflagged(doc), len(rated)))
    else:
        out.append(_verdict("rate_within_copy", "no rate above %.0f%% of the copy bandwidth"
                            % (100 * OVER_COPY), over, len(rated)))
    if "tko_run" in doc and "tko_report" in doc:
        pairs = run_report_pairs(doc)
        out.append(_verdict("run_report_agree", "tko run and the report: same bytes and GB/s"
                            " (within %g) on every replayed kernel" % AGREE, _disagree(pairs), len(pairs)))
    if errors:
        out.append(_verdict("retimed", "every kernel re-timed", errors, len(errors) + len(rows)))
    return out


def _f(v, fmt):
    return fmt % v if v is not None else "-"


def table(doc):
    """The per-kernel table and the criteria, as text."""
    copy = doc.get("copy_gbps") or 0
    head = ("model", "kernel", "kind", "MB", "default ms", "coordesc ms", "tko ms",
            "tko/def", "tko conf", "tko/cd", "cd/def", "cd log", "GB/s", "copy%", "size%", "ok")
    lines, errors = [head], []
    for r in doc.get("kernels") or []:
        if r.get("error"):
            errors.append("%s %s: not re-timed: %s" % (r.get("model", "?"), r["kernel"], r["error"]))
            continue
        s, g = speedups(r), gbps(r)
        ok = all(r[x].get("correct", True) for x in ("coordesc", "tko") if isinstance(r.get(x), dict))
        over = over_copy(g, copy)
        lines.append((r.get("model", "?"), r["kernel"][:48], (r.get("kind") or "")[:11],
                      _f((r.get("bytes") or 0) / 1e6 or None,
                         "%.1f est." if r.get("bytes_estimate") else "%.1f"),
                      _f(_ms(r, "default"), "%.4f"),
                      _f(_ms(r, "coordesc"), "%.4f"), _f(_ms(r, "tko"), "%.4f"),
                      _f(s["tko_vs_default"], "%.2fx"), _f(confirmed_speedup(r), "%.3fx"),
                      _f(s["tko_vs_coordesc"], "%.2fx"),
                      _f(s["coordesc_vs_default"], "%.2fx"),
                      _f(r.get("coordesc_logged_speedup"), "%.2fx"), _f(g, "(%.0f)" if over else "%.0f"),
                      "over" if over else _f(100 * g / copy if g and copy else None, "%.0f%%"),
                      _f(100 * (same_size_fraction(r) or 0) or None, "%.0f%%"),
                      "yes" if ok else "NO"))
    widths = [max(len(str(x[i])) for x in lines) for i in range(len(head))]
    text = ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip() for row in lines]
    text += errors
    text.append("copy bandwidth %.0f GB/s (read + write, same process); size%%: of a copy "
                "moving the kernel's bytes; tko conf: the gain tko tune's confirmation "
                "gave its winner; MB: tko's count of the bytes read and written "
                "(est.: an estimate); (n) over: above %.0f%% of copy, not a fact" % (copy, 100 * OVER_COPY))
    claims = descent_claims(doc)
    if claims:
        text.append("coordinate descent's log claimed a gain on %d kernels, geomean %.3fx; "
                    "re-timed here its configs give %.3fx (cd log vs cd/def)"
                    % (claims["kernels"], claims["claimed_geomean"], claims["retimed_geomean"]))
    for c in doc.get("criteria") or evaluate(doc):
        val = " (%.3f)" % c["value"] if isinstance(c.get("value"), float) else ""
        text.append("%-4s %-12s %s%s%s" % ("PASS" if c["pass"] else "FAIL", c["name"], c["target"], val,
                                          ": " + ", ".join(c["failing"]) if c["failing"] else ""))
    return "\n".join(text)


def markdown(doc):
    rows = table(doc).splitlines()
    return "# tko tune benchmark (%s, %s)\n\n```\n%s\n```\n" % (
        doc.get("device"), doc.get("date"), "\n".join(rows))


def _write_atomic(path, text):
    fd, tmp = tempfile.mkstemp(prefix=".tune-gpu-", dir=os.path.dirname(os.path.abspath(path)))
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def write(doc, json_path, md_path=None):
    for r in doc.get("kernels") or []:
        if not r.get("error"):
            r["speedup"] = speedups(r)
            r["gbps"] = gbps(r)
            r["copy_fraction"] = gbps(r) / doc["copy_gbps"] if gbps(r) and doc.get("copy_gbps") else None
            r["over_copy"] = over_copy(gbps(r), doc.get("copy_gbps"))
            r["same_size_fraction"] = same_size_fraction(r)
    doc["descent_claims"] = descent_claims(doc)
    _write_atomic(json_path, json.dumps(doc, indent=1, default=str) + "\n")
    if md_path:
        _write_atomic(md_path, markdown(doc))


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv=None):
    """criteria.py RESULTS.json [--run REPLAY.json] [--report REPORT.json] [--tune TUNE.json]:
    tko run's document, the report's JSON and tko tune's add the issue-17 checks."""
    import argparse
    import sys
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("results")
    p.add_argument("--run", help="tko run's JSON (RUN/analysis/replay.json)")
    p.add_argument("--report", help="the report's JSON (RUN/report/report.json)")
    p.add_argument("--tune", help="tko tune --json")
    opts = p.parse_args(sys.argv[1:] if argv is None else argv)
    doc = _load(opts.results)
    for key, path in (("tko_run", opts.run), ("tko_report", opts.report), ("tko_tune", opts.tune)):
        if path:
            doc[key] = _load(path)
    doc["criteria"] = evaluate(doc)
    print(table(doc))
    return 0 if all(c["pass"] for c in doc["criteria"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
