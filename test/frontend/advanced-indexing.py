# Golden IR for indexing by integer and bool tensors (advanced indexing)
# and `...` anywhere in an index (frontend/LowerAdvancedIndexing.cpp).
# RUN: kiln compile %s --emit=ir | FileCheck %s
# RUN: kiln compile %s --emit=ir | kiln-opt | kiln-opt | FileCheck %s
import torch
from torch import Tensor


# One index tensor: its values are checked against [-size, size) while
# running, negative ones wrap, and one index_select reads the rows.
# CHECK-LABEL: func.func @rows
# CHECK: %[[LOW:.*]] = kiln.cmp lt, %arg1, %c-4_i64
# CHECK: %[[HIGH:.*]] = kiln.cmp ge, %arg1, %c4_i64
# CHECK: kiln.bitor %[[LOW]], %[[HIGH]]
# CHECK: kiln.assert %{{.*}}, "IndexError: index out of range: an index is outside [-size, size) for dimension 0 with size 4"
# CHECK: %[[NEG:.*]] = kiln.cmp lt, %arg1, %c0
# CHECK: %[[W:.*]] = kiln.where %[[NEG]], %{{.*}}, %arg1 : (tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
# CHECK: kiln.index_select %arg0[%[[W]]] {dim = 0 : i64} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<3x5xf32>
# kiln: x=f32[4,5], idx=i64[3]
@torch.jit.script
def rows(x: Tensor, idx: Tensor) -> Tensor:
    return x[idx]


# An index of any rank replaces its dim by its shape; an i32 index is
# widened first. `...` before the index keeps the leading dims.
# CHECK-LABEL: func.func @columns
# CHECK: kiln.cast %arg1 : tensor<2x3xi32> to tensor<2x3xi64>
# CHECK: %[[F:.*]] = kiln.reshape %{{.*}}[%c6_i64] : tensor<2x3xi64> -> tensor<6xi64>
# CHECK: %[[S:.*]] = kiln.index_select %arg0[%[[F]]] {dim = 2 : i64} : (tensor<7x4x5xf32>, tensor<6xi64>) -> tensor<7x4x6xf32>
# CHECK: kiln.reshape %[[S]][%c7_i64, %c4_i64, %c2_i64, %c3_i64] : tensor<7x4x6xf32> -> tensor<7x4x2x3xf32>
# kiln: x=f32[7,4,5], idx=i32[2,3]
@torch.jit.script
def columns(x: Tensor, idx: Tensor) -> Tensor:
    return x[..., idx]


# Two index tensors broadcast together into one linear index over their
# dims, which move first and merge. When they are adjacent the result's
# index dims stay where they were.
# CHECK-LABEL: func.func @adjacent
# CHECK: %[[J:.*]] = kiln.where {{.*}} -> tensor<2x1xi64>
# CHECK: %[[I5:.*]] = kiln.mul %{{.*}}, %c5_i64{{.*}} : (tensor<3xi64>, i64) -> tensor<3xi64>
# CHECK: %[[L:.*]] = kiln.add %[[I5]], %[[J]] : (tensor<3xi64>, tensor<2x1xi64>) -> tensor<2x3xi64>
# CHECK: %[[P:.*]] = kiln.permute %arg0 {dims = array<i64: 1, 2, 0>} : tensor<2x4x5xf32> -> tensor<4x5x2xf32>
# CHECK: %[[R:.*]] = kiln.reshape %[[P]][%c20_i64, %c2_i64] : tensor<4x5x2xf32> -> tensor<20x2xf32>
# CHECK: %[[FL:.*]] = kiln.reshape %[[L]][%c6_i64] : tensor<2x3xi64> -> tensor<6xi64>
# CHECK: %[[SEL:.*]] = kiln.index_select %[[R]][%[[FL]]] {dim = 0 : i64} : (tensor<20x2xf32>, tensor<6xi64>) -> tensor<6x2xf32>
# CHECK: %[[U:.*]] = kiln.reshape %[[SEL]][{{.*}}] : tensor<6x2xf32> -> tensor<2x3x2xf32>
# CHECK: kiln.permute %[[U]] {dims = array<i64: 2, 0, 1>} : tensor<2x3x2xf32> -> tensor<2x2x3xf32>
# kiln: x=f32[2,4,5], i=i64[3], j=i64[2,1]
@torch.jit.script
def adjacent(x: Tensor, i: Tensor, j: Tensor) -> Tensor:
    return x[:, i, j]


# Not adjacent: the index dims come first, as in PyTorch and NumPy.
# CHECK-LABEL: func.func @apart
# CHECK: kiln.permute %arg0 {dims = array<i64: 0, 2, 1>} : tensor<4x3x5xf32> -> tensor<4x5x3xf32>
# CHECK: kiln.index_select {{.*}} : (tensor<20x3xf32>, tensor<6xi64>) -> tensor<6x3xf32>
# CHECK-NOT: kiln.permute
# CHECK: return {{.*}} : tensor<6x3xf32>
# kiln: x=f32[4,3,5], i=i64[6], j=i64[6]
@torch.jit.script
def apart(x: Tensor, i: Tensor, j: Tensor) -> Tensor:
    return x[i, :, j]


# A bool mask reads its true elements, in order: a stable sort of
# `1 - mask` lists their positions first, and mask.sum() cuts the list, so
# the result's size is computed while running.
# CHECK-LABEL: func.func @mask_read
# CHECK-SAME: -> tensor<?x5xf32>
# CHECK: %[[K:.*]] = kiln.sub %c1_i64, %{{.*}} : (i64, tensor<4xi64>) -> tensor<4xi64>
# CHECK: %{{.*}}, %[[POS:.*]] = kiln.sort %[[K]] {descending = false}
# CHECK: %[[N:.*]] = kiln.item %{{.*}} : tensor<i64> -> i64
# CHECK: %[[CUT:.*]] = kiln.slice %[[POS]][%c0_i64 : %[[N]] : %c1_i64{{.*}}] {dim = 0 : i64} : tensor<4xi64> -> tensor<?xi64>
# CHECK: kiln.index_select %arg0[%[[CUT]]] {dim = 0 : i64} : (tensor<4x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
# kiln: x=f32[4,5], m=bool[4]
@torch.jit.script
def mask_read(x: Tensor, m: Tensor) -> Tensor:
    return x[m]


# A store through a mask of one value (a number, or a tensor that
# broadcasts over the selected elements) is one where, in x's dtype.
# CHECK-LABEL: func.func @mask_store
# CHECK: %[[V:.*]] = kiln.from_scalar %{{.*}} : f64 -> tensor<f64>
# CHECK: %[[C:.*]] = kiln.cast %[[V]] : tensor<f64> to tensor<i64>
# CHECK: %[[W:.*]] = kiln.where %arg1, %[[C]], %arg0 : (tensor<4x5xi1>, tensor<i64>, tensor<4x5xi64>) -> tensor<4x5xi64>
# CHECK: %[[M:.*]] = kiln.reshape %arg2[%c4_i64, %c1_i64] : tensor<4xi1> -> tensor<4x1xi1>
# CHECK: kiln.where %[[M]], %{{.*}}, %[[W]] : (tensor<4x1xi1>, tensor<5xi64>, tensor<4x5xi64>) -> tensor<4x5xi64>
# kiln: x=i64[4,5], m=bool[4,5], r=bool[4], row=i64[5]
@torch.jit.script
def mask_store(x: Tensor, m: Tensor, r: Tensor, row: Tensor) -> Tensor:
    x[m] = 2.7
    x[r] = row
    return x


# A store through integer indices compares the linear index (and a -1
# that names no row, so an empty index list still reduces) with every row:
# the last index naming a row wins; the other rows read their old contents
# from past the values.
# CHECK-LABEL: func.func @index_store
# CHECK: kiln.full %c-1_i64{{.*}} : i64 -> tensor<1xi64>
# CHECK: kiln.cat %{{.*}} {dim = 0 : i64} : !kiln.list<tensor<?xi64>> -> tensor<?xi64>
# CHECK: %[[HIT:.*]] = kiln.cmp eq, %{{.*}}, %{{.*}} : (tensor<4x1xi64>, tensor<1x5xi64>) -> tensor<4x5xi1>
# CHECK: %[[WHICH:.*]] = kiln.where %[[HIT]], %{{.*}}, %c-1_i64{{.*}} : (tensor<4x5xi1>, tensor<4x1xi64>, i64) -> tensor<4x5xi64>
# CHECK: %[[LAST:.*]] = kiln.amax %[[WHICH]] {dims = array<i64: 0>, keepdim = false} : tensor<4x5xi64> -> tensor<5xi64>
# CHECK: %[[ROW:.*]] = kiln.where %{{.*}}, %[[LAST]], %{{.*}} : (tensor<5xi1>, tensor<5xi64>, tensor<5xi64>) -> tensor<5xi64>
# CHECK: %[[BOTH:.*]] = kiln.cat %{{.*}} {dim = 0 : i64} : !kiln.list<tensor<?x4xf32>> -> tensor<?x4xf32>
# CHECK: %[[NEW:.*]] = kiln.index_select %[[BOTH]][%[[ROW]]] {dim = 0 : i64} : (tensor<?x4xf32>, tensor<5xi64>) -> tensor<5x4xf32>
# CHECK: kiln.permute %[[NEW]] {dims = array<i64: 1, 0>} : tensor<5x4xf32> -> tensor<4x5xf32>
# CHECK: kiln.slice_scatter
# kiln: x=f32[4,5], idx=i64[3], v=f32[3]
@torch.jit.script
def index_store(x: Tensor, idx: Tensor, v: Tensor) -> Tensor:
    x[:, idx] = v
    return x


# `...` anywhere: first, in the middle, last, with None and ints.
# CHECK-LABEL: func.func @ellipsis
# CHECK: kiln.select %arg0[%c0_i64] {dim = 3 : i64} : tensor<2x3x4x5xf32> -> tensor<2x3x4xf32>
# CHECK: kiln.select {{.*}} {dim = 0 : i64} : tensor<2x3x4x5xf32> -> tensor<3x4x5xf32>
# CHECK: kiln.select {{.*}} {dim = 2 : i64} : tensor<3x4x5xf32> -> tensor<3x4xf32>
# CHECK: kiln.unsqueeze {{.*}} {dim = 0 : i64} : tensor<2x3x4x5xf32> -> tensor<1x2x3x4x5xf32>
# CHECK: kiln.slice {{.*}} {dim = 4 : i64} : tensor<1x2x3x4x5xf32> -> tensor<1x2x3x4x4xf32>
# CHECK: kiln.select_scatter {{.*}} {dim = 1 : i64} : tensor<2x4xf32> into tensor<2x3x4xf32>
# kiln: x=f32[2,3,4,5]
@torch.jit.script
def ellipsis(x: Tensor):
    a = x[..., 0]
    b = x[1, ..., 2]
    c = x[None, ..., 1:]
    a[..., 1, :] = 0.0
    return a, b, c
