"""Products and convolutions at static shapes, which the runtime gets ready
at load (the manifest's library_calls, runtime/src/PreparedCalls.cpp): a
convolution whose weight oneDNN packs, a grouped one, Linear layers with
and without a bias and activation, batched products of attention heads
(strided views of activations, one transposed), a product with a slice of
a weight, and products repeated in a loop. Every one of them is prepared at load, so the
calls below run on plans and packed weights that no call built.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class StaticLayers(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(6, 16, 3, bias=False)
        self.grouped = nn.Conv2d(16, 32, 3, padding=1, groups=4, bias=False)
        self.fc = nn.Linear(32 * 7 * 7, 24)
        self.plain = nn.Linear(24, 24, bias=False)
        self.table = nn.Parameter(torch.randn(4, 24, 12))

    # kiln: x=f32[3,6,9,9]
    def forward(self, x: Tensor) -> Tensor:
        h = self.grouped(self.conv(x))
        h = torch.tanh(self.fc(h.flatten(1)))
        for _ in range(3):
            h = F.silu(self.plain(h))
        # Heads as attention splits them: a strided view, [3, 2, 4, 3].
        q = h.reshape(3, 4, 2, 3).transpose(1, 2)
        s = torch.softmax(q @ q.transpose(-2, -1), -1)
        h = (s @ q).transpose(1, 2).reshape(3, 24)
        # The third [24, 12] matrix of the table: a weight at an offset.
        return h @ self.table[2]
