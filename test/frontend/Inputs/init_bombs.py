# nn.Module classes whose __init__ would exhaust memory or time, or makes
# values forward cannot use (test/frontend/limits.test compiles each with
# --entry). kiln runs __init__ in Python with a memory limit and a timeout.
# The same file runs in PyTorch: do not instantiate these there.
import torch
from torch import nn


class RepeatedList(nn.Module):
    def __init__(self):
        super().__init__()
        self.sizes = [0] * 10**12

    def forward(self, x):
        return x


class HugeLinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(100000, 100000)

    # kiln: x=f32[B, 100000]
    def forward(self, x):
        return self.fc(x)


class Spins(nn.Module):
    def __init__(self):
        super().__init__()
        while True:
            pass

    def forward(self, x):
        return x


class Recurses(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Recurses()

    def forward(self, x):
        return x


class Overflow(nn.Module):
    def __init__(self):
        super().__init__()
        # Python's ints have no bound; TorchScript's (and kiln's) are int64.
        self.big = 2**62 * 4

    # kiln: x=f32[N]
    def forward(self, x):
        return x + self.big


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
