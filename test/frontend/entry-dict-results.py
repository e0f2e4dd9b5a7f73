# An entry point returning a dict of tensors and scalars returns its values
# in key order, and names each result by its key (kiln.result_names; the
# manifest's result names). Each function is one case, compiled alone with
# --entry.
from typing import Dict

import torch
from torch import Tensor


# RUN: kiln compile %s --emit=ir --entry heads 2>&1 | FileCheck %s --check-prefix=HEADS
# HEADS: func.func @heads(%arg0: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "x"}) -> (tensor<?xf32>, tensor<?xf32>, i64) attributes {kiln.entry, kiln.result_names = ["logits", "hidden", "count"]}
# HEADS: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?xf32>, i64
# kiln: x=f32[N]
def heads(x: Tensor) -> Dict[str, Tensor]:
    out = {"logits": x * 2.0}
    out["hidden"] = torch.relu(x)
    out["count"] = x.size(0)
    return out


# A dict holding anything but tensors and scalars is refused at the return.
# RUN: not kiln compile %s --entry nested 2>&1 | FileCheck %s --check-prefix=NESTED --implicit-check-not=error:
# NESTED: entry-dict-results.py:[[@LINE+3]]:5: error: an entry point cannot return a dict {'a': a tuple (a Tensor[f32, ?], a Tensor[f32, ?])}; it may return a dict whose values are tensors and scalars, or its values as a tuple
# kiln: x=f32[N]
def nested(x: Tensor):
    return {"a": (x, x)}
