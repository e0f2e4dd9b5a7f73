# Golden IR for index_put / index_put_ / torch.index_put: the store of
# advanced indexing (frontend/LowerAdvancedIndexing.cpp), with None for a
# whole dim, and accumulate=True summing the values each index names.
# RUN: kiln compile %s --emit=ir | FileCheck %s
# RUN: kiln compile %s --emit=ir | kiln-opt | kiln-opt | FileCheck %s
import torch
from torch import Tensor


# accumulate=True on floats: the (index, row) hits as a 0/1 matrix, one
# matrix product sums the value rows each row is named by, added to x.
# CHECK-LABEL: func.func @acc_float
# CHECK: %[[HITS:.*]] = kiln.cmp eq, %{{.*}}, %{{.*}} : (tensor<4x1xi64>, tensor<1x5xi64>) -> tensor<4x5xi1>
# CHECK: %[[F:.*]] = kiln.cast %[[HITS]] : tensor<4x5xi1> to tensor<4x5xf32>
# CHECK: %[[T:.*]] = kiln.permute %[[F]] {dims = array<i64: 1, 0>} : tensor<4x5xf32> -> tensor<5x4xf32>
# CHECK: %[[S:.*]] = kiln.matmul %[[T]], %{{.*}} : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
# CHECK: %[[R:.*]] = kiln.add %arg0, %[[S]] : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
# CHECK: return %[[R]]
# kiln: x=f32[5,3], i=i64[4], v=f32[4,3]
@torch.jit.script
def acc_float(x: Tensor, i: Tensor, v: Tensor) -> Tensor:
    return x.index_put((i,), v, accumulate=True)


# On ints (kiln.matmul takes none) a where per (index, row) pair, summed
# in i64 and cast back.
# CHECK-LABEL: func.func @acc_int
# CHECK: %[[W:.*]] = kiln.where %{{.*}}, %{{.*}}, %c0{{.*}} : (tensor<4x6x1xi1>, tensor<4x1x1xi64>, i64) -> tensor<4x6x1xi64>
# CHECK: %[[S:.*]] = kiln.sum %[[W]] {dims = array<i64: 0>, keepdim = false} : tensor<4x6x1xi64> -> tensor<6x1xi64>
# CHECK: %[[A:.*]] = kiln.add %{{.*}}, %[[S]] : (tensor<6x1xi64>, tensor<6x1xi64>) -> tensor<6x1xi64>
# CHECK: kiln.cast %[[A]] : tensor<6x1xi64> to tensor<6x1xi32>
# kiln: x=i32[6], i=i64[4], v=i32[4]
@torch.jit.script
def acc_int(x: Tensor, i: Tensor, v: Tensor) -> Tensor:
    return torch.index_put(x, [i], v, True)


# None is a whole dim: the store is x[:, i] = v, whose dims move so the
# indexed one comes first, and in place it rebinds x.
# CHECK-LABEL: func.func @none_dim
# CHECK: kiln.assert %{{.*}}, "IndexError: index out of range: an index is outside [-size, size) for dimension 1 with size 6"
# CHECK: kiln.expand %arg2[%c2_i64, %c4_i64] : tensor<f32> -> tensor<2x4xf32>
# CHECK: kiln.permute %arg0 {dims = array<i64: 1, 0>} : tensor<2x6xf32> -> tensor<6x2xf32>
# CHECK: kiln.amax
# CHECK: %[[SEL:.*]] = kiln.index_select %{{.*}}[%{{.*}}] {dim = 0 : i64} : (tensor<?x2xf32>, tensor<6xi64>) -> tensor<6x2xf32>
# CHECK: %[[OUT:.*]] = kiln.permute %[[SEL]] {dims = array<i64: 1, 0>} : tensor<6x2xf32> -> tensor<2x6xf32>
# CHECK: return %[[OUT]]
# kiln: x=f32[2,6], i=i64[4], v=f32[]
@torch.jit.script
def none_dim(x: Tensor, i: Tensor, v: Tensor) -> Tensor:
    x.index_put_([None, i], v)
    return x
