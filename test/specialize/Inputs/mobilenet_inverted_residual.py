# Origin: pytorch/vision, torchvision/models/mobilenet.py (v0.5),
# class InvertedResidual. The code is reproduced for testing kiln against
# eager PyTorch. Adapted: `assert stride in [1, 2]` is left out (kiln's
# __init__ has no `in` on lists yet), `int(round(inp * expand_ratio))` is
# `inp * expand_ratio` (nor `round`), ReLU6 is ReLU (kiln lacks nn.ReLU6), ConvBNReLU's layers are written out, since
# nn.Sequential(*layers) is not yet built by kiln's __init__ (issue 19,
# item 7), and `Strided` (ours) builds the stride-2 block. With stride 2,
# `x + self.conv(x)` adds an 8x8 and a 4x4 map: the branch is dead for this
# instance, and kiln must not type-check it.
import torch
import torch.nn as nn
from torch import Tensor


class InvertedResidual(nn.Module):
    def __init__(self, inp: int = 8, oup: int = 8, stride: int = 1, expand_ratio: int = 2):
        super(InvertedResidual, self).__init__()
        self.stride = stride

        hidden_dim = inp * expand_ratio
        self.use_res_connect = self.stride == 1 and inp == oup

        self.conv = nn.Sequential(
            # pw
            nn.Conv2d(inp, hidden_dim, 1, 1, 0, bias=False),
            nn.BatchNorm2d(hidden_dim),
            nn.ReLU(inplace=True),
            # dw
            nn.Conv2d(hidden_dim, hidden_dim, 3, stride, 1, groups=hidden_dim, bias=False),
            nn.BatchNorm2d(hidden_dim),
            nn.ReLU(inplace=True),
            # pw-linear
            nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False),
            nn.BatchNorm2d(oup),
        )

    # kiln: x=f32[B,8,8,8]
    def forward(self, x: Tensor) -> Tensor:
        if self.use_res_connect:
            return x + self.conv(x)
        else:
            return self.conv(x)


class Strided(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = InvertedResidual(8, 16, 2, 2)

    # kiln: x=f32[B,8,8,8]
    def forward(self, x: Tensor) -> Tensor:
        return self.block(x)
