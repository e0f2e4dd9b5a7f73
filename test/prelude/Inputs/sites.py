import torch
import torch.nn.functional as F
from torch import Tensor


# kiln: x=f32[N], y=f32[M]
@torch.jit.script
def loss(x: Tensor, y: Tensor) -> Tensor:
    return F.mse_loss(x, y, reduction='sum')
