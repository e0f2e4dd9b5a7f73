import torch
from torch import Tensor

# Transposes of the innermost dims, which -O2 cuts into 16 x 16 blocks
# transposed in registers (VectorizeTiles' cutTranspose, kiln-lower-vectors'
# shuffles), with the short blocks at either end left scalar: between
# channels first and channels last at ResNet's 56 x 56 (a remainder of 8
# columns), a matrix of 40 x 33 (remainders on both dims), exact blocks
# (32 x 48, i32), one dim of 16 and one of 17, and a batch size and a
# length known only at run time; and attention's split into heads, a
# transpose of outer dims that copies whole rows.


# kiln: a=f32[2,56,56,64], b=f32[2,64,56,56]
@torch.jit.script
def layouts(a: Tensor, b: Tensor):
    return (a.permute(0, 3, 1, 2).contiguous() * 2.0,
            b.permute(0, 2, 3, 1).contiguous() + 1.0)


# kiln: m=f32[40,33], n=i32[32,48], e=f32[16,17]
@torch.jit.script
def matrices(m: Tensor, n: Tensor, e: Tensor):
    return m.t().contiguous(), n.t().contiguous() * 3, e.t().contiguous()


# kiln: x=f32[B,T,48]
@torch.jit.script
def dynamic(x: Tensor):
    return x.transpose(1, 2).contiguous() - x.mean()


# kiln: q=f32[2,12,64], k=f32[B,T,48]
@torch.jit.script
def heads(q: Tensor, k: Tensor):
    return (q.view(2, 12, 4, 16).transpose(1, 2).contiguous(),
            k.view(k.shape[0], k.shape[1], 3, 16).permute(0, 2, 1, 3).contiguous())
