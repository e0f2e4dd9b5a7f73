# List comprehensions with several `for` clauses (issue 19, item 6), as
# Python code writes them to form pairs and to flatten nested sequences:
#   pairs of grid cells, `[(i, j) for i in range(h) for j in range(w) if
#     i != j]`, with filters between the clauses
#   flattening, `[t for pair in pairs for t in pair]` (torch.optim's
#     Optimizer flattens its groups the same way over param_groups)
#   a generator over two clauses, `sum(a * b for a in s for b in s)`
#   an inner clause over a run-time range, and a run-time filter on an
#   outer clause
import torch
from torch import Tensor
from typing import List


# kiln: x=f32[4,4]
@torch.jit.script
def pairs(x: Tensor):
    cells = [(i, j) for i in range(4) if i % 2 == 0 for j in range(4) if j != i]
    total = x[0, 0] * 0.0
    for i, j in cells:
        total = total + x[i, j]
    return total, len(cells)


# kiln: x=f32[B,3], y=f32[B,3]
@torch.jit.script
def flatten(x: Tensor, y: Tensor):
    groups = ((x, y), (y * 2.0, x - 1.0, y))
    flat = [t.sum(-1) for group in groups for t in group]
    n = sum(a * b for a in x.shape for b in y.shape)
    return torch.stack(flat, 0), n


# kiln: x=f32[N,3]
@torch.jit.script
def runtime_inner(x: Tensor):
    n = x.size(0)
    rows = [x[i] * float(k) for k in range(1, 3) for i in range(n) if i % 2 == 0]
    gated = [float(d) for d in x.shape if bool(x.sum() > 0.0) for _ in range(2)]
    idx = [i * 10 + j for i in range(2) for j in range(n)]
    return torch.stack(rows, 0), len(gated), sum(idx), len(idx)


# A filter known only at run time guards its element: for N < 6, x[i] is
# never computed for a dropped i, where it would be out of range.
# kiln: x=f32[N]
@torch.jit.script
def guarded(x: Tensor):
    n = x.size(0)
    return torch.stack([x[i] * 2.0 for i in range(6) if i < n], 0)
