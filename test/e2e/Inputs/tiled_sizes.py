import torch
from torch import Tensor

# Groups large enough to be tiled (docs/codegen.md: more than 16K points),
# with innermost sizes that are no multiple of a vector or a tile: 1, 7,
# 17, 1023 and 4097, a dynamic row count whose last tile is partial, and
# empty dims. Each entry mixes a row reduction fused into the tile, a
# column reduction computed once before the tiles, and elementwise math.


def mix(x: Tensor) -> Tensor:
    return torch.softmax(x, -1) + torch.tanh(x) * x.mean(0, keepdim=True)


# kiln: x=f32[20000,1]
@torch.jit.script
def width1(x: Tensor) -> Tensor:
    return mix(x)

# kiln: x=f32[3000,7]
@torch.jit.script
def width7(x: Tensor) -> Tensor:
    return mix(x)

# kiln: x=f32[1000,17]
@torch.jit.script
def width17(x: Tensor) -> Tensor:
    return mix(x)

# kiln: x=f32[33,1023]
@torch.jit.script
def width1023(x: Tensor) -> Tensor:
    return mix(x)

# kiln: x=f32[N,4097]
@torch.jit.script
def width4097(x: Tensor) -> Tensor:
    return mix(x)

# Row sums and maxima of a large 1-D and 3-D input, ints included.
# kiln: x=f32[40000], y=i64[5,N,4099]
@torch.jit.script
def reductions(x: Tensor, y: Tensor):
    return (x * x).sum(), torch.exp(x).amax(), y.sum(-1), (y * 3).amax(-1)

# kiln: x=f32[0,20000], y=f32[20000,0]
@torch.jit.script
def empty(x: Tensor, y: Tensor):
    return torch.softmax(x, -1) * 2.0, torch.tanh(y) + 1.0, y.sum(-1)
