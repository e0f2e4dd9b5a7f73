# A str entry parameter chosen at run time: `--arg mode=str:relu|gelu`
# compiles the entry once per value, as private functions ENTRY.str0,
# ENTRY.str1, ... (each what `--arg mode=str:relu` alone would give), and
# the entry point takes the value's index, an i64 whose kiln.str_choices
# list the values, checks it and calls the chosen function. Each function
# is one case, compiled alone with --entry.
import torch
import torch.nn.functional as F
from typing import Tuple
from torch import Tensor


# The index of the default among the values is the input's default.
# Variants whose results differ in size return them with those sizes
# dynamic. A default not listed is none: no function was compiled for it.
# RUN: kiln compile %s --emit=ir --entry act --arg "mode=str:gelu|tanh|relu" 2>&1 | FileCheck %s --check-prefix=ACT
# RUN: kiln compile %s --emit=ir --entry act --arg "mode=str:gelu|tanh" 2>&1 | FileCheck %s --check-prefix=UNLISTED
# UNLISTED: %arg1: i64 {kiln.name = "mode", kiln.str_choices = ["gelu", "tanh"]}
# ACT: func.func @act(%arg0: tensor<4xf32> {kiln.dims = ["4"], kiln.name = "x"}, %arg1: i64 {kiln.default = 2 : i64, kiln.name = "mode", kiln.str_choices = ["gelu", "tanh", "relu"]}, %arg2: f64 {kiln.default = 1.000000e+00 : f64, kiln.name = "scale"}) -> tensor<?xf32> attributes {kiln.entry}
# ACT: kiln.assert %{{.*}}, "input 'mode' of 'act' must index one of its 3 str choices"
# ACT: scf.if %{{.*}} -> (tensor<?xf32>)
# ACT-NEXT: func.call @act.str0(%arg0, %arg2) : (tensor<4xf32>, f64) -> tensor<4xf32>
# ACT-NEXT: tensor.cast %{{.*}} : tensor<4xf32> to tensor<?xf32>
# ACT: func.call @act.str1(%arg0, %arg2)
# ACT: func.call @act.str2(%arg0, %arg2) : (tensor<4xf32>, f64) -> tensor<2xf32>
# ACT: func.func private @act.str0({{.*}}) -> tensor<4xf32> attributes {kiln.strings = {mode = "gelu"}}
# ACT-NEXT: call @prelude_gelu
# ACT: func.func private @act.str1({{.*}}) -> tensor<4xf32> attributes {kiln.strings = {mode = "tanh"}}
# ACT-NEXT: kiln.tanh
# ACT: func.func private @act.str2({{.*}}) -> tensor<2xf32> attributes {kiln.strings = {mode = "relu"}}
# kiln: x=f32[4]
def act(x: Tensor, mode: str = "relu", scale: float = 1.0) -> Tensor:
    if mode == "relu":
        return F.relu(x[:2]) * scale
    elif mode == "gelu":
        return F.gelu(x)
    return torch.tanh(x) * scale


# The choice sits where the parameter does, after a tuple's elements; a
# `# kiln:` spec gives the values as well, and a repeated one counts once.
# RUN: kiln compile %s --emit=ir --entry reduce 2>&1 | FileCheck %s --check-prefix=REDUCE
# REDUCE: func.func @reduce(%arg0: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "ab.0"}, %arg1: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "ab.1"}, %arg2: i64 {kiln.name = "reduction", kiln.str_choices = ["mean", "sum"]}) -> tensor<f32> attributes {kiln.containers = [{args = ["ab.0", "ab.1"], name = "ab", type = "Tuple[Tensor, Tensor]"}], kiln.entry}
# kiln: ab=(f32[N], f32[N]), reduction=str:mean|sum|mean
def reduce(ab: Tuple[Tensor, Tensor], reduction: str) -> Tensor:
    return F.l1_loss(ab[0], ab[1], reduction=reduction)


# KINDS: entry-str-choices.py:[[@LINE+2]]:5: error: 'shapes' returns different kinds of results for mode='relu' and mode='flat'; chosen at run time, a str must leave the results' number, dtypes and ranks alone (compile one archive per value instead, with --arg mode=str:VALUE)
# kiln: x=f32[2,3]
def shapes(x: Tensor, mode: str) -> Tensor:
    if mode == "flat":
        return x.flatten()
    return F.relu(x)
# RUN: not kiln compile %s --entry shapes --arg "mode=str:relu|flat" 2>&1 | FileCheck %s --check-prefix=KINDS --implicit-check-not=error:


# RUN: not kiln compile %s --entry two --arg "a=str:x|y" --arg "b=str:u|v" 2>&1 | FileCheck %s --check-prefix=TWO --implicit-check-not=error:
# TWO: entry-str-choices.py:[[@LINE+2]]:28: error: str parameter 'b' is given values to choose from at run time ('b=str:u|v'), but another one of 'two' already is; one str parameter of an entry point may be chosen at run time
# kiln: x=f32[2]
def two(x: Tensor, a: str, b: str) -> Tensor:
    return x


# RUN: not kiln compile %s --entry not_str --arg "x=str:a|b" 2>&1 | FileCheck %s --check-prefix=NOTSTR --implicit-check-not=error:
# NOTSTR: entry-str-choices.py:[[@LINE+1]]:13: error: a str spec ('x=str:a|b') applies to a parameter annotated str, and 'x' is not
def not_str(x: Tensor) -> Tensor:
    return x


# RUN: not kiln compile %s --entry bare --arg mode=str 2>&1 | FileCheck %s --check-prefix=BARE --implicit-check-not=error:
# BARE: entry-str-choices.py:[[@LINE+2]]:21: error: str parameter 'mode' chosen at run time needs the values it may take, one compiled function each: --arg mode=str:A|B|...
# kiln: x=f32[2]
def bare(x: Tensor, mode: str) -> Tensor:
    return x
