# An __init__ that calls plain functions of the file, picks a class through
# a local (`norm_layer = nn.BatchNorm2d`), raises only on paths not taken,
# and computes tensors for its buffers and parameters. Python runs it; the
# values are weights (state_dict() holds them), so each becomes a
# kiln.param of the shape and dtype PyTorch computed.
# RUN: kiln compile %s --entry Computed --emit=ir | FileCheck %s
#
# CHECK-LABEL: func.func @forward
# CHECK-DAG: kiln.param "fc.weight" : tensor<4x4xf32>
# CHECK-DAG: kiln.param "fc.bias" : tensor<4xf32>
# CHECK-DAG: kiln.param "norm.running_mean" : tensor<4xf32>
# CHECK-DAG: kiln.param "scale" : tensor<4xf32>
# CHECK-DAG: kiln.param "table" : tensor<6x1x4xf32>
# CHECK-DAG: kiln.param "steps" : tensor<5xi64>
# CHECK-DAG: kiln.param "mask" : tensor<1x1x3x3xf32>
import math
from typing import Optional

import torch
import torch.nn as nn


def make_linear(n: int, bias: bool = True) -> nn.Module:
    if n <= 0:
        raise ValueError("n must be positive")
    for _ in range(2):
        return nn.Linear(n, n, bias=bias)


class Computed(nn.Module):
    def __init__(self, n: int = 4, norm_layer: Optional[nn.Module] = None):
        super(Computed, self).__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm1d if False else nn.BatchNorm2d
        self.fc = make_linear(n)
        self.norm = norm_layer(n)
        self.scale = nn.Parameter(torch.randn(n) * 0.1 + 1.0)
        freq = torch.exp(torch.arange(0, n, 2).float() * (-math.log(100.0) / n))
        table = torch.zeros(6, n)
        pos = torch.arange(6).unsqueeze(1)
        table[:, 0::2] = torch.sin(pos * freq)
        table[:, 1::2] = torch.cos(pos * freq)
        self.register_buffer("table", table.unsqueeze(0).transpose(0, 1))
        self.register_buffer("steps", torch.arange(1, 10, 2))
        self.register_buffer("mask", torch.tril(torch.ones(3, 3)).view(1, 1, 3, 3))

    # kiln: x=f32[6,B,4]
    def forward(self, x):
        y = x + self.table + self.steps.sum() * self.mask.sum()
        return self.fc(y) * self.scale + self.norm.running_mean
