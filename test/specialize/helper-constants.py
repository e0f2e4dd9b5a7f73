# A module attribute passed to a plain helper stays a constant inside it:
# the helper is specialized on the numbers known at the call, as it is on
# None and strings. torchvision's StochasticDepth (ops/stochastic_depth.py,
# reproduced in shape below) calls stochastic_depth(input, self.p,
# self.mode, self.training): in eval mode `not training` folds to True, so
# the run-time noise (torch.empty of a run-time size list, bernoulli_) and
# the f-string checks of `p` are never lowered.
import torch
import torch.nn as nn
from torch import Tensor

# RUN: kiln compile %s --entry Block --emit=ir 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK-LABEL: func.func @forward(
# CHECK: call @stochastic_depth(
# CHECK-LABEL: func.func private @stochastic_depth(
# CHECK-NOT: scf.if
# CHECK-NOT: kiln.empty
# CHECK: return %arg0
#
# Two calls with different constants are two specializations; the same
# constants share one.
# RUN: kiln compile %s --entry Scales --emit=ir | FileCheck %s --check-prefix=SCALES
# SCALES: func.func private @scale(
# SCALES: arith.constant 2.000000e+00
# SCALES: func.func private @scale_1(
# SCALES: arith.constant 3.000000e+00
# SCALES-NOT: func.func private @scale_2(


def stochastic_depth(input: Tensor, p: float, mode: str,
                     training: bool = True) -> Tensor:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"drop probability has to be between 0 and 1, but got {p}")
    if mode not in ["batch", "row"]:
        raise ValueError(f"mode has to be either 'batch' or 'row', but got {mode}")
    if not training or p == 0.0:
        return input
    survival_rate = 1.0 - p
    if mode == "row":
        size = [input.shape[0]] + [1] * (input.ndim - 1)
    else:
        size = [1] * input.ndim
    noise = torch.empty(size, dtype=input.dtype, device=input.device)
    noise = noise.bernoulli_(survival_rate)
    return input * noise


class Block(nn.Module):
    def __init__(self, p: float = 0.2, mode: str = "row"):
        super().__init__()
        self.p = p
        self.mode = mode

    # kiln: x=f32[B,8]
    def forward(self, x):
        return stochastic_depth(x, self.p, self.mode, self.training)


def scale(x: Tensor, k: float) -> Tensor:
    return x * k


class Scales(nn.Module):
    # kiln: x=f32[4]
    def forward(self, x):
        return scale(x, 2.0) + scale(x, 3.0) + scale(x, 2.0)
