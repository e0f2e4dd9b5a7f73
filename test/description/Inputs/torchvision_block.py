"""A ResNet basic block in the form of torchvision's.

Origin: torchvision/models/resnet.py (torchvision 0.14, BSD-3-Clause),
`conv3x3`, `conv1x1` and `BasicBlock`, rewritten here from its structure:
the constructor takes `norm_layer` as a class (default nn.BatchNorm2d),
raises ValueError for unsupported options, calls module-level helpers
that return modules, and gets a `downsample` Sequential from outside.
"""
from typing import Callable, Optional

import torch
import torch.nn as nn
from torch import Tensor


def conv3x3(in_planes: int, out_planes: int, stride: int = 1,
            groups: int = 1, dilation: int = 1) -> nn.Conv2d:
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride,
                     padding=dilation, groups=groups, bias=False,
                     dilation=dilation)


def conv1x1(in_planes: int, out_planes: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=stride,
                     bias=False)


class BasicBlock(nn.Module):
    expansion: int = 1

    def __init__(self, inplanes: int, planes: int, stride: int = 1,
                 downsample: Optional[nn.Module] = None, groups: int = 1,
                 base_width: int = 64, dilation: int = 1,
                 norm_layer: Optional[Callable[..., nn.Module]] = None
                 ) -> None:
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        if groups != 1 or base_width != 64:
            raise ValueError("BasicBlock only supports groups=1 and "
                             "base_width=64")
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in "
                                      "BasicBlock")
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: Tensor) -> Tensor:
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)

        if self.downsample is not None:
            identity = self.downsample(x)

        out += identity
        out = self.relu(out)

        return out


def build():
    downsample = nn.Sequential(conv1x1(4, 8, 2), nn.BatchNorm2d(8))
    return BasicBlock(4, 8, stride=2, downsample=downsample)


ARGS = {"x": "f32[B,4,H,W]"}
INPUTS = [(2, 4, 10, 10), (3, 4, 7, 9)]
