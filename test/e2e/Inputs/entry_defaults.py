# Entry points with defaulted scalar parameters, written the way public code
# writes them:
#  - swish: timm/layers/activations.py
#    (`def swish(x, inplace: bool = False)`);
#  - pixel_norm: the PixelNorm of ProGAN/StyleGAN PyTorch ports
#    (`x * torch.rsqrt(torch.mean(x ** 2, dim=1, keepdim=True) + 1e-8)`), with
#    its epsilon as a defaulted parameter;
#  - softmax_t: softmax with a temperature, as in knowledge-distillation
#    code (`F.softmax(logits / temperature, dim=-1)`), and an int step
#    added to it (an int, not the dim, which must be known while compiling);
#  - Scale.forward: a parameterless module whose forward takes a defaulted
#    float, like timm's LayerScale with its init value passed in;
#  - attention_scores: the `scale: Optional[float] = None` of
#    torch.nn.functional.scaled_dot_product_attention (None: 1/sqrt(D)),
#    with an Optional[int] cap and an Optional[bool] that defaults to True;
#  - activation: the `activation: str = "relu"` of nn.TransformerEncoderLayer
#    (torch/nn/modules/transformer.py, `_get_activation_fn`), a str that
#    kiln compiles for one value: its default, or `--arg mode=str:gelu`;
#  - classifier_outputs: a Hugging Face-style head returning a dict
#    (`{"logits": ..., "last_hidden_state": ...}`, as ModelOutput does).
from typing import Dict, Optional

import torch
import torch.nn.functional as F
from torch import Tensor


# kiln: x=f32[B,C]
@torch.jit.script
def swish(x: Tensor, inplace: bool = False) -> Tensor:
    return x.mul_(x.sigmoid()) if inplace else x.mul(x.sigmoid())


# kiln: x=f32[B,C,H]
@torch.jit.script
def pixel_norm(x: Tensor, eps: float = 1e-8) -> Tensor:
    return x * torch.rsqrt(torch.mean(x ** 2, dim=1, keepdim=True) + eps)


# kiln: logits=f32[B,C]
@torch.jit.script
def softmax_t(logits: Tensor, temperature: float = 1.0, steps: int = 0) -> Tensor:
    return F.softmax(logits / (temperature * (1 + steps)), dim=-1)


class Scale(torch.nn.Module):
    # kiln: x=f32[B,C]
    def forward(self, x: Tensor, gamma: float = 1e-5, negate: bool = False) -> Tensor:
        y = x * gamma
        if negate:
            y = -y
        return y


# kiln: q=f32[B,T,8], k=f32[B,T,8]
@torch.jit.script
def attention_scores(q: Tensor, k: Tensor, scale: Optional[float] = None,
                     cap: Optional[int] = None,
                     softmax: Optional[bool] = True) -> Tensor:
    s = scale if scale is not None else q.size(-1) ** -0.5
    att = (q @ k.transpose(-2, -1)) * s
    if cap is not None:
        att = att.clamp(-cap, cap)
    if softmax is not None and softmax:
        att = att.softmax(dim=-1)
    return att


# kiln: x=f32[B,C]
@torch.jit.script
def activation(x: Tensor, mode: str = "relu") -> Tensor:
    if mode == "relu":
        return F.relu(x)
    elif mode == "gelu":
        return F.gelu(x)
    return torch.tanh(x)


# kiln: hidden=f32[B,T,8]
@torch.jit.script
def classifier_outputs(hidden: Tensor,
                       temperature: float = 1.0) -> Dict[str, Tensor]:
    logits = hidden.mean(dim=1) / temperature
    return {"logits": logits, "probs": logits.softmax(dim=-1),
            "last_hidden_state": hidden}
