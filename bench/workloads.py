"""The workloads of kiln's CPU benchmark (bench/run).

Each workload is something to compile (a scripted function or a live
nn.Module), the shapes kiln compiles it for (static, as the peers in
../shared/PEERS.md were measured), and seeded inputs. The seed examples and
the example models are imported from examples/, so the benchmark times the
code the tests check; gelu and softmax are defined here (the issue's
two-line workloads), and so is a print-free copy of the seed RNN, whose
print every tenth step would time the terminal.
"""
import os
import sys
from typing import List, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "examples", "seed"),
                os.path.join(ROOT, "examples", "models")]

import func as seed_func                      # noqa: E402
import myfun as seed_myfun                    # noqa: E402
import pairwise_distance as seed_pairwise     # noqa: E402
import lenet                                  # noqa: E402
import mlp                                    # noqa: E402
import resnet_block                           # noqa: E402
import transformer_block                      # noqa: E402


@torch.jit.script
def gelu_bias(x: Tensor, b: Tensor) -> Tensor:
    return F.gelu(x + b)


@torch.jit.script
def softmax_rows(x: Tensor) -> Tensor:
    return torch.softmax(x, -1)


@torch.jit.script
def matmul(a: Tensor, b: Tensor) -> Tensor:
    return a @ b


# examples/seed/rnn.py without its print.
@torch.jit.script
def rnn(x: Tensor, h: Tensor, W_h: Tensor, U_h: Tensor, W_y: Tensor,
        b_h: Tensor, b_y: Tensor) -> Tuple[Tensor, Tensor]:
    y: List[Tensor] = []
    for t in range(x.size(0)):
        h = torch.tanh(x[t] @ W_h + h @ U_h + b_h)
        y += [torch.tanh(h @ W_y + b_y)]
    return torch.stack(y), h


class Workload:
    """`obj` to compile, its parameters' names in order, their shapes,
    `memory_bound`: whether a plain copy of its input is its roofline, and
    `flops`: the floating-point operations of a compute-bound call, whose
    roofline is the core's peak multiply-add rate."""

    def __init__(self, name, obj, shapes, memory_bound=False, inputs=None,
                 flops=None):
        self.name = name
        self.obj = obj
        self.shapes = shapes  # {param: [sizes]}, in the call's order
        self.memory_bound = memory_bound
        self.flops = flops
        self._inputs = inputs

    def inputs(self):
        gen = torch.Generator().manual_seed(0)
        if self._inputs is not None:
            return self._inputs(gen)
        return [torch.randn(s, generator=gen) for s in self.shapes.values()]

    def kiln_args(self):
        return {n: "f32[%s]" % ",".join(str(d) for d in s)
                for n, s in self.shapes.items()}


def _near_one(gen):
    # func squares ten times: x ** 1024 stays finite only near 1.
    return [torch.linspace(0.99, 1.001, 5)]


def _model(cls, *args, **kwargs):
    torch.manual_seed(0)
    return cls(*args, **kwargs).eval()


def workloads():
    T, B, H = 50, 8, 128
    return [
        Workload("func x[5]", seed_func.func, {"x": [5]}, inputs=_near_one),
        Workload("myfun x[1M]", seed_myfun.myfun, {"x": [1 << 20]},
                 memory_bound=True),
        Workload("pairwise 100x2/200x2",
                 seed_pairwise.pairwise_distance_batched,
                 {"a": [100, 2], "b": [200, 2]}),
        Workload("gelu(x+b) 256x4096", gelu_bias,
                 {"x": [256, 4096], "b": [4096]}, memory_bound=True),
        Workload("softmax 512x1024", softmax_rows, {"x": [512, 1024]},
                 memory_bound=True),
        Workload("LeNet b1", _model(lenet.Net), {"x": [1, 1, 32, 32]}),
        Workload("LeNet b64", _model(lenet.Net), {"x": [64, 1, 32, 32]}),
        Workload("RNN T50 b8 h128", rnn,
                 {"x": [T, B, H], "h": [B, H], "W_h": [H, H], "U_h": [H, H],
                  "W_y": [H, H], "b_h": [H], "b_y": [H]}),
        # ResNet-18's first stage: two 3x3 convolutions of 64 channels at
        # 56x56, batch norm, ReLU and the identity shortcut.
        Workload("ResNet block 64ch 56x56 b1",
                 _model(resnet_block.BasicBlock, in_planes=64, planes=64,
                        stride=1), {"x": [1, 64, 56, 56]}),
        Workload("MLP 784-1024-1024-10 b256",
                 _model(mlp.MLP, sizes=(784, 1024, 1024)), {"x": [256, 784]}),
        # 98 MB of weights: the load-time target of a 100 MB weight file.
        Workload("MLP 784-5000-4096-10 b1 (98 MB)",
                 _model(mlp.MLP, sizes=(784, 5000, 4096)), {"x": [1, 784]}),
        Workload("GPT block d256 b4 t128",
                 _model(transformer_block.Block, n_embd=256, n_head=8,
                        block_size=128), {"x": [4, 128, 256]}),
        Workload("matmul 1024x1024x1024", matmul,
                 {"a": [1024, 1024], "b": [1024, 1024]}, flops=2 * 1024**3),
    ]
