# Errors of containers and iteration (issue 19, item 6). Each case is
# compiled alone with --entry and points at the construct.
#
# RUN: not kiln compile %s --entry zip_mixed 2>&1 | FileCheck %s --check-prefix=ZIP
# ZIP: containers-errors.py:26:21: error: zip() of a sequence known while compiling (a tuple, a shape, a ModuleList) and a run-time list is not supported; zip sequences of one kind
# RUN: not kiln compile %s --entry repeat_runtime 2>&1 | FileCheck %s --check-prefix=REP
# REP: containers-errors.py:33:17: error: repeating a tuple (an int) needs a count known while compiling and a tuple or a list display ([1] * n)
# RUN: not kiln compile %s --entry max_empty 2>&1 | FileCheck %s --check-prefix=EMPTY
# EMPTY: containers-errors.py:38:12: error: max() arg is an empty sequence
# RUN: not kiln compile %s --entry enumerate_value 2>&1 | FileCheck %s --check-prefix=ENUM
# ENUM: containers-errors.py:44:12: error: enumerate() of a run-time list is supported as the iterable of a for loop or a comprehension only
# RUN: not kiln compile %s --entry two_fors 2>&1 | FileCheck %s --check-prefix=FORS
# FORS: containers-errors.py:49:28: error: a comprehension's 'for' clauses before the last must walk a sequence known while compiling (a tuple, a shape, a list display, a constant range), not a run-time list or a range with run-time bounds
# RUN: not kiln compile %s --entry sum_tensors 2>&1 | FileCheck %s --check-prefix=SUMT
# SUMT: containers-errors.py:55:16: error: sum() of a run-time list takes a list of ints or floats; for tensors use torch.stack(xs).sum(0)
import torch
from torch import Tensor
from typing import List


# kiln: x=f32[2]
def zip_mixed(x: Tensor, n: int):
    xs: List[Tensor] = []
    for i in range(n):
        xs.append(x)
    for a, b in zip((1, 2), xs):
        x = x + b * a
    return x


# kiln: x=f32[2]
def repeat_runtime(x: Tensor, n: int):
    return (1,) * n


# kiln: x=f32[2]
def max_empty(x: Tensor):
    return max([d for d in x.shape[1:]])


# kiln: x=f32[2]
def enumerate_value(x: Tensor, n: int):
    xs = [x * float(i) for i in range(n)]
    return enumerate(xs)


# kiln: x=f32[2]
def two_fors(x: Tensor, n: int):
    return [a + b for a in range(n) for b in x.shape]


# kiln: x=f32[2]
def sum_tensors(x: Tensor, n: int):
    xs = [x * float(i) for i in range(n)]
    return sum(xs)
