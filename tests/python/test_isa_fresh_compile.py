"""tko isa on what today's Triton emits: kernels compiled here, with no GPU,
for GPUTarget("hip", "gfx942", 64) and GPUTarget("cuda", 90, 32), then
scanned; the counts are checked against Python's own regex counts of the
same text (and the metadata Triton returned), never against tko."""
import collections
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

KERNELS = textwrap.dedent('''
    import json, os, sys
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    @triton.jit
    def scatter_scale(x_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m)
        i = tl.load(idx_ptr + offs, mask=m)
        tl.atomic_add(out_ptr + i, x * 2.0, mask=m)

    @triton.jit
    def matmul(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
        rm = tl.arange(0, M)[:, None]
        rn = tl.arange(0, N)[None, :]
        rk = tl.arange(0, K)
        a = tl.load(a_ptr + rm * K + rk[None, :])
        b = tl.load(b_ptr + rk[:, None] * N + rn)
        tl.store(c_ptr + rm * N + rn, tl.dot(a, b))

    out = sys.argv[1]
    jobs = [
        ("scatter_scale", scatter_scale,
         {"x_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
         {"BLOCK": 1024}),
        ("matmul", matmul,
         {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "constexpr", "N": "constexpr", "K": "constexpr"},
         {"M": 64, "N": 64, "K": 32}),
    ]
    for target, ext in ((GPUTarget("hip", "gfx942", 64), "amdgcn"), (GPUTarget("cuda", 90, 32), "ptx")):
        for name, fn, sig, consts in jobs:
            attrs = {(i,): [["tt.divisibility", 16]] for i in range(3)}
            k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=consts, attrs=attrs),
                               target=target, options={"num_warps": 4})
            stem = os.path.join(out, name + "." + ext)
            for key, text in k.asm.items():
                mode = "w" if isinstance(text, str) else "wb"
                with open(stem + "." + key, mode) as f:
                    f.write(text)
            with open(stem + ".meta.json", "w") as f:
                json.dump({"num_warps": k.metadata.num_warps, "name": k.metadata.name}, f)
''')


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("triton")
    empty = tmp_path_factory.mktemp("nolibcuda")
    cache = tmp_path_factory.mktemp("cache")
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TRITON_LIBCUDA_PATH=str(empty),
               TRITON_CACHE_DIR=str(cache))
    script = out / "compile.py"
    script.write_text(KERNELS)
    subprocess.run([sys.executable, str(script), str(out)], check=True, env=env,
                   capture_output=True, timeout=600)
    return out


def tko_json(path):
    res = subprocess.run([os.environ["TKO"], "-q", "isa", "--json", "-", str(path)],
                         capture_output=True, text=True, check=True)
    return json.loads(res.stdout)


def first_words(text, comment):
    """The first word of each statement, predicates and comments dropped."""
    for line in text.splitlines():
        line = re.split(comment, line)[0].split()
        if not line:
            continue
        word = line[1] if line[0].startswith("@") and len(line) > 1 else line[0]
        yield word.rstrip(";")


AMD_COUNTED = re.compile(r"^(global_|buffer_|flat_|scratch_|s_load_|s_buffer_load_|ds_|v_mfma|"
                         r"v_accvgpr|s_waitcnt|s_barrier|s_dcache_)")


def test_gfx942_counts_match_a_regex_count(compiled):
    for name in ("scatter_scale", "matmul"):
        path = compiled / (name + ".amdgcn.amdgcn")
        text = path.read_text()
        want = collections.Counter(w for w in first_words(text, r";|//") if AMD_COUNTED.match(w))
        doc = tko_json(path)
        assert doc["schema_version"] == 1
        (k,) = doc["kernels"]
        assert k["name"] == name and k["arch"] == "gfx942" and k["isa"] == "amdgcn"
        assert collections.Counter(k["ops"]) == want
        vgpr = int(re.search(r"^\s+\.vgpr_count:\s+(\d+)", text, re.M).group(1))
        assert k["resources"]["vgprs"] == vgpr


def test_gfx942_families_and_findings(compiled):
    text = (compiled / "scatter_scale.amdgcn.amdgcn").read_text()
    k = tko_json(compiled / "scatter_scale.amdgcn.amdgcn")["kernels"][0]
    atomics = len(re.findall(r"^\s+global_atomic_add_f32\b", text, re.M))
    assert atomics > 0
    assert k["families"]["global_atomic"]["count"] == atomics
    assert any(f["id"] == "atomics" and f["evidence"]["atomics"] == atomics for f in k["findings"])
    mm = tko_json(compiled / "matmul.amdgcn.amdgcn")["kernels"][0]
    mfma = len(re.findall(r"^\s+v_mfma_", (compiled / "matmul.amdgcn.amdgcn").read_text(), re.M))
    assert mfma > 0 and mm["families"]["mfma"]["count"] == mfma
    lines = {s["line"] for s in mm["source_lines"]}
    src_lines = {int(m) for m in re.findall(r"^\s+\.loc\s+1\s+(\d+)", (compiled / "matmul.amdgcn.amdgcn").read_text(), re.M)}
    assert lines and lines <= src_lines


PTX_COUNTED = re.compile(r"^(ld|ldu|st|atom|red)\.|^cp\.async|^(mma|wgmma|ldmatrix|stmatrix|mbarrier)\.|"
                         r"^(bar|barrier|fence|membar)\.")


def test_sm90_ptx_counts_match_a_regex_count(compiled):
    for name in ("scatter_scale", "matmul"):
        path = compiled / (name + ".ptx.ptx")
        text = path.read_text()
        want = collections.Counter(
            re.sub(r"\.L[12]::[a-z_0-9]+", "", w) for w in first_words(text, r"//")
            if PTX_COUNTED.match(w) and not re.search(r"\.(param|const)(\.|$)", w))
        (k,) = tko_json(path)["kernels"]
        assert k["name"] == name and k["isa"] == "ptx" and k["arch"].startswith("sm_90")
        assert collections.Counter(k["ops"]) == want


def test_sm90_matmul_uses_matrix_instructions(compiled):
    k = tko_json(compiled / "matmul.ptx.ptx")["kernels"][0]
    text = (compiled / "matmul.ptx.ptx").read_text()
    n = len(re.findall(r"^\s+(?:wgmma\.mma_async|mma\.sync)", text, re.M))
    assert n > 0
    fams = k["families"]
    assert fams.get("wgmma", {}).get("count", 0) + fams.get("mma", {}).get("count", 0) == n


def test_sm90_cubin_when_nvdisasm_is_available(compiled):
    import triton
    nvd = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "nvdisasm")
    if not os.access(nvd, os.X_OK):
        pytest.skip("no nvdisasm in the Triton wheel")
    env = dict(os.environ, TRITON_NVDISASM_PATH=nvd,
               TRITON_CUOBJDUMP_PATH=os.path.join(os.path.dirname(nvd), "cuobjdump"))
    cubin = compiled / "scatter_scale.ptx.cubin"
    res = subprocess.run([os.environ["TKO"], "-q", "isa", "--json", "-", str(cubin)],
                         capture_output=True, text=True, check=True, env=env)
    (k,) = json.loads(res.stdout)["kernels"]
    sass = subprocess.run([nvd, "-c", str(cubin)], capture_output=True, text=True, check=True).stdout
    atomics = len(re.findall(r"\b(?:RED|REDG|ATOM|ATOMG)\.", sass))
    assert atomics > 0 and k["families"]["global_atomic"]["count"] == atomics
    assert k["resources"]["registers"] > 0
