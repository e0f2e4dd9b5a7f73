# Errors of indexing by integer and bool tensors.
import torch
from torch import Tensor


# RUN: not kiln compile %s --emit=ir --entry float_index 2>&1 | FileCheck %s --check-prefix=FLOAT --strict-whitespace --implicit-check-not='{{error|note}}:'
# FLOAT: {{^.*}}advanced-indexing-errors.py:[[@LINE+5]]:14: error: tensors used as indices must be integer or bool tensors, got a Tensor[f32, 3]{{$}}
# FLOAT-NEXT: {{^}}    return x[i]{{$}}
# FLOAT-NEXT: {{^}}             ^{{$}}
# kiln: x=f32[4,5], i=f32[3]
def float_index(x: Tensor, i: Tensor):
    return x[i]


# RUN: not kiln compile %s --emit=ir --entry mask_shape 2>&1 | FileCheck %s --check-prefix=MASKSHAPE --strict-whitespace --implicit-check-not='{{error|note}}:'
# MASKSHAPE: {{^.*}}advanced-indexing-errors.py:[[@LINE+5]]:14: error: the shape of the mask [3] at index 0 does not match the shape of the indexed tensor [4, 5] at index 0{{$}}
# MASKSHAPE-NEXT: {{^}}    return x[m]{{$}}
# MASKSHAPE-NEXT: {{^}}             ^{{$}}
# kiln: x=f32[4,5], m=bool[3]
def mask_shape(x: Tensor, m: Tensor):
    return x[m]


# RUN: not kiln compile %s --emit=ir --entry no_broadcast 2>&1 | FileCheck %s --check-prefix=BROADCAST --strict-whitespace --implicit-check-not='{{error|note}}:'
# BROADCAST: {{^.*}}advanced-indexing-errors.py:[[@LINE+5]]:12: error: shape mismatch: indexing tensors could not be broadcast together with shapes [3], [4]{{$}}
# BROADCAST-NEXT: {{^}}    return x[i, j]{{$}}
# BROADCAST-NEXT: {{^}}           ^~~~~~~{{$}}
# kiln: x=f32[4,5], i=i64[3], j=i64[4]
def no_broadcast(x: Tensor, i: Tensor, j: Tensor):
    return x[i, j]


# RUN: not kiln compile %s --emit=ir --entry value_shape 2>&1 | FileCheck %s --check-prefix=VALUE --strict-whitespace --implicit-check-not='{{error|note}}:'
# VALUE: {{^.*}}advanced-indexing-errors.py:[[@LINE+5]]:5: error: shape mismatch: value tensor of shape [4] cannot be broadcast to indexing result of shape [4, 3]{{$}}
# VALUE-NEXT: {{^}}    x[:, i] = v{{$}}
# VALUE-NEXT: {{^}}    ^~~~~~~{{$}}
# kiln: x=f32[4,5], i=i64[3], v=f32[4]
def value_shape(x: Tensor, i: Tensor, v: Tensor):
    x[:, i] = v
    return x


# RUN: not kiln compile %s --emit=ir --entry zero_d_mask 2>&1 | FileCheck %s --check-prefix=ZEROD --strict-whitespace --implicit-check-not='{{error|note}}:'
# ZEROD: {{^.*}}advanced-indexing-errors.py:[[@LINE+5]]:14: error: a 0-d bool index is not supported; use torch.where{{$}}
# ZEROD-NEXT: {{^}}    return x[m]{{$}}
# ZEROD-NEXT: {{^}}             ^{{$}}
# kiln: x=f32[4,5], m=bool[]
def zero_d_mask(x: Tensor, m: Tensor):
    return x[m]


# RUN: not kiln compile %s --emit=ir --entry mask_too_many 2>&1 | FileCheck %s --check-prefix=TOOMANY --strict-whitespace --implicit-check-not='{{error|note}}:'
# TOOMANY: {{^.*}}advanced-indexing-errors.py:[[@LINE+5]]:12: error: too many indices for a tensor of rank 2: 3 given{{$}}
# TOOMANY-NEXT: {{^}}    return x[m, 0]{{$}}
# TOOMANY-NEXT: {{^}}           ^~~~~~~{{$}}
# kiln: x=f32[4,5], m=bool[4,5]
def mask_too_many(x: Tensor, m: Tensor):
    return x[m, 0]
