# Errors of dicts and NamedTuples (issue 19, item 6). Each case is compiled
# alone with --entry and points at the construct.
#
# RUN: not kiln compile %s --entry bad_key 2>&1 | FileCheck %s --check-prefix=KEY
# KEY: dicts-errors.py:33:10: error: a dict key must be known while compiling, not an int computed while running: kiln's dicts are compile-time values whose values keep their own types and shapes, so a key must name one of them while compiling
# RUN: not kiln compile %s --entry missing_key 2>&1 | FileCheck %s --check-prefix=MISSING
# MISSING: dicts-errors.py:40:14: error: the dict has no key 'logit'; its keys are 'logits', 'hidden'; did you mean 'logits'?
# RUN: not kiln compile %s --entry bad_join 2>&1 | FileCheck %s --check-prefix=JOIN
# JOIN: dicts-errors.py:45:5: error: 'd' is a dict {'a': a Tensor[f32, 2x3]} in the true branch and a dict {'b': a Tensor[f32, 2x3]} in the false branch
# RUN: not kiln compile %s --entry bad_field 2>&1 | FileCheck %s --check-prefix=FIELD
# FIELD: dicts-errors.py:55:14: error: 'Out' has no field 'logit'; did you mean 'logits'?
# RUN: not kiln compile %s --entry missing_field 2>&1 | FileCheck %s --check-prefix=MFIELD
# MFIELD: dicts-errors.py:60:9: error: 'Out' is missing field 'hidden'
# RUN: not kiln compile %s --entry bad_method 2>&1 | FileCheck %s --check-prefix=METHOD
# METHOD: dicts-errors.py:67:7: error: dict method 'clear' is not supported; kiln's dicts have items, keys, values, get, update, pop and setdefault
# RUN: not kiln compile %s --entry ret_dict 2>&1 | FileCheck %s --check-prefix=RET
# RUN: not kiln compile %s --entry PlainDict 2>&1 | FileCheck %s --check-prefix=PLAIN
# PLAIN: dicts-errors.py:83:21: error: 'PlainDict.layers' is a plain dict of modules, which nn.Module does not register; use nn.ModuleDict
# RET: dicts-errors.py:73:5: error: an entry point cannot return a dict {'a': a tuple (a Tensor[f32, 2x3], a Tensor[f32, 2x3])}; it may return a dict whose values are tensors and scalars, or its values as a tuple
import torch
import torch.nn as nn
from torch import Tensor
from typing import Dict, NamedTuple


class Out(NamedTuple):
    logits: Tensor
    hidden: Tensor


# kiln: x=f32[2,3]
def bad_key(x, k: int):
    d = {k: x}
    return x


# kiln: x=f32[2,3]
def missing_key(x):
    d = {"logits": x, "hidden": x}
    return d["logit"]


# kiln: x=f32[2,3]
def bad_join(x, c: bool):
    if c:
        d = {"a": x}
    else:
        d = {"b": x}
    return d["a"]


# kiln: x=f32[2,3]
def bad_field(x):
    o = Out(x, x)
    return o.logit


# kiln: x=f32[2,3]
def missing_field(x):
    o = Out(logits=x)
    return o.logits


# kiln: x=f32[2,3]
def bad_method(x):
    d = {"a": x}
    d.clear()
    return x


# kiln: x=f32[2,3]
def ret_dict(x):
    return {"a": (x, x)}


class PlainDict(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = {"a": nn.Linear(3, 3)}

    # kiln: x=f32[2,3]
    def forward(self, x):
        return self.layers["a"](x)
