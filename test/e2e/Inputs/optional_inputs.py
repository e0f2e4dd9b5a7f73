"""Entry points with Optional[Tensor] inputs, run by
test/e2e/optional_inputs.test with a tensor and with None."""
import math
from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor


# `if b is not None:` is decided per call; `b` keeps its default of None.
# kiln: x=f32[N], b=f32[N]?
@torch.jit.script
def add_bias(x: Tensor, b: Optional[Tensor] = None) -> Tensor:
    y = x * 2.0
    if b is not None:
        y = y + b
    return y


# `Tensor | None`, `is None` with an else branch, a refinement inside `or`
# and `and`, a conditional expression, and a name that one branch assigns
# (a tensor after the if).
# kiln: x=f32[N, M], w=f32[M]
@torch.jit.script
def scale_or_default(x: Tensor, w: Tensor | None) -> Tensor:
    if w is None:
        s = x.sum(1)
    else:
        s = (x * w).sum(1)
    big = w is None or bool(w.sum() > 0.0)
    off = 1.0 if w is not None and bool(w.max() > 0.5) else 0.0
    v = w if w is not None else torch.ones(x.size(1))
    if w is None:
        w = torch.zeros(x.size(1))
    s = s + (x * w).mean(1) + v.sum() + off
    if big:
        s = s * 2.0
    return s


def _shifted(x: Tensor, shift: Optional[Tensor]) -> Tensor:
    if shift is None:
        return x
    return x - shift


# An Optional passed on to a helper that takes Optional[Tensor], and
# `assert ... is not None` refining what follows.
# kiln: x=f32[N], shift=f32[N], other=f32[N]
@torch.jit.script
def through_helper(x: Tensor, shift: Optional[Tensor],
                   other: Optional[Tensor] = None) -> Tensor:
    y = _shifted(x, shift)
    assert other is not None, "other is required here"
    return y * other


class MaskedAttention(nn.Module):
    """One head of causal self-attention, with the mask optional as in
    minGPT-style models."""

    def __init__(self):
        super().__init__()
        self.d = 8
        self.qkv = nn.Linear(8, 24)
        self.proj = nn.Linear(8, 8)

    # kiln: x=f32[B, T, 8], mask=f32[T, T]?
    def forward(self, x: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        q, k, v = self.qkv(x).split(self.d, dim=2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.d))
        if mask is not None:
            att = att.masked_fill(mask == 0, float('-inf'))
        att = torch.softmax(att, dim=-1)
        return self.proj(att @ v)


class TwoLayers(nn.Module):
    """Passes its optional mask on to one submodule and leaves the other's
    at its default of None."""

    def __init__(self):
        super().__init__()
        self.first = MaskedAttention()
        self.second = MaskedAttention()

    # kiln: x=f32[B, T, 8], mask=f32[T, T]?
    def forward(self, x: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        h = self.first(x, mask)
        return self.second(h) + h
