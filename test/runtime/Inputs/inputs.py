# Signatures for input-errors.test: a dim symbol shared by two inputs, a
# static dim, and a Python scalar.
import torch
from torch import Tensor


# kiln: x=f32[N], y=f32[N]
@torch.jit.script
def f(x: Tensor, y: Tensor) -> Tensor:
    return x * y + 1.0


# kiln: x=f32[4]
@torch.jit.script
def g(x: Tensor, k: int) -> Tensor:
    return x * float(k)
