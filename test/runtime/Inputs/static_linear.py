import torch
import torch.nn as nn
from torch import Tensor


class StaticLinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    # kiln: x=f32[2,8]
    def forward(self, x: Tensor) -> Tensor:
        return torch.tanh(self.fc(x))
