# Containers and iteration as public model code writes them, each function
# after the snippet it quotes:
#   torchvision.models.swin_transformer / convnext: `B, H, W, C = x.shape`
#   timm.models.layers.helpers `to_2tuple`-style and timm's DropPath:
#     `shape = (x.shape[0],) + (1,) * (x.ndim - 1)`
#   torchvision.ops.feature_pyramid_network: `results = []` grown in
#     `for idx in range(len(x) - 2, -1, -1)`, and
#     `[blk(f) for blk, f in zip(...)]`
#   timm.models.vision_transformer: `for i, blk in enumerate(self.blocks)`
#   nanoGPT/model.py: `sum(p.numel() for p in ...)` (here over shapes)
#   fairseq/espnet: `[x * m for m in masks if ...]`, `reversed(...)`,
#     `all(d > 0 for d in size)`, `if dim in dims:`.
import torch
import torch.nn as nn
from torch import Tensor
from typing import List


# kiln: x=f32[B,3,4,5]
@torch.jit.script
def shape_unpack(x: Tensor):
    b, c, h, w = x.shape
    return x.reshape(b, c, h * w).transpose(1, 2)


# kiln: x=f32[B,3,4]
@torch.jit.script
def drop_path_shape(x: Tensor):
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    keep = torch.ones(shape, dtype=x.dtype) * 0.5
    return x * keep


class Block(nn.Module):
    def __init__(self, dim: int = 8):
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    # kiln: x=f32[B,8]
    def forward(self, x):
        return torch.relu(self.fc(x)) + x


class Blocks(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(8) for _ in range(3)])
        self.heads = nn.ModuleList([nn.Linear(8, 2) for _ in range(3)])

    # kiln: x=f32[B,8]
    def forward(self, x):
        outs = []
        for i, blk in enumerate(self.blocks):
            x = blk(x)
            if i % 2 == 0:
                outs.append(x)
        logits = [head(o) for head, o in zip(self.heads, outs)]
        feats = [blk(x) for blk in self.blocks if blk is not None]
        return torch.stack(logits).sum(0), torch.cat(feats, dim=1)

    # kiln: x=f32[B,6]
    @torch.jit.export
    def comprehensions(self, x: Tensor):
        parts = [x * (i + 1) for i in range(4) if i % 2 == 0]
        sizes = [d * 2 for d in x.shape[1:]]
        n = sum(d for d in x.shape[1:])
        big = max([d for d in x.shape[1:]] + [1])
        ok = all(d > 0 for d in x.shape)
        out = torch.cat(parts, dim=1) + n + big
        if 6 in x.shape:
            out = out + 1
        if ok and 7 not in sizes:
            out = out * 2
        return out, len(sizes)

    # kiln: x=f32[B,4]
    @torch.jit.export
    def enumerate_zip_reversed(self, x: Tensor):
        scales = (0.5, 1.0, 2.0)
        shifts = (1.0, -1.0, 0.25)
        y = x
        for i, (s, t) in enumerate(zip(scales, shifts)):
            y = y * s + t * i
        for s in reversed(scales):
            y = y - s
        return y
