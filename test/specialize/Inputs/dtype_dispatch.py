# Origin: the dtype dispatch of public code, written the way it is there:
# huggingface/transformers, models/t5/modeling_t5.py (T5LayerNorm.forward:
# `if self.weight.dtype in [torch.float16, torch.bfloat16]`, and the
# finfo clamp of T5LayerFF), timm/layers/fast_norm.py (`x.dtype ==
# torch.float32`) and torch.nn.functional's `input.dim()` checks. Each
# dead branch would fail to type-check or compute the wrong thing.
import torch
import torch.nn as nn
from torch import Tensor


# kiln: hidden_states=f32[B,6], weight=f32[6]
@torch.jit.script
def t5_layer_norm(hidden_states: Tensor, weight: Tensor) -> Tensor:
    variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
    hidden_states = hidden_states * torch.rsqrt(variance + 1e-6)
    # convert into half-precision if necessary
    if weight.dtype in [torch.float16, torch.bfloat16]:
        hidden_states = hidden_states.to(weight.dtype)
    return weight * hidden_states


class T5Clamp(torch.nn.Module):
    """torch.finfo is not scriptable in torch 1.13, so this is a module,
    which run_model.py runs eagerly; kiln folds finfo/iinfo to constants."""

    # kiln: hidden_states=f32[B,5]
    def forward(self, hidden_states: Tensor) -> Tensor:
        if hidden_states.dtype == torch.float16:
            clamp_value = torch.finfo(hidden_states.dtype).max - 1000
            hidden_states = torch.clamp(hidden_states, min=-clamp_value, max=clamp_value)
        eps = torch.finfo(hidden_states.dtype).eps
        tiny = torch.finfo(torch.float64).tiny
        big = torch.iinfo(torch.int32).max
        return hidden_states + eps + tiny * 1e300 + big / 1e9


# kiln: x=f32[B,4,3]
@torch.jit.script
def metadata(x: Tensor) -> Tensor:
    if x.dim() == 2:
        return x.sum()
    if len(x.shape) != 3:
        raise ValueError("expected a 3-D input")
    if not x.is_floating_point():
        x = x.float()
    assert x.dtype != torch.int64
    assert not x.is_cuda
    scale = x.element_size() * x.ndim
    y = torch.tensor(2.0, dtype=x.dtype, device=x.device)
    z = torch.zeros_like(x, dtype=torch.float64)
    if x.dtype is not None and x.device == torch.device("cpu"):
        y = y + 1
    return (x * scale + y + z.to(x.dtype)) / x.numel() * x.size(0)


# kiln: x=i64[B,3]
@torch.jit.script
def int_dispatch(x: Tensor) -> Tensor:
    if x.is_floating_point():
        return x.sigmoid()
    else:
        return (x * 2).clamp(min=-5, max=5)
