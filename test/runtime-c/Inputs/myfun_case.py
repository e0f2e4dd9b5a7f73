"""Writes the inputs and eager PyTorch's outputs of examples/seed/myfun.py
for run_archive.c: the line count N, then N inputs, then N outputs, each
printed with 9 significant digits (exact for f32)."""
import importlib.util
import sys

import torch

spec = importlib.util.spec_from_file_location("myfun", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)

# Zero, both signs, values where tanh saturates, and a non-round number.
x = torch.tensor([-3.0, -1.5, -0.25, 0.0, 0.1, 0.7, 1.0, 2.5, 1.2345678],
                 dtype=torch.float32)
y = module.myfun(x)
with open(sys.argv[2], "w") as out:
    out.write(f"{x.numel()}\n")
    out.write(" ".join(f"{v:.9g}" for v in x.tolist()) + "\n")
    out.write(" ".join(f"{v:.9g}" for v in y.tolist()) + "\n")
