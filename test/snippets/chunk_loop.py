# Origin: the style of pytorch/pytorch's test/test_jit.py, which loops over
# the tuple that `chunk` returns (e.g. `for c in x.chunk(4)`); written for
# kiln's tests, not copied.
import torch


# kiln: x=f32[N,8]
@torch.jit.script
def chunk_loop(x):
    total = torch.zeros_like(x[:, 0:2])
    for c in x.chunk(4, dim=1):
        total = total + c * c
    return total


# kiln: x=f32[8,N]
@torch.jit.script
def chunk_loop_dim0(x):
    total = torch.zeros_like(x[0:2])
    i = 0
    for c in x.chunk(4):
        total = total + c * float(i)
        i += 1
    return total

