# A matrix entry point for run-inputs.test: results that span lines.
import torch
from torch import Tensor


# kiln: x=f32[B,C]
@torch.jit.script
def twice(x: Tensor) -> Tensor:
    return x * 2.0
