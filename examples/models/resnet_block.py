import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


# A ResNet basic block (He et al., 2016), with the projection shortcut used
# when the block changes the resolution or the number of channels.
class BasicBlock(nn.Module):
    def __init__(self, in_planes: int = 8, planes: int = 16, stride: int = 2):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=3, stride=stride,
                               padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1,
                               padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, planes, kernel_size=1, stride=stride,
                          bias=False),
                nn.BatchNorm2d(planes),
            )
        self.pool = nn.AdaptiveAvgPool2d((1, 1))

    # kiln: x=f32[B,8,12,12]
    def forward(self, x: Tensor) -> Tensor:
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = out + self.shortcut(x)
        return F.relu(out)

    # The block's features pooled to one vector per image.
    # kiln: x=f32[B,8,12,12]
    @torch.jit.export
    def features(self, x: Tensor) -> Tensor:
        return torch.flatten(self.pool(self.forward(x)), 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    block = BasicBlock().eval()
    x = torch.randn(2, 8, 12, 12)
    scripted = torch.jit.script(block)
    print("scripted matches eager:", torch.allclose(scripted(x), block(x), atol=1e-6))
    print(block.features(x).shape)
