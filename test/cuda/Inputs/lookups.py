# Reads at indices taken from tensors, and integer division: on a GPU their
# checks run inside the kernels (test/cuda/lookups.test, and the GPU
# differential test, which also makes each check fail).
import torch
import torch.nn.functional as F
from torch import Tensor


# kiln: ids=i64[B,T], table=f32[8,D]
@torch.jit.script
def embed(ids: Tensor, table: Tensor) -> Tensor:
    return F.embedding(ids, table) * 2.0


# kiln: x=f32[N,6], idx=i64[N,K]
@torch.jit.script
def pick(x: Tensor, idx: Tensor) -> Tensor:
    return torch.gather(x, 1, idx).sum(1)


# kiln: x=f32[6,M], idx=i64[K]
@torch.jit.script
def rows(x: Tensor, idx: Tensor) -> Tensor:
    return torch.index_select(x, 0, idx) + 1.0


# kiln: x=i64[N], width=i64[N]
@torch.jit.script
def buckets(x: Tensor, width: Tensor) -> Tensor:
    return x // (width + 1)
