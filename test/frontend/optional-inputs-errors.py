# Compile errors for Optional[Tensor] entry inputs. Each function is one case,
# compiled alone with --entry.
from typing import Optional

import torch
from torch import Tensor


# Where `is None` holds the name is None, and using it as a tensor there is
# an error, as in TorchScript.
# RUN: not kiln compile %s --entry none_branch 2>&1 | FileCheck %s --check-prefix=NONE --implicit-check-not=error:
# NONE: optional-inputs-errors.py:[[@LINE+4]]:18: error: unsupported operand types for +: a Tensor[f32, ?] and None
# kiln: x=f32[N], m=f32[N]
def none_branch(x: Tensor, m: Optional[Tensor]) -> Tensor:
    if m is None:
        return x + m
    return x


# Unrefined, it is an Optional, and the message says how to refine it.
# RUN: not kiln compile %s --entry unrefined 2>&1 | FileCheck %s --check-prefix=UNREFINED --implicit-check-not=error:
# UNREFINED: optional-inputs-errors.py:[[@LINE+5]]:14: error: unsupported operand types for *: a Tensor[f32, ?] and an Optional[Tensor] (Tensor[f32, ?] or None; test it with 'is not None' first)
# kiln: x=f32[N], m=f32[N]
def unrefined(x: Tensor, m: Optional[Tensor]) -> Tensor:
    if m is not None:
        x = x + 1.0
    return x * m


# A helper parameter that is not Optional refuses it.
# RUN: not kiln compile %s --entry to_plain_helper 2>&1 | FileCheck %s --check-prefix=HELPER --implicit-check-not=error:
# HELPER: optional-inputs-errors.py:[[@LINE+7]]:12: error: cannot pass an Optional[Tensor] (Tensor[f32, ?] or None; test it with 'is not None' first) to parameter 'y' of '_plain', which is not Optional; annotate it Optional[Tensor], or pass it where 'is not None' has refined it
def _plain(x: Tensor, y: Tensor) -> Tensor:
    return x + y


# kiln: x=f32[N], m=f32[N]
def to_plain_helper(x: Tensor, m: Optional[Tensor]) -> Tensor:
    return _plain(x, m)


# An entry point returns tensors, never an Optional.
# RUN: not kiln compile %s --entry returns_optional 2>&1 | FileCheck %s --check-prefix=RETURN --implicit-check-not=error:
# RETURN: optional-inputs-errors.py:[[@LINE+3]]:5: error: an entry point cannot return an Optional[Tensor] (Tensor[f32, ?] or None; test it with 'is not None' first); return a tensor in every case
# kiln: m=f32[N]
def returns_optional(m: Optional[Tensor]):
    return m


# A spec's `?` must agree with the annotation.
# RUN: not kiln compile %s --entry spec_mark 2>&1 | FileCheck %s --check-prefix=MARK --implicit-check-not=error:
# MARK: optional-inputs-errors.py:[[@LINE+2]]:15: error: the shape spec of 'x' ends in '?', but 'x' is not annotated Optional[Tensor]
# kiln: x=f32[N]?
def spec_mark(x: Tensor) -> Tensor:
    return x


# Its truth value is not its presence: `if m:` is refused.
# RUN: not kiln compile %s --entry truthiness 2>&1 | FileCheck %s --check-prefix=TRUTH --implicit-check-not=error:
# TRUTH: optional-inputs-errors.py:[[@LINE+3]]:8: error: cannot use an Optional[Tensor] (Tensor[f32, 1] or None; test it with 'is not None' first) as a condition
# kiln: x=f32[N], m=f32[1]
def truthiness(x: Tensor, m: Optional[Tensor]) -> Tensor:
    if m:
        return x
    return x


# isinstance() is decided at compile time; an optional input's type is not.
# RUN: not kiln compile %s --entry instance 2>&1 | FileCheck %s --check-prefix=INSTANCE --implicit-check-not=error:
# INSTANCE: optional-inputs-errors.py:[[@LINE+3]]:8: error: isinstance() cannot test an Optional[Tensor], whose presence is known only at run time; use 'is None' or 'is not None'
# kiln: x=f32[N], m=f32[N]
def instance(x: Tensor, m: Optional[Tensor]) -> Tensor:
    if isinstance(m, Tensor):
        return x + m
    return x
