# Operations that IEEE 754 rounds correctly, as CUDA's defaults (nvcc's
# -prec-sqrt=true and -prec-div=true, which PyTorch is built with) do: the
# GPU test requires kiln's results to be PyTorch's to the bit
# (test/gpu/gpu_diff.py, BIT_EXACT).
import torch
from torch import Tensor


# kiln: x=f32[B,N]
@torch.jit.script
def root(x: Tensor) -> Tensor:
    return torch.sqrt(x.abs())


# kiln: x=f32[B,N]
@torch.jit.script
def quotient(x: Tensor) -> Tensor:
    return x / (x.abs() + 0.5)
