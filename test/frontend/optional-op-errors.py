# An Optional[Tensor] entry input passed to an op-table row that is not a
# prelude decomposition is refused at the argument: a C++ builder (F.conv2d,
# torch.clamp) needs to know while compiling whether the tensor is there.
# Each function is one case, compiled alone with --entry.
from typing import Optional

import torch
import torch.nn.functional as F
from torch import Tensor


# RUN: not kiln compile %s --emit=ir --entry conv_bias 2>&1 | FileCheck %s --check-prefix=CONV --strict-whitespace --implicit-check-not='{{error|note}}:'
# CONV: {{^.*}}optional-op-errors.py:[[@LINE+5]]:27: error: F.conv2d() cannot take an Optional[Tensor] (Tensor[f32, 2] or None; test it with 'is not None' first) for 'bias': its lowering needs to know while compiling whether the tensor is there{{$}}
# CONV-NEXT: {{^}}    return F.conv2d(x, w, b){{$}}
# CONV-NEXT: {{^}}                          ^{{$}}
# kiln: x=f32[1,3,4,4], w=f32[2,3,1,1], b=f32[2]?
def conv_bias(x: Tensor, w: Tensor, b: Optional[Tensor] = None) -> Tensor:
    return F.conv2d(x, w, b)


# RUN: not kiln compile %s --emit=ir --entry clamp_min 2>&1 | FileCheck %s --check-prefix=CLAMP --strict-whitespace --implicit-check-not='{{error|note}}:'
# CLAMP: {{^.*}}optional-op-errors.py:[[@LINE+5]]:27: error: torch.clamp() cannot take an Optional[Tensor] (Tensor[f32, 3] or None; test it with 'is not None' first) for 'min': its lowering needs to know while compiling whether the tensor is there{{$}}
# CLAMP-NEXT: {{^}}    return torch.clamp(x, lo){{$}}
# CLAMP-NEXT: {{^}}                          ^~{{$}}
# kiln: x=f32[2,3], lo=f32[3]?
def clamp_min(x: Tensor, lo: Optional[Tensor] = None) -> Tensor:
    return torch.clamp(x, lo)
