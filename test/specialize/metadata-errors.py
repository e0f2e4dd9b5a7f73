# Issue 19, items 3 and 4: what cannot be decided while compiling says so,
# at the user's source.
import torch
from torch import Tensor

# An f-string field must be known while compiling.
# RUN: not kiln compile %s --emit=ir --entry runtime_field 2>&1 | FileCheck %s --check-prefix=RUNTIME --strict-whitespace --implicit-check-not='{{error|note}}:'
# RUNTIME: {{^.*}}metadata-errors.py:[[@LINE+4]]:32: error: cannot format a Tensor[f32, 3], a value known only at run time; kiln builds f-strings and str.format() while compiling, from values known then{{$}}
# kiln: x=f32[3]
@torch.jit.script
def runtime_field(x: Tensor) -> Tensor:
    print(f"x.dim()={x.dim()} {x}")
    return x


# RUN: not kiln compile %s --emit=ir --entry bad_spec 2>&1 | FileCheck %s --check-prefix=SPEC --strict-whitespace --implicit-check-not='{{error|note}}:'
# SPEC: {{^.*}}metadata-errors.py:[[@LINE+4]]:14: error: the format spec 'x' does not apply to a float{{$}}
# kiln: x=f32[3]
@torch.jit.script
def bad_spec(x: Tensor) -> Tensor:
    print(f"{0.5:x}")
    return x


# RUN: not kiln compile %s --emit=ir --entry finfo_int 2>&1 | FileCheck %s --check-prefix=FINFO --strict-whitespace --implicit-check-not='{{error|note}}:'
# FINFO: {{^.*}}metadata-errors.py:[[@LINE+4]]:28: error: torch.finfo() needs a floating-point dtype, not 'torch.int64'{{$}}
# kiln: x=i64[3]
@torch.jit.script
def finfo_int(x: Tensor) -> Tensor:
    return x + torch.finfo(x.dtype).eps


# A syntax error inside a field is Python's: the file is refused, at the
# field.
# RUN: printf 'import torch\n\n@torch.jit.script\ndef f(x):\n    assert x.dim(), f"{x +}"\n    return x\n' > %t.py
# RUN: not kiln compile %t.py --emit=ir 2>&1 | FileCheck %s --check-prefix=PARSE --strict-whitespace
# PARSE: {{^.*}}.py:5:27: error: f-string: expected an expression{{$}}
