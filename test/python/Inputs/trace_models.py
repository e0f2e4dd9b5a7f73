"""Models for kiln.trace (trace_check.py) that torch.jit.script refuses,
which is what tracing is for."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    """A two-block language model head that TorchScript cannot script:
    `acts` is a plain list of functions, zipped with a ModuleList in
    forward. The trace also captures a plain tensor attribute (`scale`) as
    a constant, passes the tied head weight as an argument, and computes a
    view's size from the input (`x.size(0)`) at run time."""

    def __init__(self, vocab=11, width=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        self.blocks = nn.ModuleList([nn.Linear(width, width)
                                     for _ in range(2)])
        self.acts = [torch.tanh, F.gelu]
        self.scale = torch.linspace(0.5, 1.5, width)
        self.head = nn.Linear(width, vocab, bias=False)
        self.head.weight = self.emb.weight
        self.width = width

    def forward(self, idx):
        x = self.emb(idx)
        for block, act in zip(self.blocks, self.acts):
            x = x + act(block(x))
        x = x.view(x.size(0), -1, self.width) * self.scale
        return self.head(x).softmax(-1)


class Unsupported(nn.Module):
    """Calls an op kiln does not have (torch.lgamma)."""

    def forward(self, x):
        return torch.lgamma(x.abs() + 1)


def gated(x, y):
    return F.gelu(x) * torch.sigmoid(y).sum(-1, keepdim=True) * 2
