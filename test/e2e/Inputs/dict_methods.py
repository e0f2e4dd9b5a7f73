# Dict methods that change a dict, as public model code calls them:
#   torchvision.models.detection.generalized_rcnn.GeneralizedRCNN.forward
#     (0.14): losses = {}; losses.update(detector_losses);
#     losses.update(proposal_losses)
#   transformers' generation and model code: `x = kwargs.pop("name",
#     default)`, `model_kwargs.setdefault("use_cache", ...)`,
#     `outputs.update({...})`
import torch
from torch import Tensor
from typing import Dict


def detector_losses(x: Tensor) -> Dict[str, Tensor]:
    return {"loss_classifier": x.abs().mean(), "loss_box_reg": x.pow(2).mean()}


# kiln: x=f32[B,4]
@torch.jit.script
def rcnn_losses(x: Tensor):
    losses = {"loss_objectness": x.mean()}
    losses.update(detector_losses(x))
    losses.update({"loss_rpn_box_reg": x.sum(), "loss_objectness": x.max()})
    total = torch.zeros(())
    for name, value in losses.items():
        total = total + value
    return total, losses["loss_objectness"], len(losses)


# kiln: x=f32[B,4], h=f32[B,4]
@torch.jit.script
def kwargs_style(x: Tensor, h: Tensor):
    kwargs = {"inputs_embeds": x * 2.0, "mask": h > 0.0}
    embeds = kwargs.pop("inputs_embeds", x)
    scale = kwargs.pop("scale", torch.ones(4))
    mask = kwargs.pop("mask")
    cache = kwargs.setdefault("past", h * 0.5)
    again = kwargs.setdefault("past", h)
    kwargs.update({"hidden_states": embeds + cache})
    n = len(kwargs)
    if "inputs_embeds" in kwargs:
        n = n + 100
    out = embeds * scale + again
    return out.masked_fill(mask, 0.0), kwargs["hidden_states"], n


# A dict changed under a run-time condition keeps its keys on both sides.
# kiln: x=f32[B,4]
@torch.jit.script
def under_condition(x: Tensor):
    d = {"a": x, "b": x + 1.0}
    if bool(x.sum() > 0.0):
        d.update({"a": x * 3.0})
        d.setdefault("b", x)
    return d.pop("a") + d["b"], len(d)
