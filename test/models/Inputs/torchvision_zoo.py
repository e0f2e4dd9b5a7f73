#!/usr/bin/python3
"""torchvision's model zoo, unchanged, through kiln.compile (issue 15).

Usage: torchvision_zoo.py BIN_DIR MODEL...

For each MODEL (a torchvision.models builder name), as a user would:
  * build it with its default constructor after torch.manual_seed(0)
    (random initialization, no download) and put it in eval mode;
  * kiln.compile(model, args={"x": "f32[B,3,H,W]"}) into one archive,
    so batch size and image size are both run-time dims;
  * run `kiln run` on two batch sizes and two image sizes and compare with
    eager on the same input, within 1e-4 of the output's largest magnitude
    (oneDNN and PyTorch sum convolution products in different orders; the
    relative errors seen are about 1e-6).
Prints one line per run, then `all ok: N runs`; the exit status is 1 on any
failure. The models are torchvision 0.14's (Debian's python3-torchvision),
read from its own source files.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torchvision

import kiln

RTOL = 1e-4
SHAPES = [(1, 64), (2, 96)]  # (batch, image height = width)


def check(bin_dir, name, work):
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)().eval()
    archive = os.path.join(work, name + ".kiln")
    try:
        kiln.compile(model, args={"x": "f32[B,3,H,W]"}, output=archive)
    except kiln.CompileError as e:
        print("%s: FAILED to compile:\n%s" % (name, e))
        return False, 0
    ok = True
    for batch, size in SHAPES:
        x = torch.randn(batch, 3, size, size)
        with torch.no_grad():
            want = model(x)
        np.save(os.path.join(work, "x.npy"), x.numpy())
        out = os.path.join(work, "out")
        proc = subprocess.run(
            [os.path.join(bin_dir, "kiln"), "run", archive, "--entry",
             "forward", "--input", "x=" + os.path.join(work, "x.npy"),
             "--output", out], capture_output=True, text=True)
        if proc.returncode != 0:
            print("%s %dx%d: FAILED to run: %s" % (name, batch, size,
                                                  proc.stderr.strip()))
            ok = False
            continue
        got = torch.from_numpy(np.load(os.path.join(out, "forward.result0.npy")))
        err = (got - want).abs().max().item() / want.abs().max().item()
        good = got.shape == want.shape and err <= RTOL
        print("%s B=%d %dx%d: %s (max diff %.2e of the largest output)"
              % (name, batch, size, size, "ok" if good else "FAILED", err))
        ok &= good
    return ok, len(SHAPES)


def main():
    bin_dir, names = sys.argv[1], sys.argv[2:]
    os.environ["KILN_BIN"] = os.path.join(bin_dir, "kiln")
    ok, runs = True, 0
    with tempfile.TemporaryDirectory(prefix="kiln-zoo-") as work:
        for name in names:
            good, n = check(bin_dir, name, work)
            ok &= good
            runs += n
    print("%s: %d runs" % ("all ok" if ok else "FAILED", runs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
