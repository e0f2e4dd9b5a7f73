"""kiln's prelude: torch ops written as compositions of other torch ops.

This file is ordinary PyTorch: it runs eagerly (test/prelude compares each
function with the op it stands for), and kiln compiles it with its own
frontend. CMake embeds the text into kiln; frontend/Prelude.cpp parses it
once, and an op-table row in frontend/OpTablePrelude.cpp calls the function
of the same name with the call's arguments bound to the row's schema, in
the schema's order.

Each call is specialized on its constant arguments (ints, floats, bools,
None, strings, dtypes, tuples of ints), so inside a function `dim` is a
compile-time int and an `if` on constants (`if weight is None:`,
`if reduction == 'mean':`) is decided while compiling: only the branch
taken is compiled. A `return` may only sit under such an `if`; a choice at
run time is written with torch.where. Errors in here are reported at the
user's call.

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


def glu(input: Tensor, dim: int = -1) -> Tensor:
    a, b = input.chunk(2, dim)
    return a * torch.sigmoid(b)


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


def normalize(input: Tensor, p: float = 2.0, dim: int = 1,
              eps: float = 1e-12) -> Tensor:
    return input / torch.clamp_min(_norm(input, p, dim, True), eps)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1,
                      eps: float = 1e-8) -> Tensor:
    w12 = torch.sum(x1 * x2, dim)
    w1 = torch.sum(x1 * x1, dim)
    w2 = torch.sum(x2 * x2, dim)
    return w12 / torch.sqrt(torch.clamp_min(w1 * w2, eps * eps))


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0,
                      eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    return _norm(x1 - x2 + eps, p, -1, keepdim)


def softmin(input: Tensor, dim: int) -> Tensor:
    return torch.softmax(-input, dim)


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, beta: float = 1.0,
          alpha: float = 1.0) -> Tensor:
    return _scaled_sum(input, torch.matmul(mat1, mat2), beta, alpha)


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


def mse_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    d = input - target
    loss = d * d
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    return loss


def l1_loss(input: Tensor, target: Tensor, reduction: str = 'mean') -> Tensor:
    loss = torch.abs(input - target)
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    return loss


def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str = 'mean',
                   beta: float = 1.0) -> Tensor:
    d = torch.abs(input - target)
    if beta == 0.0:
        loss = d
    else:
        loss = torch.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    return loss


def binary_cross_entropy(input: Tensor, target: Tensor,
                         weight: Optional[Tensor] = None,
                         reduction: str = 'mean') -> Tensor:
    # ATen clamps each log at -100, so that 0 and 1 give finite losses.
    log_p = torch.clamp_min(torch.log(input), -100.0)
    log_q = torch.clamp_min(torch.log(1.0 - input), -100.0)
    loss = -(target * log_p + (1.0 - target) * log_q)
    if weight is not None:
        loss = loss * weight
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    return loss


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
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    return loss


def nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
             ignore_index: int = -100, reduction: str = 'mean') -> Tensor:
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
