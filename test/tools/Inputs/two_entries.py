# Two entry points with a parameter of the same name, for arg-keyed.test.
import torch
from torch import Tensor


@torch.jit.script
def f(x: Tensor) -> Tensor:
    return x + 1.0


@torch.jit.script
def g(x: Tensor, y: Tensor) -> Tensor:
    return x * y
