# A str entry parameter is no run-time input: kiln compiles the entry point
# for one value, from `--arg NAME=str:VALUE`, a `# kiln:` spec or the
# default, and comparisons on it fold. The value is recorded on the
# function (kiln.strings; the manifest's "str_args"). Each function is one
# case, compiled alone with --entry.
import torch
import torch.nn.functional as F
from torch import Tensor


# The default, then --arg (plain, and keyed by the entry, which wins).
# RUN: kiln compile %s --emit=ir --entry act 2>&1 | FileCheck %s --check-prefix=DEFAULT
# DEFAULT: func.func @act(%arg0: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "x"}, %arg1: f64 {kiln.default = 1.000000e+00 : f64, kiln.name = "scale"}) -> tensor<?xf32> attributes {kiln.entry, kiln.strings = {mode = "relu"}}
# DEFAULT-NEXT: kiln.relu %arg0
# RUN: kiln compile %s --emit=ir --entry act --arg mode=str:tanh 2>&1 | FileCheck %s --check-prefix=ARG
# ARG: attributes {kiln.entry, kiln.strings = {mode = "tanh"}}
# ARG-NEXT: kiln.tanh %arg0
# RUN: kiln compile %s --emit=ir --entry act --arg act.mode=str:gelu --arg mode=str:tanh 2>&1 | FileCheck %s --check-prefix=KEYED
# KEYED: attributes {kiln.entry, kiln.strings = {mode = "gelu"}}
# KEYED-NEXT: call @prelude_gelu(%arg0)
# An empty value, and one with spaces, are values like any other.
# RUN: kiln compile %s --emit=ir --entry act --arg "mode=str:" 2>&1 | FileCheck %s --check-prefix=EMPTY
# EMPTY: kiln.strings = {mode = ""}
# EMPTY-NEXT: kiln.mul %arg0, %arg1
# kiln: x=f32[N]
def act(x: Tensor, mode: str = "relu", scale: float = 1.0) -> Tensor:
    if mode == "relu":
        return F.relu(x)
    elif mode == "gelu":
        return F.gelu(x)
    elif mode == "tanh":
        return torch.tanh(x)
    return x * scale


# A spec comment gives a str without a default its value; the str may come
# between tensors.
# RUN: kiln compile %s --emit=ir --entry pad 2>&1 | FileCheck %s --check-prefix=COMMENT
# COMMENT: func.func @pad(%arg0: tensor<?x4xf32> {kiln.dims = ["N", "4"], kiln.name = "x"}, %arg1: tensor<?x4xf32> {kiln.dims = ["N", "4"], kiln.name = "y"}) -> tensor<?x4xf32> attributes {kiln.entry, kiln.strings = {how = "add"}}
# COMMENT-NEXT: kiln.add %arg0, %arg1
# kiln: x=f32[N,4], how=str:add, y=f32[N,4]
def pad(x: Tensor, how: str, y: Tensor) -> Tensor:
    if how == "add":
        return x + y
    return x * y
