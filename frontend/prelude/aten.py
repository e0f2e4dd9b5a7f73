"""ATen ops whose torch.X spelling differs from F.X: the calls that
torch.jit.trace records (a module's `.code`), which kiln.trace compiles as
torch.ops.aten.X. Any other torch.ops.aten.X is the row of torch.X, the
Tensor method X (self first) or F.X (LowerTensorMethods.cpp), whose
schemas ATen declares once; test/prelude/aten-schemas.test checks that
each such fallback binds ATen's positional arguments as ATen does, so the
ops below are the ones where it would not.
"""
from typing import List, Optional

import torch.nn.functional as F
from torch import Tensor

from kiln_table import TORCH, describe, op


@op('_convolution(Tensor self, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor',
    TORCH,
    samples=[('x=f32[B,3,8,8], w=f32[4,3,3,3], b=f32[4]',
              'w, b, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, False, False, True, True'),
             ('x=f32[B,4,7,9], w=f32[6,2,3,2]',
              'w, None, [2, 1], [1, 0], [2, 2], False, [0, 0], 2, False, False, True, True')])
def _convolution(input: Tensor, weight: Tensor, bias: Optional[Tensor],
                 stride: List[int], padding: List[int], dilation: List[int],
                 transposed: bool, output_padding: List[int], groups: int,
                 benchmark: bool, deterministic: bool, cudnn_enabled: bool,
                 allow_tf32: bool) -> Tensor:
    # benchmark, deterministic, cudnn_enabled and allow_tf32 choose among
    # ATen's kernels, not what they compute.
    if transposed:
        raise ValueError("_convolution: transposed convolution is not "
                         "supported")
    if weight.dim() != 4:
        raise ValueError("_convolution: only 2-D convolution (a 4-D weight) "
                         f"is supported, got {describe(weight)}")
    return F.conv2d(input, weight, bias, stride, padding, dilation, groups)


@op('batch_norm(Tensor self, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor',
    TORCH,
    samples=[('x=f32[B,3,4], m=f32[3], v=f32[3], w=f32[3], b=f32[3]',
              'w, b, m, v, False, 0.1, 1e-5, True', 0.1, 2)])
def aten_batch_norm(input: Tensor, weight: Optional[Tensor],
                    bias: Optional[Tensor], running_mean: Optional[Tensor],
                    running_var: Optional[Tensor], training: bool,
                    momentum: float, eps: float,
                    cudnn_enabled: bool) -> Tensor:
    return F.batch_norm(input, running_mean, running_var, weight, bias,
                        training, momentum, eps)


@op('embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor',
    TORCH,
    samples=[('w=f32[5,4], i=i64[B,3]', 'i'),
             ('w=f32[6,2], i=i64[4]', 'i, 0, False, False')])
def aten_embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1,
                   scale_grad_by_freq: bool = False,
                   sparse: bool = False) -> Tensor:
    # padding_idx, scale_grad_by_freq and sparse only change the gradient.
    return F.embedding(indices, weight)
