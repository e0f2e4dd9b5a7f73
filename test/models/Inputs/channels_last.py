"""Convolutions of 16 channels and more, which kiln-channels-last
(passes/ChannelsLast.cpp) computes in N x H x W x C at -O2, with the
elementwise ops between them: a ResNet-style block (batch norm, relu, the
block's input added back), a strided convolution with a projection
shortcut, a leaky relu written as a where, a per-column scale, and then
what the pass stops at: a max pool, a product with a feature map nobody
else reads channels last. The image stem of 3 channels keeps its layout.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor
from typing import Tuple


class ChannelsLast(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.conv1 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.down = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.project = nn.Conv2d(16, 32, 1, stride=2, bias=False)
        self.column = nn.Parameter(torch.linspace(0.5, 2.0, 5))
        self.head = nn.Conv2d(32, 16, 1)

    # kiln: x=f32[B,3,10,10]
    def forward(self, x: Tensor) -> Tensor:
        x = F.relu(self.stem(x))
        h = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(h)) + x)
        y = self.down(x) + self.project(x)
        y = torch.where(y > 0, y, 0.1 * y) * self.column
        return self.head(F.max_pool2d(y, 2))

    # kiln: x=f32[B,16,6,6], z=f32[B,16,6,6]
    @torch.jit.export
    def gated(self, x: Tensor, z: Tensor) -> Tuple[Tensor, Tensor]:
        c = self.conv1(x)
        return torch.sigmoid(c) * z, self.conv2(c)
