# A function's result must have the type its `->` annotation names, as
# TorchScript requires; kiln used to compile all of these without a word
# (the audit's silently-accepted.py). Each function is one case, compiled
# alone with --entry. The well-typed ones at the end must still compile.
#
# RUN: not kiln compile %s --entry tensor_as_int 2>&1 | FileCheck %s --check-prefix=TENSOR-INT --strict-whitespace
# TENSOR-INT: return-annotations.py:[[@LINE+36]]:5: error: 'tensor_as_int' is annotated to return int, but returns a Tensor[f32, ?]{{$}}
# TENSOR-INT-NEXT: {{^}}    return x{{$}}
# TENSOR-INT: return-annotations.py:[[@LINE+33]]:33: note: the annotation is here{{$}}
# RUN: not kiln compile %s --entry int_as_tensor 2>&1 | FileCheck %s --check-prefix=INT-TENSOR
# INT-TENSOR: return-annotations.py:[[@LINE+36]]:5: error: 'int_as_tensor' is annotated to return Tensor, but returns an int
# RUN: not kiln compile %s --entry no_return 2>&1 | FileCheck %s --check-prefix=NO-RETURN
# NO-RETURN: return-annotations.py:[[@LINE+38]]:5: error: 'no_return' is annotated to return Tensor, but has no return statement
# RUN: not kiln compile %s --entry float_as_int 2>&1 | FileCheck %s --check-prefix=FLOAT-INT
# FLOAT-INT: error: 'float_as_int' is annotated to return int, but returns a float
# RUN: not kiln compile %s --entry int_as_float 2>&1 | FileCheck %s --check-prefix=INT-FLOAT
# INT-FLOAT: error: 'int_as_float' is annotated to return float, but returns an int
# RUN: not kiln compile %s --entry wrong_tuple 2>&1 | FileCheck %s --check-prefix=TUPLE
# TUPLE: error: 'wrong_tuple' is annotated to return Tuple[Tensor, int], but returns a tuple (a Tensor[f32, ?], a Tensor[f32, ?])
# RUN: not kiln compile %s --entry tuple_arity 2>&1 | FileCheck %s --check-prefix=ARITY
# ARITY: error: 'tuple_arity' is annotated to return Tuple[Tensor, Tensor], but returns a Tensor[f32, ?]
# RUN: not kiln compile %s --entry none_as_tensor 2>&1 | FileCheck %s --check-prefix=NONE
# NONE: error: 'none_as_tensor' is annotated to return Tensor, but returns None
# RUN: not kiln compile %s --entry helper_caller 2>&1 | FileCheck %s --check-prefix=HELPER
# HELPER: error: 'bad_helper' is annotated to return bool, but returns a Tensor[f32, ?]
#
# The well-typed functions compile.
# RUN: kiln compile %s --emit=ir --entry good_tensor --entry good_int --entry good_tuple --entry good_optional --entry good_none --entry unannotated | FileCheck %s --check-prefix=GOOD
# GOOD: func.func @good_tensor
# GOOD: func.func @good_int
# GOOD: func.func @good_tuple
# GOOD: func.func @good_optional
# GOOD: func.func @good_none
# GOOD: func.func @unannotated

import torch
from torch import Tensor
from typing import Optional, Tuple


# kiln: x=f32[N]
def tensor_as_int(x: Tensor) -> int:
    return x


def int_as_tensor() -> Tensor:
    return 3


# kiln: x=f32[N]
def no_return(x: Tensor) -> Tensor:
    y = x + 1.0


def float_as_int() -> int:
    return 1.5


def int_as_float() -> float:
    return 1


# kiln: x=f32[N]
def wrong_tuple(x: Tensor) -> Tuple[Tensor, int]:
    return x, x


# kiln: x=f32[N]
def tuple_arity(x: Tensor) -> Tuple[Tensor, Tensor]:
    return x


# kiln: x=f32[N]
def none_as_tensor(x: Tensor) -> Tensor:
    return None


def bad_helper(x: Tensor) -> bool:
    return x


# kiln: x=f32[N]
def helper_caller(x: Tensor) -> Tensor:
    return bad_helper(x)


# kiln: x=f32[N]
def good_tensor(x: Tensor) -> torch.Tensor:
    if x.size(0) > 2:
        return x
    return x * 2.0


# kiln: x=f32[N]
def good_int(x: Tensor) -> int:
    return x.size(0) // 2


# kiln: x=f32[N]
def good_tuple(x: Tensor) -> Tuple[Tensor, Tuple[int, float]]:
    return x, (1, 2.0)


# kiln: x=f32[N]
def good_optional(x: Tensor) -> Optional[Tensor]:
    return x + 1.0


# kiln: x=f32[N]
def good_none(x: Tensor) -> None:
    print(x)


# kiln: x=f32[N]
def unannotated(x: Tensor):
    return x.size(0)
