"""kiln's prelude: softmax and log_softmax in every spelling, and the
torch.nn.functional ops of nn models, whose torch.nn modules' forwards
(modules.py) call them. Models compile in eval mode: dropout is the
identity and batch_norm uses the running statistics, and asking for
training is an error rather than a silent difference.

See nn.py for how the prelude is written and compiled.
"""
from typing import List, Optional

import torch
import torch.nn.functional as F
from torch import Tensor

from kiln_table import ACTIVATION, FUNCTIONAL, METHOD, TORCH, describe, known, op


@op('softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,5]', '1', -8, 8),
             ('x=f32[B,3,4]', '0', -8, 8),
             ('x=f64[6]', '-1', -30, 30),
             ('x=f32[3,4]', 'dim=1, dtype=torch.float64')])
def softmax(input: Tensor, dim: int,
            dtype: Optional[torch.dtype] = None) -> Tensor:
    e = torch.exp(_shifted(input, dim, dtype, 'softmax'))
    # Times the reciprocal, one division per row, as PyTorch's vectorized
    # kernel computes it: a division per element costs several multiplies.
    return e * torch.reciprocal(e.sum(dim, keepdim=True))


@op('softmax(Tensor self, int? dim=None, int _stacklevel=3, ScalarType? dtype=None) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,5]', '1', -8, 8),
             ('x=f32[B,3,4]', '0', -8, 8),
             ('x=f64[6]', '-1', -30, 30),
             ('x=f32[3,4]', 'dim=1, dtype=torch.float64')])
def softmax_functional(input: Tensor, dim: Optional[int] = None,
                       _stacklevel: int = 3,
                       dtype: Optional[torch.dtype] = None) -> Tensor:
    return softmax(input, _explicit_dim(dim, 'softmax'), dtype)


@op('log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,5]', '1', -8, 8),
             ('x=f32[B,3,4]', '0', -8, 8),
             ('x=f64[6]', '-1', -30, 30),
             ('x=f32[3,4]', 'dim=1, dtype=torch.float64')])
def log_softmax(input: Tensor, dim: int,
                dtype: Optional[torch.dtype] = None) -> Tensor:
    # x - max - log(sum(exp(x - max))): a stable logsumexp, never
    # log(softmax), which underflows to -inf.
    shifted = _shifted(input, dim, dtype, 'log_softmax')
    return shifted - torch.log(torch.exp(shifted).sum(dim, keepdim=True))


@op('log_softmax(Tensor self, int? dim=None, int _stacklevel=3, ScalarType? dtype=None) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,5]', '1', -8, 8),
             ('x=f32[B,3,4]', '0', -8, 8),
             ('x=f64[6]', '-1', -30, 30),
             ('x=f32[3,4]', 'dim=1, dtype=torch.float64')])
def log_softmax_functional(input: Tensor, dim: Optional[int] = None,
                           _stacklevel: int = 3,
                           dtype: Optional[torch.dtype] = None) -> Tensor:
    return log_softmax(input, _explicit_dim(dim, 'log_softmax'), dtype)


def _explicit_dim(dim: Optional[int], name: str) -> int:
    # PyTorch would guess it, with a deprecation warning; kiln asks.
    if dim is None:
        raise ValueError(f"F.{name}() needs dim=; PyTorch's implicit choice "
                         "of dim is deprecated")
    return dim


def _shifted(input: Tensor, dim: int, dtype: Optional[torch.dtype],
             name: str) -> Tensor:
    """input - its max along dim, which keeps exp from overflowing, in
    dtype when one is given."""
    if dtype is not None:
        input = input.to(dtype)
    if not input.is_floating_point() or input.dim() == 0:
        raise ValueError(f"{name}() needs a float tensor with at least one "
                         f"dimension, got {describe(input)}")
    return input - torch.amax(input, dim, keepdim=True)


@op('layer_norm(Tensor self, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,4]', '(4,)'),
             ('x=f32[B,3,4], w=f32[3,4], b=f32[3,4]', '(3, 4), w, b, 1e-3'),
             ('x=f64[2,B,5], w=f64[5]', '[5], w')])
def layer_norm(input: Tensor, normalized_shape: List[int],
               weight: Optional[Tensor] = None,
               bias: Optional[Tensor] = None, eps: float = 1e-5) -> Tensor:
    k = len(normalized_shape)
    if k == 0 or k > input.dim():
        raise ValueError(f"layer_norm normalized_shape {normalized_shape} "
                         "does not match the last dims of the input, "
                         f"{describe(input)}")
    dims = ()
    for i in range(k):
        if input.size(i - k) != normalized_shape[i]:
            raise ValueError(f"layer_norm normalized_shape {normalized_shape} "
                             "does not match the last dims of the input, "
                             f"{describe(input)}")
        dims = dims + (i - k,)
    if not input.is_floating_point():
        raise ValueError("layer_norm needs a float input, got "
                         f"{describe(input)}")
    # The biased variance, as PyTorch normalizes with.
    centered = input - input.mean(dims, keepdim=True)
    var = (centered * centered).mean(dims, keepdim=True)
    y = centered * torch.rsqrt(var + eps)
    if weight is not None:
        _check_affine(weight, input, normalized_shape, 'weight')
        y = y * weight
    if bias is not None:
        _check_affine(bias, input, normalized_shape, 'bias')
        y = y + bias
    return y


def _check_affine(w: Tensor, input: Tensor, normalized_shape: List[int],
                  what: str):
    k = len(normalized_shape)
    if w.dim() != k or w.dtype != input.dtype:
        raise ValueError(f"layer_norm {what} must have the shape "
                         f"{normalized_shape} and the input's dtype, got "
                         f"{describe(w)}")
    for i in range(k):
        if w.size(i) != normalized_shape[i]:
            raise ValueError(f"layer_norm {what} must have the shape "
                             f"{normalized_shape} and the input's dtype, got "
                             f"{describe(w)}")


@op('embedding(Tensor self, Tensor weight, int? padding_idx=None, Scalar? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor',
    FUNCTIONAL,
    samples=[('i=i64[B,3], w=f32[5,4]', 'w')],
    build='embedding')
@op('conv2d(Tensor self, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8], w=f32[4,3,3,3], b=f32[4]', 'w, b'),
             ('x=f32[B,4,7,9], w=f32[6,2,3,2]', 'w, None, (2, 1), (1, 0), 2, 2'),
             ('x=f64[1,2,5,5], w=f64[3,2,1,1]', 'w, stride=2'),
             ('x=f32[0,3,4,4], w=f32[2,3,3,3]', 'w, padding=1')],
    build='conv2d')
@op("conv2d(Tensor self, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding='valid', int[2] dilation=1, int groups=1) -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8], w=f32[4,3,3,3]', "w, padding='same'"),
             ('x=f32[B,3,8,8], w=f32[4,3,3,5], b=f32[4]', "w, b, padding='same', dilation=(2, 1)"),
             ('x=f32[B,3,6,6], w=f32[4,3,3,3]', "w, padding='valid'")],
    note="'same' needs stride 1 and an even total padding",
    build='conv2d')
@op('max_pool2d(Tensor self, int[2] kernel_size, int[2]? stride=None, int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, bool return_indices=False) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8]', '2'),
             ('x=f32[B,2,9,7]', '(3, 2), stride=(2, 1), padding=1, ceil_mode=True'),
             ('x=f64[1,2,9,9]', '3, 2, 0, 2'),
             ('x=f32[0,2,4,4]', '2')],
    build='max_pool2d')
@op('avg_pool2d(Tensor self, int[2] kernel_size, int[2]? stride=None, int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8]', '2'),
             ('x=f32[B,2,9,7]', '3, 2, 1, True, False'),
             ('x=f64[1,2,6,6]', '(2, 3), padding=1'),
             ('x=f32[0,2,4,4]', '2, []')],
    note='divisor_override is not supported',
    build='avg_pool2d')
def _functional_rows():
    pass


@op('adaptive_avg_pool2d(Tensor self, int[2] output_size) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8]', '1'),
             ('x=f32[B,3,8,6]', '(4, 3)'),
             ('x=f32[2,3,7,5]', '(3, 5)'),
             ('x=f64[1,2,5,9]', '(2, 4)'),
             ('x=f32[2,3,H,W]', '(1, 1)'),
             ('x=f32[B,2,6,7]', '(None, 3)'),
             ('x=f32[1,2,H,7]', '(1, 3)'),
             ('x=f32[B,3,H,W]', '(3, 2)'),
             ('x=f32[2,2,H,W]', '(7, 7)')])
def adaptive_avg_pool2d(input: Tensor, output_size: List[int]) -> Tensor:
    if input.dim() != 4 or not input.is_floating_point():
        raise ValueError("adaptive_avg_pool2d takes a 4-D float input "
                         f"(N, C, H, W), got {describe(input)}")
    # None in output_size keeps that dim of the input.
    sizes = _pair(output_size)
    out = ()
    for i in range(2):
        size = sizes[i]
        if size is None:
            out = out + (input.size(2 + i),)
        elif size <= 0:
            raise ValueError("adaptive_avg_pool2d output size must be "
                             f"positive, got {size}")
        else:
            out = out + (size,)
    h, w = input.size(2), input.size(3)
    if out[0] == 1 and out[1] == 1:
        return input.mean((2, 3), keepdim=True)
    # Equal windows (the input divides evenly) are one avg_pool2d.
    if known(h) and known(w) and h % out[0] == 0 and w % out[1] == 0:
        kernel = (h // out[0], w // out[1])
        return F.avg_pool2d(input, kernel, kernel)
    return _adaptive_along(_adaptive_along(input, 2, sizes[0], out[0]), 3,
                           sizes[1], out[1])


def _pair(size):
    if isinstance(size, int) or size is None:
        return (size, size)
    if len(size) == 1:
        return (size[0], size[0])
    if len(size) != 2:
        raise ValueError("adaptive_avg_pool2d() argument 'output_size' must "
                         f"be an int or a pair, got {len(size)} values")
    return (size[0], size[1])


def _adaptive_along(x: Tensor, dim: int, size: Optional[int],
                    out: int) -> Tensor:
    """PyTorch's adaptive windows along one dim: window i covers
    [floor(i * n / out), ceil((i + 1) * n / out)). Doing H, then W is exact
    because every row of a rectangle has as many elements."""
    n = x.size(dim)
    if size is None or (known(n) and n == out):
        return x
    if out == 1:
        return x.mean(dim, keepdim=True)
    # With n known only at run time, the windows' bounds are run-time ints
    # and each window a dynamic slice; their number is still `out`.
    windows = ()
    for i in range(out):
        start = i * n // out
        end = ((i + 1) * n + out - 1) // out
        if dim == 2:
            window = x[:, :, start:end]
        else:
            window = x[:, :, :, start:end]
        windows = windows + (window.mean(dim, keepdim=True),)
    return torch.cat(windows, dim)


@op('linear(Tensor self, Tensor weight, Tensor? bias=None) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,5], w=f32[4,5], b=f32[4]', 'w, b'),
             ('x=f32[2,B,5], w=f32[3,5]', 'w')])
def linear(input: Tensor, weight: Tensor,
           bias: Optional[Tensor] = None) -> Tensor:
    if weight.dim() != 2:
        raise ValueError("linear weight must be 2-D (out_features, "
                         f"in_features), got {describe(weight)}")
    if input.dim() == 0:
        raise ValueError("linear input must have at least one dimension, "
                         f"got {describe(input)}")
    if input.size(-1) != weight.size(1):
        # Either size may be known only at run time, and then so is this
        # check: describe() says the sizes either way.
        raise ValueError(f"linear input, {describe(input)}, does not have "
                         "as many features (its last dim) as the weight, "
                         f"{describe(weight)}, expects (its dim 1)")
    y = torch.matmul(input, weight.t())
    if bias is not None:
        # Not a return under `bias is None`: an Optional[Tensor] bias is
        # tested at run time.
        if (bias.dim() != 1 or bias.dtype != input.dtype
                or bias.size(0) != weight.size(0)):
            raise ValueError("linear bias must be 1-D with out_features "
                             "elements (dim 0 of the weight, "
                             f"{describe(weight)}) of the input's dtype, "
                             f"got {describe(bias)}")
        y = y + bias
    return y


@op('batch_norm(Tensor self, Tensor? running_mean, Tensor? running_var, Tensor? weight=None, Tensor? bias=None, bool training=False, float momentum=0.1, float eps=1e-05) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,4], m=f32[3], v=f32[3]', 'm, v', 0.1, 2),
             ('x=f32[B,3], m=f32[3], v=f32[3], w=f32[3], b=f32[3]', 'm, v, w, b, False, 0.1, 1e-3', 0.1, 2)])
def batch_norm(input: Tensor, running_mean: Optional[Tensor],
               running_var: Optional[Tensor], weight: Optional[Tensor] = None,
               bias: Optional[Tensor] = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    if training:
        raise ValueError("batch_norm with training=True is not supported; "
                         "models are compiled in eval mode")
    if running_mean is None or running_var is None:
        raise ValueError("batch_norm needs running_mean and running_var in "
                         "eval mode")
    if input.dim() < 2 or not input.is_floating_point():
        raise ValueError("batch_norm takes a float input with a channel dim "
                         f"(N, C, ...), got {describe(input)}")
    c = input.size(1)
    if (running_mean.dim() != 1 or running_mean.dtype != input.dtype
            or running_mean.size(0) != c):
        raise ValueError(f"batch_norm running_mean must be 1-D with one "
                         "element per channel of the input, "
                         f"{describe(input)}, and its dtype, got "
                         f"{describe(running_mean)}")
    if (running_var.dim() != 1 or running_var.dtype != input.dtype
            or running_var.size(0) != c):
        raise ValueError(f"batch_norm running_var must be 1-D with one "
                         "element per channel of the input, "
                         f"{describe(input)}, and its dtype, got "
                         f"{describe(running_var)}")
    # y = x * scale + shift with per-channel scale = weight / sqrt(var + eps)
    # and shift = bias - mean * scale, as PyTorch's eval kernel computes it.
    scale = torch.rsqrt(running_var + eps)
    if weight is not None:
        if (weight.dim() != 1 or weight.dtype != input.dtype
                or weight.size(0) != c):
            raise ValueError(f"batch_norm weight must be 1-D with one "
                             "element per channel of the input, "
                             f"{describe(input)}, and its dtype, got "
                             f"{describe(weight)}")
        scale = scale * weight
    shift = -(running_mean * scale)
    if bias is not None:
        if (bias.dim() != 1 or bias.dtype != input.dtype
                or bias.size(0) != c):
            raise ValueError(f"batch_norm bias must be 1-D with one "
                             "element per channel of the input, "
                             f"{describe(input)}, and its dtype, got "
                             f"{describe(bias)}")
        shift = shift + bias
    # (C,) -> (C, 1, ..., 1) lines the channels up with dim 1.
    if input.dim() == 2:
        return input * scale + shift
    if input.dim() == 3:
        return input * scale.reshape(c, 1) + shift.reshape(c, 1)
    if input.dim() == 4:
        return input * scale.reshape(c, 1, 1) + shift.reshape(c, 1, 1)
    if input.dim() == 5:
        return (input * scale.reshape(c, 1, 1, 1)
                + shift.reshape(c, 1, 1, 1))
    x = input.reshape(input.size(0), c, -1)
    y = x * scale.unsqueeze(-1) + shift.unsqueeze(-1)
    return y.reshape(input.shape)



@op('dropout(Tensor self, float p=0.5, bool? training=None) -> Tensor',
    ACTIVATION,
    samples=[('x=f32[B,4]', '0.2, False'),
             ('x=f32[3]', 'training=False')],
    note='eval mode only: the identity; training=True is an error')
def dropout(input: Tensor, p: float = 0.5,
            training: Optional[bool] = None) -> Tensor:
    # training defaults to None only so that leaving it out (True in
    # PyTorch) gets its own message.
    if training is None:
        raise ValueError("F.dropout() defaults to training=True, which is not "
                         "supported; pass training=False (models are "
                         "compiled in eval mode)")
    if training:
        raise ValueError("dropout with training=True is not supported; "
                         "models are compiled in eval mode")
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, "
                         f"but got {p}")
    return input
