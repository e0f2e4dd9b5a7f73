// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg | FileCheck %s

// sum of ints accumulates in i64 (torch.sum's result type) over a reduction
// iterator; keepdim puts the reduced dim back as a view.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func private @sum_int_keepdim
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%c0_i64{{.*}} : i64) outs(%{{.*}} : tensor<?xi64>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x4xi32>) outs(%[[ZERO]] : tensor<?xi64>)
// CHECK: ^bb0(%[[IN:.*]]: i32, %[[ACC:.*]]: i64):
// CHECK:   %[[WIDE:.*]] = arith.extsi %[[IN]] : i32 to i64
// CHECK:   arith.addi %[[WIDE]], %[[ACC]] : i64
// CHECK: tensor.expand_shape %[[SUM]] {{\[}}[0, 1]] output_shape [%{{.*}}, 1] : tensor<?xi64> into tensor<?x1xi64>
func.func @sum_int_keepdim(%x: tensor<?x4xi32>) -> tensor<?x1xi64> {
  %0 = kiln.sum %x {dims = array<i64: 1>, keepdim = true} : tensor<?x4xi32> -> tensor<?x1xi64>
  return %0 : tensor<?x1xi64>
}

// -----

// mean of f16 over all dims (empty dims) sums in f32, as PyTorch does,
// divides by the element count and rounds to f16 once.
// CHECK-LABEL: func.func private @mean_half_all
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]} ins(%arg0 : tensor<?x4xf16>) outs(%{{.*}} : tensor<f32>)
// CHECK:   arith.extf %{{.*}} : f16 to f32
// CHECK:   arith.addf
// CHECK: %[[N:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<f32>) outs(%{{.*}} : tensor<f16>)
// CHECK:   %[[MEAN:.*]] = arith.divf %{{.*}}, %[[N]] : f32
// CHECK:   arith.truncf %[[MEAN]] : f32 to f16
func.func @mean_half_all(%x: tensor<?x4xf16>) -> tensor<f16> {
  %0 = kiln.mean %x {dims = array<i64>, keepdim = false} : tensor<?x4xf16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// amax starts from -inf and propagates NaN (maximumf); the sign of a zero
// maximum is left open (nsz), as in PyTorch's vectorized kernels. A reduced
// dim that may be empty is checked at run time with PyTorch's message.
// CHECK: message = "amax(): expected reduction dim 0 to have non-zero size"
// CHECK-LABEL: func.func private @amax_checked
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %c0{{.*}} : index
// CHECK: scf.if %[[EMPTY]] {
// CHECK:   func.call @kiln_rt_raise
// CHECK: linalg.fill ins(%cst{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]}
// CHECK:   arith.maximumf {{.*}} fastmath<nsz>
func.func @amax_checked(%x: tensor<?x4xf32>) -> tensor<4xf32> {
  %0 = kiln.amax %x {dims = array<i64: 0>, keepdim = false} : tensor<?x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The minimum of bools is a logical and, starting from true; a static
// non-empty dim needs no check.
// CHECK-LABEL: func.func private @amin_bool
// CHECK-NOT: scf.if
// CHECK: linalg.fill ins(%true{{.*}} : i1)
// CHECK: arith.andi
func.func @amin_bool(%x: tensor<3x4xi1>) -> tensor<3xi1> {
  %0 = kiln.amin %x {dims = array<i64: 1>, keepdim = false} : tensor<3x4xi1> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

// var is two-pass: the mean, then the sum of squared deviations from it,
// divided by max(N - correction, 0) (so N = correction gives nan or inf).
// CHECK-LABEL: func.func private @var_unbiased
// CHECK: %[[COUNT:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf32>)
// CHECK:   arith.divf
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}} ins(%arg0, %[[MEAN]] : tensor<3x?xf32>, tensor<3xf32>)
// CHECK:   %[[D:.*]] = arith.subf
// CHECK:   %[[D2:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK:   arith.addf %[[D2]]
// CHECK: %[[DOF:.*]] = arith.subi %[[COUNT]], %c1_i64 : i64
// CHECK: %[[POS:.*]] = arith.maxsi %[[DOF]], %c0_i64 : i64
// CHECK: %[[DIV:.*]] = arith.sitofp %[[POS]] : i64 to f32
// CHECK: linalg.generic {{.*}} ins(%[[SQ]] : tensor<3xf32>)
// CHECK:   arith.divf %{{.*}}, %[[DIV]] : f32
func.func @var_unbiased(%x: tensor<3x?xf32>) -> tensor<3xf32> {
  %0 = kiln.var %x {correction = 1 : i64, dims = array<i64: 1>, keepdim = false} : tensor<3x?xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// max(x, dim) carries the value and the i64 index in one loop; a NaN wins,
// and ties keep the first index whatever the visiting order.
// CHECK-LABEL: func.func private @max_dim
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<2x5xf32>) outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi64>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[BEST:.*]]: f32, %[[BESTI:.*]]: i64):
// CHECK:   %[[I:.*]] = linalg.index 1 : index
// CHECK:   %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:   arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK:   arith.cmpf ogt, %[[X]], %[[BEST]] : f32
// CHECK:   %[[V:.*]] = arith.select %[[TAKE:.*]], %[[X]], %[[BEST]] : f32
// CHECK:   %[[J:.*]] = arith.select %[[TAKE]], %[[I64]], %[[BESTI]] : i64
// CHECK:   linalg.yield %[[V]], %[[J]] : f32, i64
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @max_dim(%x: tensor<2x5xf32>) -> (tensor<2xf32>, tensor<2xi64>) {
  %v, %i = kiln.max_dim %x {dim = 1 : i64, keepdim = false} : tensor<2x5xf32> -> (tensor<2xf32>, tensor<2xi64>)
  return %v, %i : tensor<2xf32>, tensor<2xi64>
}

// -----

// f64 and integer matmul stay generated code (f32, f16 and bf16 call the
// kernel library: lower-library-calls.mlir).
// 2-D matmul: linalg.matmul into a zero-filled accumulator, with the
// contracted sizes checked when one is dynamic (PyTorch's message, with the
// static sizes written in).
// CHECK: message = "mat1 and mat2 shapes cannot be multiplied (3x{0} and {1}x2)"
// CHECK-LABEL: func.func private @matmul_checked
// CHECK: %[[K1:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[K2:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[K1]], %[[K2]] : index
// CHECK: scf.if %[[NE]] {
// CHECK:   func.call @kiln_rt_raise
// CHECK: %[[ACC:.*]] = linalg.fill ins(%cst{{.*}} : f64) outs(%{{.*}} : tensor<3x2xf64>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<3x?xf64>, tensor<?x2xf64>) outs(%[[ACC]] : tensor<3x2xf64>)
func.func @matmul_checked(%a: tensor<3x?xf64>, %b: tensor<?x2xf64>) -> tensor<3x2xf64> {
  %0 = kiln.matmul %a, %b : (tensor<3x?xf64>, tensor<?x2xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// 1-D times 1-D is a dot product; a size mismatch raises torch.dot's message.
// CHECK: message = "inconsistent tensor size, expected tensor [{0}] and src [{1}] to have the same number of elements, but got {0} and {1} elements respectively"
// CHECK-LABEL: func.func private @dot
// CHECK: func.call @kiln_rt_raise
// CHECK: linalg.dot ins(%arg0, %arg1 : tensor<?xf64>, tensor<?xf64>) outs(%{{.*}} : tensor<f64>)
func.func @dot(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<f64> {
  %0 = kiln.matmul %a, %b : (tensor<?xf64>, tensor<?xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}

// -----

// Matrix-vector and vector-matrix products use linalg.matvec and
// linalg.vecmat; static contracted sizes need no check.
// CHECK-LABEL: func.func private @matvec_vecmat
// CHECK-NOT: scf.if
// CHECK: linalg.matvec ins(%arg0, %arg1 : tensor<?x4xf64>, tensor<4xf64>) outs(%{{.*}} : tensor<?xf64>)
// CHECK: linalg.vecmat ins(%arg1, %arg2 : tensor<4xf64>, tensor<4x5xf64>) outs(%{{.*}} : tensor<5xf64>)
func.func @matvec_vecmat(%m: tensor<?x4xf64>, %v: tensor<4xf64>, %w: tensor<4x5xf64>) -> (tensor<?xf64>, tensor<5xf64>) {
  %0 = kiln.matmul %m, %v : (tensor<?x4xf64>, tensor<4xf64>) -> tensor<?xf64>
  %1 = kiln.matmul %v, %w : (tensor<4xf64>, tensor<4x5xf64>) -> tensor<5xf64>
  return %0, %1 : tensor<?xf64>, tensor<5xf64>
}

// -----

// A batched lhs times a matrix folds the batch into the rows, as PyTorch
// does: one linalg.matmul between two views.
// CHECK-LABEL: func.func private @batch_times_matrix
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<?x3x4xf64> into tensor<?x4xf64>
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[ROWS]], %arg1 : tensor<?x4xf64>, tensor<4x5xf64>) outs(%{{.*}} : tensor<?x5xf64>)
// CHECK: tensor.expand_shape %[[P]] {{\[}}[0, 1], [2]] output_shape [%{{.*}}, 3, 5] : tensor<?x5xf64> into tensor<?x3x5xf64>
func.func @batch_times_matrix(%a: tensor<?x3x4xf64>, %b: tensor<4x5xf64>) -> tensor<?x3x5xf64> {
  %0 = kiln.matmul %a, %b : (tensor<?x3x4xf64>, tensor<4x5xf64>) -> tensor<?x3x5xf64>
  return %0 : tensor<?x3x5xf64>
}

// -----

// Equal batch dims: linalg.batch_matmul, after a run-time check that the
// dynamic batch sizes agree (PyTorch's broadcasting message).
// CHECK: message = "the size of tensor a ({0}) must match the size of tensor b ({1}) at non-singleton dimension 0"
// CHECK-LABEL: func.func private @bmm
// CHECK: %[[BA:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[BB:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[BA]], %[[BB]] : index
// CHECK: scf.if %[[NE]] {
// CHECK: linalg.batch_matmul ins(%arg0, %arg1 : tensor<?x3x4xf64>, tensor<?x4x5xf64>) outs(%{{.*}} : tensor<?x3x5xf64>)
func.func @bmm(%a: tensor<?x3x4xf64>, %b: tensor<?x4x5xf64>) -> tensor<?x3x5xf64> {
  %0 = kiln.matmul %a, %b : (tensor<?x3x4xf64>, tensor<?x4x5xf64>) -> tensor<?x3x5xf64>
  return %0 : tensor<?x3x5xf64>
}

// -----

// Batch dims that broadcast (a static 1, or a missing dim) become one
// linalg.generic contraction that reads the size-1 dim at index 0.
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func private @broadcast_batch
// CHECK-NOT: scf.if
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x1x3x4xf64>, tensor<6x4x5xf64>) outs(%{{.*}} : tensor<2x6x3x5xf64>)
// CHECK:   arith.mulf
// CHECK:   arith.addf
func.func @broadcast_batch(%a: tensor<2x1x3x4xf64>, %b: tensor<6x4x5xf64>) -> tensor<2x6x3x5xf64> {
  %0 = kiln.matmul %a, %b : (tensor<2x1x3x4xf64>, tensor<6x4x5xf64>) -> tensor<2x6x3x5xf64>
  return %0 : tensor<2x6x3x5xf64>
}

// -----

// rand: one fresh stream from the runtime per op, then Philox-4x32-10 of
// (stream, linear index) in a parallel loop: ten rounds of two 32x32->64
// multiplies; the top 24 bits of the first word give an f32 in [0, 1).
// CHECK: message = "trying to create tensor with negative dimension {0}: [{0}, 3]"
// CHECK-LABEL: func.func private @rand
// CHECK: func.call @kiln_rt_raise
// CHECK: %[[STREAM:.*]] = call @kiln_rt_random_stream() : () -> i64
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<?x3xf32>)
// CHECK:   linalg.index 0
// CHECK:   linalg.index 1
// CHECK-COUNT-20: arith.mului_extended
// CHECK:   %[[BITS:.*]] = arith.shrui %{{.*}}, %c8_i32 : i32
// CHECK:   %[[F:.*]] = arith.uitofp %[[BITS]] : i32 to f32
// CHECK:   arith.mulf %[[F]], %cst{{.*}} : f32
func.func @rand(%n: i64) -> tensor<?x3xf32> {
  %c3 = arith.constant 3 : i64
  %0 = kiln.rand [%n, %c3] : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// randn: Box-Muller on two uniforms from the same Philox block, in f32 for
// an f16 result, rounded once.
// CHECK-LABEL: func.func private @randn_half
// CHECK: call @kiln_rt_random_stream() : () -> i64
// CHECK: linalg.generic
// CHECK:   math.log
// CHECK:   math.sqrt
// CHECK:   math.cos
// CHECK:   arith.truncf %{{.*}} : f32 to f16
func.func @randn_half() -> tensor<4xf16> {
  %c4 = arith.constant 4 : i64
  %0 = kiln.randn [%c4] : tensor<4xf16>
  return %0 : tensor<4xf16>
}
