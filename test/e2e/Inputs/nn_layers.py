import torch
import torch.nn.functional as F
from torch import Tensor


# F.linear is x @ w.T + b, for a batch of vectors and a single vector.
# kiln: x=f32[B,N,8], w=f32[6,8], b=f32[6], v=f32[8]
@torch.jit.script
def linear(x: Tensor, w: Tensor, b: Tensor, v: Tensor):
    return F.linear(x, w, b), F.linear(x, w), F.linear(v, w, b)


# conv2d with bias, stride, padding (int, pair and 'same'), dilation and
# groups, on an input whose height is dynamic.
# kiln: x=f32[B,4,H,9], w=f32[6,4,3,3], b=f32[6], wg=f32[8,2,3,3], bg=f32[8]
# kiln: wd=f32[6,4,2,3]
@torch.jit.script
def conv2d(x: Tensor, w: Tensor, b: Tensor, wg: Tensor, bg: Tensor,
           wd: Tensor):
    return (F.conv2d(x, w, b),
            F.conv2d(x, w, b, stride=2, padding=1),
            F.conv2d(x, wg, None, 1, (1, 2), 1, 2),
            F.conv2d(x, wd, stride=(2, 1), padding=(2, 0), dilation=(2, 1)),
            F.conv2d(x, w, b, padding='same'),
            F.conv2d(x, wg, bg, padding=1, groups=2))


# max_pool2d: the default stride, ceil_mode, padding and dilation; a NaN
# in a window wins, as in PyTorch; a 5x5 window (more than the 16 elements
# kiln unrolls) takes linalg's pooling op instead.
# kiln: x=f32[B,3,H,7]
@torch.jit.script
def max_pools(x: Tensor):
    with_nan = torch.where(x > 0.8, x * float('nan'), x)
    return (F.max_pool2d(x, 2), F.max_pool2d(x, 3, stride=2, ceil_mode=True),
            F.max_pool2d(x, (2, 3), stride=1, padding=1, dilation=(1, 2)),
            F.max_pool2d(x, 2, 2, 1, 1, True), F.max_pool2d(with_nan, 2),
            F.max_pool2d(x, 5, stride=1, padding=2))


# avg_pool2d: padding counted in the divisor or not, and ceil_mode, whose
# last window may hang over the padded input.
# kiln: x=f32[B,3,H,7]
@torch.jit.script
def avg_pools(x: Tensor):
    return (F.avg_pool2d(x, 2),
            F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True),
            F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
            F.avg_pool2d(x, (3, 2), stride=2, padding=(1, 1), ceil_mode=True,
                         count_include_pad=False))


# The three paths of adaptive_avg_pool2d: (1, 1) is a mean over H and W
# (any sizes); sizes that divide the input evenly are an avg_pool2d; other
# sizes take PyTorch's overlapping windows, one dim after the other.
# kiln: x=f32[B,3,10,7], y=f32[B,2,H,W]
@torch.jit.script
def adaptive_pools(x: Tensor, y: Tensor):
    return (F.adaptive_avg_pool2d(y, 1), F.adaptive_avg_pool2d(y, (1, 1)),
            F.adaptive_avg_pool2d(x, (5, 7)), F.adaptive_avg_pool2d(x, (3, 4)),
            F.adaptive_avg_pool2d(x, (4, 1)), F.adaptive_avg_pool2d(x, 6),
            F.adaptive_avg_pool2d(x, [10, 2]))


# layer_norm over the last dim and the last two, with and without weights.
# kiln: x=f32[B,T,6], w=f32[6], b=f32[6], z=f32[B,3,4], w2=f32[3,4]
@torch.jit.script
def layer_norm(x: Tensor, w: Tensor, b: Tensor, z: Tensor, w2: Tensor):
    return (F.layer_norm(x, (6,), w, b), F.layer_norm(x, [6]),
            F.layer_norm(z, (3, 4), w2, None, 1e-3),
            F.layer_norm(x * 5.0, w.shape, w, b, eps=1e-5))


# batch_norm in eval mode, on 4-D and 2-D inputs.
# kiln: x=f32[B,4,H,5], m=f32[4], v=f32[4], w=f32[4], b=f32[4], y=f32[B,4]
@torch.jit.script
def batch_norm(x: Tensor, m: Tensor, v: Tensor, w: Tensor, b: Tensor,
               y: Tensor):
    var = v + 1.5
    return (F.batch_norm(x, m, var, w, b, False, 0.1, 1e-5),
            F.batch_norm(y, m, var),
            F.batch_norm(x, m, var, training=False, eps=1e-3),
            F.batch_norm(y, m, var, bias=b))


# embedding with i64 and i32 indices (the harness draws them from 0..4).
# kiln: i=i64[B,T], w=f32[6,D], j=i32[N]
@torch.jit.script
def embedding(i: Tensor, w: Tensor, j: Tensor):
    return F.embedding(i, w), F.embedding(j, w), F.embedding(i, w, padding_idx=0)
