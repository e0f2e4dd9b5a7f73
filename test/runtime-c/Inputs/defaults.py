import torch
from torch import Tensor


# kiln: x=f32[N]
@torch.jit.script
def affine(x: Tensor, k: int = 2, shift: float = 0.5, negate: bool = False) -> Tensor:
    y = x * k + shift
    if negate:
        y = -y
    return y
