# Conversions between the float types, checked bit for bit against PyTorch
# by check_half_conversions.py (test/codegen/half-conversions.test). .npy
# has no bf16, so bf16 values come in as the f32 values they equal (every
# bf16 is exactly an f32) and go out through .float(), which is exact.
import torch
from torch import Tensor


# kiln: x=f32[N], d=f64[N], h=f16[M], bf=f32[M]
@torch.jit.script
def convert(x: Tensor, d: Tensor, h: Tensor, bf: Tensor):
    b = bf.bfloat16()
    return (x.half(), x.bfloat16().float(), d.half(), d.bfloat16().float(),
            h.float(), h.double(), b.float(), b.double(),
            h.bfloat16().float(), b.half())


# kiln: h=f16[M], g=f16[M]
@torch.jit.script
def half_arith(h: Tensor, g: Tensor):
    return h + g, h * g, h / g, h.exp(), h.sqrt()
