import torch
import torch.nn.functional as F
from torch import Tensor


# Activations of torch.nn.functional and their Tensor-method spellings.
# relu, silu, tanh and sigmoid; tanh and sigmoid of an int tensor give f32.
# kiln: x=f32[B,T], i=i64[B,T]
@torch.jit.script
def pointwise(x: Tensor, i: Tensor):
    y = x * 4.0
    return (F.relu(y), y.relu(), torch.relu(y), F.silu(y), F.tanh(y),
            F.sigmoid(y), y.sigmoid(), torch.tanh(y), F.sigmoid(i))


# gelu exactly (with erf) and with the tanh approximation.
# kiln: x=f32[B,N,D]
@torch.jit.script
def gelu(x: Tensor):
    y = x * 4.0
    return F.gelu(y), F.gelu(y, approximate='tanh'), F.gelu(y, approximate='none')


# softmax and log_softmax over each dim, as functions and methods. Scaled
# by 100, a softmax that did not subtract the max would overflow exp.
# kiln: x=f32[B,N,D]
@torch.jit.script
def softmaxes(x: Tensor):
    s = x * 100.0
    return (F.softmax(s, dim=-1), F.log_softmax(s, dim=1), s.softmax(0),
            torch.log_softmax(s, -1), torch.softmax(s, dim=2),
            s.log_softmax(dim=-2), F.softmax(x, dim=2, dtype=torch.float64))


# clamp with both bounds, one bound and as clamp_min/clamp_max; an int
# tensor clamped to int bounds stays int, to a float bound becomes f32.
# kiln: x=f32[B,T], i=i64[B,T]
@torch.jit.script
def clamps(x: Tensor, i: Tensor):
    return (x.clamp(-0.5, 0.5), torch.clamp(x, min=0.0), x.clamp(max=0.25),
            x.clamp_min(0.1), x.clamp_max(-0.1), torch.clamp(x, 0.3, -0.3),
            i.clamp(1, 3), i.clamp(min=1.5))


# Dropout with training=False is the identity.
# kiln: x=f32[B,T]
@torch.jit.script
def dropout(x: Tensor):
    return F.dropout(x, 0.2, False) + F.dropout(x, p=0.5, training=False)
