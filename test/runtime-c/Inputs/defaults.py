from typing import Optional

import torch
from torch import Tensor


# kiln: x=f32[N]
@torch.jit.script
def affine(x: Tensor, k: int = 2, shift: float = 0.5, negate: bool = False) -> Tensor:
    y = x * k + shift
    if negate:
        y = -y
    return y


# An Optional scalar with a default: NULL is None, leaving it out is 1.5.
# kiln: x=f32[N]
@torch.jit.script
def shift_scale(x: Tensor, shift: Optional[float] = None,
                scale: Optional[float] = 1.5) -> Tensor:
    if shift is not None:
        x = x + shift
    if scale is not None:
        x = x * scale
    return x
