# kiln's own test of the constructs issue 14 names (raise, isinstance,
# torch.jit.annotate, @torch.jit.unused/ignore, Optional[Tensor] helpers, an
# __init__ that calls helpers and computes tensors), written for kiln and
# run against eager PyTorch by snippets.test.
import math
from typing import List, Optional

import torch
import torch.nn as nn
from torch import Tensor


def scaled(x: Tensor, weight: Optional[Tensor] = None) -> Tensor:
    if weight is None:
        return x
    return x * weight


def checked(x: Tensor, groups: int = 1) -> Tensor:
    if groups != 1:
        raise ValueError("only groups=1 is supported")
    return x + 1


# kiln: x=f32[N,4], w=f32[N,4]
@torch.jit.script
def constructs(x, w, n: int):
    if n < 0:
        raise ValueError("n must not be negative")
    if x.size(0) > 0:
        y = x * 2
    else:
        raise RuntimeError("x is empty")
    sizes = torch.jit.annotate(List[int], [])
    sizes.append(n)
    flags = isinstance(x, Tensor) and not isinstance(n, float)
    if isinstance(n, int):
        y = y + float(n)
    else:
        y = y.foo()  # never compiled: n is an int
    return scaled(y) + scaled(y, w) + checked(x), flags, len(sizes)


def make_linear(n: int, bias: bool = True) -> nn.Module:
    return nn.Linear(n, n, bias=bias)


class Computed(nn.Module):
    def __init__(self, n: int = 4, norm_layer: Optional[nn.Module] = None):
        super(Computed, self).__init__()
        if norm_layer is None:
            norm_layer = nn.LayerNorm
        if n <= 0:
            raise ValueError("n must be positive")
        self.fc = make_linear(n)
        self.norm = norm_layer(n)
        self.scale = nn.Parameter(torch.randn(n) * 0.1 + 1.0)
        freq = torch.exp(torch.arange(0, n, 2).float() * (-math.log(100.0) / n))
        table = torch.zeros(6, n)
        pos = torch.arange(6).unsqueeze(1)
        table[:, 0::2] = torch.sin(pos * freq)
        table[:, 1::2] = torch.cos(pos * freq)
        self.register_buffer("table", table)

    @torch.jit.unused
    def export_onnx(self, path):
        with open(path) as f:  # never compiled
            f.write("")

    @torch.jit.ignore
    def debug(self, x):
        print(x)

    # kiln: x=f32[B,6,4]
    def forward(self, x):
        if isinstance(x, Tensor):
            x = x + self.table
        return self.norm(self.fc(x)) * self.scale


class Base(nn.Module):
    def __init__(self, n: int = 4):
        super().__init__()
        self.fc = nn.Linear(n, n)

    def forward(self, x):
        return self.fc(x)

    def extra(self, x):
        return x * 2


class Derived(Base):
    def __init__(self):
        super(Derived, self).__init__(4)
        self.scale = 3.0

    def extra(self, x):
        return x - 1

    # kiln: x=f32[B,4]
    def forward(self, x):
        # super() reaches Base's methods; self.extra is Derived's.
        return super().forward(x) * self.scale + self.extra(x) + super(Derived, self).extra(x)
