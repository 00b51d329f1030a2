"""`tko meta` on damaged copies of real kernel modules: cut short at many
points, or with one byte deleted or changed. It must never crash (exit 0 or
1 only, a single error line), and where Python's own parser says a bracket
"was never closed" or a string is unterminated, tko must report the same
line and column, since both name the innermost bracket left open.
"""
import ast
import os
import random
import subprocess
from pathlib import Path

import pytest

TKO = os.environ["TKO"]
CORPUS = Path(os.environ.get("CORPUS", Path(__file__).resolve().parents[1] / "corpus"))
FILES = sorted((CORPUS / "h200-run1" / "cache" / "inductor").rglob("*.py"))[::4]


def run(path):
    # JSON to stdout, never to os.devnull: a rename over /dev/null would replace it.
    return subprocess.run([TKO, "meta", "--json", "-", str(path)],
                          capture_output=True, text=True)


def python_error(text):
    try:
        ast.parse(text)
    except SyntaxError as e:
        return e
    return None


@pytest.mark.parametrize("src", FILES, ids=lambda p: p.parent.name)
def test_truncated_copies(src, tmp_path):
    data = src.read_bytes()
    cuts = sorted({int(len(data) * f / 13) for f in range(1, 13)})
    checked = 0
    for cut in cuts:
        path = tmp_path / "cut.py"
        path.write_bytes(data[:cut])
        out = run(path)
        assert out.returncode in (0, 1), (cut, out.stderr)
        if out.returncode == 1:
            assert len(out.stderr.splitlines()) == 1 and f"'{path}'" in out.stderr, out.stderr
        err = python_error(data[:cut].decode())
        if err is not None and "was never closed" in err.msg:
            assert out.returncode == 1
            assert f"line {err.lineno} column {err.offset}: '{err.msg[1]}' is never closed" \
                in out.stderr, (cut, err, out.stderr)
            checked += 1
    assert checked, "some cut fell inside a bracket"


@pytest.mark.parametrize("src", FILES, ids=lambda p: p.parent.name)
def test_one_byte_damage_never_crashes(src, tmp_path):
    data = bytearray(src.read_bytes())
    rnd = random.Random(src.name)
    for _ in range(20):
        damaged = bytearray(data)
        at = rnd.randrange(len(damaged))
        if rnd.random() < 0.5:
            del damaged[at]
        else:
            damaged[at] = rnd.choice(b"([{}])'\"\\#\n:=,\x00\xff")
        path = tmp_path / "damaged.py"
        path.write_bytes(bytes(damaged))
        out = run(path)
        assert out.returncode in (0, 1), (at, out.stderr)
        assert len(out.stderr.splitlines()) <= 1, out.stderr
