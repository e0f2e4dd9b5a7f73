import torch
import torch.nn.functional as F
from torch import Tensor


# masked_fill with a causal mask (GPT's attention), with a scalar and a 0-d
# tensor value, on an int tensor (the float value is truncated to its
# dtype); torch.where and Tensor.where with tensors and scalars.
# kiln: x=f32[B,T,T], m=bool[T,T], c=bool[B,T,T], i=i32[B,T]
@torch.jit.script
def masking(x: Tensor, m: Tensor, c: Tensor, i: Tensor):
    t = x.size(-1)
    causal = torch.ones(t, t).tril() == 0
    att = x.masked_fill(causal, float("-inf")).softmax(dim=-1)
    return (att, x.masked_fill(m, 0.5), x.masked_fill(c, torch.tensor(2.0)),
            i.masked_fill(m[0], 7.9), torch.where(c, x, 0.0),
            torch.where(m, x, -x), x.where(c, x * 2.0), torch.where(c, 1.0, x))


# triu and tril, batched, with a negative, a positive and a run-time
# diagonal, on float, int and bool tensors.
# kiln: x=f32[B,N,D], s=f32[M,M], i=i64[N,D], c=bool[N,N]
@torch.jit.script
def triangles(x: Tensor, s: Tensor, i: Tensor, c: Tensor, k: int):
    return (x.triu(), torch.tril(x), x.triu(1), x.tril(-1),
            torch.triu(s, diagonal=k), s.tril(-k), i.tril(2), c.triu())


# torch.arange: static and dynamic lengths, float steps, negative steps
# and dtype=.
# kiln: x=f32[B,N]
@torch.jit.script
def aranges(x: Tensor, n: int):
    return (torch.arange(5), torch.arange(2, 9, 3), torch.arange(x.size(0)),
            torch.arange(0.0, 1.0, 0.25), torch.arange(n, dtype=torch.float32),
            torch.arange(1, n * 2, 2), torch.arange(x.size(1), 0, -1),
            x + torch.arange(x.size(1)), torch.arange(-1.5, 2.0))


# argmax over a dim, over everything, with keepdim; int inputs from 0..4
# and a 0/1 tensor have many ties, which go to the first index, and a NaN
# is the maximum, as in PyTorch.
# kiln: x=f32[B,N,D], i=i64[B,N]
@torch.jit.script
def argmaxes(x: Tensor, i: Tensor):
    nan = torch.where(x > 0.5, float("nan"), x)
    return (x.argmax(-1), torch.argmax(x, dim=1, keepdim=True), x.argmax(),
            x.argmax(keepdim=True), i.argmax(1), (x > 0).float().argmax(dim=2),
            i.argmax(0), nan.argmax(-1), nan.argmax())


# split by size (even and uneven) and by sections, chunk, and cat/stack of
# the pieces from tuples and lists.
# kiln: x=f32[B,12], y=f32[3,D]
@torch.jit.script
def splits(x: Tensor, y: Tensor):
    q, k, v = x.split(4, dim=1)
    a, b = torch.split(x, [5, 7], 1)
    c, d, e = x.chunk(3, -1)
    f, g, h = x.split(5, 1)
    u, w = y.split([1, 2], dim=0)
    r, s = y.chunk(2)
    return (q, k, v, a, b, c, d, e, f, g, h, u, w, r, s,
            torch.cat((q, b), dim=1), torch.cat([a, b], dim=-1),
            torch.stack((q, v), 1), torch.cat((x, x), 0))


# The shape ops of multi-head attention: view into heads, transpose(-2, -1),
# batched matmul, contiguous, and back; permute and reshape with -1.
# kiln: x=f32[B,T,12]
@torch.jit.script
def heads(x: Tensor):
    B, T, C = x.size()
    q = x.view(B, T, 3, 4).transpose(1, 2)
    att = (q @ q.transpose(-2, -1)) * 0.5
    att = F.softmax(att, dim=-1)
    y = att @ q
    y = y.transpose(1, 2).contiguous().view(B, T, C)
    return y, x.permute(2, 0, 1).reshape(12, -1), x.reshape(-1, 12)


# bmm, and matmul with broadcast batch dims (4-D @ 3-D, 4-D @ 4-D) and
# with vectors.
# kiln: a=f32[B,3,4], b=f32[B,4,5], c=f32[2,1,N,4], d=f32[3,4,M], v=f32[4]
@torch.jit.script
def matmuls(a: Tensor, b: Tensor, c: Tensor, d: Tensor, v: Tensor):
    return (torch.bmm(a, b), a.bmm(b), c @ d, torch.matmul(c, d.unsqueeze(0)),
            a @ v, v @ b, a.matmul(b))
