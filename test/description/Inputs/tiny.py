# A two-module model for the hand-written descriptions of malformed.test.
import torch.nn as nn


class Tiny(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc = nn.Linear(3, hidden)

    def forward(self, x):
        return self.fc(x)
