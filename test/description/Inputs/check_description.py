#!/usr/bin/python3
"""Differential test of kiln.compile on a live module against eager.

Usage: check_description.py BIN_DIR MODEL.py

MODEL.py defines build() (the model, built by real Python), ARGS (the
shapes for kiln.compile) and INPUTS (the input shapes to try). This script
builds the model with a fixed seed, gives every BatchNorm non-trivial
running statistics, puts it in eval mode, compiles it with kiln.compile at
-O0 and -O2, runs each archive with `kiln run` on inputs saved as .npy and
compares with eager: the largest difference must be within 1e-4 of the
output's largest magnitude. Prints one line per run and `all ok: N runs`.
"""
import importlib.util
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

TOL = 1e-4


def load(path):
    spec = importlib.util.spec_from_file_location(
        os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and inspect look it up
    spec.loader.exec_module(module)
    return module


def build(source):
    torch.manual_seed(0)
    model = source.build()
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
    return model.eval()


def main():
    bin_dir, path = sys.argv[1], sys.argv[2]
    os.environ["KILN_BIN"] = os.path.join(bin_dir, "kiln")
    import kiln
    source = load(path)
    model = build(source)
    ok, runs = True, 0
    with tempfile.TemporaryDirectory(prefix="kiln-desc-test-") as work:
        for opt in (0, 2):
            archive = os.path.join(work, "O%d.kiln" % opt)
            kiln.compile(model, args=source.ARGS, output=archive, opt=opt)
            for k, shape in enumerate(source.INPUTS):
                runs += 1
                x = torch.randn(*shape)
                with torch.no_grad():
                    expected = model(x.clone()).numpy()
                np.save(os.path.join(work, "x.npy"), x.numpy())
                proc = subprocess.run(
                    [os.path.join(bin_dir, "kiln"), "run", archive,
                     "--entry", "forward", "--input",
                     "x=" + os.path.join(work, "x.npy"), "--output", work],
                    capture_output=True, text=True)
                label = "-O%d %s" % (opt, list(shape))
                if proc.returncode != 0:
                    print("%s: error: kiln run: %s" % (label, proc.stderr))
                    ok = False
                    continue
                actual = np.load(os.path.join(work, "forward.result0.npy"))
                if actual.shape != expected.shape:
                    print("%s: FAILED: shape %s, expected %s"
                          % (label, actual.shape, expected.shape))
                    ok = False
                    continue
                scale = max(float(np.abs(expected).max()), 1e-30)
                diff = float(np.abs(actual - expected).max()) / scale
                good = diff <= TOL
                ok &= good
                print("%s: %s (max diff %.2g of the largest magnitude)"
                      % (label, "ok" if good else "FAILED", diff))
    print("%s: %d runs" % ("all ok" if ok else "FAILED", runs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
