# Compile errors for defaults of scalar entry parameters: a default must be
# a literal of the annotated type (a finite one, since the manifest is
# JSON). Each function is one case, compiled alone with --entry.
import torch
from torch import Tensor

K = 3

# RUN: not kiln compile %s --entry float_for_int 2>&1 | FileCheck %s --check-prefix=INT --implicit-check-not=error:
# INT: entry-defaults-errors.py:[[@LINE+2]]:39: error: the default of entry parameter 'k' must be an int literal (it is annotated 'int'), got '2.5'
# kiln: x=f32[N]
def float_for_int(x: Tensor, k: int = 2.5) -> Tensor:
    return x * k


# RUN: not kiln compile %s --entry int_for_bool 2>&1 | FileCheck %s --check-prefix=BOOL --implicit-check-not=error:
# BOOL: entry-defaults-errors.py:[[@LINE+2]]:42: error: the default of entry parameter 'flag' must be True or False (it is annotated 'bool'), got '1'
# kiln: x=f32[N]
def int_for_bool(x: Tensor, flag: bool = 1) -> Tensor:
    return x


# A name is not a literal, even one bound to a constant.
# RUN: not kiln compile %s --entry global_default 2>&1 | FileCheck %s --check-prefix=NAME --implicit-check-not=error:
# NAME: entry-defaults-errors.py:[[@LINE+2]]:40: error: the default of entry parameter 'k' must be an int literal (it is annotated 'int'), got 'K'
# kiln: x=f32[N]
def global_default(x: Tensor, k: int = K) -> Tensor:
    return x * k


# RUN: not kiln compile %s --entry infinite 2>&1 | FileCheck %s --check-prefix=INF --implicit-check-not=error:
# INF: entry-defaults-errors.py:[[@LINE+2]]:36: error: the default of entry parameter 'e' must be a finite number literal (it is annotated 'float'), got 'inf'
# kiln: x=f32[N]
def infinite(x: Tensor, e: float = 1e999) -> Tensor:
    return x * e
