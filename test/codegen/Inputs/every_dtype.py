# Every element type through every op family whose lowering LLVM might turn
# into a library call: casts between all dtypes (f16/bf16 conversions),
# arithmetic in each dtype (f16 and bf16 math is widened), Python's // and %
# on ints and floats (fmod), powers, transcendental functions, reductions,
# matmul, print and lists. test/codegen/self-contained.test compiles it for
# baseline x86-64, where no f16/bf16 hardware conversion exists, and checks
# what the code object imports.
import torch
from torch import Tensor


def row(x: Tensor) -> Tensor:
    return torch.stack([x.float(), x.double().float(), x.half().float(),
                        x.bfloat16().float(), x.int().float(),
                        x.long().float(), x.bool().float()])


# kiln: a=f32[N], b=f64[N], c=f16[N], d=bf16[N], e=i32[N], f=i64[N], g=bool[N]
@torch.jit.script
def casts(a: Tensor, b: Tensor, c: Tensor, d: Tensor, e: Tensor, f: Tensor,
          g: Tensor):
    return row(a), row(b), row(c), row(d), row(e), row(f), row(g)


# kiln: x=f16[N], y=f16[N]
@torch.jit.script
def half_math(x: Tensor, y: Tensor):
    return (x + y, x * y, x / y, x // y, x % y, x ** 2.0, -x, x.abs(),
            x.exp(), x.log(), x.tanh(), x.sigmoid(), x.sqrt(), x.sin(),
            x.cos(), x.sum(), x.mean(), x.amax(0), x > y, x.relu(),
            torch.maximum(x, y), x.clamp(-1.0, 1.0))


# kiln: x=bf16[N], y=bf16[N]
@torch.jit.script
def bfloat_math(x: Tensor, y: Tensor):
    return (x + y, x * y, x / y, x // y, x % y, x ** 2.0, -x, x.abs(),
            x.exp(), x.log(), x.tanh(), x.sigmoid(), x.sqrt(), x.sin(),
            x.cos(), x.sum(), x.mean(), x.amax(0), x > y, x.relu(),
            torch.maximum(x, y), x.clamp(-1.0, 1.0))


# kiln: x=f64[N], y=f64[N]
@torch.jit.script
def double_math(x: Tensor, y: Tensor):
    return (x + y, x / y, x // y, x % y, x ** y, x.exp(), x.log(), x.tanh(),
            x.sigmoid(), x.sqrt(), x.sin(), x.cos(), torch.nn.functional.gelu(x), x.sum(),
            x.mean(), x.half(), x.bfloat16())


# kiln: x=f32[N], y=f32[N]
@torch.jit.script
def float_math(x: Tensor, y: Tensor):
    return (x // y, x % y, x ** y, x.exp(), x.log(), x.tanh(), x.sigmoid(),
            x.sqrt(), x.rsqrt(), x.sin(), x.cos(), torch.nn.functional.gelu(x), x.half(),
            x.bfloat16(), torch.rand(3), torch.randn(3))


# kiln: x=i64[N], y=i64[N], u=i32[N], v=i32[N]
@torch.jit.script
def int_math(x: Tensor, y: Tensor, u: Tensor, v: Tensor, n: int, m: int):
    return (x // y, x % y, u // v, u % v, x * y, x ** 2, x.sum(), u.sum(),
            x.amax(0), n // m, n % m, n ** 3, x & y, x | y, x ^ y)


# kiln: a=f32[M,K], b=f32[K,M], c=f16[M,K], d=bf16[M,K], e=f64[M,K], f=i64[M,K]
@torch.jit.script
def matmuls(a: Tensor, b: Tensor, c: Tensor, d: Tensor, e: Tensor, f: Tensor):
    return (a @ b, c @ b.half(), d @ b.bfloat16(), e @ b.double(),
            f @ b.long())


# kiln: x=f16[N], y=bf16[N]
@torch.jit.script
def printing(x: Tensor, y: Tensor, n: int, s: float):
    print("half", x, "bfloat", y, n, s, n > 2)
    xs = [x]
    for i in range(n):
        xs.append(x * float(i))
    return torch.stack(xs), torch.cat([y, y])
