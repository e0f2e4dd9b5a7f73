# A model whose blocks come from another file (layers.py), as torchvision's
# ResNet takes BasicBlock from its own module and its norm layers from
# torch.nn: `kiln compile model.py --entry ResNetish` has Python build the
# instance, and compiles each class's methods from the file that defines it.
import torch
import torch.nn as nn

from layers import BasicBlock, Unsupported


def act(x):
    # Not layers.act: each file's names are its own.
    return x + 1.0


class ResNetish(nn.Module):
    def __init__(self, width=4, broken=False):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.layer1 = nn.Sequential(BasicBlock(width), BasicBlock(width))
        self.tail = Unsupported() if broken else nn.Identity()
        self.fc = nn.Linear(width, 3)

    # kiln: x=f32[B,3,8,8]
    def forward(self, x):
        x = self.tail(self.layer1(self.stem(x)))
        return self.fc(act(x).mean(dim=(2, 3)))
