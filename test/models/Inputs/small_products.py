"""Linear layers on one row, on both sides of kiln-small-products'
threshold (passes/SmallProducts.cpp: a weight of 2^18 elements): 512 x 512,
which -O2 generates as a multiply and a sum (fused with the bias and
activation after it), and 513 x 512, which keeps the kernel library, as
-O0 does for both; a layer without a bias; a [K] vector row; and a NaN in
the input, which every output of its row must keep.
"""
import torch
import torch.nn as nn
from torch import Tensor
from typing import Tuple


class SmallProducts(nn.Module):
    def __init__(self):
        super().__init__()
        self.at = nn.Linear(512, 512)
        self.above = nn.Linear(512, 513)
        self.plain = nn.Linear(513, 24, bias=False)
        self.vector = nn.Linear(24, 7)

    # kiln: x=f32[1,512], v=f32[24]
    def forward(self, x: Tensor, v: Tensor) -> Tuple[Tensor, Tensor]:
        h = torch.relu(self.at(x))
        h = torch.tanh(self.above(h))
        h = self.plain(h)
        return h, torch.sigmoid(self.vector(v))

    # kiln: x=f32[1,512]
    @torch.jit.export
    def nan_row(self, x: Tensor) -> Tensor:
        x = torch.where(x == x.amax(), torch.full_like(x, float("nan")), x)
        return self.at(x)
