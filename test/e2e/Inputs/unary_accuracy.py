"""Runs one f32 torch function of one tensor through kiln on given points,
for the accuracy tests of kiln's own math expansions (erf_accuracy.py,
exp_accuracy.py)."""
import os
import subprocess

import numpy as np


def kiln_unary(bin_dir, work, function, x):
    """`function(x)` (e.g. "torch.exp") compiled and run by kiln, where x
    is a 1-d f32 numpy array; returns kiln's result."""
    os.makedirs(work, exist_ok=True)
    script = os.path.join(work, "unary.py")
    with open(script, "w") as f:
        f.write("import torch\nfrom torch import Tensor\n\n\n"
                "# kiln: x=f32[N]\n@torch.jit.script\n"
                "def e(x: Tensor) -> Tensor:\n    return %s(x)\n" % function)
    np.save(os.path.join(work, "x.npy"), x)
    archive = os.path.join(work, "unary.kiln")
    subprocess.run([os.path.join(bin_dir, "kiln"), "compile", script, "-o",
                    archive], check=True)
    subprocess.run([os.path.join(bin_dir, "kiln"), "run", archive,
                    "--input", "x=" + os.path.join(work, "x.npy"),
                    "--output", work], check=True, capture_output=True)
    return np.load(os.path.join(work, "e.result0.npy"))
