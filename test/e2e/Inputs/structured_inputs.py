# Entry points whose parameters are lists and tuples, written as public code
# writes them (test/e2e/structured_inputs.test).
from typing import List, Tuple

import torch
from torch import Tensor


# torchvision/models/detection/rpn.py (0.14), permute_and_flatten and
# concat_box_prediction_layers: one tensor per feature level, each level its
# own size.
def permute_and_flatten(layer: Tensor, N: int, A: int, C: int, H: int, W: int) -> Tensor:
    layer = layer.view(N, -1, C, H, W)
    layer = layer.permute(0, 3, 4, 1, 2)
    layer = layer.reshape(N, -1, C)
    return layer


# kiln: box_cls=[f32[N,3,8,8], f32[N,3,4,4]], box_regression=[f32[N,12,8,8], f32[N,12,4,4]]
@torch.jit.script
def concat_box_prediction_layers(box_cls: List[Tensor], box_regression: List[Tensor]) -> Tuple[Tensor, Tensor]:
    box_cls_flattened = []
    box_regression_flattened = []
    for box_cls_per_level, box_regression_per_level in zip(box_cls, box_regression):
        N, AxC, H, W = box_cls_per_level.shape
        Ax4 = box_regression_per_level.shape[1]
        A = Ax4 // 4
        C = AxC // A
        box_cls_per_level = permute_and_flatten(box_cls_per_level, N, A, C, H, W)
        box_cls_flattened.append(box_cls_per_level)

        box_regression_per_level = permute_and_flatten(box_regression_per_level, N, A, 4, H, W)
        box_regression_flattened.append(box_regression_per_level)
    box_cls = torch.cat(box_cls_flattened, dim=1).flatten(0, -2)
    box_regression = torch.cat(box_regression_flattened, dim=1).reshape(-1, 4)
    return box_cls, box_regression


# pytorch/benchmarks/fastrnns/custom_lstms.py, LSTMCell.forward, with its
# weights passed in: the state is a tuple (hx, cx), and so is the new one.
# kiln: input=f32[B,I], state=(f32[B,H], f32[B,H]), weight_ih=f32[G,I], weight_hh=f32[G,H], bias_ih=f32[G], bias_hh=f32[G]
@torch.jit.script
def lstm_cell(input: Tensor, state: Tuple[Tensor, Tensor], weight_ih: Tensor,
              weight_hh: Tensor, bias_ih: Tensor, bias_hh: Tensor) -> Tuple[Tensor, Tuple[Tensor, Tensor]]:
    hx, cx = state
    gates = (torch.mm(input, weight_ih.t()) + bias_ih +
             torch.mm(hx, weight_hh.t()) + bias_hh)
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)

    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)

    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * torch.tanh(cy)

    return hy, (hy, cy)


# A crop box as a list of run-time ints (torchvision's F.crop takes top,
# left, height, width).
# kiln: img=f32[C,H,W], box=int[4]
@torch.jit.script
def crop(img: Tensor, box: List[int]) -> Tensor:
    top, left, height, width = box[0], box[1], box[2], box[3]
    return img[..., top:top + height, left:left + width]


# A tuple of scalars needs no spec: its annotation types every element.
# kiln: x=f32[N]
@torch.jit.script
def affine(x: Tensor, ab: Tuple[float, int]) -> List[Tensor]:
    return [x * ab[0] + ab[1], x.abs() * len(ab)]


# A mixed tuple and a list of tensors of one rank whose sizes differ.
# kiln: pair=(f32[N], float), feats=[f32[2,N], f32[3,N], f32[1,N]]
@torch.jit.script
def mixed(pair: Tuple[Tensor, float], feats: List[Tensor]) -> Tuple[Tensor, int]:
    x, s = pair
    total = torch.zeros_like(x)
    for f in feats:
        total = total + f.sum(0)
    return torch.cat(feats, 0) * s + x + total, len(feats)


# Defaults of tuple parameters: each element's literal is its input's
# default, so the caller may leave them out.
# kiln: x=f32[N,C]
@torch.jit.script
def scale_clamp(x: Tensor, ab: Tuple[float, float] = (2.0, -1.0),
                bounds: Tuple[int, int] = (-1, 2)) -> Tensor:
    return torch.clamp(x * ab[0] + ab[1], bounds[0], bounds[1])
