"""kiln's prelude: the forward of each torch.nn module kiln compiles.

kiln builds a torch.nn module's state (its options and its parameters and
buffers, named as state_dict() names them) while it runs the user's
__init__ (frontend/ModuleEvalNN.cpp); calling the module runs the forward
of the class of the same name here, with `self` that module, so a forward
is the functional op on the module's attributes, as in torch.nn's own
source. Compiled models run in eval mode: dropout is the identity and
batch norm reads its running statistics.

These are ordinary PyTorch too: test/prelude runs each forward on a real
torch.nn module (`Linear.forward(torch.nn.Linear(4, 3), x)`) and compares
it with the module's own. nn.Sequential and nn.ModuleList are containers,
handled by the lowering itself.

See nn.py for how the prelude is written and compiled.
"""
import torch
import torch.nn.functional as F
from torch import Tensor


class Linear(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)


class Conv2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.conv2d(input, self.weight, self.bias, self.stride,
                        self.padding, self.dilation, self.groups)


class MaxPool2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.max_pool2d(input, self.kernel_size, self.stride,
                            self.padding, self.dilation,
                            ceil_mode=self.ceil_mode)


class AvgPool2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self.kernel_size, self.stride,
                            self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)


class BatchNorm2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.batch_norm(input, self.running_mean, self.running_var,
                            self.weight, self.bias, False, 0.0, self.eps)


class LayerNorm(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight,
                            self.bias, self.eps)


class Embedding(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.embedding(input, self.weight, self.padding_idx,
                           self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)


class GELU(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)


class ReLU(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input)


class SiLU(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.silu(input)


class Tanh(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return torch.tanh(input)


class Sigmoid(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return torch.sigmoid(input)


class Dropout(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input


class Identity(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input
