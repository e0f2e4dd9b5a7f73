import torch
from typing import List
from torch import Tensor

# Run-time lists that start equal. The optimizer may merge two empty list
# literals into one value; appending to a list in place is then only right
# where no one else can see that list, which includes a loop's result when
# the loop ran no iteration (it is the loop's init). At n=3 the -O2 loop
# unrolled by 8 runs its main part zero times: the case that once gave
# len(b) == 6.


# kiln: x=f32[3]
@torch.jit.script
def two_lists(x: Tensor, n: int) -> Tensor:
    a: List[Tensor] = []
    for i in range(n):
        a.append(x * i)
    b: List[Tensor] = []
    for i in range(len(a)):
        b.append(a[i] + 1)
    return torch.stack(b) + len(b)


# kiln: x=f32[3]
@torch.jit.script
def list_through_if(x: Tensor, n: int) -> Tensor:
    a: List[Tensor] = []
    if n < 5:
        b: List[Tensor] = []
    else:
        b = [x, x]
    for i in range(n):
        b.append(x * i)
    a.append(x)
    return torch.stack(a).sum(0) * len(a) + torch.stack(b).sum(0) * len(b)



# Views appended as they lie: a row (dense, at an offset), a column
# (strided), a reshaped transposed block and a row of a broadcast. The
# runtime copies a dense one in one piece and any other element by element.
# kiln: x=f32[4,4]
@torch.jit.script
def appended_views(x: Tensor) -> Tensor:
    parts: List[Tensor] = []
    parts.append(x[1])
    parts.append(x[:, 0])
    parts.append(x[1:3].t().reshape(2, 4)[1])
    parts.append(x[2].expand(3, 4)[1])
    return torch.stack(parts) * 2.0
