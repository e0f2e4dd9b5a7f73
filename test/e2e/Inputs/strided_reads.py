import torch
import torch.nn.functional as F
from torch import Tensor

# Reads whose elements lie 2 to 5 apart along the innermost dim, at -O2
# vectorized as one contiguous load and a shuffle (kiln-lower-vectors'
# DeinterleaveStridedRead) for strides 2 to 4, and along rows shorter than
# a chunk (VectorizeTiles' kMinChunk): max pools whose rows are 15, 6, 10
# and 8 wide, a NaN in a window, and strided slices whose rows are a whole
# chunk plus one (65), 17, 5 and, at stride 5 (not deinterleaved), 8.


# LeNet's two pools (rows of 15 and 6, the second from an odd width), a
# 3x3 window at stride 2 with ceil_mode, and stride-3 and stride-4 pools.
# kiln: a=f32[4,6,30,30], b=f32[4,16,13,13], c=f32[2,3,31,31]
# kiln: d=f32[2,3,30,30], e=f32[2,3,32,32]
@torch.jit.script
def pools(a: Tensor, b: Tensor, c: Tensor, d: Tensor, e: Tensor):
    with_nan = torch.where(a > 2.0, a * float('nan'), a)
    return (F.max_pool2d(a, 2), F.max_pool2d(b, 2),
            F.max_pool2d(c, 3, stride=2, ceil_mode=True),
            F.max_pool2d(d, 3), F.max_pool2d(e, 4),
            F.max_pool2d(with_nan, 2))


# Strided slices feeding elementwise math, f32 and i32.
# kiln: x=f32[300,130], y=f32[200,51], z=f32[100,20], w=f32[100,40]
# kiln: n=i32[64,34]
@torch.jit.script
def slices(x: Tensor, y: Tensor, z: Tensor, w: Tensor, n: Tensor):
    return (x[:, ::2] * 2.0 + x[:, 1::2], torch.tanh(y[:, ::3]),
            z[:, 1::4] - z[:, ::4], w[:, ::5] * w[:, 1::5],
            n[:, ::2] * 3 + n[:, 1::2])
