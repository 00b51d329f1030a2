"""tko summarize against an independent reader of the same corpus files.

The log is read here with Python's re module, the cache records with the
json module; tko's --json output must agree with them fact for fact.
"""
import json
import os
import pathlib
import re
import subprocess

import pytest

CORPUS = pathlib.Path(os.environ.get("CORPUS", pathlib.Path(__file__).resolve().parents[1] / "corpus"))
RUN = CORPUS / "h200-run1"
LOG = RUN / "log_profile.txt"

GLOG = re.compile(r"^[VDIWEF]\d{4} [\d:.]+ +\d+ [^\]]+\] (?:\[[\d/_!]+\] )?")
TIMED = re.compile(r"^(?P<cfg>.*): (?P<ms>[\d.]+), nreg (?P<nreg>\d+), nspill (?P<nspill>\d+), #shared-mem (?P<shared>\d+)$")


def config_dict(text):
    """'XBLOCK: 1024, num_warps: 4, ..., maxnreg: None' -> {'XBLOCK': 1024, ...}."""
    out = {}
    for item in text.split(", "):
        key, value = item.split(": ")
        out[key] = None if value == "None" else int(value)
    return out


def log_benchmarks():
    """Every benchmark block of the log: kernel, rows, the chosen row."""
    blocks, current = [], None
    for line in LOG.read_text(encoding="utf-8").splitlines():
        msg = GLOG.sub("", line)
        m = re.match(r"Benchmark all input configs for (.*), get:$", msg)
        if m:
            current = {"kernel": m.group(1), "rows": []}
            continue
        m = re.match(r"Best config for ([^:]*): (.*)$", msg)
        if m and current:
            current["best"] = TIMED.match(m.group(2)).groupdict()
            blocks.append(current)
            current = None
            continue
        m = TIMED.match(msg)
        if m and current:
            current["rows"].append(m.groupdict())
    return blocks


@pytest.fixture(scope="module")
def summary(tmp_path_factory):
    out = tmp_path_factory.mktemp("summarize") / "out.json"
    subprocess.run([os.environ["TKO"], "summarize", str(RUN), "--json", str(out)],
                   check=True, capture_output=True)
    return json.loads(out.read_text())


def tko_benchmarks(summary):
    return [(k["name"], t) for k in summary["kernels"] for t in k["tunings"]
            if t["method"] == "benchmark" and t["from"]["tuning"]["format"] == "inductor_log"]


def test_every_benchmark_block(summary):
    expect = log_benchmarks()
    got = tko_benchmarks(summary)
    assert len(expect) == len(got) == 8
    for block, (name, tuning) in zip(expect, got):
        assert name == block["kernel"]
        assert len(tuning["configs"]) == len(block["rows"])
        for row, cfg in zip(block["rows"], tuning["configs"]):
            want = config_dict(row["cfg"])
            assert cfg["num_warps"] == want.pop("num_warps")
            assert cfg["num_stages"] == want.pop("num_stages")
            assert cfg["num_ctas"] == want.pop("num_ctas")
            assert cfg["maxnreg"] == want.pop("maxnreg")
            assert cfg["kwargs"] == want
            assert cfg["time_ms"] == pytest.approx(float(row["ms"]), abs=1e-9)
            assert cfg["n_regs"] == int(row["nreg"])
            assert cfg["n_spills"] == int(row["nspill"])
            assert cfg["shared_bytes"] == int(row["shared"])
        chosen = tuning["configs"][tuning["best_index"]]
        assert chosen["text"] == block["best"]["cfg"]
        assert chosen["time_ms"] == pytest.approx(float(block["best"]["ms"]), abs=1e-9)


def test_the_fastest_row_is_the_choice(summary):
    """Inductor picks the minimum; tko must report the one the log names."""
    for _, tuning in tko_benchmarks(summary):
        times = [c["time_ms"] for c in tuning["configs"]]
        assert tuning["configs"][tuning["best_index"]]["time_ms"] == min(times)


def test_best_config_records(summary):
    records = sorted((RUN / "cache" / "inductor").glob("*/*.best_config"))
    assert len(records) == 8
    by_file = {t["cache_file"].split("cache/inductor/")[1]: t
               for k in summary["kernels"] for t in k["tunings"] if t["cache_file"]}
    for path in records:
        data = json.loads(path.read_text())
        tuning = by_file[str(path.relative_to(RUN / "cache" / "inductor"))]
        chosen = tuning["configs"][tuning["best_index"]]
        kwargs = {k: v for k, v in data.items() if k.isupper()}
        assert chosen["kwargs"] == kwargs
        assert chosen["num_warps"] == data["num_warps"]
        assert chosen["num_stages"] == data["num_stages"]
        assert (tuning["method"] == "coordinate_descent") == data["found_by_coordesc"]


def test_declared_configs(summary):
    """Each 'CachingAutotuner gets N configs' is followed by N config lines."""
    lines = [GLOG.sub("", x) for x in LOG.read_text(encoding="utf-8").splitlines()]
    expect = []
    for i, msg in enumerate(lines):
        m = re.match(r"CachingAutotuner gets (\d+) configs for (.*)$", msg)
        if m:
            n = int(m.group(1))
            expect.append((m.group(2), [config_dict(c) for c in lines[i + 1:i + 1 + n]]))
    got = [(k["name"], [dict(c["kwargs"], num_warps=c["num_warps"], num_ctas=c["num_ctas"],
                             num_stages=c["num_stages"], maxnreg=c["maxnreg"])
                        for c in k["declared"]])
           for k in summary["kernels"] if k["from"]["num_configs"]
           and k["from"]["num_configs"]["format"] == "inductor_log"]
    assert sorted(got, key=repr) == sorted(expect, key=repr)
