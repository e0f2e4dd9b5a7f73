# List and Tuple entry parameters: the spec fixes the structure, and each
# element is an argument of its own named `xs.0`, `xs.1`, ...; the body
# sees a list (kiln.list_construct of the arguments) or a tuple (the
# arguments themselves). kiln.containers records which arguments make up
# which parameter, for the manifest. A returned list's elements are
# results of their own, as a tuple's are. Each function is one case,
# compiled alone with --entry.
from typing import List, Tuple

import torch
from torch import Tensor


# A list of tensors of one shape stays static; len() folds.
# RUN: kiln compile %s --emit=ir --entry cat_all 2>&1 | FileCheck %s --check-prefix=LIST
# LIST: func.func @cat_all(%arg0: tensor<?x3xf32> {kiln.dims = ["B", "3"], kiln.name = "xs.0"}, %arg1: tensor<?x3xf32> {kiln.dims = ["B", "3"], kiln.name = "xs.1"}) -> tensor<?x3xf32> attributes {kiln.containers = [{args = ["xs.0", "xs.1"], name = "xs", type = "List[Tensor]"}], kiln.entry}
# LIST-NEXT: %[[L:.*]] = kiln.list_construct(%arg0, %arg1) : (tensor<?x3xf32>, tensor<?x3xf32>) -> !kiln.list<tensor<?x3xf32>>
# LIST: kiln.cat %[[L]] {dim = 0 : i64}
# kiln: xs=[f32[B,3], f32[B,3]]
def cat_all(xs: List[Tensor]) -> Tensor:
    return torch.cat(xs) * len(xs)


# Elements of one rank whose sizes differ join as a list of that rank,
# as a `[a, b]` display does.
# RUN: kiln compile %s --emit=ir --entry levels 2>&1 | FileCheck %s --check-prefix=JOIN
# JOIN: func.func @levels(%arg0: tensor<2x8xf32> {kiln.dims = ["2", "8"], kiln.name = "feats.0"}, %arg1: tensor<4x8xf32> {kiln.dims = ["4", "8"], kiln.name = "feats.1"})
# JOIN: kiln.list_construct({{.*}}) : (tensor<?x8xf32>, tensor<?x8xf32>) -> !kiln.list<tensor<?x8xf32>>
# kiln: feats=[f32[2,8], f32[4,8]]
def levels(feats: List[Tensor]) -> Tensor:
    return torch.cat(feats, 0)


# A tuple is its elements: no list, and unpacking is free. The nested
# tuple result is three results.
# RUN: kiln compile %s --emit=ir --entry lstm_state 2>&1 | FileCheck %s --check-prefix=TUPLE
# TUPLE: func.func @lstm_state(%arg0: tensor<?x4xf32> {kiln.dims = ["B", "4"], kiln.name = "x"}, %arg1: tensor<?x4xf32> {kiln.dims = ["B", "4"], kiln.name = "hc.0"}, %arg2: tensor<?x4xf32> {kiln.dims = ["B", "4"], kiln.name = "hc.1"}) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) attributes {kiln.containers = [{args = ["hc.0", "hc.1"], name = "hc", type = "Tuple[Tensor, Tensor]"}], kiln.entry}
# TUPLE-NOT: list_construct
# TUPLE: return
# kiln: x=f32[B,4], hc=(f32[B,4], f32[B,4])
def lstm_state(x: Tensor, hc: Tuple[Tensor, Tensor]) -> Tuple[Tensor, Tuple[Tensor, Tensor]]:
    h, c = hc
    c2 = c + x
    return h, (h, c2)


# `int[3]` is a List[int] of three run-time ints; a tuple of scalars needs
# no spec; a Tuple[T, ...] takes its length from the spec; tuples nest.
# RUN: kiln compile %s --emit=ir --entry scalars 2>&1 | FileCheck %s --check-prefix=SCALARS
# SCALARS: func.func @scalars(%arg0: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "x"}, %arg1: i64 {kiln.name = "sizes.0"}, %arg2: i64 {kiln.name = "sizes.1"}, %arg3: i64 {kiln.name = "sizes.2"}, %arg4: f64 {kiln.name = "ab.0"}, %arg5: i1 {kiln.name = "ab.1"}, %arg6: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "rest.0"}, %arg7: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "rest.1.0"}, %arg8: i64 {kiln.name = "rest.1.1"})
# SCALARS-SAME: kiln.containers = [{args = ["sizes.0", "sizes.1", "sizes.2"], name = "sizes", type = "List[int]"}, {args = ["ab.0", "ab.1"], name = "ab", type = "Tuple[float, bool]"}, {args = ["rest.0", "rest.1.0", "rest.1.1"], name = "rest", type = "Tuple[Tensor, Tuple[Tensor, int]]"}]
# SCALARS-NEXT: kiln.list_construct(%arg1, %arg2, %arg3) : (i64, i64, i64) -> !kiln.list<i64>
# kiln: x=f32[N], sizes=int[3], rest=(f32[N], (f32[N], int))
def scalars(x: Tensor, sizes: List[int], ab: Tuple[float, bool],
            rest: Tuple[Tensor, Tuple[Tensor, int]]) -> Tensor:
    y = x * sizes[0] + sizes[2] + rest[0] + rest[1][0] * rest[1][1]
    if ab[1]:
        y = y * ab[0]
    return y


# A variadic tuple, and an empty list of ints.
# RUN: kiln compile %s --emit=ir --entry variadic 2>&1 | FileCheck %s --check-prefix=VARIADIC
# VARIADIC: func.func @variadic(%arg0: tensor<3xf32> {kiln.dims = ["3"], kiln.name = "ts.0"}, %arg1: tensor<3xf32> {kiln.dims = ["3"], kiln.name = "ts.1"}, %arg2: tensor<3xf32> {kiln.dims = ["3"], kiln.name = "ts.2"}) -> (tensor<3xf32>, i64)
# VARIADIC-SAME: {args = [], name = "none", type = "List[int]"}
# VARIADIC: kiln.list_construct() : () -> !kiln.list<i64>
# kiln: ts=(f32[3], f32[3], f32[3]), none=int[0]
def variadic(ts: Tuple[Tensor, ...], none: List[int]) -> Tuple[Tensor, int]:
    return ts[0] + ts[2], len(none)


# A returned list whose elements are known while compiling is one result
# per element.
# RUN: kiln compile %s --emit=ir --entry split_list 2>&1 | FileCheck %s --check-prefix=RESULTS
# RESULTS: func.func @split_list(%arg0: tensor<4x6xf32> {kiln.dims = ["4", "6"], kiln.name = "x"}) -> (tensor<2x6xf32>, tensor<2x6xf32>, i64)
# kiln: x=f32[4,6]
def split_list(x: Tensor) -> Tuple[List[Tensor], int]:
    return [x[:2], x[2:]], 2


# A tuple's default gives each element's input its literal; a Tuple[T,
# ...] without a spec takes the default's length.
# RUN: kiln compile %s --emit=ir --entry defaults 2>&1 | FileCheck %s --check-prefix=DEFAULTS
# DEFAULTS: func.func @defaults(%arg0: tensor<?xf32> {kiln.dims = ["N"], kiln.name = "x"}, %arg1: i64 {kiln.default = 1 : i64, kiln.name = "size.0"}, %arg2: i64 {kiln.default = -2 : i64, kiln.name = "size.1"}, %arg3: f64 {kiln.default = 5.000000e-01 : f64, kiln.name = "scales.0"}, %arg4: f64 {kiln.default = 2.000000e+00 : f64, kiln.name = "scales.1"}, %arg5: f64 {kiln.default = 3.000000e+00 : f64, kiln.name = "scales.2"}, %arg6: i1 {kiln.default = true, kiln.name = "nested.0"}, %arg7: i64 {kiln.default = 3 : i64, kiln.name = "nested.1.0"}, %arg8: f64 {kiln.default = 4.500000e+00 : f64, kiln.name = "nested.1.1"})
# kiln: x=f32[N]
def defaults(x: Tensor, size: Tuple[int, int] = (1, -2),
             scales: Tuple[float, ...] = (0.5, 2, 3.0),
             nested: Tuple[bool, Tuple[int, float]] = (True, (3, 4.5))) -> Tensor:
    return x * size[0] + size[1] * scales[2] + nested[1][1]
