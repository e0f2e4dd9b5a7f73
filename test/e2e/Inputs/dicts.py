# Dicts, NamedTuples and ModuleDicts as public model code writes them, each
# function after the snippet it paraphrases:
#   transformers' TorchScript-friendly heads (`return_dict=False` paths of
#     e.g. modeling_bert.py) build `outputs = {"logits": ..., "hidden_states":
#     ...}` in a helper and read `outputs["logits"]`; `config.get(...)`-style
#     defaults; `if "attentions" in outputs:`
#   transformers' ModelOutput / torchvision.models.detection's
#     `class ...(NamedTuple)` results: built by keyword, read by attribute,
#     indexed and unpacked
#   torchvision.models._utils.IntermediateLayerGetter: `for name, module in
#     self.items(): x = module(x); if name in self.return_layers:
#     out[self.return_layers[name]] = x` (here over an nn.ModuleDict
#     attribute, as timm's FeatureDictNet holds one)
import torch
import torch.nn as nn
from torch import Tensor
from typing import Dict, NamedTuple


class LMOutput(NamedTuple):
    logits: Tensor
    hidden_states: Tensor


def lm_head(x: Tensor) -> Dict[str, Tensor]:
    hidden = torch.tanh(x)
    outputs = {"hidden_states": hidden}
    outputs["logits"] = hidden.sum(-1)
    return outputs


def lm_output(x: Tensor) -> LMOutput:
    return LMOutput(hidden_states=x * 2.0, logits=x.mean(-1))


# kiln: x=f32[B,4]
@torch.jit.script
def dict_head(x: Tensor):
    outputs = lm_head(x)
    logits = outputs["logits"]
    if "attentions" in outputs:
        logits = logits * 0.0
    extra = outputs.get("attentions", outputs["hidden_states"])
    n = len(outputs)
    return logits * n, extra + outputs.get("hidden_states", x)


# kiln: x=f32[B,4]
@torch.jit.script
def dict_items(x: Tensor):
    d: Dict[str, Tensor] = {"a": x, "b": x * 3.0, "c": x - 1.0}
    total = torch.zeros_like(x)
    for k, v in d.items():
        if k != "b":
            total = total + v
    for k in d.keys():
        total = total + d[k]
    for v in d.values():
        total = total * 0.5 + v
    return total


# kiln: x=f32[B,4]
@torch.jit.script
def named_tuple(x: Tensor):
    out = lm_output(x)
    logits, hidden = out
    return out.logits + logits, out[1] - hidden + out.hidden_states


# kiln: x=f32[B,4]
@torch.jit.script
def named_tuple_entry(x: Tensor) -> LMOutput:
    return LMOutput(torch.relu(x), x + 1.0)


class LayerGetter(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict({"stem": nn.Linear(4, 8),
                                     "act": nn.ReLU(),
                                     "head": nn.Linear(8, 3)})
        self.return_layers = {"stem": "feat0", "head": "out"}

    # kiln: x=f32[B,4]
    def forward(self, x):
        out: Dict[str, Tensor] = {}
        inp = x
        for name, module in self.layers.items():
            x = module(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        first = self.layers["stem"](inp * 2.0)
        return out["out"], out["feat0"].sum(-1) * len(self.layers), first
