# An error inside kiln's prelude (frontend/prelude/) is reported at the
# user's call, with a note naming the prelude functions on the way and the
# prelude line for kiln's developers; never at a line of the embedded file.
#
# RUN: not kiln compile %s --entry bad_dim 2>&1 | FileCheck %s --check-prefix=DIM --strict-whitespace
# DIM:      errors.py:[[@LINE+10]]:12: error: dimension 3 is out of range for a tensor of rank 2
# DIM-NEXT: {{^}}    return F.normalize(x, dim=3){{$}}
# DIM-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~{{$}}
# DIM-NEXT: errors.py: note: in '_norm', called by 'normalize', kiln's prelude decomposition of this call (frontend/prelude/nn.py:{{[0-9]+}})
import torch
import torch.nn.functional as F


# kiln: x=f32[B,5]
def bad_dim(x):
    return F.normalize(x, dim=3)


# Shapes that cannot broadcast, found inside mse_loss.
# RUN: not kiln compile %s --entry shapes 2>&1 | FileCheck %s --check-prefix=SHAPES
# SHAPES:      errors.py:[[@LINE+5]]:12: error: operands are not broadcast-compatible: Tensor[f32, ?x5] and Tensor[f32, ?x4]
# SHAPES-NEXT: return F.mse_loss(x, y)
# SHAPES:      note: in 'mse_loss', kiln's prelude
# kiln: x=f32[B,5], y=f32[B,4]
def shapes(x, y):
    return F.mse_loss(x, y)


# The prelude decides `if label_smoothing == 0.0:` while compiling, so the
# argument must be a constant.
# RUN: not kiln compile %s --entry runtime_smoothing 2>&1 | FileCheck %s --check-prefix=CONST
# CONST:      errors.py:[[@LINE+4]]:12: error: this call needs constant arguments: kiln's prelude decides this condition while compiling, but it depends on a value known only at run time
# CONST:      note: in 'cross_entropy', kiln's prelude
# kiln: x=f32[B,5], t=i64[B]
def runtime_smoothing(x, t, s: float):
    return F.cross_entropy(x, t, label_smoothing=s)


# A reduction PyTorch does not know: the prelude's raise, reported while
# compiling, since its condition is a constant.
# RUN: not kiln compile %s --entry bad_reduction 2>&1 | FileCheck %s --check-prefix=REDUCTION
# REDUCTION: errors.py:[[@LINE+4]]:12: error: 'average' is not a valid value for reduction
# REDUCTION: note: in '_check_reduction', called by 'nll_loss', kiln's prelude
# kiln: x=f32[B,5], t=i64[B]
def bad_reduction(x, t):
    return F.nll_loss(x, t, reduction='average')


# An activation of an int tensor: PyTorch's kernels take floats only, and
# the row is FLOAT_ONLY, so this is refused rather than cast.
# RUN: not kiln compile %s --entry int_silu 2>&1 | FileCheck %s --check-prefix=FLOATONLY
# FLOATONLY: errors.py:[[@LINE+3]]:12: error: F.silu() needs a float input, got a Tensor[i64, ?]
# kiln: x=i64[N]
def int_silu(x):
    return F.silu(x)


# A prelude check whose message describes the tensor as kiln's own errors
# do (kiln_table.describe), decided while compiling on a static size.
# RUN: not kiln compile %s --entry odd_glu 2>&1 | FileCheck %s --check-prefix=DESCRIBE
# DESCRIBE: errors.py:[[@LINE+4]]:12: error: glu() halves dimension 1 of a Tensor[f32, ?x5], which must be even
# DESCRIBE: note: in 'glu', kiln's prelude decomposition of this call (frontend/prelude/nn.py:{{[0-9]+}})
# kiln: x=f32[B,5]
def odd_glu(x):
    return F.glu(x, 1)
