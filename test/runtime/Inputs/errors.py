# Scripts whose run-time checks fail for some inputs (runtime-errors.test).
import torch
from torch import Tensor


# kiln: x=f32[N], y=f32[M]
@torch.jit.script
def add(x: Tensor, y: Tensor) -> Tensor:
    return x + y


# kiln: x=f32[N]
@torch.jit.script
def pick(x: Tensor, i: int) -> Tensor:
    return x[i]


# kiln: x=f32[N]
@torch.jit.script
def check(x: Tensor) -> Tensor:
    assert x.size(0) > 2, "x needs more than two elements"
    return x * 2.0


# kiln: x=f32[N, K], w=f32[L, M]
@torch.jit.script
def mm(x: Tensor, w: Tensor) -> Tensor:
    return x @ w
