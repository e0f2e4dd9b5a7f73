import torch
from torch import Tensor

# index_put / index_put_ / torch.index_put, as public code calls them:
# - ncnn's pnnx converter tests (tools/pnnx/tests/test_Tensor_index_put.py):
#       x = x.index_put(indices=[torch.tensor([10,2])], values=y, accumulate=False)
#       z.index_put_(indices=[torch.tensor([1,0,0]), torch.tensor([3,2,1])], values=w, accumulate=True)
# - torch-mlir's e2e tests (IndexPutImpl*Module): index_put_ with
#   accumulate=True on float and int tensors, duplicate indices included.
# - a confusion matrix counted by index_put_ with accumulate=True (metrics
#   code written by hand): cm.index_put_((target, pred), ones, accumulate=True)
# - TorchScript's List[Optional[Tensor]] indices: None is a whole dim.
# Integer inputs are in [0, 5), so dims of size 5 or more index safely.


# kiln: x=f32[6,4], i=i64[3], v=f32[3,4], w=f32[3]
@torch.jit.script
def pnnx_style(x: Tensor, i: Tensor, v: Tensor, w: Tensor) -> Tensor:
    y = x.index_put(indices=[i], values=v, accumulate=False)
    z = x.clone()
    z.index_put_(indices=[i, i % 4], values=w, accumulate=True)
    return torch.cat([y, z], 0)


# kiln: target=i64[N], pred=i64[N]
@torch.jit.script
def confusion_matrix(target: Tensor, pred: Tensor) -> Tensor:
    cm = torch.zeros(5, 5, dtype=torch.int64)
    ones = torch.ones(target.size(0), dtype=torch.int64)
    cm.index_put_((target, pred), ones, accumulate=True)
    return cm


# Eager PyTorch takes no None among the indices; it runs the same store
# spelled with slices and arange instead.
# kiln: x=f32[B,5,3], i=i64[4], v=f32[4]
@torch.jit.script
def optional_indices(x: Tensor, i: Tensor, v: Tensor) -> Tensor:
    if torch.jit.is_scripting():
        a = x.index_put([None, i], v.unsqueeze(1))
        b = torch.index_put(x, (None, None, i % 3), v, True)
    else:
        a = x.clone()
        a[:, i] = v.unsqueeze(1)
        rows = torch.arange(x.size(0)).view(-1, 1, 1)
        cols = torch.arange(5).view(1, -1, 1)
        b = torch.index_put(x, (rows, cols, (i % 3).view(1, 1, -1)), v, True)
    c = x.clone()
    c.index_put_((x > 0.5,), torch.tensor(-1.0))       # a bool mask
    d = x.index_put((x < 0.0,), torch.tensor(2.0), accumulate=True)
    return a + b + c + d


# Duplicates: the last value wins without accumulate, and they are
# summed with it; negative indices wrap; an empty index list stores none.
# kiln: x=f64[7], i=i64[K], v=f64[K]
@torch.jit.script
def duplicates(x: Tensor, i: Tensor, v: Tensor) -> Tensor:
    j = torch.cat([i, i - 5])
    u = torch.cat([v, v * 2.0])
    last = x.index_put((j,), u)
    summed = x.index_put((j,), u, accumulate=True)
    empty = x.index_put((j[:0],), u[:0], True)
    return torch.stack([last, summed, empty])


# kiln: flags=i64[6], i=i64[4]
@torch.jit.script
def bool_accumulate(flags: Tensor, i: Tensor) -> Tensor:
    b = flags > 2
    r = b.index_put((i,), torch.ones(4, dtype=torch.bool), accumulate=True)
    return r.to(torch.int64)
