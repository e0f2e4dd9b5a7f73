# Errors of index_put / index_put_ / torch.index_put.
import torch
from torch import Tensor


# RUN: not kiln compile %s --emit=ir --entry dtypes 2>&1 | FileCheck %s --check-prefix=DTYPES --strict-whitespace --implicit-check-not='{{error|note}}:'
# DTYPES: {{^.*}}index-put-errors.py:[[@LINE+5]]:30: error: Tensor.index_put() requires values of the destination's dtype: self is a Tensor[f32, 4x5], values a Tensor[f64, 3x5]{{$}}
# DTYPES-NEXT: {{^}}    return x.index_put((i,), v){{$}}
# DTYPES-NEXT: {{^}}                             ^{{$}}
# kiln: x=f32[4,5], i=i64[3], v=f64[3,5]
def dtypes(x: Tensor, i: Tensor, v: Tensor):
    return x.index_put((i,), v)


# RUN: not kiln compile %s --emit=ir --entry number 2>&1 | FileCheck %s --check-prefix=NUMBER --strict-whitespace --implicit-check-not='{{error|note}}:'
# NUMBER: {{^.*}}index-put-errors.py:[[@LINE+5]]:36: error: torch.index_put() argument 'values' must be a Tensor, got a float{{$}}
# NUMBER-NEXT: {{^}}    return torch.index_put(x, [i], 1.0){{$}}
# NUMBER-NEXT: {{^}}                                   ^~~{{$}}
# kiln: x=f32[4,5], i=i64[3]
def number(x: Tensor, i: Tensor):
    return torch.index_put(x, [i], 1.0)


# RUN: not kiln compile %s --emit=ir --entry too_many 2>&1 | FileCheck %s --check-prefix=TOOMANY --strict-whitespace --implicit-check-not='{{error|note}}:'
# TOOMANY: {{^.*}}index-put-errors.py:[[@LINE+5]]:18: error: Tensor.index_put_(): too many indices for tensor of dimension 2 (got 3){{$}}
# TOOMANY-NEXT: {{^}}    x.index_put_((i, None, i), v){{$}}
# TOOMANY-NEXT: {{^}}                 ^~~~~~~~~~~~{{$}}
# kiln: x=f32[4,5], i=i64[3], v=f32[3]
def too_many(x: Tensor, i: Tensor, v: Tensor):
    x.index_put_((i, None, i), v)
    return x


# RUN: not kiln compile %s --emit=ir --entry no_tensor 2>&1 | FileCheck %s --check-prefix=NOTENSOR --strict-whitespace --implicit-check-not='{{error|note}}:'
# NOTENSOR: {{^.*}}index-put-errors.py:[[@LINE+5]]:24: error: Tensor.index_put() needs at least one index tensor in 'indices'{{$}}
# NOTENSOR-NEXT: {{^}}    return x.index_put([None], v){{$}}
# NOTENSOR-NEXT: {{^}}                       ^~~~~~{{$}}
# kiln: x=f32[4,5], v=f32[5]
def no_tensor(x: Tensor, v: Tensor):
    return x.index_put([None], v)


# RUN: not kiln compile %s --emit=ir --entry not_indices 2>&1 | FileCheck %s --check-prefix=NOTINDICES --strict-whitespace --implicit-check-not='{{error|note}}:'
# NOTINDICES: {{^.*}}index-put-errors.py:[[@LINE+5]]:24: error: Tensor.index_put() argument 'indices' must be a tuple or list of Tensors and Nones, got an int; the schema is index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor{{$}}
# NOTINDICES-NEXT: {{^}}    return x.index_put(1, v){{$}}
# NOTINDICES-NEXT: {{^}}                       ^{{$}}
# kiln: x=f32[4,5], v=f32[5]
def not_indices(x: Tensor, v: Tensor):
    return x.index_put(1, v)


# RUN: not kiln compile %s --emit=ir --entry accumulate 2>&1 | FileCheck %s --check-prefix=ACC --strict-whitespace --implicit-check-not='{{error|note}}:'
# ACC: {{^.*}}index-put-errors.py:[[@LINE+5]]:44: error: Tensor.index_put() argument 'accumulate' must be True or False here, got a bool{{$}}
# ACC-NEXT: {{^}}    return x.index_put((i,), v, accumulate=bool(v.sum() > 0)){{$}}
# ACC-NEXT: {{^}}                                           ^~~~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[4,5], i=i64[3], v=f32[5]
def accumulate(x: Tensor, i: Tensor, v: Tensor):
    return x.index_put((i,), v, accumulate=bool(v.sum() > 0))
