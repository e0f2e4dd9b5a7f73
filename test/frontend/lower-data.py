# Golden IR for lists, tuples, calls, indexing and subscript assignment.
# RUN: kiln compile %s --emit=ir | FileCheck %s
# RUN: kiln compile %s --emit=ir | kiln-opt | kiln-opt | FileCheck %s
import torch
from typing import List, Tuple


# A list that starts empty gets its element type from what the loop
# appends (the loop is lowered again with the wider type); append and
# `+= [v]` are functional list_append; torch.stack takes the list.
# CHECK-LABEL: func.func @append_then_stack
# CHECK: %[[L:.*]] = kiln.list_construct() : () -> !kiln.list<tensor<3xf32>>
# CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[L]]) -> (!kiln.list<tensor<3xf32>>)
# CHECK:   %[[A:.*]] = kiln.list_append %[[ACC]], %{{.*}} : !kiln.list<tensor<3xf32>>, tensor<3xf32>
# CHECK:   kiln.list_append %[[A]], %{{.*}} : !kiln.list<tensor<3xf32>>, tensor<3xf32>
# CHECK: kiln.stack %{{.*}} {dim = 0 : i64} : !kiln.list<tensor<3xf32>> -> tensor<?x3xf32>
# kiln: x=f32[3]
@torch.jit.script
def append_then_stack(x, n: int):
    ys: List[torch.Tensor] = []
    for i in range(n):
        ys.append(x * i)
        ys += [x]
    return torch.stack(ys)


# A list literal of known length stacks and concatenates to a static size.
# CHECK-LABEL: func.func @literal_lists
# CHECK: kiln.list_construct(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> !kiln.list<tensor<2x3xf32>>
# CHECK: kiln.stack %{{.*}} {dim = 1 : i64} : !kiln.list<tensor<2x3xf32>> -> tensor<2x2x3xf32>
# CHECK: kiln.cat %{{.*}} {dim = 1 : i64} : !kiln.list<tensor<2x3xf32>> -> tensor<2x6xf32>
# kiln: x=f32[2,3]
@torch.jit.script
def literal_lists(x):
    return torch.stack([x, x], dim=1), torch.cat((x, x), -1)


def scale(t, k: float = 2.0):
    return t * k, k


# Helpers are specialized per argument types as private functions; tuple
# results are flattened and unpacked; a default argument is filled in.
# CHECK-LABEL: func.func @calls
# CHECK: %[[R:.*]]:2 = call @scale(%arg0, %cst) : (tensor<?xf32>, f64) -> (tensor<?xf32>, f64)
# CHECK: call @scale_1(%{{.*}}, %{{.*}}) : (tensor<1x?xf32>, f64) -> (tensor<1x?xf32>, f64)
# CHECK-LABEL: func.func private @scale(%arg0: tensor<?xf32>, %arg1: f64) -> (tensor<?xf32>, f64)
# CHECK-LABEL: func.func private @scale_1(%arg0: tensor<1x?xf32>, %arg1: f64)
# kiln: x=f32[N]
@torch.jit.script
def calls(x):
    y, k = scale(x)
    z, _ = scale(x.unsqueeze(0), k=3.0)
    return y, z, k


# Indexing: an int selects (negative indices are kept for the runtime to
# wrap), a slice keeps the dim, None inserts one, `...` fills the rest.
# CHECK-LABEL: func.func @indexing
# CHECK: kiln.select %arg0[%c-1_i64] {dim = 0 : i64} : tensor<4x5x6xf32> -> tensor<5x6xf32>
# CHECK: kiln.slice %arg0[%c1_i64{{.*}} : %c{{.*}} : %c2_i64] {dim = 0 : i64} : tensor<4x5x6xf32> -> tensor<2x5x6xf32>
# CHECK: kiln.unsqueeze %{{.*}} {dim = 1 : i64} : tensor<2x5x6xf32> -> tensor<2x1x5x6xf32>
# CHECK: kiln.select %{{.*}}[%c0_i64{{.*}}] {dim = 3 : i64} : tensor<2x1x5x6xf32> -> tensor<2x1x5xf32>
# kiln: x=f32[4,5,6]
@torch.jit.script
def indexing(x):
    return x[-1], x[1::2, None, ..., 0]


# Subscript assignment is functionalized: views are taken innermost-last and
# the new value is scattered back with select_scatter/slice_scatter; a
# scalar becomes a kiln.full of the view's shape, and a smaller tensor is
# broadcast with kiln.expand.
# CHECK-LABEL: func.func @subscript_assign
# CHECK: %[[ROW:.*]] = kiln.select %arg0[%arg1] {dim = 0 : i64} : tensor<?x?xf32> -> tensor<?xf32>
# CHECK: %[[V:.*]] = kiln.full %cst, [] : f64 -> tensor<f32>
# CHECK: %[[NEWROW:.*]] = kiln.select_scatter %[[ROW]][%arg2] = %[[V]] {dim = 0 : i64} : tensor<f32> into tensor<?xf32>
# CHECK: %[[NEW:.*]] = kiln.select_scatter %arg0[%arg1] = %[[NEWROW]] {dim = 0 : i64} : tensor<?xf32> into tensor<?x?xf32>
# CHECK: kiln.slice %[[NEW]]
# CHECK: kiln.expand
# CHECK: kiln.slice_scatter %[[NEW]]
# kiln: a=f32[N,M], b=f32[M]
@torch.jit.script
def subscript_assign(a, i: int, j: int, b):
    a[i, j] = 1.5
    a[:, 1:] = b[1:]
    return a
