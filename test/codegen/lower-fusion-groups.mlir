// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg --cse --canonicalize | FileCheck %s

// Each kiln.fusion_group becomes one loop nest: one linalg.generic whose
// body holds every op of the group. The only tensor.empty is the group's
// result, so no intermediate tensor is ever written to memory.

// The seed's `for i in range(10): x = x * x` after unrolling and fusion:
// ten multiplies in one loop over x, reading x once (the duplicate inputs
// of `x * x` are merged before fusing, so the work stays ten multiplies).
// CHECK-LABEL: func.func @ten_squarings
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT:     tensor.empty
// CHECK:         linalg.generic {{.*}} ins(%arg0 : tensor<?xf32>)
// CHECK-COUNT-10:  arith.mulf
// CHECK-NOT:       arith.mulf
// CHECK:           linalg.yield
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @ten_squarings(%x: tensor<?xf32>) -> tensor<?xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: tensor<?xf32>):
    %1 = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %2 = kiln.mul %1, %1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %3 = kiln.mul %2, %2 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %4 = kiln.mul %3, %3 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %5 = kiln.mul %4, %4 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %6 = kiln.mul %5, %5 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %7 = kiln.mul %6, %6 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %8 = kiln.mul %7, %7 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %9 = kiln.mul %8, %8 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %10 = kiln.mul %9, %9 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    kiln.yield %10 : tensor<?xf32>
  }
  return %0 : tensor<?xf32>
}

// -----

// A broadcast operand and a Python scalar are read inside the one loop
// nest: the bias through a broadcasting map, the scalar as a captured value.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @broadcast_and_scalar
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT:     tensor.empty
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK:           arith.addf
// CHECK:           arith.mulf
// CHECK:           math.tanh
// CHECK-NOT:     linalg.generic
func.func @broadcast_and_scalar(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %s: f64) -> tensor<4x8xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x, %b, %s) : (tensor<4x8xf32>, tensor<8xf32>, f64) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>, %k: f64):
    %1 = kiln.add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %2 = kiln.mul %1, %k : (tensor<4x8xf32>, f64) -> tensor<4x8xf32>
    %3 = kiln.tanh %2 : tensor<4x8xf32>
    kiln.yield %3 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A value the group also gives back is a second output of the same loop
// nest; it is neither recomputed nor read back from memory.
// CHECK-LABEL: func.func @two_results
// CHECK:         %[[R:.*]]:2 = linalg.generic
// CHECK:           %[[A:.*]] = arith.addf
// CHECK-NEXT:      %[[T:.*]] = math.tanh %[[A]]
// CHECK-NEXT:      linalg.yield %[[A]], %[[T]]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @two_results(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {kiln.entry} {
  %0:2 = kiln.fusion_group(%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %1 = kiln.add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %2 = kiln.tanh %1 : tensor<4x8xf32>
    kiln.yield %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
  }
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A trailing reduction consumes the chain inside its own loop nest: the
// difference and the square are computed in the reduction's body and never
// stored. Only mean's final division (over the small result) is separate.
// CHECK-LABEL: func.func @squared_distance
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0, %arg1
// CHECK:           arith.subf
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK:           arith.divf
// CHECK-NOT:     linalg.generic
func.func @squared_distance(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> tensor<?xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x, %y) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?xf32> {
  ^bb0(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>):
    %d = kiln.sub %a, %b : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %sq = kiln.mul %d, %d : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %s = kiln.mean %sq {dims = array<i64: 1>, keepdim = false} : tensor<?x8xf32> -> tensor<?xf32>
    kiln.yield %s : tensor<?xf32>
  }
  return %0 : tensor<?xf32>
}

// -----

// Negative: ops outside a group are not fused by codegen, even when they
// could be; only what the kiln IR shows as a group becomes one loop nest.
// CHECK-LABEL: func.func @no_group
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK:           arith.negf
func.func @no_group(%x: tensor<8xf32>) -> tensor<8xf32> attributes {kiln.entry} {
  %e = kiln.exp %x : tensor<8xf32>
  %n = kiln.neg %e : tensor<8xf32>
  return %n : tensor<8xf32>
}
