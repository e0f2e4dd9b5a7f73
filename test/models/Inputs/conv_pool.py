"""Convolutions whose bias and relu kiln-max-pool-first moves after the
max pool (passes/MaxPoolFirst.cpp): plain 2x2 pools, a padded 3x3 pool
with ceil_mode, a bias added by hand from the left, and a NaN that must
reach the output as PyTorch's pool and relu give it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class ConvPool(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 3)
        self.conv2 = nn.Conv2d(6, 8, 3, padding=1)
        self.shift = nn.Parameter(torch.randn(8, 1, 1))

    # kiln: x=f32[B,3,12,9]
    def forward(self, x: Tensor) -> Tensor:
        # The largest input becomes NaN: its windows are NaN after each pool.
        x = torch.where(x == x.amax(), torch.full_like(x, float("nan")), x)
        h = F.max_pool2d(F.relu(self.conv1(x)), 2)
        h = self.shift + F.conv2d(h, self.conv2.weight, padding=1)
        return F.max_pool2d(F.relu(h), 3, stride=2, padding=1,
                            ceil_mode=True)
