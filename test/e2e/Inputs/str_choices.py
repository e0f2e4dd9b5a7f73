# Entry points with a str parameter chosen at run time, written as public
# code writes them (test/e2e/str_choices.test).
import torch
import torch.nn.functional as F
from torch import Tensor


# torch/nn/modules/transformer.py (1.13), _get_activation_fn, applied to a
# feed-forward block as TransformerEncoderLayer's _ff_block does.
# kiln: x=f32[B,D], w1=f32[F,D], w2=f32[D,F], activation=str:relu|gelu
@torch.jit.script
def feed_forward(x: Tensor, w1: Tensor, w2: Tensor, activation: str = "relu") -> Tensor:
    h = F.linear(x, w1)
    if activation == "relu":
        h = F.relu(h)
    elif activation == "gelu":
        h = F.gelu(h)
    else:
        raise RuntimeError("activation should be relu/gelu, not {}".format(activation))
    return F.linear(h, w2)


# torch/nn/modules/loss.py (1.13), SmoothL1Loss.forward, with its
# reduction and beta as parameters. Its default reduction "mean" is one of
# the values; "none" would return another rank than they do, so the
# archive offers "mean" and "sum".
# kiln: input=f32[N,C], target=f32[N,C], reduction=str:mean|sum
@torch.jit.script
def smooth_l1(input: Tensor, target: Tensor, reduction: str = "mean",
              beta: float = 1.0) -> Tensor:
    return F.smooth_l1_loss(input, target, reduction=reduction, beta=beta)


# A mode compared with `in` and `!=`, as padding modes are.
# kiln: x=f32[C,W], mode=str:constant|reflect|replicate
@torch.jit.script
def pad_1d(x: Tensor, mode: str = "constant") -> Tensor:
    if mode in ("reflect", "replicate"):
        return F.pad(x.unsqueeze(0), [2, 2], mode=mode).squeeze(0)
    if mode != "constant":
        raise ValueError("unknown padding mode")
    return F.pad(x, [2, 2])
