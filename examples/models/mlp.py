import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class MLP(nn.Module):
    def __init__(self, sizes=(64, 48, 32), classes: int = 10):
        super().__init__()
        self.hidden = nn.ModuleList(
            [nn.Linear(sizes[i], sizes[i + 1]) for i in range(len(sizes) - 1)])
        self.out = nn.Linear(sizes[-1], classes)
        self.dropout = nn.Dropout(0.1)

    # kiln: x=f32[B,64]
    def forward(self, x: Tensor) -> Tensor:
        for layer in self.hidden:
            x = self.dropout(F.relu(layer(x)))
        return self.out(x)

    # A second entry point in the same archive: class probabilities.
    # kiln: x=f32[B,64]
    @torch.jit.export
    def probabilities(self, x: Tensor) -> Tensor:
        return F.softmax(self.forward(x), dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    mlp = MLP().eval()
    x = torch.randn(4, 64)
    print(mlp.probabilities(x).sum(-1))
    scripted = torch.jit.script(mlp)
    print("scripted matches eager:", torch.allclose(scripted(x), mlp(x)))
