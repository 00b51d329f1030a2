"""Packs a RUN directory into a small .tar.gz for examples/ (tests/gpu/proof.sh).

Keeps what tko's analysis reads (tko-run.json, env.json, the log, the capture
events and kernel directories, Inductor's kernel modules and .best_config,
Triton's metadata, TTIR/TTGIR, PTX/AMDGCN and binaries) and drops what is
big and not read: .llir and .source IR, FX-graph/AOT pickles, and any file
over --max-file bytes (kernel inputs, mostly). TRIMMED.txt inside the archive
lists every file left out and why, so nobody mistakes a trimmed RUN for a
complete one.
"""
import argparse
import io
import os
import tarfile

DROP_SUFFIXES = (".llir", ".source", ".pkl", ".lock")
DROP_DIRS = ("fxgraph", "aotautograd", "locks")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("run")
    p.add_argument("archive")
    p.add_argument("--name", default="h200-run", help="top folder inside the archive")
    p.add_argument("--max-file", type=int, default=1 << 20)
    p.add_argument("--max-total", type=int, default=12 << 20)
    a = p.parse_args()
    kept, dropped, total = [], [], 0
    for root, dirs, files in os.walk(a.run):
        dirs[:] = sorted(d for d in dirs if d not in DROP_DIRS or dropped.append(
            (os.path.relpath(os.path.join(root, d), a.run) + "/", "FX/AOT cache pickles")))
        for f in sorted(files):
            path = os.path.join(root, f)
            rel = os.path.relpath(path, a.run)
            size = os.path.getsize(path) if not os.path.islink(path) else 0
            if os.path.islink(path):
                dropped.append((rel, "a symbolic link"))
            elif f.endswith(DROP_SUFFIXES):
                dropped.append((rel, "IR or cache file not read by tko's analysis"))
            elif size > a.max_file:
                dropped.append((rel, f"{size} bytes, over {a.max_file}"))
            elif total + size > a.max_total:
                dropped.append((rel, "over the archive's size budget"))
            else:
                kept.append((path, rel))
                total += size
    note = "".join(f"{rel}\t{why}\n" for rel, why in dropped).encode()
    with tarfile.open(a.archive, "w:gz") as tar:
        for path, rel in kept:
            tar.add(path, arcname=f"{a.name}/{rel}", recursive=False)
        info = tarfile.TarInfo(f"{a.name}/TRIMMED.txt")
        info.size = len(note)
        tar.addfile(info, io.BytesIO(note))
    print(f"packed {len(kept)} files ({total} bytes) into {a.archive}; "
          f"left out {len(dropped)} (see TRIMMED.txt)")


if __name__ == "__main__":
    main()
