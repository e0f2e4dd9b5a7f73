"""kiln's prelude: torch ops written as compositions of other torch ops.

This file is ordinary PyTorch: it runs eagerly (test/prelude compares each
function with the op it stands for), and kiln compiles it with its own
frontend. CMake embeds the text into kiln; frontend/Prelude.cpp parses it
once. A function decorated with `@op(schema, spellings, samples=...)` is
the op-table row of that torch op (kiln_table.py says how to write one;
frontend/PreludeRows.cpp reads it): a call binds its arguments to the
schema and passes them to the function in the schema's order.

Each call is specialized on its constant arguments (ints, floats, bools,
None, strings, dtypes, tuples of ints), so inside a function `dim` is a
compile-time int and an `if` on constants (`if weight is None:`,
`if reduction == 'mean':`) is decided while compiling: only the branch
taken is compiled. A `return` may only sit under such an `if`; a choice at
run time is written with torch.where. A `for` over range() of constants or
over a tuple is unrolled, and tuples (`dims + (d,)`, `shape[1:]`) are
compile-time values: build dims and sizes as tuples. Errors in here are
reported at the user's call.

Keep to kiln's Python subset (docs/python-subset.md), and to ops the
frontend has, so that a decomposition never depends on itself. A function
here calls another prelude op through its torch name (F.nll_loss), so that
the op table binds it; private helpers (_norm) take tensors and numbers
only.
"""
import math
from typing import List, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor

from kiln_table import FUNCTIONAL, METHOD, TORCH, describe, op


@op('glu(Tensor self, int dim=-1) -> Tensor',
    FUNCTIONAL,
    samples=['x=f32[B,6]',
             ('x=f64[4,3]', '0'),
             ('x=f32[2,4,6]', 'dim=1')])
def glu(input: Tensor, dim: int = -1) -> Tensor:
    if input.size(dim) % 2 != 0:
        raise ValueError(f"glu() halves dimension {dim} of {describe(input)}, "
                         "which must be even")
    a, b = input.chunk(2, dim)
    return a * torch.sigmoid(b)


@op('logsumexp(Tensor self, int[] dim, bool keepdim=False) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,5]', '1'),
             ('x=f64[3,4]', '(0, 1), keepdim=True'),
             ('x=f32[B,5]', '-1, True', -30, 30)])
def logsumexp(input: Tensor, dim: List[int], keepdim: bool = False) -> Tensor:
    # As ATen: shift by the max so that exp cannot overflow, and by 0 where
    # the max is infinite, so that -inf - -inf makes no NaN.
    m = torch.amax(input, dim, keepdim=True)
    m = torch.where(torch.abs(m) == math.inf, torch.zeros_like(m), m)
    s = torch.log(torch.sum(torch.exp(input - m), dim, keepdim=keepdim))
    shift = torch.amax(input, dim, keepdim=keepdim)
    shift = torch.where(torch.abs(shift) == math.inf, torch.zeros_like(shift),
                        shift)
    return s + shift


def _norm(x: Tensor, p: float, dim: int, keepdim: bool) -> Tensor:
    if p == 2.0:
        return torch.sqrt(torch.sum(x * x, dim, keepdim=keepdim))
    if p == 1.0:
        return torch.sum(torch.abs(x), dim, keepdim=keepdim)
    return torch.sum(torch.abs(x) ** p, dim, keepdim=keepdim) ** (1.0 / p)


@op('normalize(Tensor self, float p=2.0, int dim=1, float eps=1e-12) -> Tensor',
    FUNCTIONAL,
    samples=['x=f32[B,5]',
             ('x=f64[3,4]', 'p=1.0, dim=0'),
             ('x=f32[B,4]', '3.0, -1')])
def normalize(input: Tensor, p: float = 2.0, dim: int = 1,
              eps: float = 1e-12) -> Tensor:
    return input / torch.clamp_min(_norm(input, p, dim, True), eps)


@op('cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor',
    TORCH | FUNCTIONAL,
    samples=[('x=f32[B,5], y=f32[B,5]', 'y'),
             ('x=f32[B,1,4], y=f32[3,4]', 'y, -1'),
             ('x=f64[3,4], y=f64[3,4]', 'y, 0, 1e-6')])
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1,
                      eps: float = 1e-8) -> Tensor:
    w12 = torch.sum(x1 * x2, dim)
    w1 = torch.sum(x1 * x1, dim)
    w2 = torch.sum(x2 * x2, dim)
    return w12 / torch.sqrt(torch.clamp_min(w1 * w2, eps * eps))


@op('pairwise_distance(Tensor x1, Tensor x2, float p=2.0, float eps=1e-06, bool keepdim=False) -> Tensor',
    TORCH | FUNCTIONAL,
    samples=[('x=f32[B,5], y=f32[B,5]', 'y'),
             ('x=f64[3,4], y=f64[4]', 'y, 1.0'),
             ('x=f32[B,5], y=f32[B,5]', 'y, 3.0, keepdim=True')])
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0,
                      eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    return _norm(x1 - x2 + eps, p, -1, keepdim)


@op('softmin(Tensor self, int dim) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,5]', '1'),
             ('x=f64[3,4]', '0')])
def softmin(input: Tensor, dim: int) -> Tensor:
    return torch.softmax(-input, dim)


@op('addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[3,4], a=f32[3,5], b=f32[5,4]', 'a, b'),
             ('x=f32[4], a=f32[B,5], b=f32[5,4]', 'a, b, beta=0.5, alpha=2.0'),
             ('x=f64[3,1], a=f64[3,2], b=f64[2,4]', 'a, b, beta=0')])
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, beta: float = 1.0,
          alpha: float = 1.0) -> Tensor:
    return _scaled_sum(input, torch.matmul(mat1, mat2), beta, alpha)


@op('baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,3,4], a=f32[B,3,5], b=f32[B,5,4]', 'a, b'),
             ('x=f32[3,4], a=f32[2,3,5], b=f32[2,5,4]', 'a, b, beta=2.0, alpha=0.5')])
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, beta: float = 1.0,
            alpha: float = 1.0) -> Tensor:
    return _scaled_sum(input, torch.bmm(batch1, batch2), beta, alpha)


def _scaled_sum(input: Tensor, product: Tensor, beta: float,
                alpha: float) -> Tensor:
    # beta == 0 ignores input, NaN and inf included, as PyTorch documents.
    # No return under these ifs: beta and alpha may be run-time numbers.
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        input = torch.zeros_like(input)
    elif beta != 1:
        input = input * beta
    return input + product


@op('group_norm(Tensor self, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor',
    TORCH | FUNCTIONAL,
    samples=[('x=f32[B,6,4,4]', '3'),
             ('x=f32[B,4,5], w=f32[4], b=f32[4]', '2, w, b'),
             ('x=f64[2,6]', '6, eps=1e-3')])
def group_norm(input: Tensor, num_groups: int, weight: Optional[Tensor] = None,
               bias: Optional[Tensor] = None, eps: float = 1e-5) -> Tensor:
    n = input.size(0)
    c = input.size(1)
    x = input.reshape(n, num_groups, -1)
    mean = torch.mean(x, -1, keepdim=True)
    centered = x - mean
    var = torch.mean(centered * centered, -1, keepdim=True)
    # [N, C, rest], so that the per-channel weight and bias broadcast.
    y = (centered * torch.rsqrt(var + eps)).reshape(n, c, -1)
    if weight is not None:
        y = y * weight.unsqueeze(-1)
    if bias is not None:
        y = y + bias.unsqueeze(-1)
    return y.reshape(input.shape)


@op('instance_norm(Tensor self, Tensor? running_mean=None, Tensor? running_var=None, Tensor? weight=None, Tensor? bias=None, bool use_input_stats=True, float momentum=0.1, float eps=1e-05) -> Tensor',
    FUNCTIONAL,
    samples=['x=f32[B,3,4,4]',
             ('x=f32[B,3,5], w=f32[3], b=f32[3]', 'weight=w, bias=b'),
             ('x=f32[B,3,5], m=f32[3], v=f32[3]', 'm, v * v + 0.5, use_input_stats=False')],
    note='inference: running statistics are read, not updated')
def instance_norm(input: Tensor, running_mean: Optional[Tensor] = None,
                  running_var: Optional[Tensor] = None,
                  weight: Optional[Tensor] = None,
                  bias: Optional[Tensor] = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    # Inference: the running statistics are read, never updated.
    n = input.size(0)
    c = input.size(1)
    x = input.reshape(n, c, -1)
    if use_input_stats:
        mean = torch.mean(x, -1, keepdim=True)
        centered = x - mean
        var = torch.mean(centered * centered, -1, keepdim=True)
        y = centered * torch.rsqrt(var + eps)
    else:
        y = ((x - running_mean.unsqueeze(-1))
             * torch.rsqrt(running_var.unsqueeze(-1) + eps))
    if weight is not None:
        y = y * weight.unsqueeze(-1)
    if bias is not None:
        y = y + bias.unsqueeze(-1)
    return y.reshape(input.shape)


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    _check_reduction(reduction)
    return loss


def _check_reduction(reduction: str):
    # PyTorch's check, made while compiling: reduction is a constant here.
    if reduction != 'mean' and reduction != 'sum' and reduction != 'none':
        raise ValueError("'" + reduction
                         + "' is not a valid value for reduction")


@op("mse_loss(Tensor self, Tensor target, *, str reduction='mean') -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,5], y=f32[B,5]', 'y'),
             ('x=f64[4], y=f64[4]', "y, reduction='sum'"),
             ('x=f32[B,5], y=f32[B,5]', "y, reduction='none'")])
def mse_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    d = input - target
    loss = d * d
    return _reduce(loss, reduction)


@op("l1_loss(Tensor self, Tensor target, *, str reduction='mean') -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,5], y=f32[B,5]', 'y'),
             ('x=f64[4], y=f64[4]', "y, reduction='none'")])
def l1_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    loss = torch.abs(input - target)
    return _reduce(loss, reduction)


@op("smooth_l1_loss(Tensor self, Tensor target, *, str reduction='mean', float beta=1.0) -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,5], y=f32[B,5]', 'y', -3, 3),
             ('x=f64[4], y=f64[4]', "y, reduction='sum', beta=0.5", -3, 3),
             ('x=f32[B,5], y=f32[B,5]', "y, reduction='none', beta=0.0")])
def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str = 'mean',
                   beta: float = 1.0) -> Tensor:
    d = torch.abs(input - target)
    if beta == 0.0:
        loss = d
    else:
        loss = torch.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)
    return _reduce(loss, reduction)


@op("binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, *, str reduction='mean') -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,5], y=f32[B,5]', 'y', 0.01, 0.99),
             ('x=f32[4], y=f32[4], w=f32[4]', "y, w, reduction='sum'", 0.01, 0.99),
             ('x=f64[B,3], y=f64[B,3]', "y, reduction='none'", 0.01, 0.99)])
def binary_cross_entropy(input: Tensor, target: Tensor,
                         weight: Optional[Tensor] = None,
                         reduction: str = 'mean') -> Tensor:
    # ATen clamps each log at -100, so that 0 and 1 give finite losses.
    log_p = torch.clamp_min(torch.log(input), -100.0)
    log_q = torch.clamp_min(torch.log(1.0 - input), -100.0)
    loss = -(target * log_p + (1.0 - target) * log_q)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@op("kl_div(Tensor self, Tensor target, *, str reduction='mean', bool log_target=False) -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,5], y=f32[B,5]', "y, reduction='batchmean'", 0, 1),
             ('x=f32[4], y=f32[4]', "y, reduction='sum', log_target=True"),
             ('x=f64[B,3], y=f64[B,3]', "y, reduction='none'", 0, 1)])
def kl_div(input: Tensor, target: Tensor, reduction: str = 'mean',
           log_target: bool = False) -> Tensor:
    if log_target:
        loss = torch.exp(target) * (target - input)
    else:
        # xlogy: 0 where the target is 0, whatever log(0) is.
        safe = torch.where(target > 0.0, target, torch.ones_like(target))
        loss = torch.where(target > 0.0, target * torch.log(safe),
                           torch.zeros_like(target)) - target * input
    if reduction == 'batchmean':
        return loss.sum() / input.size(0)
    return _reduce(loss, reduction)


@op("nll_loss(Tensor self, Tensor target, Tensor? weight=None, *, int ignore_index=-100, str reduction='mean') -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,5], t=i64[B]', 't'),
             ('x=f32[B,5], t=i64[B], w=f32[5]', "t, w * w + 0.5, reduction='sum'"),
             ('x=f32[2,5,3], t=i64[2,3]', 't, ignore_index=2'),
             ('x=f64[B,5], t=i64[B]', "t, reduction='none'"),
             ('x=f32[5], t=i64[]', 't')])
def nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
             ignore_index: int = -100, reduction: str = 'mean') -> Tensor:
    _check_reduction(reduction)
    unbatched = input.dim() == 1
    if unbatched:
        input = input.unsqueeze(0)
        target = target.unsqueeze(0)
    # Without gather: the class dim moves last (the other dims swap the
    # same way in the target) and meets a one-hot mask built from
    # arange(C) == target.
    if input.dim() > 2:
        x = input.transpose(1, -1)
        t = target.transpose(1, -1)
    else:
        x = input
        t = target
    hot = t.unsqueeze(-1) == torch.arange(input.size(1))
    picked = torch.sum(torch.where(hot, x, torch.zeros_like(x)), -1)
    keep = t != ignore_index
    if weight is None:
        w = torch.where(keep, torch.ones_like(picked), torch.zeros_like(picked))
    else:
        w = torch.sum(torch.where(hot, weight, torch.zeros_like(x)), -1)
        w = torch.where(keep, w, torch.zeros_like(w))
    loss = -picked * w
    if input.dim() > 2:
        loss = loss.transpose(1, -1)
    # 'mean' is a mean weighted by the targets' class weights.
    if reduction == 'mean':
        return loss.sum() / w.sum()
    if reduction == 'sum':
        return loss.sum()
    if unbatched:
        return loss.squeeze(0)
    return loss


@op("cross_entropy(Tensor self, Tensor target, Tensor? weight=None, *, int ignore_index=-100, str reduction='mean', float label_smoothing=0.0) -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,5], t=i64[B]', 't', -4, 4),
             ('x=f32[B,5], t=i64[B], w=f32[5]', 't, w * w + 0.5'),
             ('x=f32[B,5], t=i64[B]', 't, label_smoothing=0.1'),
             ('x=f32[B,5], t=i64[B], w=f32[5]',
              "t, w * w + 0.5, reduction='sum', label_smoothing=0.1"),
             ('x=f32[2,5,3], t=i64[2,3]', "t, ignore_index=1, reduction='none'"),
             ('x=f64[5], t=i64[]', "t, reduction='sum', label_smoothing=0.2"),
             ('x=f32[B,5], t=i64[B]', "t, ignore_index=3, reduction='sum'")],
    note='class indices; probabilities as targets are not supported')
def cross_entropy(input: Tensor, target: Tensor,
                  weight: Optional[Tensor] = None, ignore_index: int = -100,
                  reduction: str = 'mean',
                  label_smoothing: float = 0.0) -> Tensor:
    if input.dim() == 1:
        logp = torch.log_softmax(input, 0)
    else:
        logp = torch.log_softmax(input, 1)
    nll = F.nll_loss(logp, target, weight, ignore_index=ignore_index,
                     reduction=reduction)
    if label_smoothing == 0.0:
        return nll
    # As ATen: the smoothing term sums the (weighted) log-probabilities of
    # every class, is 0 where the target is ignored, and a mean divides by
    # the same weights as nll_loss's.
    if input.dim() == 1:
        n_classes = logp.size(0)
        cls_last = logp
    else:
        n_classes = logp.size(1)
        cls_last = logp.transpose(1, -1)
    if weight is None:
        smooth = -torch.sum(cls_last, -1)
    else:
        smooth = -torch.sum(cls_last * weight, -1)
    if input.dim() > 2:
        smooth = smooth.transpose(1, -1)
    keep = target != ignore_index
    smooth = torch.where(keep, smooth, torch.zeros_like(smooth))
    if reduction == 'mean':
        if weight is None:
            w = torch.where(keep, torch.ones_like(smooth),
                            torch.zeros_like(smooth))
        else:
            hot = target.unsqueeze(-1) == torch.arange(n_classes)
            w = torch.sum(torch.where(hot, weight, torch.zeros_like(weight)),
                          -1)
            w = torch.where(keep, w, torch.zeros_like(w))
        smooth = smooth.sum() / w.sum()
    elif reduction == 'sum':
        smooth = smooth.sum()
    return ((1.0 - label_smoothing) * nll
            + smooth * (label_smoothing / n_classes))
