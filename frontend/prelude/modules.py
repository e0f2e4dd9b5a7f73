"""kiln's prelude: the forward of each torch.nn module kiln compiles.

Python builds a torch.nn module while it runs the user's __init__, and
kiln reads its state from the module description (its options, parameters
and buffers, named as state_dict() names them: python/kiln/_describe.py);
calling the module runs the forward of the class of the same name here,
with `self` that module, so a forward is the functional op on the module's
attributes, as in torch.nn's own source. Compiled models run in eval mode:
dropout is the identity and batch norm reads its running statistics.
Options a forward here cannot honour are refused when the description is
read (kUnsupported in frontend/ModuleDescription.cpp), never ignored.
A torch.nn subclass (ReLU6 of Hardtanh) needs its own class here: kiln
looks the forward up by the module's own class name.

These are ordinary PyTorch too: test/prelude runs each forward on a real
torch.nn module (`Linear.forward(torch.nn.Linear(4, 3), x)`) and compares
it with the module's own. nn.Sequential and nn.ModuleList are containers,
handled by the lowering itself.

See nn.py for how the prelude is written and compiled.
"""
from typing import Optional

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


class BatchNorm1d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")
        return F.batch_norm(input, self.running_mean, self.running_var,
                            self.weight, self.bias, False, 0.0, self.eps)


class BatchNorm2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")
        return F.batch_norm(input, self.running_mean, self.running_var,
                            self.weight, self.bias, False, 0.0, self.eps)


class BatchNorm3d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")
        return F.batch_norm(input, self.running_mean, self.running_var,
                            self.weight, self.bias, False, 0.0, self.eps)


class GroupNorm(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias,
                            self.eps)


# Eval mode: instance norm reads running statistics only where the module
# tracks them, as torch's `self.training or not self.track_running_stats`.
class InstanceNorm1d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")
        return _instance_norm(input, 2, self.running_mean, self.running_var,
                              self.weight, self.bias,
                              not self.track_running_stats, self.eps)


class InstanceNorm2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        if input.dim() != 3 and input.dim() != 4:
            raise ValueError(f"expected 3D or 4D input (got {input.dim()}D input)")
        return _instance_norm(input, 3, self.running_mean, self.running_var,
                              self.weight, self.bias,
                              not self.track_running_stats, self.eps)


class InstanceNorm3d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        if input.dim() != 4 and input.dim() != 5:
            raise ValueError(f"expected 4D or 5D input (got {input.dim()}D input)")
        return _instance_norm(input, 4, self.running_mean, self.running_var,
                              self.weight, self.bias,
                              not self.track_running_stats, self.eps)


def _instance_norm(input: Tensor, no_batch_dim: int,
                   running_mean: Optional[Tensor],
                   running_var: Optional[Tensor], weight: Optional[Tensor],
                   bias: Optional[Tensor], use_input_stats: bool,
                   eps: float) -> Tensor:
    # An unbatched input is normalized as a batch of one.
    if input.dim() == no_batch_dim:
        return F.instance_norm(input.unsqueeze(0), running_mean, running_var,
                               weight, bias, use_input_stats, 0.0,
                               eps).squeeze(0)
    return F.instance_norm(input, running_mean, running_var, weight, bias,
                           use_input_stats, 0.0, eps)


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


# Eval mode: every dropout is the identity.
class Dropout(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input


class Dropout1d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        # F.dropout1d checks the rank even in eval mode.
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"dropout1d: Expected 2D or 3D input, but "
                             f"received a {input.dim()}D input")
        return input


class Dropout2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input


class Dropout3d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input


class AlphaDropout(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input


class FeatureAlphaDropout(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input


class Identity(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input


# The activations ignore `inplace`: a compiled forward returns a new tensor
# (docs/modules.md).
class LeakyReLU(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope)


class Hardtanh(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val)


class ReLU6(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val)


class Hardswish(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.hardswish(input)


class Hardsigmoid(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.hardsigmoid(input)


class ELU(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha)


class CELU(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.celu(input, self.alpha)


class SELU(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.selu(input)


class Mish(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.mish(input)


class Softplus(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.softplus(input, self.beta, self.threshold)


class LogSigmoid(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.logsigmoid(input)


class Softsign(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input / (torch.abs(input) + 1)


class Tanhshrink(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input - torch.tanh(input)


# As ATen's kernels, a NaN input stays NaN in the shrinks and the threshold.
class Hardshrink(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return torch.where(torch.abs(input) <= self.lambd,
                           torch.zeros_like(input), input)


class Softshrink(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return torch.where(input > self.lambd, input - self.lambd,
                           torch.where(input < -self.lambd,
                                       input + self.lambd, input * 0))


class Threshold(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return torch.where(input <= self.threshold,
                           torch.full_like(input, self.value), input)


class PReLU(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        # One weight per channel (dim 1), as ATen's prelu broadcasts it.
        weight = self.weight
        if self.num_parameters != 1 and input.dim() < 2:
            raise ValueError("Mismatch of parameter numbers and input channel "
                             f"size. Found parameter numbers = "
                             f"{self.num_parameters} and channel size = 1.")
        if self.num_parameters != 1:
            shape = (self.num_parameters,)
            for _ in range(input.dim() - 2):
                shape = shape + (1,)
            weight = weight.reshape(shape)
        return torch.where(input > 0, input, weight * input)


class GLU(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.glu(input, self.dim)


class Softmax(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Softmin(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.softmin(input, self.dim)


class Softmax2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        if input.dim() != 3 and input.dim() != 4:
            raise ValueError("Softmax2d requires a 3D or 4D tensor as input")
        return F.softmax(input, -3, _stacklevel=5)


class Flatten(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)


class Unflatten(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)


class PixelShuffle(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)


class Upsample(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode,
                             self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)


class UpsamplingNearest2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode,
                             self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)


class UpsamplingBilinear2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode,
                             self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)


class ConstantPad1d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'constant', self.value)


class ConstantPad2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'constant', self.value)


class ConstantPad3d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'constant', self.value)


class ZeroPad2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'constant', self.value)


class ReflectionPad1d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'reflect')


class ReflectionPad2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'reflect')


class ReflectionPad3d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'reflect')


class ReplicationPad1d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'replicate')


class ReplicationPad2d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'replicate')


class ReplicationPad3d(torch.nn.Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, 'replicate')


class CosineSimilarity(torch.nn.Module):
    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(torch.nn.Module):
    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class L1Loss(torch.nn.Module):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(torch.nn.Module):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(torch.nn.Module):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction,
                                beta=self.beta)


class BCELoss(torch.nn.Module):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight,
                                      reduction=self.reduction)


class KLDivLoss(torch.nn.Module):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction,
                        log_target=self.log_target)


class NLLLoss(torch.nn.Module):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, weight=self.weight,
                          ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(torch.nn.Module):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, weight=self.weight,
                               ignore_index=self.ignore_index,
                               reduction=self.reduction,
                               label_smoothing=self.label_smoothing)
