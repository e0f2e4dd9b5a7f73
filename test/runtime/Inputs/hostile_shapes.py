# Scripts whose shapes or integers reach the edges of what compiled code can
# represent (test/runtime/hostile-shapes.test and int-overflow.test).
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
def colsum(x: Tensor) -> Tensor:
    return x.sum(0)


# kiln: x=f32[N, M]
@torch.jit.script
def rowsum(x: Tensor) -> Tensor:
    return x.sum(1)


@torch.jit.script
def floordiv(a: int, b: int) -> int:
    return a // b


@torch.jit.script
def mod(a: int, b: int) -> int:
    return a % b


# kiln: a=i64[N], b=i64[N]
@torch.jit.script
def tensor_floordiv(a: Tensor, b: Tensor) -> Tensor:
    return a // b


# kiln: a=i32[N], b=i32[N]
@torch.jit.script
def tensor_mod(a: Tensor, b: Tensor) -> Tensor:
    return torch.remainder(a, b)


@torch.jit.script
def const_floordiv() -> int:
    return (-9223372036854775807 - 1) // -1


@torch.jit.script
def const_mod() -> int:
    return (-9223372036854775807 - 1) % -1


@torch.jit.script
def zeros_too_large() -> Tensor:
    return torch.zeros(4611686018427387905)
