# Origin: messages written the way public code writes them:
# torchvision/models/_utils.py and timm/layers/helpers.py
# (`f"... {name!r} ..."`, `raise ValueError(f"...")`), fairseq's
# `"| {} {}".format(...)` logging, and timm's extra_repr. Ours: the module
# around them. Every field is known while compiling (module options, static
# ranks and sizes, dtypes), which is when kiln builds the text.
import torch
import torch.nn as nn
from torch import Tensor


class Messages(nn.Module):
    def __init__(self, name: str = "block", drop: float = 0.125, heads: int = 4):
        super().__init__()
        self.name = name
        self.drop = drop
        self.heads = heads
        self.norm = True

    def extra_repr(self) -> str:
        return f"name={self.name!r}, drop={self.drop}, heads={self.heads}"

    # kiln: x=f32[B,8]
    def forward(self, x: Tensor) -> Tensor:
        if self.heads <= 0:
            raise ValueError(f"heads must be positive, got {self.heads}")
        assert x.dim() == 2, f"expected a 2-D input, got {x.dim()}-D"
        assert x.size(1) % self.heads == 0, "{} is not divisible by {}".format(x.size(1), self.heads)
        print(f"name={self.name!r}, drop={self.drop}, heads={self.heads}")
        print(f"{self.name}: rank {x.dim()}, {x.size(1):>4d} features, {x.size(1):04d}, {-x.size(1):<5}|")
        print(f"drop={self.drop:.3f} {self.drop:e} {self.drop:+.1%} {self.drop * 3:g} {1.5e20} {0.1} {2.0}")
        print(f"dtype={x.dtype} float={x.is_floating_point()} none={None} pair={(1, 2.5)} {{braces}}")
        print("| {0} heads of {1:.2f}, {2!r} {0}".format(self.heads, self.drop, self.name), f"{'ok':^6}|{'x':*>3}")
        return x * self.drop
