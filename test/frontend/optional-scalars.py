# Optional[int], Optional[float] and Optional[bool] entry inputs lower as
# Optional[Tensor] ones do: the scalar plus an i1 "is present" argument,
# `is None` a run-time test of that i1 with the name refined in each branch.
# A literal default is recorded as for a plain scalar (kiln.default). Each
# function is one case, compiled alone with --entry.
from typing import Optional, Union

import torch
from torch import Tensor


# RUN: kiln compile %s --emit=ir --entry scaled 2>&1 | FileCheck %s --check-prefix=SCALED
# SCALED: func.func @scaled(%arg0: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "x"}, %arg1: f64 {kiln.name = "s", kiln.optional}, %arg2: i1 {kiln.name = "s", kiln.presence}, %arg3: i64 {kiln.default = 3 : i64, kiln.name = "k", kiln.optional}, %arg4: i1 {kiln.name = "k", kiln.presence}, %arg5: i1 {kiln.name = "neg", kiln.optional}, %arg6: i1 {kiln.name = "neg", kiln.presence}) -> tensor<?xf32> attributes {kiln.entry}
# SCALED-NEXT: %[[T:.*]] = arith.constant true
# SCALED-NEXT: %[[ABSENT:.*]] = arith.xori %arg2, %[[T]] : i1
# SCALED-NEXT: %[[S:.*]] = scf.if %[[ABSENT]] -> (f64) {
# SCALED-NEXT:   %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
# SCALED-NEXT:   scf.yield %[[HALF]] : f64
# SCALED-NEXT: } else {
# SCALED-NEXT:   scf.yield %arg1 : f64
# SCALED-NEXT: }
# SCALED-NEXT: %[[Y:.*]] = kiln.mul %arg0, %[[S]]
# SCALED-NEXT: %[[K:.*]] = scf.if %arg4 -> (tensor<?xf32>) {
# SCALED-NEXT:   %[[YK:.*]] = kiln.add %[[Y]], %arg3
# SCALED-NEXT:   scf.yield %[[YK]]
# SCALED: scf.if %arg6 -> (i1) {
# SCALED-NEXT:   scf.yield %arg5 : i1
# kiln: x=f32[N]
def scaled(x: Tensor, s: Optional[float] = None, k: Union[int, None] = 3,
           neg: bool | None = None) -> Tensor:
    if s is None:
        s = 0.5
    y = x * s
    if k is not None:
        y = y + k
    if neg is not None and neg:
        y = -y
    return y
