from typing import Dict

import torch
from torch import Tensor


# kiln: x=f32[N]
@torch.jit.script
def heads(x: Tensor) -> Dict[str, Tensor]:
    return {"logits": x * 2.0, "hidden": torch.relu(x)}


# A key that cannot be part of a file name.
# kiln: x=f32[N]
@torch.jit.script
def slashed(x: Tensor) -> Dict[str, Tensor]:
    return {"a/b": x}
