"""The checks of tko's GPU fault-injection run (tests/gpu/faults.sh).

Inputs: the output folder of the model run without capture, and for each
fault case its name, its capture folder (events.jsonl, kernels/) and its
output folder. For every case:

  1. the model exited 0 and its outputs are identical (torch.equal) to the
     run without capture;
  2. the fault is recorded as error events, each with a stage and a message:
       drift     install errors naming each method that moved
                 (faults_model.MOVED), and the snapshot error of the
                 argument that cannot be saved (kernel scale_add_kernel)
       readonly  errors saying the kernels folder cannot be written
       full      errors saying the disk is full (ENOSPC, or EFBIG from the
                 file-size limit used when no small filesystem can be made)
  3. the kernels folder holds no half-written kernel directory (no .tmp-*
     folder, every kernel directory with a kernel.py and a capture.json
     that parses).

Writes a Markdown summary and a JSON document, exits 1 when a check fails.
"""
import argparse
import json
import os
import sys

WRITE_ERRORS = ("Permission denied", "Read-only file system", "Operation not permitted",
                "Not a directory", "File exists")
FULL_ERRORS = ("No space left on device", "File too large")
MOVED = ("bench", "_make_launchers")
OUTPUTS = ("softmax", "index_add", "mm_relu", "scale_add")


def read_events(cap):
    """The events of cap/events.jsonl; a line cut by a full disk is skipped."""
    path = os.path.join(cap, "events.jsonl")
    events, cut = [], 0
    if os.path.isfile(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    events.append(json.loads(line))
                except ValueError:
                    cut += 1
    return events, cut


def outputs_equal(base, out):
    import torch
    diffs = []
    for name in OUTPUTS:
        a, b = os.path.join(base, name + ".pt"), os.path.join(out, name + ".pt")
        if not os.path.isfile(b):
            diffs.append(f"{name}: missing")
        elif not torch.equal(torch.load(a), torch.load(b)):
            diffs.append(f"{name}: differs")
    return diffs


def kernel_dirs_whole(cap):
    bad = []
    kdir = os.path.join(cap, "kernels")
    if not os.path.isdir(kdir):
        return bad
    for d in sorted(os.listdir(kdir)):
        p = os.path.join(kdir, d)
        if d.startswith(".tmp-"):
            bad.append(f"{d}: a temporary folder left behind")
            continue
        try:
            with open(os.path.join(p, "capture.json"), encoding="utf-8") as f:
                json.load(f)
            if not os.path.isfile(os.path.join(p, "kernel.py")):
                bad.append(f"{d}: no kernel.py")
        except (OSError, ValueError) as e:
            bad.append(f"{d}: {e}")
    return bad


def fault_recorded(case, errors):
    """(ok, why) for the case's expected error events."""
    msgs = [str(e.get("message", "")) for e in errors]
    if case == "drift":
        missing = [m for m in MOVED
                   if not any(e.get("stage") == "install" and f"'{m}'" in str(e.get("message"))
                              for e in errors)]
        snap = [e for e in errors if e.get("stage") == "snapshot"
                and e.get("kernel") == "scale_add_kernel"]
        if missing:
            return False, "no install error for " + ", ".join(missing)
        if not snap:
            return False, "no snapshot error for scale_add_kernel's unsavable argument"
        return True, f"install errors for {', '.join(MOVED)}; snapshot error: {snap[0]['message']}"
    words = WRITE_ERRORS if case == "readonly" else FULL_ERRORS
    hits = [m for m in msgs if any(w in m for w in words)]
    if not hits:
        return False, f"no error event says {' / '.join(words)}"
    return True, f"{len(hits)} error events, e.g. {hits[0]}"


def check_case(name, cap, out, status, base):
    events, cut = read_events(cap)
    errors = [e for e in events if e.get("event") == "error"]
    res = {"case": name, "exit_status": status, "events": len(events), "cut_lines": cut,
           "error_events": len(errors),
           "error_stages": sorted({str(e.get("stage")) for e in errors})}
    res["output_diffs"] = outputs_equal(base, out) if status == 0 else ["the model failed"]
    res["recorded"], res["recorded_why"] = fault_recorded(name, errors)
    res["bad_kernel_dirs"] = kernel_dirs_whole(cap)
    res["kernel_dirs"] = len([d for d in os.listdir(os.path.join(cap, "kernels"))
                              if not d.startswith(".")]) if os.path.isdir(
                                  os.path.join(cap, "kernels")) else 0
    res["ok"] = (status == 0 and not res["output_diffs"] and res["recorded"]
                 and not res["bad_kernel_dirs"])
    return res


def markdown(results, notes):
    lines = ["# tko capture under injected faults (GPU)", "",
             "| case | model exit | outputs vs uncaptured | error events (stages) | recorded | kernel dirs | ok |",
             "| --- | ---: | --- | --- | --- | ---: | --- |"]
    for r in results:
        lines.append("| {} | {} | {} | {} ({}) | {} | {} | {} |".format(
            r["case"], r["exit_status"], "identical" if not r["output_diffs"] else
            "; ".join(r["output_diffs"]), r["error_events"], ", ".join(r["error_stages"]),
            r["recorded_why"].replace("|", "/"), r["kernel_dirs"],
            "yes" if r["ok"] else "NO"))
    lines += [""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--baseline", required=True, help="outputs of the run without capture")
    p.add_argument("--case", action="append", default=[], metavar="NAME:STATUS:CAPDIR:OUTDIR")
    p.add_argument("--note", action="append", default=[], help="a line for the summary")
    p.add_argument("--md", required=True)
    p.add_argument("--json", required=True)
    a = p.parse_args()
    results = []
    for c in a.case:
        name, status, cap, out = c.split(":", 3)
        results.append(check_case(name, cap, out, int(status), a.baseline))
    with open(a.md, "w") as f:
        f.write(markdown(results, a.note))
    with open(a.json, "w") as f:
        json.dump({"schema_version": 1, "cases": results, "notes": a.note,
                   "ok": all(r["ok"] for r in results) and bool(results)}, f, indent=1)
    sys.stdout.write(markdown(results, a.note))
    return 0 if results and all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
