# A small nn.Module that load.test compiles from a live instance with
# kiln.compile (a dynamic batch dim B) and runs through kiln.load.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.fc1 = nn.Linear(6, width)
        self.norm = nn.LayerNorm(width)
        self.fc2 = nn.Linear(width, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.norm(self.fc1(x))))
