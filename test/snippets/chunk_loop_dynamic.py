# Origin: the style of pytorch/pytorch's test/test_jit.py, which loops over
# the tuple that `chunk` returns (e.g. `for c in x.chunk(4)`); written for
# kiln's tests, not copied.
import torch


# The chunked dim is dynamic here: its size is a multiple of 4 in both dim
# sets run_kiln.py uses (T is 12 and 4).
# kiln: x=f32[T,3]
@torch.jit.script
def chunk_loop_dynamic(x):
    total = torch.zeros_like(x.chunk(4)[0])
    for c in x.chunk(4):
        total = total + c.sigmoid()
    return total
