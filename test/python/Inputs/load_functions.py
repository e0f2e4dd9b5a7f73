# Script functions that load.test compiles with `kiln compile` and runs
# through kiln.load: two inputs, Optional and defaulted inputs, a
# List[Tensor] input with a tuple result, a str chosen at run time, a
# dict result, and int scalars.
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor


# kiln: x=f32[N,4], y=f32[N,4]
@torch.jit.script
def blend(x: Tensor, y: Tensor) -> Tensor:
    return x * 2.0 + torch.sin(y)


# kiln: x=f32[B,T], mask=f32[B,T]
@torch.jit.script
def masked_softmax(x: Tensor, mask: Optional[Tensor] = None,
                   temperature: float = 1.0) -> Tensor:
    if mask is not None:
        x = x + mask
    return F.softmax(x / temperature, dim=-1)


# kiln: xs=[f32[N,3], f32[N,5]]
@torch.jit.script
def concat(xs: List[Tensor]) -> Tuple[Tensor, Tensor]:
    y = torch.cat(xs, dim=1)
    return y, y.sum(dim=1)


# kiln: x=f32[B,D], mode=str:relu|gelu|tanh
@torch.jit.script
def activation(x: Tensor, mode: str = "relu") -> Tensor:
    if mode == "relu":
        return F.relu(x)
    elif mode == "gelu":
        return F.gelu(x)
    return torch.tanh(x)


# kiln: hidden=f32[B,T,8]
@torch.jit.script
def heads(hidden: Tensor) -> Dict[str, Tensor]:
    logits = hidden.mean(dim=1)
    return {"logits": logits, "probs": logits.softmax(dim=-1)}


# kiln: ids=i64[N]
@torch.jit.script
def shift(ids: Tensor, k: int = 3) -> Tensor:
    return ids * k + 1


# An index out of range is an error raised by the compiled code.
# kiln: x=f32[N]
@torch.jit.script
def pick(x: Tensor, i: int) -> Tensor:
    return x[i] * 2.0
