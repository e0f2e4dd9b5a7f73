# Compile errors for Optional[int], Optional[float] and Optional[bool] entry
# inputs. Each function is one case, compiled alone with --entry.
from typing import List, Optional

import torch
from torch import Tensor


# Unrefined, it is an Optional, and the message says how to refine it.
# RUN: not kiln compile %s --entry unrefined 2>&1 | FileCheck %s --check-prefix=UNREFINED --implicit-check-not=error:
# UNREFINED: optional-scalars-errors.py:[[@LINE+3]]:14: error: unsupported operand types for *: a Tensor[f32, ?] and an Optional[int] (int or None; test it with 'is not None' first)
# kiln: x=f32[N]
def unrefined(x: Tensor, k: Optional[int] = None) -> Tensor:
    return x * k


# RUN: not kiln compile %s --entry bad_default 2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not=error:
# DEFAULT: optional-scalars-errors.py:[[@LINE+2]]:47: error: the default of entry parameter 'k' must be an int literal or None (it is annotated 'Optional[int]'), got '1.5'
# kiln: x=f32[N]
def bad_default(x: Tensor, k: Optional[int] = 1.5) -> Tensor:
    return x


# RUN: not kiln compile %s --entry returns_it 2>&1 | FileCheck %s --check-prefix=RETURN --implicit-check-not=error:
# RETURN: optional-scalars-errors.py:[[@LINE+3]]:5: error: an entry point cannot return an Optional[float] (float or None; test it with 'is not None' first); return a tensor in every case
# kiln: x=f32[N]
def returns_it(x: Tensor, k: Optional[float] = None):
    return k


# Optional of anything else is still refused.
# RUN: not kiln compile %s --entry optional_list 2>&1 | FileCheck %s --check-prefix=STR --implicit-check-not=error:
# STR: optional-scalars-errors.py:[[@LINE+2]]:36: error: parameter 'mode' of entry point 'optional_list' has type 'Optional[List[int]]'; entry points take Tensor, int, float and bool, Optional of each, str, and Lists and Tuples of Tensor, int, float and bool
# kiln: x=f32[N]
def optional_list(x: Tensor, mode: Optional[List[int]] = None) -> Tensor:
    return x
