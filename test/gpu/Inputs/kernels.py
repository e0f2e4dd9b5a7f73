# Elementwise, reduction and copy kernels for the CUDA differential test
# (test/gpu/gpu_diff.py): each entry point exercises one way a fused group
# becomes a GPU kernel.
import torch
import torch.nn.functional as F
from torch import Tensor
from typing import Tuple


# kiln: x=f32[N]
@torch.jit.script
def chain(x: Tensor) -> Tensor:
    return torch.tanh(x * x) + torch.sigmoid(x) * 2.0 - x.abs().sqrt()


# kiln: x=f32[B,N], b=f32[N]
@torch.jit.script
def gelu_tanh(x: Tensor, b: Tensor) -> Tensor:
    return F.gelu(x + b, approximate="tanh")


# kiln: x=f32[B,N]
@torch.jit.script
def softmaxes(x: Tensor) -> Tuple[Tensor, Tensor]:
    # Over rows (a warp per row) and over columns (a thread per column).
    return torch.softmax(x, -1), torch.log_softmax(x, 0)


# kiln: x=f32[B,N]
@torch.jit.script
def reductions(x: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    return x.sum(0), x.mean(-1), x.amax(1), x.amin(0)


# kiln: x=f32[B,N]
@torch.jit.script
def normalize(x: Tensor) -> Tensor:
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + 1e-5)


# kiln: x=f32[B,N]
@torch.jit.script
def transpose_slice(x: Tensor) -> Tuple[Tensor, Tensor]:
    return x.t().contiguous() * 3.0, x[:, 1:] - x[:, :-1]


# kiln: x=f32[B,N]
@torch.jit.script
def scaled(x: Tensor, s: float) -> Tensor:
    return x * s + 1.0


# kiln: x=i64[B,N]
@torch.jit.script
def integers(x: Tensor) -> Tuple[Tensor, Tensor]:
    return (x * 3 + 1) % 7, x.sum(-1)


# kiln: x=f32[B,N]
@torch.jit.script
def select(x: Tensor) -> Tuple[Tensor, Tensor]:
    return torch.where(x > 0, x, x * 0.1), x > 0.5


# kiln: x=f32[B,N]
@torch.jit.script
def erf_exp(x: Tensor) -> Tensor:
    return torch.erf(x) * torch.exp(-x) + torch.log1p(x.abs())


# kiln: x=f32[B,N], y=f32[B,N]
@torch.jit.script
def vector_views(x: Tensor, y: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    # At 67x1000, 16-byte loads and stores where every view allows them:
    # x * y + 1, and the views four floats into each row (aligned, rows of
    # 996). Scalar ones where a view does not: one float in (rows of 999,
    # starting 4 bytes past a 16-byte boundary), and a column broadcast.
    return (x * y + 1.0, torch.relu(x[:, 4:] - y[:, 4:]),
            x[:, 1:] * 2.0 + y[:, 0].unsqueeze(1))


# kiln: x=f32[B,N]
@torch.jit.script
def row_tiles(x: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    # GPU row tiles (codegen/cuda/WarpTiles.cpp), a warp per row: a
    # variance, whose tile's root is itself a reduction reading the row's
    # mean; softmax of f64 rows, which every lane of the warp sums whole
    # (shuffles move 32 bits); softmax with two row dims (B, 1); and a row
    # scaled by its min and max, two reductions of the input.
    var = ((x - x.mean(-1, keepdim=True)) ** 2).sum(-1)
    wide = torch.softmax(x.double(), -1)
    rows = torch.softmax(x.unsqueeze(1) * 2.0, -1)
    lo = x.amin(-1, keepdim=True)
    scaled = (x - lo) / (x.amax(-1, keepdim=True) - lo + 1.0)
    return var, wide, rows, scaled


# kiln: x=f32[B,N]
@torch.jit.script
def loop_rows(x: Tensor, n: int) -> Tensor:
    # A row tile in a loop's body: softmax n times, one kernel each time.
    for _ in range(n):
        x = torch.softmax(x * 2.0, -1)
    return x
