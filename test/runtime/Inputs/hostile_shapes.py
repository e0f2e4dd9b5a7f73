# Scripts whose shapes or integers reach the edges of what compiled code can
# represent (test/runtime/hostile-shapes.test and int-overflow.test), beyond
# what the audit's own repros in this folder (colsum.py, rowsum3.py,
# int-min-div.py, const-int-min-div.py, zeros-2-62.py) already hold.
import torch
from torch import Tensor


# kiln: x=f32[Z, N], y=f32[Z, M]
@torch.jit.script
def outer(x: Tensor, y: Tensor) -> Tensor:
    a = x.sum(0)
    b = y.sum(0)
    return a[:, None] * b[None, :]


# kiln: x=f32[N, M]
@torch.jit.script
def rowsum(x: Tensor) -> Tensor:
    return x.sum(1)


# kiln: a=i64[N], b=i64[N]
@torch.jit.script
def tensor_floordiv(a: Tensor, b: Tensor) -> Tensor:
    return a // b


# kiln: a=i32[N], b=i32[N]
@torch.jit.script
def tensor_mod(a: Tensor, b: Tensor) -> Tensor:
    return torch.remainder(a, b)


@torch.jit.script
def const_mod() -> int:
    return (-9223372036854775807 - 1) % -1
