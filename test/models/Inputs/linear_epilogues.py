"""Linear layers in every arrangement that kiln-library-epilogues looks at
(codegen/lowering/LibraryEpilogues.cpp): a bias alone, then tanh, sigmoid,
relu, SiLU (F.silu, and x * sigmoid(x) written out) or GELU (nn.GELU, and
F.gelu's tanh approximation), which stays in generated code; a batched
input; a
layer whose output is also read elsewhere; a bias after a transposed
product; and NaN inputs, which each activation must keep as PyTorch does.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class LinearEpilogues(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 24)
        self.b = nn.Linear(24, 24)
        self.c = nn.Linear(24, 12)
        self.d = nn.Linear(12, 12)
        self.e = nn.Linear(12, 8)
        self.f = nn.Linear(8, 8)
        self.g = nn.Linear(8, 6)
        self.gelu = nn.GELU()
        self.bias = nn.Parameter(torch.randn(5))

    # kiln: x=f32[B,16]
    def forward(self, x: Tensor) -> Tensor:
        # The largest element becomes NaN, so that its row of every product
        # below is NaN and the other rows are not.
        x = torch.where(x == x.amax(), torch.full_like(x, float("nan")), x)
        h = torch.tanh(self.a(x))
        h = torch.sigmoid(self.b(h))
        h = torch.relu(self.c(h))
        shared = self.d(h)  # read twice: the bias add stays apart
        h = shared + torch.relu(shared)
        h = F.silu(self.e(h))
        h = self.gelu(self.f(h)) * 3.0
        return F.gelu(self.g(h), approximate='tanh')

    # A batched input, SiLU written out and a residual after it, and
    # x @ W^T + b written out by hand with a transposed operand.
    # kiln: x=f32[B,T,16], y=f32[5,16]
    @torch.jit.export
    def batched(self, x: Tensor, y: Tensor) -> Tensor:
        h = torch.relu(self.a(x))
        s = self.b(h)
        h = s * torch.sigmoid(s) + h
        out = torch.matmul(h[:, :, :16], y.t()) + self.bias
        return torch.sigmoid(out)
