// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg | FileCheck %s

// gather checks that the index fits the input outside `dim` (dim 0 here,
// both dynamic) and that every index is in [0, size), then reads
// input[i, index[i, j]] in one parallel loop over the index's shape.
// CHECK: message = "Size does not match at dimension 0 expected index of size {0} to be at most the size {1} of self apart from dimension 1"
// CHECK: message = "index {0} is out of bounds for dimension 1 with size 6"
// CHECK-LABEL: func.func private @gather
// CHECK: arith.cmpi sgt
// CHECK: scf.if
// CHECK:   func.call @kiln_rt_raise
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]} ins(%arg1 : tensor<?x3xi64>)
// CHECK: arith.cmpi sge, %{{.*}}, %c6_i64 : i64
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<?x3xi64>) outs(%{{.*}} : tensor<?x3xf32>)
// CHECK: ^bb0(%[[I:.*]]: i64, %{{.*}}: f32):
// CHECK:   %[[ROW:.*]] = linalg.index 0 : index
// CHECK:   %[[COL:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK:   %[[V:.*]] = tensor.extract %arg0[%[[ROW]], %[[COL]]] : tensor<?x6xf32>
// CHECK:   linalg.yield %[[V]] : f32
func.func @gather(%x: tensor<?x6xf32>, %i: tensor<?x3xi64>) -> tensor<?x3xf32> {
  %0 = kiln.gather %x[%i] {dim = 1 : i64} : (tensor<?x6xf32>, tensor<?x3xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// index_select reads the 1-D index along `dim` and the input everywhere
// else; the bounds check has embedding's message.
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: message = "index out of range in self: index {0} is out of bounds for dimension 0 with size {1}"
// CHECK-LABEL: func.func private @index_select
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[ALL]]], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<4xi64>) outs(%{{.*}} : tensor<4x?xf32>)
// CHECK: ^bb0(%[[I:.*]]: i64, %{{.*}}: f32):
// CHECK:   %[[ROW:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK:   %[[COL:.*]] = linalg.index 1 : index
// CHECK:   tensor.extract %arg0[%[[ROW]], %[[COL]]] : tensor<?x?xf32>
func.func @index_select(%x: tensor<?x?xf32>, %i: tensor<4xi64>) -> tensor<4x?xf32> {
  %0 = kiln.index_select %x[%i] {dim = 0 : i64} : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// cumsum is a reduction over an extra loop j that adds x[j] where j <= i
// and an exact 0 elsewhere, so the terms are added in a running sum's
// order. f32 accumulates in f64, as PyTorch's CPU kernel does, and rounds
// once at the end.
// CHECK-DAG: #[[ALONG:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[AT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func private @cumsum
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<?x5xf64>)
// CHECK: linalg.generic {indexing_maps = [#[[ALONG]], #[[AT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<?x5xf32>) outs(%[[ZERO]] : tensor<?x5xf64>)
// CHECK:   %[[I:.*]] = linalg.index 1 : index
// CHECK:   %[[J:.*]] = linalg.index 2 : index
// CHECK:   %[[IN:.*]] = arith.cmpi ule, %[[J]], %[[I]] : index
// CHECK:   arith.extf %{{.*}} : f32 to f64
// CHECK:   arith.select %[[IN]]
// CHECK:   arith.addf
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @cumsum(%x: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = kiln.cumsum %x {dim = 1 : i64} : tensor<?x5xf32> -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// cumprod of ints: i32 widens to the i64 result first, and the masked
// terms are ones.
// CHECK-LABEL: func.func private @cumprod_i32
// CHECK: linalg.fill ins(%c1_i64 : i64)
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.muli
func.func @cumprod_i32(%x: tensor<4x3xi32>) -> tensor<4x3xi64> {
  %0 = kiln.cumprod %x {dim = 0 : i64} : tensor<4x3xi32> -> tensor<4x3xi64>
  return %0 : tensor<4x3xi64>
}

// -----

// flip reads input[size - 1 - i] along the flipped dims only.
// CHECK-LABEL: func.func private @flip
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<?x4xf32>)
// CHECK:   %[[I:.*]] = linalg.index 0 : index
// CHECK:   %[[LAST:.*]] = arith.subi %[[N]], %c1 : index
// CHECK:   %[[R:.*]] = arith.subi %[[LAST]], %[[I]] : index
// CHECK:   %[[J:.*]] = linalg.index 1 : index
// CHECK:   tensor.extract %arg0[%[[R]], %[[J]]] : tensor<?x4xf32>
func.func @flip(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = kiln.flip %x {dims = array<i64: 0>} : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// sort: the rank of each element (how many sort before it: smaller, or
// equal and earlier, with NaN largest), then the position of each rank,
// then a gather of the values.
// CHECK-LABEL: func.func private @sort
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg0 : tensor<2x5xf32>, tensor<2x5xf32>) outs(%{{.*}} : tensor<2x5xi64>)
// CHECK:   arith.cmpi ult
// CHECK:   arith.cmpf uno
// CHECK:   arith.cmpf oeq
// CHECK:   arith.cmpf olt
// CHECK:   arith.extui %{{.*}} : i1 to i64
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<2x5xi64>) outs(%{{.*}} : tensor<2x5xi64>)
// CHECK:   arith.cmpi eq
// CHECK:   arith.select
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<2x5xi64>) outs(%{{.*}} : tensor<2x5xf32>)
// CHECK:   tensor.extract %arg0
func.func @sort(%x: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>) {
  %0:2 = kiln.sort %x {descending = false} : tensor<2x5xf32> -> (tensor<2x5xf32>, tensor<2x5xi64>)
  return %0#0, %0#1 : tensor<2x5xf32>, tensor<2x5xi64>
}
