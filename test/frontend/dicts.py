# Golden IR for dicts, NamedTuples and nn.ModuleDict (issue 19, item 6): a
# Dict[str, T] is a compile-time value, so building, indexing and iterating
# it leaves no IR of its own; a helper returning one returns its values.
# RUN: kiln compile %s --emit=ir | FileCheck %s
# RUN: kiln compile %s --entry Heads --emit=ir | FileCheck %s --check-prefix=MOD
import torch
import torch.nn as nn
from torch import Tensor
from typing import Dict, NamedTuple


class Out(NamedTuple):
    logits: Tensor
    hidden: Tensor


def heads(x: Tensor) -> Dict[str, Tensor]:
    out = {"logits": x * 2.0, "hidden": x.sum(0)}
    out["extra"] = x + 1.0
    return out


# The helper returns the three values in insertion order; `in`, `len` and
# the `!=` on keys fold, and .get's default is never computed.
# CHECK-LABEL: func.func @use_dict
# CHECK:       %[[D:.*]]:3 = call @heads(%arg0) : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>)
# CHECK:       %[[A:.*]] = kiln.add %[[D]]#0, %[[D]]#0
# CHECK:       %[[B:.*]] = kiln.add %[[A]], %[[D]]#2
# CHECK:       kiln.mul %[[B]], %c3_i64
# CHECK-NOT:   kiln.neg
# CHECK:       return
# CHECK-LABEL: func.func private @heads
# CHECK:       return %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>
# kiln: x=f32[2,3]
@torch.jit.script
def use_dict(x: Tensor):
    d = heads(x)
    acc = d["logits"]
    for k, v in d.items():
        if k != "hidden":
            acc = acc + v
    if "extra" in d:
        acc = acc * len(d)
    return acc, d.get("hidden", -x)


# A NamedTuple is its fields: built by keyword, read by name and index.
# CHECK-LABEL: func.func @use_named
# CHECK:       %[[H:.*]] = kiln.sub %arg0, %c1_i64
# CHECK:       %[[L:.*]] = kiln.mul %arg0, %c3_i64
# CHECK:       return %[[L]], %[[H]], %[[L]]
# kiln: x=f32[2,3]
@torch.jit.script
def use_named(x: Tensor):
    o = Out(hidden=x - 1, logits=x * 3)
    a, b = o
    return Out(o.logits, b)[0], o[1], a


# nn.ModuleDict: .items() unrolls in insertion order and d["k"] is the
# module itself.
# MOD-LABEL: func.func @forward
# MOD:       call @heads.cls.forward(%arg0)
# MOD:       call @heads.reg.forward(%arg0)
# MOD:       call @heads.reg.forward_1(%arg0)
# MOD:       func.func private @heads.cls.forward
# MOD:       kiln.param "heads.cls.weight" : tensor<2x3xf32>
class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({"cls": nn.Linear(3, 2), "reg": nn.Linear(3, 1)})

    # kiln: x=f32[2,3]
    def forward(self, x):
        outs = [head(x).sum() for name, head in self.heads.items()]
        return outs[0] + outs[1] + self.heads["reg"](x).sum()
