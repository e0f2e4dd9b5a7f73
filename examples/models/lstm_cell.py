import torch
import torch.nn as nn
from torch import Tensor
from typing import Tuple


# An LSTM cell written out, as torch.nn.LSTMCell computes it.
class LSTMCell(nn.Module):
    def __init__(self, input_size: int = 8, hidden_size: int = 16):
        super().__init__()
        self.ih = nn.Linear(input_size, 4 * hidden_size)
        self.hh = nn.Linear(hidden_size, 4 * hidden_size)

    # kiln: x=f32[B,8], h=f32[B,16], c=f32[B,16]
    def forward(self, x: Tensor, h: Tensor, c: Tensor) -> Tuple[Tensor, Tensor]:
        gates = self.ih(x) + self.hh(h)
        i, f, g, o = gates.chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c

    # The cell run over a sequence: the last hidden and cell states.
    # kiln: xs=f32[T,B,8], h=f32[B,16], c=f32[B,16]
    @torch.jit.export
    def sequence(self, xs: Tensor, h: Tensor, c: Tensor) -> Tuple[Tensor, Tensor]:
        for t in range(xs.size(0)):
            h, c = self.forward(xs[t], h, c)
        return h, c


if __name__ == "__main__":
    torch.manual_seed(0)
    cell = LSTMCell()
    reference = nn.LSTMCell(8, 16)
    with torch.no_grad():
        reference.weight_ih.copy_(cell.ih.weight)
        reference.bias_ih.copy_(cell.ih.bias)
        reference.weight_hh.copy_(cell.hh.weight)
        reference.bias_hh.copy_(cell.hh.bias)
    x, h, c = torch.randn(3, 8), torch.randn(3, 16), torch.randn(3, 16)
    ours, theirs = cell(x, h, c), reference(x, (h, c))
    print("matches nn.LSTMCell:",
          all(torch.allclose(a, b, atol=1e-6) for a, b in zip(ours, theirs)))
