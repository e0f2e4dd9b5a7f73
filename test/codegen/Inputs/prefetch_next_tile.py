import torch
from torch import Tensor


# Three passes over each tile's input (the max, the exp, and the scaling
# of the exp's buffer): the exp's pass prefetches.
# kiln: x=f32[512,1024]
@torch.jit.script
def softmax_rows(x: Tensor) -> Tensor:
    return torch.softmax(x, -1)


# Three passes over the input itself (the mean, the variance, the
# normalization), rows of a dynamic count whose last tile may be partial.
# kiln: x=f32[N,700]
@torch.jit.script
def normalize(x: Tensor) -> Tensor:
    mean = x.mean(-1, keepdim=True)
    centered = x - mean
    return centered / (centered * centered).mean(-1, keepdim=True)


# One pass each: nothing to prefetch.
# kiln: x=f32[512,1024]
@torch.jit.script
def row_sums(x: Tensor) -> Tensor:
    return torch.tanh(x).sum(-1)


# kiln: x=f32[512,1024]
@torch.jit.script
def elementwise(x: Tensor) -> Tensor:
    return torch.tanh(x) * 2.0
