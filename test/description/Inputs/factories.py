"""A model whose __init__ only real Python can run (issue 19, item 7).

Written the way timm and torchvision write their constructors: a layer
factory passed as a class (`norm_layer=nn.BatchNorm2d`), `functools.partial`
binding its options, a `@dataclass` config, a module-level helper that
returns a module, `nn.Sequential(*layers)`, a ModuleList built in a loop,
a `raise` on a bad option, a submodule used twice (shared) and a tied
weight. Its __init__ takes a config, so kiln.compile records the
instance Python built with one.
"""
import functools
from dataclasses import dataclass
from typing import List

import torch
import torch.nn as nn


@dataclass
class Config:
    width: int = 8
    depth: int = 2
    eps: float = 1e-3
    classes: int = 5


def conv_bn(cin: int, cout: int, norm_layer, stride: int = 1):
    # a helper that returns a module, as torchvision's conv3x3 does
    layers = [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
              norm_layer(cout)]
    layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class Stage(nn.Module):
    def __init__(self, cin: int, cout: int, norm_layer, act_layer):
        super().__init__()
        self.body = conv_bn(cin, cout, norm_layer)
        self.act = act_layer()
        self.scale = 0.5

    def forward(self, x):
        return self.act(self.body(x)) * self.scale + x


class Net(nn.Module):
    def __init__(self, cfg: Config, norm_layer=nn.BatchNorm2d,
                 act_layer=nn.SiLU):
        super().__init__()
        if cfg.depth < 1:
            raise ValueError(f"depth must be positive, got {cfg.depth}")
        norm_layer = functools.partial(norm_layer, eps=cfg.eps)
        self.cfg = cfg  # a dataclass: forward does not read it
        self.stem = conv_bn(3, cfg.width, norm_layer)
        layers: List[nn.Module] = []
        for _ in range(cfg.depth):
            layers.append(Stage(cfg.width, cfg.width, norm_layer, act_layer))
        # kiln's forward cannot yet iterate an nn.Sequential or run a user
        # module inside one, so the stages are a ModuleList.
        self.stages = nn.ModuleList(layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.embed = nn.Linear(cfg.width, cfg.width)
        self.again = self.embed  # the same module twice: one set of weights
        self.head = nn.Linear(cfg.width, cfg.classes)
        self.tied = nn.Linear(cfg.width, cfg.width, bias=False)
        self.tied.weight = self.embed.weight  # a tied weight
        self.num_stages = len(layers)

    def forward(self, x):
        x = self.stem(x)
        for stage in self.stages:
            x = stage(x)
        x = torch.flatten(self.pool(x), 1)
        x = torch.relu(self.again(self.embed(x))) + self.tied(x)
        return self.head(x) * self.num_stages


def build():
    return Net(Config(), norm_layer=nn.BatchNorm2d, act_layer=nn.SiLU)


ARGS = {"x": "f32[B,3,H,W]"}
INPUTS = [(2, 3, 12, 12), (1, 3, 9, 16)]
