import torch
import torch.nn as nn
from torch import Tensor


# Weights stored in bf16 and f16: a bf16 Linear (PyTorch runs bf16 GEMM on
# the CPU) and an f16 buffer that scales its output after a cast to f32.
class HalfStorage(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4, dtype=torch.bfloat16)
        self.register_buffer("scale", torch.randn(4).to(torch.float16))

    # kiln: x=f32[B,8]
    def forward(self, x: Tensor) -> Tensor:
        return self.fc(x.bfloat16()).float() * self.scale.float()
