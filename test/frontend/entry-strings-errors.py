# Compile errors for str entry parameters, which kiln compiles for one
# value. Each function is one case, compiled alone with --entry.
import torch
from torch import Tensor


# RUN: not kiln compile %s --entry no_value 2>&1 | FileCheck %s --check-prefix=NOVALUE --implicit-check-not=error:
# NOVALUE: entry-strings-errors.py:[[@LINE+2]]:25: error: no value for str parameter 'mode' of 'no_value', which kiln compiles for one value; pass --arg mode=str:VALUE, write '# kiln: mode=str:VALUE' on the line above the def, or give it a default (or choose among values at run time with --arg mode=str:A|B|...)
# kiln: x=f32[N]
def no_value(x: Tensor, mode: str) -> Tensor:
    return x


# RUN: not kiln compile %s --entry shape_for_str --arg mode=f32[3] 2>&1 | FileCheck %s --check-prefix=SHAPE --implicit-check-not=error:
# SHAPE: entry-strings-errors.py:[[@LINE+2]]:30: error: parameter 'mode' is a str; give its value as --arg mode=str:VALUE, not a shape spec
# kiln: x=f32[N]
def shape_for_str(x: Tensor, mode: str = "a") -> Tensor:
    return x


# RUN: not kiln compile %s --entry str_for_tensor --arg x=str:relu 2>&1 | FileCheck %s --check-prefix=TENSOR --implicit-check-not=error:
# TENSOR: entry-strings-errors.py:[[@LINE+1]]:20: error: a str spec ('x=str:relu') applies to a parameter annotated str, and 'x' is not
def str_for_tensor(x: Tensor) -> Tensor:
    return x


MODE = "relu"


# RUN: not kiln compile %s --entry name_default 2>&1 | FileCheck %s --check-prefix=NAME --implicit-check-not=error:
# NAME: entry-strings-errors.py:[[@LINE+2]]:41: error: the default of str parameter 'mode' must be a string literal, got 'MODE'
# kiln: x=f32[N]
def name_default(x: Tensor, mode: str = MODE) -> Tensor:
    return x
