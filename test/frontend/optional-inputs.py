# Optional[Tensor] entry inputs lower to the tensor plus an i1 "is present"
# argument, and `is None` tests on them to run-time branches (scf.if on that
# i1) in which the name is refined: the tensor where it is present, None
# where it is not. Each function is one case, compiled alone with --entry.
from typing import Optional, Union

import torch
from torch import Tensor


# The input is two arguments; the manifest's name is on both, and the spec's
# trailing `?` matches the annotation. `is not None` is the i1 itself, and
# only the true branch uses the tensor.
# RUN: kiln compile %s --emit=ir --entry bias 2>&1 | FileCheck %s --check-prefix=BIAS
# BIAS: func.func @bias(%arg0: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "x"}, %arg1: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "b", kiln.optional}, %arg2: i1 {kiln.name = "b", kiln.presence}) -> tensor<?xf32> attributes {kiln.entry}
# BIAS-NEXT: %[[Y:.*]] = kiln.relu %arg0
# BIAS-NEXT: %[[R:.*]] = scf.if %arg2 -> (tensor<?xf32>) {
# BIAS-NEXT:   %[[S:.*]] = kiln.add %[[Y]], %arg1
# BIAS-NEXT:   scf.yield %[[S]]
# BIAS-NEXT: } else {
# BIAS-NEXT:   scf.yield %[[Y]]
# BIAS-NEXT: }
# BIAS-NEXT: return %[[R]]
# kiln: x=f32[N], b=f32[N]?
def bias(x: Tensor, b: Optional[Tensor] = None) -> Tensor:
    y = torch.relu(x)
    if b is not None:
        y = y + b
    return y


# `is None` negates the flag; `Union[Tensor, None]` is the same type, and a
# spec without `?` is enough. Assigning the name in the None branch makes it
# a tensor after the if: both branches yield one.
# RUN: kiln compile %s --emit=ir --entry default_mask 2>&1 | FileCheck %s --check-prefix=DEFAULT
# DEFAULT: %[[NOT:.*]] = arith.xori %arg2, %true
# DEFAULT: %[[M:.*]] = scf.if %[[NOT]] -> (tensor<?xf32>) {
# DEFAULT:   %[[Z:.*]] = kiln.full
# DEFAULT:   scf.yield %[[Z]]
# DEFAULT: } else {
# DEFAULT:   scf.yield %arg1
# DEFAULT: }
# DEFAULT: kiln.mul %arg0, %[[M]]
# kiln: x=f32[N], m=f32[N]
def default_mask(x: Tensor, m: Union[Tensor, None]) -> Tensor:
    if m is None:
        m = torch.zeros(x.size(0))
    return x * m


# After `if m is None: return ...` the rest of the body sees m as the
# tensor, and `assert o is not None` refines o for what follows it.
# RUN: kiln compile %s --emit=ir --entry early_exit 2>&1 | FileCheck %s --check-prefix=EXIT
# EXIT: kiln.assert %arg4, "AssertionError"
# EXIT: scf.if
# EXIT: kiln.sub %arg0, %arg1
# EXIT: kiln.mul {{.*}}, %arg3
# kiln: x=f32[N], m=f32[N], o=f32[N]
def early_exit(x: Tensor, m: Optional[Tensor], o: Optional[Tensor]) -> Tensor:
    assert o is not None
    if m is None:
        return x
    return (x - m) * o


# A name neither branch assigns is the Optional again after the if, and a
# helper taking Optional[Tensor] gets the flag and the tensor.
# RUN: kiln compile %s --emit=ir --entry to_helper 2>&1 | FileCheck %s --check-prefix=HELPER
# HELPER: call @_maybe_add(%{{.*}}, %arg2, %arg1) : (tensor<?xf32>, i1, tensor<?xf32>) -> tensor<?xf32>
# HELPER: func.func private @_maybe_add(%arg0: tensor<?xf32>, %arg1: i1, %arg2: tensor<?xf32>)
# HELPER: scf.if %arg1
def _maybe_add(x: Tensor, b: Optional[Tensor]) -> Tensor:
    if b is not None:
        return x + b
    return x


# kiln: x=f32[N], b=f32[N]?
def to_helper(x: Tensor, b: Optional[Tensor] = None) -> Tensor:
    if b is not None:
        x = x * 2.0
    return _maybe_add(x, b)


# The manifest lists the optional input once, with "optional": true, and an
# archive that has one is format 3.0; kiln inspect marks it with `?`.
# RUN: rm -rf %t && mkdir -p %t
# RUN: kiln compile %s --entry bias -o %t/bias.kiln
# RUN: %python %S/Inputs/print_manifest_args.py %t/bias.kiln | FileCheck %s --check-prefix=MANIFEST --match-full-lines
# MANIFEST: format_version [3, 0]
# MANIFEST-NEXT: bias [{"name": "x", "dtype": "f32", "scalar": false, "dims": ["N"]}, {"name": "b", "dtype": "f32", "scalar": false, "dims": ["N"], "optional": true}]
# RUN: kiln inspect %t/bias.kiln | FileCheck %s --check-prefix=INSPECT
# INSPECT: format 3.0
# INSPECT: bias(x: f32[N], b: f32[N]?) -> (result0: f32[?])
# An archive without one stays format 2.0, which older runtimes read.
# RUN: kiln compile %s --entry plain -o %t/plain.kiln
# RUN: %python %S/Inputs/print_manifest_args.py %t/plain.kiln | FileCheck %s --check-prefix=PLAIN --match-full-lines
# PLAIN: format_version [2, 0]
# PLAIN-NEXT: plain [{"name": "x", "dtype": "f32", "scalar": false, "dims": ["N"]}]
# kiln: x=f32[N]
def plain(x: Tensor) -> Tensor:
    return x + 1.0
