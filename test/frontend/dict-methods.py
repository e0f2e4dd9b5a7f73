# Golden IR and errors of the dict methods that change a dict: update, pop
# and setdefault (frontend/LowerDicts.cpp). A dict is a compile-time value,
# so they leave no op behind: the function returns the values themselves.
# RUN: kiln compile %s --emit=ir --entry methods | FileCheck %s
import torch
from torch import Tensor
from typing import Dict


# CHECK-LABEL: func.func @methods
# CHECK: %[[B:.*]] = kiln.mul %arg0, %{{.*}}
# CHECK: %[[C:.*]] = kiln.add %arg0, %{{.*}}
# CHECK-NOT: kiln.
# CHECK: return %[[B]], %[[C]], %arg0, %c3_i64
# kiln: x=f32[2,3]
@torch.jit.script
def methods(x: Tensor):
    d = {"a": x}
    d.update({"b": x * 2.0, "c": x + 1.0})
    b = d.pop("b")
    a = d.setdefault("a", b)
    d.setdefault("z", a)
    return b, d["c"], d.pop("missing", a), len(d)


# RUN: not kiln compile %s --emit=ir --entry pop_missing 2>&1 | FileCheck %s --check-prefix=POP --strict-whitespace --implicit-check-not='{{error|note}}:'
# POP: {{^.*}}dict-methods.py:[[@LINE+6]]:18: error: the dict has no key 'logit'; its keys are 'logits'; did you mean 'logits'?{{$}}
# POP-NEXT: {{^}}    return d.pop("logit"){{$}}
# POP-NEXT: {{^}}                 ^~~~~~~{{$}}
# kiln: x=f32[2,3]
def pop_missing(x: Tensor):
    d = {"logits": x}
    return d.pop("logit")


# RUN: not kiln compile %s --emit=ir --entry update_tensor 2>&1 | FileCheck %s --check-prefix=UPDATE --strict-whitespace --implicit-check-not='{{error|note}}:'
# UPDATE: {{^.*}}dict-methods.py:[[@LINE+5]]:14: error: update() takes a dict, not a Tensor[f32, 2x3]{{$}}
# UPDATE-NEXT: {{^}}    d.update(x){{$}}
# kiln: x=f32[2,3]
def update_tensor(x: Tensor):
    d = {"a": x}
    d.update(x)
    return d["a"]


# RUN: not kiln compile %s --emit=ir --entry pop_no_key 2>&1 | FileCheck %s --check-prefix=NOKEY --strict-whitespace --implicit-check-not='{{error|note}}:'
# NOKEY: {{^.*}}dict-methods.py:[[@LINE+4]]:12: error: pop() takes a key and an optional default{{$}}
# kiln: x=f32[2,3]
def pop_no_key(x: Tensor):
    d = {"a": x}
    return d.pop()


# RUN: not kiln compile %s --emit=ir --entry not_local 2>&1 | FileCheck %s --check-prefix=LOCAL --strict-whitespace --implicit-check-not='{{error|note}}:'
# LOCAL: {{^.*}}dict-methods.py:[[@LINE+3]]:12: error: setdefault() changes the dict, so it must be called on a local variable{{$}}
# kiln: x=f32[2,3]
def not_local(x: Tensor):
    return {"a": x}.setdefault("b", x)


# RUN: not kiln compile %s --emit=ir --entry runtime_key 2>&1 | FileCheck %s --check-prefix=RUNTIME --strict-whitespace --implicit-check-not='{{error|note}}:'
# RUNTIME: {{^.*}}dict-methods.py:[[@LINE+4]]:18: error: a dict key must be known while compiling, not an int computed while running: kiln's dicts are compile-time values whose values keep their own types and shapes, so a key must name one of them while compiling{{$}}
# kiln: x=f32[2,3]
def runtime_key(x: Tensor):
    d = {"a": x}
    return d.pop(x.size(0) + int(x.sum()), x)


# RUN: not kiln compile %s --emit=ir --entry int_key 2>&1 | FileCheck %s --check-prefix=INTKEY --strict-whitespace --implicit-check-not='{{error|note}}:'
# INTKEY: {{^.*}}dict-methods.py:[[@LINE+3]]:10: error: a dict key must be a string (kiln's dicts are Dict[str, T]), not an int{{$}}
# kiln: x=f32[2,3]
def int_key(x: Tensor):
    d = {0: x}
    return d[0]
