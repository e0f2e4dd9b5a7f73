# Random numbers on the GPU. Their values are kiln's own (Philox-4x32-10
# keyed by the runtime's random stream), not PyTorch's, so the GPU test
# compares each CUDA run with the same archive's CPU code run in a fresh
# process, which draws the same stream key (test/gpu/gpu_diff.py).
import torch
from torch import Tensor


# kiln: x=f32[B,N]
@torch.jit.script
def uniform(x: Tensor) -> Tensor:
    return torch.rand_like(x)


# kiln: x=f32[B,N]
@torch.jit.script
def normal(x: Tensor) -> Tensor:
    return x + torch.randn_like(x)


# kiln: x=f32[B,N]
@torch.jit.script
def sized(x: Tensor) -> Tensor:
    return torch.rand(x.size(0), 3) * x.sum(1, keepdim=True)


# kiln: x=f32[B,N]
@torch.jit.script
def dropout_mask(x: Tensor) -> Tensor:
    keep = torch.rand_like(x) >= 0.25
    return torch.where(keep, x / 0.75, torch.zeros_like(x))
