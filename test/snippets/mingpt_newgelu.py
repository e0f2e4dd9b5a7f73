# Origin: karpathy/minGPT, mingpt/model.py, class NewGELU.
# The code is reproduced for testing kiln against eager PyTorch; only the
# `# kiln:` shape comment is added.
import math

import torch
import torch.nn as nn


class NewGELU(nn.Module):
    """
    Implementation of the GELU activation function currently in Google BERT repo (identical to OpenAI GPT).
    Reference: Gaussian Error Linear Units (GELU) paper: https://arxiv.org/abs/1606.08415
    """
    # kiln: x=f32[B,T,16]
    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
