import torch
from torch import Tensor

# Sizes computed from static dims, and shape tuples sliced and joined while
# compiling (test/frontend/static-numbers.py shows the IR). The head split
# is the pattern of Hugging Face's transpose_for_scores:
#   new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
#   x = x.view(new_x_shape)
# (transformers/models/bert/modeling_bert.py, v4.24).


# kiln: x=f32[B,10]
@torch.jit.script
def folded_sizes(x: Tensor) -> Tensor:
    half = x.size(-1) // 2
    return x.reshape(x.size(0), half, x.size(-1) - half - 3)


# kiln: x=f32[B,T,8]
@torch.jit.script
def transpose_for_scores(x: Tensor) -> Tensor:
    new_x_shape = x.size()[:-1] + (2, 4)
    x = x.view(new_x_shape)
    return x.permute(0, 2, 1, 3) * x.shape[-2:][1]


# kiln: x=f32[2,3,4,5]
@torch.jit.script
def stepped(x: Tensor) -> Tensor:
    s = x.shape[::-3]
    return x.sum((1, 2)).reshape(s).t().reshape(s)


# kiln: x=f32[B,6,4]
@torch.jit.script
def halves(x: Tensor) -> Tensor:
    n = x.shape[1] // 2
    return x[:, :n] - x[:, n:] * (n + 1)


# An int power known only at run time (math.ipowi, which LLVM has no
# intrinsic for), and a function whose last statement raises after its
# returns.
# kiln: x=f32[B,4]
@torch.jit.script
def powers(x: Tensor, n: int) -> Tensor:
    return x * (2 ** n) + torch.pow(x.long(), n).float()


# kiln: x=f32[B,4]
@torch.jit.script
def sign_or_raise(x: Tensor, n: int) -> Tensor:
    if n > 0:
        return x
    elif n < 0:
        return -x
    raise ValueError("n must not be zero")
