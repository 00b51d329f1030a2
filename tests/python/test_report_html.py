"""The HTML report in a real headless Chromium (Debian's chromium package).

The page tko writes for corpus/h200-run1 and examples/h200-run is loaded
from disk with --dump-dom (after the page's own script has run) and
checked: no console message at all (errors included), the kernel table
and the SVG charts are there, and sorting works, both through the
"#sort=KEY[:desc]" fragment the page honours and through a scripted click
on a heading ("#click=KEY"). Rows are read back with Python's html.parser
and their order compared with a sort done here. A screenshot of the
example's page is taken too; with TKO_SCREENSHOT=PATH it is copied there
(docs/report-screenshot.png comes from such a run).
"""
import html.parser
import os
import pathlib
import shutil
import subprocess

import pytest

CORPUS = pathlib.Path(os.environ.get("CORPUS", pathlib.Path(__file__).resolve().parents[1] / "corpus"))
ROOT = pathlib.Path(__file__).resolve().parents[2]
TKO = os.environ.get("TKO", str(ROOT / "build" / "tko"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium (script/bootstrap installs it)")


def chromium(url, *extra, timeout=120):
    """Runs headless Chromium on url; returns (stdout, stderr)."""
    argv = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", *extra, url]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout, p.stderr


class Page(html.parser.HTMLParser):
    """The kernel table's rows (cell texts and data-v), its attributes, and the svg ids."""

    def __init__(self):
        super().__init__()
        self.table_attrs, self.headers, self.rows, self.svgs = None, [], [], []
        self.rects = {}
        self._in_table = self._in_tbody = False
        self._cell = None
        self._svg = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "kernels":
            self.table_attrs, self._in_table = a, True
        elif self._in_table and tag == "th":
            self.headers.append(a.get("data-key"))
        elif self._in_table and tag == "tbody":
            self._in_tbody = True
        elif self._in_tbody and tag == "tr":
            self.rows.append([])
        elif self._in_tbody and tag == "td":
            self._cell = {"v": a.get("data-v"), "text": ""}
        elif tag == "svg":
            self._svg = a.get("id")
            self.svgs.append(self._svg)
            self.rects[self._svg] = 0
        elif tag == "rect" and self._svg:
            self.rects[self._svg] += 1

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self.rows[-1].append(self._cell)
            self._cell = None
        elif tag == "table" and self._in_table:
            self._in_table = self._in_tbody = False
        elif tag == "svg":
            self._svg = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell["text"] += data

    def column(self, key):
        i = self.headers.index(key)
        return [row[i] for row in self.rows]


def parse(dom):
    p = Page()
    p.feed(dom)
    return p


def console_lines(stderr):
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


@pytest.fixture(scope="module")
def corpus_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("corpus")
    subprocess.run([TKO, "-q", "investigate", "--out-dir", str(out), "--peak-gbps", "4243",
                    str(CORPUS / "h200-run1")], check=True, stdout=subprocess.DEVNULL)
    return out / "report" / "report.html"


def url(path, fragment=""):
    return path.resolve().as_uri() + fragment


def test_page_loads_without_console_messages(corpus_page):
    dom, err = chromium(url(corpus_page), "--dump-dom")
    assert console_lines(err) == []
    page = parse(dom)
    assert page.table_attrs is not None
    assert len(page.rows) == 19
    assert page.headers[:2] == ["rank", "kernel"]
    assert "chart-share" in page.svgs and "chart-rate" in page.svgs
    assert page.rects["chart-share"] == 8      # the 8 kernels with a time
    assert any(s.startswith("configs-") for s in page.svgs)
    assert "data-sorted" not in page.table_attrs


def test_sort_by_fragment(corpus_page):
    dom, err = chromium(url(corpus_page, "#sort=kernel"), "--dump-dom")
    assert console_lines(err) == []
    page = parse(dom)
    names = [c["text"] for c in page.column("kernel")]
    assert names == sorted(names, key=str.lower)
    assert page.table_attrs["data-sorted"] == "kernel:asc"

    dom, _ = chromium(url(corpus_page, "#sort=ms:desc"), "--dump-dom")
    page = parse(dom)
    values = [c["v"] for c in page.column("ms")]
    known = [float(v) for v in values if v]
    assert known == sorted(known, reverse=True) and len(known) == 8
    assert all(v == "" for v in values[len(known):])   # unknown times sort last
    assert page.table_attrs["data-sorted"] == "ms:desc"


def test_sort_by_click(corpus_page):
    dom, err = chromium(url(corpus_page, "#click=share"), "--dump-dom")
    assert console_lines(err) == []
    page = parse(dom)
    shares = [float(c["v"]) for c in page.column("share") if c["v"]]
    assert shares == sorted(shares)
    assert page.table_attrs["data-sorted"] == "share:asc"


def test_example_page_and_screenshot(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(ROOT / "examples" / "h200-run", run)
    subprocess.run([TKO, "-q", "investigate", str(run)], check=True, stdout=subprocess.DEVNULL)
    page_path = run / "report" / "report.html"
    dom, err = chromium(url(page_path), "--dump-dom")
    assert console_lines(err) == []
    page = parse(dom)
    assert len(page.rows) == 7
    shot = tmp_path / "shot.png"
    chromium(url(page_path), "--hide-scrollbars", "--window-size=1280,1500",
             "--screenshot=" + str(shot))
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20000
    if os.environ.get("TKO_SCREENSHOT"):
        shutil.copyfile(shot, os.environ["TKO_SCREENSHOT"])
