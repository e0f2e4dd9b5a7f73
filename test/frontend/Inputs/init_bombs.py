# nn.Module classes whose __init__ would exhaust memory or time if kiln
# evaluated it naively (test/frontend/limits.test compiles each with
# --entry). The same file runs in PyTorch: do not instantiate these there.
import torch
from torch import nn


class HugeRange(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = len(range(10**10))

    def forward(self, x):
        return x


class DoubledList(nn.Module):
    def __init__(self):
        super().__init__()
        sizes = [1]
        for i in range(40):
            sizes = sizes + sizes
        self.n = len(sizes)

    def forward(self, x):
        return x


class RepeatedList(nn.Module):
    def __init__(self):
        super().__init__()
        self.sizes = [0] * 10**12

    def forward(self, x):
        return x


class Overflow(nn.Module):
    def __init__(self):
        super().__init__()
        self.big = 2**62 * 4

    def forward(self, x):
        return x


class HugePower(nn.Module):
    def __init__(self):
        super().__init__()
        self.big = 3 ** (10**18)

    def forward(self, x):
        return x


class MinDivMinusOne(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = (-9223372036854775807 - 1) // -1

    def forward(self, x):
        return x


class WithinBudget(nn.Module):
    def __init__(self):
        super().__init__()
        total = 0
        for i in range(1000):
            total += i % 7
        self.total = total
        self.p = 2 ** 62 + (-9223372036854775807 - 1) % -1

    # kiln: x=f32[N]
    def forward(self, x):
        return x + self.total + self.p // 2**62


class HugeLinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(100000, 100000)

    # kiln: x=f32[B, 100000]
    def forward(self, x):
        return self.fc(x)
