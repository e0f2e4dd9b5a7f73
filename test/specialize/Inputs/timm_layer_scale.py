# Origin: huggingface/pytorch-image-models, timm/layers/layer_scale.py
# (class LayerScale2d) and timm/layers/squeeze_excite.py (class SEModule,
# gate applied as in EffectiveSEModule). The code is reproduced for testing
# kiln against eager PyTorch. Adapted: `self.training`/`torch.jit.is_scripting`
# guard written as timm's drop_path does, `# kiln:` shape comments added,
# and `Inplace`/`Flat` (ours) build the other configurations. extra_repr is
# never called by forward: its f-string must not stop the class compiling.
import torch
import torch.nn as nn
from torch import Tensor


class LayerScale2d(nn.Module):
    def __init__(self, dim: int = 8, init_values: float = 1e-5, inplace: bool = False, flatten: bool = False):
        super().__init__()
        self.inplace = inplace
        self.flatten = flatten
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def extra_repr(self) -> str:
        return f"inplace={self.inplace!r}, flatten={self.flatten}, dim={self.gamma.shape[0]:d}"

    # kiln: x=f32[B,8,4,4]
    def forward(self, x: Tensor) -> Tensor:
        gamma = self.gamma.view(1, -1, 1, 1)
        if not torch.jit.is_scripting() and torch.jit.is_tracing():
            x = x.contiguous()
        x = x.mul_(gamma) if self.inplace else x * gamma
        if self.training:
            x = x + 1.0
        if self.flatten:
            x = x.flatten(2).transpose(1, 2)
        if x.dim() == 4:
            return x.mean((2, 3))
        # x is (B, HW, C) only when flatten is set.
        x = x.mean(1)
        return x


class Inplace(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = LayerScale2d(8, 0.5, True, False)

    # kiln: x=f32[B,8,4,4]
    def forward(self, x: Tensor) -> Tensor:
        return self.block(x)


class Flat(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = LayerScale2d(8, 0.5, False, True)

    # kiln: x=f32[B,8,4,4]
    def forward(self, x: Tensor) -> Tensor:
        return self.block(x)
