import torch
from torch import Tensor

# Views of tensors with a static 0 dim next to dynamic ones. MLIR 19's
# bufferization once crashed kiln here (an expand_shape whose group mixed a
# `?` dim with a static 0); a reshape of nothing now builds an empty tensor
# of the new shape. Found through Tensor.repeat with a zero count.


# kiln: x=f32[B,0]
@torch.jit.script
def expand_flatten(x: Tensor) -> Tensor:
    return x.unsqueeze(0).unsqueeze(2).expand(2, -1, 2, -1).flatten(0, 1)


# kiln: x=f32[B,3,0]
@torch.jit.script
def reshape_zero(x: Tensor) -> Tensor:
    return x.reshape(x.size(0), 0, 3) + 1


# kiln: x=f32[B,4]
@torch.jit.script
def repeat_zero(x: Tensor) -> Tensor:
    return x.repeat(0, 2).reshape(4, 0, 2)
