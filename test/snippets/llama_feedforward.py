# Origin: facebookresearch/llama, llama/model.py, class FeedForward (SwiGLU).
# The code is reproduced for testing kiln against eager PyTorch. Adapted:
# fairscale's ColumnParallelLinear/RowParallelLinear are plain nn.Linear
# (what they are on one device), the parameters have small defaults (kiln
# builds the module with no arguments), and the `# kiln:` shape comment is
# added.
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


class FeedForward(nn.Module):
    def __init__(
        self,
        dim: int = 32,
        hidden_dim: int = 128,
        multiple_of: int = 16,
        ffn_dim_multiplier: Optional[float] = None,
    ):
        """
        Initialize the FeedForward module.

        Args:
            dim (int): Input dimension.
            hidden_dim (int): Hidden dimension of the feedforward layer.
            multiple_of (int): Value to ensure hidden dimension is a multiple of this value.
            ffn_dim_multiplier (float, optional): Custom multiplier for hidden dimension. Defaults to None.

        Attributes:
            w1 (nn.Linear): Linear transformation for the first layer.
            w2 (nn.Linear): Linear transformation for the second layer.
            w3 (nn.Linear): Linear transformation for the third layer.

        """
        super().__init__()
        hidden_dim = int(2 * hidden_dim / 3)
        # custom dim factor multiplier
        if ffn_dim_multiplier is not None:
            hidden_dim = int(ffn_dim_multiplier * hidden_dim)
        hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)

        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    # kiln: x=f32[B,T,32]
    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))
