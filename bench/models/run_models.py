"""Runs the tuning benchmark's two models in one process (one Python and
CUDA start-up for both): tests/gpu/model.py, the tko GPU proof's model, then
bench/models/second.py. Under `tko capture` it also records which captured
kernel directories each model produced, in $TKO_RUN_DIR/models.json
({"model": [directory names]}), by listing $TKO_CAPTURE_DIR/kernels after
each model (tko capture writes a kernel's directory at its first launch).

    python bench/models/run_models.py --out DIR    (DIR/model.pt, DIR/second.pt)
"""
import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernel_dirs():
    cap = os.environ.get("TKO_CAPTURE_DIR")
    d = os.path.join(cap, "kernels") if cap else None
    if not d or not os.path.isdir(d):
        return set()
    return {n for n in os.listdir(d) if not n.startswith(".")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="folder for the models' outputs")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    models = {}
    seen = kernel_dirs()
    first = load(os.path.join(ROOT, "tests", "gpu", "model.py"), "tko_bench_model")
    first.main(["--out", os.path.join(args.out, "model.pt"), "--steps", "1"])
    models["model"] = sorted(kernel_dirs() - seen)
    seen = kernel_dirs()
    load(os.path.join(HERE, "second.py"), "tko_bench_second").run(os.path.join(args.out, "second.pt"), steps=1)
    models["second"] = sorted(kernel_dirs() - seen)
    run_dir = os.environ.get("TKO_RUN_DIR")
    if run_dir:
        with open(os.path.join(run_dir, "models.json"), "w") as f:
            json.dump(models, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
