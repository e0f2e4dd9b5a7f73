from typing import Optional

import torch
from torch import Tensor


# kiln: x=f32[N], b=f32[N]?
@torch.jit.script
def add_bias(x: Tensor, b: Optional[Tensor] = None) -> Tensor:
    y = x * 2.0
    if b is not None:
        y = y + b
    return y
