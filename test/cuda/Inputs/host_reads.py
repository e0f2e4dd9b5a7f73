import torch
from torch import Tensor


# kiln: x=f32[N]
@torch.jit.script
def branch(x: Tensor) -> Tensor:
    if x.sum() > 0:
        return x
    return -x


# kiln: x=f32[N]
@torch.jit.script
def shout(x: Tensor) -> Tensor:
    print(x)
    return x

