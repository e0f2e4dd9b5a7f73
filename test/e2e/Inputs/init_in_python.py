# `kiln compile FILE --entry Class` runs Class.__init__ in real Python
# (issue 19, item 7): whatever __init__ does is Python's business, and
# forward is compiled with the instance it built. Each class below uses
# __init__ code that kiln's former C++ interpreter refused, written the way
# public models write it:
#   * ConvNormAct follows timm's layers/conv_bn_act.py (norm_layer and
#     act_layer passed as classes, functools.partial factories) and its
#     extra_repr f-string;
#   * Stem follows torchvision's models/resnet.py (_make_layer:
#     nn.Sequential(*layers) of user blocks, `expansion` class constant);
#   * Stage is an nn.Sequential subclass, as in torchvision's
#     ops/misc.py Conv2dNormActivation and timm's stages;
#   * MlpConfig/Mlp follow nanoGPT's GPTConfig dataclass and its
#     `_init_weights` helper (torch.nn.init on named parameters);
#   * Knobs exercises round, <<, hasattr, print and a module-level
#     constant in __init__, and a --init-arg constructor argument.
import math
from dataclasses import dataclass
from functools import partial

import torch
import torch.nn as nn

WIDTH_MULT = 1.5


def make_divisible(v, divisor=4):
    return max(divisor, int(v + divisor / 2) // divisor * divisor)


class ConvNormAct(nn.Module):
    def __init__(self, cin, cout, stride=1, norm_layer=nn.BatchNorm2d,
                 act_layer=nn.ReLU):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn = norm_layer(cout)
        self.act = act_layer() if act_layer is not None else nn.Identity()
        self.stride = stride

    def extra_repr(self):
        return f"stride={self.stride!r}, act={type(self.act).__name__}"

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, c, norm_layer):
        super().__init__()
        self.body = ConvNormAct(c, c * self.expansion, norm_layer=norm_layer,
                                act_layer=partial(nn.GELU, approximate="tanh"))

    def forward(self, x):
        return self.body(x) + x


class Stage(nn.Sequential):
    def __init__(self, c, depth, norm_layer):
        super().__init__(*[BasicBlock(c, norm_layer) for _ in range(depth)])


class Stem(nn.Module):
    def __init__(self, width=8, norm_layer=partial(nn.BatchNorm2d, eps=1e-3)):
        super().__init__()
        c = make_divisible(width * WIDTH_MULT)
        layers = [ConvNormAct(3, c, stride=2, norm_layer=norm_layer)]
        for _ in range(2):
            layers.append(BasicBlock(c, norm_layer))
        self.layers = nn.Sequential(*layers)
        self.stage = Stage(c, 2, norm_layer)
        self.fc = nn.Linear(c, 5)

    # kiln: x=f32[B,3,16,16]
    def forward(self, x):
        x = self.layers(x)
        for block in self.stage:
            x = block(x)
        # enumerate walks a Sequential too, as in torchvision's
        # IntermediateLayerGetter.
        feats = [block(x) * (i + 1) for i, block in enumerate(self.stage)]
        return self.fc((x + feats[-1]).mean(dim=(2, 3)))


@dataclass
class MlpConfig:
    n_embd: int = 12
    hidden_mult: int = 4
    bias: bool = True


class Mlp(nn.Module):
    def __init__(self, config: MlpConfig = MlpConfig()):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, config.hidden_mult * config.n_embd,
                              bias=config.bias)
        self.c_proj = nn.Linear(config.hidden_mult * config.n_embd,
                                config.n_embd, bias=config.bias)
        self.apply(self._init_weights)
        for name, p in self.named_parameters():
            if name.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2))

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.orthogonal_(module.weight)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)

    # kiln: x=f32[B,T,12]
    def forward(self, x):
        return self.c_proj(torch.nn.functional.gelu(self.c_fc(x)))


class Knobs(nn.Module):
    # **kwargs, as torchvision's MobileNetV3 takes them: __init__ is
    # Python's, so kiln never compiles its signature.
    def __init__(self, scale=2.0, **kwargs):
        super().__init__()
        self.shift = 1 << 3
        self.rounded = round(scale * 1.26, 1)
        self.has_bias = hasattr(nn.Linear(2, 2), "bias")
        if scale <= 0:
            raise ValueError(f"scale must be positive, got {scale}")
        print(f"Knobs: scale={scale}")
        self.fc = nn.Linear(4, 4)

    def debug(self, *args):  # never called: never compiled
        print(*args)

    # kiln: x=f32[B,4]
    def forward(self, x):
        y = self.fc(x) * self.rounded + self.shift
        if self.has_bias:
            y = y - 1.0
        return y
