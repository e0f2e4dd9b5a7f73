# Layers that model.py imports, as torchvision's models/resnet.py imports
# Conv2dNormActivation from ops/misc.py and timm's models import from
# layers/: this file's own imports, helpers and class names are the ones
# its methods see (conv3x3 and act here, not model.py's act).
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv3x3(cin: int, cout: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(cin, cout, 3, stride, padding=1, bias=False)


def act(x):
    return F.relu(x)


class Scaled(nn.Module):
    def scale(self, x):
        return x * self.gain


class BasicBlock(Scaled):
    expansion = 1

    def __init__(self, planes, norm_layer=nn.BatchNorm2d):
        super().__init__()
        self.conv1 = conv3x3(planes, planes)
        self.bn1 = norm_layer(planes)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = norm_layer(planes)
        self.gain = 0.5

    def forward(self, x):
        out = act(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return act(out + self.scale(x))


class Unsupported(nn.Module):
    def forward(self, x):
        return x.not_a_tensor_method()
