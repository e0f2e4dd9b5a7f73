import torch
from torch import Tensor


# Static shapes throughout, and entry points that call entry points: at -O0
# the calls stay calls, so a slice x[i] is passed as a view into x.


# kiln: x=f32[4,4], t=f32[4,4]
@torch.jit.script
def step(x: Tensor, t: Tensor) -> Tensor:
    return torch.tanh(x.mm(t) + t)


# kiln: x=f32[4,4]
@torch.jit.script
def scaled(x: Tensor, k: int) -> Tensor:
    return x * k


# kiln: x=f32[3,4,4], w=f32[4,4]
@torch.jit.script
def chain(x: Tensor, w: Tensor) -> Tensor:
    y = w
    for i in range(x.size(0)):
        y = step(x[i], y)
        y = scaled(y, i + 1)
    return y


# kiln: x=f32[6,8]
@torch.jit.script
def shapes(x: Tensor) -> Tensor:
    y = x.reshape(3, 16)[1:3]
    z = torch.zeros(2, 16) + y
    return z.sum(1) * z.mean()


# Python's // and % on ints the compiler cannot see (a is an argument):
# they round toward -inf and take the divisor's sign, at run time.
# kiln: x=f32[5]
@torch.jit.script
def int_division(x: Tensor, a: int) -> Tensor:
    q = (a // -2) * 100 + (-a // 2) * 10 + (a // 2)
    r = (a % -2) * 100 + (-a % 2) * 10 + (a % 2)
    return x * q + r
