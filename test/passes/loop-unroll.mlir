// RUN: kiln-opt %s --split-input-file --kiln-loop-unroll | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-loop-unroll="unroll-factor=4" | FileCheck %s --check-prefix=FACTOR4
// RUN: kiln-opt %s --split-input-file --kiln-loop-unroll="unroll-max-body=2" | FileCheck %s --check-prefix=BODY2
// RUN: kiln-opt %s --split-input-file --kiln-loop-unroll="unroll-factor=1" | FileCheck %s --check-prefix=FACTOR1

// TorchScript's policy: bodies of at most 32 ops (nested ones included,
// constants and terminators not) are unrolled; fully when the trip count is
// a constant of at most 64, otherwise by 8 with a remainder loop.

// The seed `for i in range(10): x = x * x`, with the frontend's index_casts
// of i64 constants as bounds, becomes ten multiplies in a row and no loop.
// CHECK-LABEL: func.func @seed
// CHECK-NOT: scf.for
// CHECK: %[[M0:.*]] = kiln.mul %arg0, %arg0
// CHECK-NEXT: %[[M1:.*]] = kiln.mul %[[M0]], %[[M0]]
// CHECK-NEXT: %[[M2:.*]] = kiln.mul %[[M1]], %[[M1]]
// CHECK-NEXT: %[[M3:.*]] = kiln.mul %[[M2]], %[[M2]]
// CHECK-NEXT: %[[M4:.*]] = kiln.mul %[[M3]], %[[M3]]
// CHECK-NEXT: %[[M5:.*]] = kiln.mul %[[M4]], %[[M4]]
// CHECK-NEXT: %[[M6:.*]] = kiln.mul %[[M5]], %[[M5]]
// CHECK-NEXT: %[[M7:.*]] = kiln.mul %[[M6]], %[[M6]]
// CHECK-NEXT: %[[M8:.*]] = kiln.mul %[[M7]], %[[M7]]
// CHECK-NEXT: %[[M9:.*]] = kiln.mul %[[M8]], %[[M8]]
// CHECK-NEXT: return %[[M9]]
// The options do not change a full unroll; a body of one op is small.
// FACTOR4-LABEL: func.func @seed
// FACTOR4-NOT: scf.for
// FACTOR4-COUNT-10: kiln.mul
// FACTOR4-NOT: scf.for
// BODY2-LABEL: func.func @seed
// BODY2-NOT: scf.for
// BODY2-COUNT-10: kiln.mul
// FACTOR1-LABEL: func.func @seed
// FACTOR1-NOT: scf.for
// FACTOR1-COUNT-10: kiln.mul
func.func @seed(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : i64
  %c10 = arith.constant 10 : i64
  %c1 = arith.constant 1 : i64
  %lb = arith.index_cast %c0 : i64 to index
  %ub = arith.index_cast %c10 : i64 to index
  %step = arith.index_cast %c1 : i64 to index
  %r = scf.for %i = %lb to %ub step %step iter_args(%a = %x) -> (tensor<?xf32>) {
    %m = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %m : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// 64 iterations, the most that are unrolled fully, leave no loop.
// CHECK-LABEL: func.func @trip_64
// CHECK-NOT: scf.for
// CHECK-COUNT-64: kiln.mul
// CHECK-NOT: kiln.mul
// CHECK: return
func.func @trip_64(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) {
    %m = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %m : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// 65 iterations are one too many for a full unroll: the loop is unrolled by
// 8 over the first 64, and the single iteration left over needs no loop.
// CHECK-LABEL: func.func @trip_65
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %[[C0]] to %[[C64]] step %[[C8]] iter_args(%[[A:.*]] = %arg0)
// CHECK-NEXT: %[[M0:.*]] = kiln.mul %[[A]], %[[A]]
// CHECK-COUNT-7: kiln.mul
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[LAST:.*]] = kiln.mul %[[R]], %[[R]]
// CHECK-NEXT: return %[[LAST]]
// With factor 4, 16 iterations of 4 copies and again one left over.
// FACTOR4-LABEL: func.func @trip_65
// FACTOR4: %[[R:.*]] = scf.for %{{.*}} = %c0 to %c64 step %c4
// FACTOR4-COUNT-4: kiln.mul
// FACTOR4-NEXT: scf.yield
// FACTOR4-NEXT: }
// FACTOR4-NEXT: kiln.mul %[[R]], %[[R]]
// FACTOR4-NEXT: return
func.func @trip_65(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c65 = arith.constant 65 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c65 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) {
    %m = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %m : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// `for i in range(n)`: the trip count is unknown, so the loop is unrolled by
// 8 up to the largest multiple of 8 iterations and a remainder loop with the
// original body runs the rest. The upper bound is first raised to at least
// the lower one, so that a negative n runs neither loop.
// CHECK-LABEL: func.func @unknown_trip_count
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: %[[UB:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK: %[[MAIN:.*]] = scf.for %{{.*}} = %{{.*}} to %[[SPLIT:.*]] step %c8{{.*}} iter_args(%[[A:.*]] = %arg0)
// CHECK-NEXT: kiln.mul %[[A]], %[[A]]
// CHECK-COUNT-7: kiln.mul
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[REST:.*]] = scf.for %{{.*}} = %[[SPLIT]] to %[[UB]] step %c1 iter_args(%[[B:.*]] = %[[MAIN]])
// CHECK-NEXT: kiln.mul %[[B]], %[[B]]
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[REST]]
// unroll-factor=4 makes four copies instead.
// FACTOR4-LABEL: func.func @unknown_trip_count
// FACTOR4: scf.for %{{.*}} step %c4
// FACTOR4-COUNT-4: kiln.mul
// FACTOR4-NEXT: scf.yield
// FACTOR4: scf.for %{{.*}} step %c1
// FACTOR4-NEXT: kiln.mul
// FACTOR4-NEXT: scf.yield
// unroll-factor=1 leaves nothing to unroll: the loop stays as it was.
// FACTOR1-LABEL: func.func @unknown_trip_count
// FACTOR1: scf.for
// FACTOR1-NEXT: kiln.mul
// FACTOR1-NEXT: scf.yield
// FACTOR1-NEXT: }
// FACTOR1-NEXT: return
func.func @unknown_trip_count(%x: tensor<?xf32>, %n: i64) -> tensor<?xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %lb = arith.index_cast %c0 : i64 to index
  %ub = arith.index_cast %n : i64 to index
  %step = arith.index_cast %c1 : i64 to index
  %r = scf.for %i = %lb to %ub step %step iter_args(%a = %x) -> (tensor<?xf32>) {
    %m = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %m : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A body of 33 ops is over the limit of 32, so even a 2-trip loop stays.
// The 33 constants in it are free and do not count.
// CHECK-LABEL: func.func @body_too_large
// CHECK: scf.for
// CHECK-COUNT-33: kiln.mul
// CHECK-NEXT: scf.yield
// CHECK-NOT: kiln.mul
func.func @body_too_large(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) {
    %k = kiln.constant dense<2.0> : tensor<1xf32>
    %f = arith.constant 2.0 : f64
    %m0 = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m1 = kiln.mul %m0, %m0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m2 = kiln.mul %m1, %m1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m3 = kiln.mul %m2, %m2 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m4 = kiln.mul %m3, %m3 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m5 = kiln.mul %m4, %m4 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m6 = kiln.mul %m5, %m5 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m7 = kiln.mul %m6, %m6 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m8 = kiln.mul %m7, %m7 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m9 = kiln.mul %m8, %m8 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m10 = kiln.mul %m9, %m9 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m11 = kiln.mul %m10, %m10 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m12 = kiln.mul %m11, %m11 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m13 = kiln.mul %m12, %m12 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m14 = kiln.mul %m13, %m13 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m15 = kiln.mul %m14, %m14 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m16 = kiln.mul %m15, %m15 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m17 = kiln.mul %m16, %m16 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m18 = kiln.mul %m17, %m17 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m19 = kiln.mul %m18, %m18 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m20 = kiln.mul %m19, %m19 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m21 = kiln.mul %m20, %m20 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m22 = kiln.mul %m21, %m21 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m23 = kiln.mul %m22, %m22 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m24 = kiln.mul %m23, %m23 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m25 = kiln.mul %m24, %m24 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m26 = kiln.mul %m25, %m25 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m27 = kiln.mul %m26, %m26 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m28 = kiln.mul %m27, %m27 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m29 = kiln.mul %m28, %m28 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m30 = kiln.mul %m29, %m29 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m31 = kiln.mul %m30, %m30 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m32 = kiln.mul %m31, %m31 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %m32 : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// With unroll-max-body=2 a body of exactly 2 ops is still unrolled, and one
// of 3 ops is not.
// BODY2-LABEL: func.func @body_at_limit
// BODY2-NOT: scf.for
// BODY2-COUNT-2: kiln.exp
// BODY2-LABEL: func.func @body_over_limit
// BODY2: scf.for
// BODY2-NEXT: kiln.exp
// BODY2-NEXT: kiln.tanh
// BODY2-NEXT: kiln.neg
// BODY2-NEXT: scf.yield
// By default both are small and unrolled fully.
// CHECK-LABEL: func.func @body_at_limit
// CHECK-NOT: scf.for
// CHECK-LABEL: func.func @body_over_limit
// CHECK-NOT: scf.for
// CHECK: return
func.func @body_at_limit(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) {
    %e = kiln.exp %a : tensor<?xf32>
    %t = kiln.tanh %e : tensor<?xf32>
    scf.yield %t : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

func.func @body_over_limit(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) {
    %e = kiln.exp %a : tensor<?xf32>
    %t = kiln.tanh %e : tensor<?xf32>
    %n = kiln.neg %t : tensor<?xf32>
    scf.yield %n : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// scf.while (a Python while loop, or a for loop with break) has no trip
// count and is never unrolled.
// CHECK-LABEL: func.func @while_loop
// CHECK: scf.while
// CHECK: kiln.cmp gt
// CHECK: scf.condition
// CHECK: kiln.sub
// CHECK-NOT: kiln.sub
// CHECK: scf.yield
func.func @while_loop(%n: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %r = scf.while (%a = %n) : (i64) -> i64 {
    %p = kiln.cmp gt, %a, %c1 : (i64, i64) -> i1
    scf.condition(%p) %a : i64
  } do {
  ^bb0(%a: i64):
    %d = kiln.sub %a, %c1 : (i64, i64) -> i64
    scf.yield %d : i64
  }
  return %r : i64
}

// -----

// Prints are unrolled like any op, and each copy keeps program order: the
// induction variable's values 0, 1, 2 appear as constants, each print of i
// before the multiply and the print of its result.
// CHECK-LABEL: func.func @prints_in_order
// CHECK-NOT: scf.for
// CHECK: %[[I0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: kiln.print "i = {}"(%[[I0]] : i64)
// CHECK-NEXT: %[[M0:.*]] = kiln.mul %arg0, %arg0
// CHECK-NEXT: kiln.print "x = {}"(%[[M0]] : tensor<3xf32>)
// CHECK-NEXT: %[[I1:.*]] = arith.constant 1 : i64
// CHECK-NEXT: kiln.print "i = {}"(%[[I1]] : i64)
// CHECK-NEXT: %[[M1:.*]] = kiln.mul %[[M0]], %[[M0]]
// CHECK-NEXT: kiln.print "x = {}"(%[[M1]] : tensor<3xf32>)
// CHECK-NEXT: %[[I2:.*]] = arith.constant 2 : i64
// CHECK-NEXT: kiln.print "i = {}"(%[[I2]] : i64)
// CHECK-NEXT: %[[M2:.*]] = kiln.mul %[[M1]], %[[M1]]
// CHECK-NEXT: kiln.print "x = {}"(%[[M2]] : tensor<3xf32>)
// CHECK-NEXT: return %[[M2]]
func.func @prints_in_order(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<3xf32>) {
    %i64 = arith.index_cast %i : index to i64
    kiln.print "i = {}"(%i64 : i64)
    %m = kiln.mul %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    kiln.print "x = {}"(%m : tensor<3xf32>)
    scf.yield %m : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// In a partly unrolled loop, copy k of the body sees i + k: here with a
// step of 2, the copies print i, i + 2, ..., i + 14 in that order, and the
// remainder loop prints its own i.
// CHECK-LABEL: func.func @prints_partly_unrolled
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK-NEXT: %[[I0:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK-NEXT: kiln.print "{}"(%[[I0]] : i64)
// CHECK-NEXT: %[[J1:.*]] = arith.addi %[[IV]], %c2 : index
// CHECK-NEXT: %[[I1:.*]] = arith.index_cast %[[J1]] : index to i64
// CHECK-NEXT: kiln.print "{}"(%[[I1]] : i64)
// CHECK: %[[J7:.*]] = arith.addi %[[IV]], %c14 : index
// CHECK-NEXT: %[[I7:.*]] = arith.index_cast %[[J7]] : index to i64
// CHECK-NEXT: kiln.print "{}"(%[[I7]] : i64)
// CHECK-NEXT: }
// CHECK: scf.for %[[JV:.*]] = %{{.*}} to %{{.*}} step %c2
// CHECK-NEXT: %[[K:.*]] = arith.index_cast %[[JV]] : index to i64
// CHECK-NEXT: kiln.print "{}"(%[[K]] : i64)
// CHECK-NEXT: }
func.func @prints_partly_unrolled(%n: i64) {
  %c0 = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  %lb = arith.index_cast %c0 : i64 to index
  %ub = arith.index_cast %n : i64 to index
  %step = arith.index_cast %c2 : i64 to index
  scf.for %i = %lb to %ub step %step {
    %i64 = arith.index_cast %i : index to i64
    kiln.print "{}"(%i64 : i64)
  }
  return
}

// -----

// Random draws are side effects too: every copy draws again, in order.
// CHECK-LABEL: func.func @random_draws
// CHECK-NOT: scf.for
// CHECK: %[[R0:.*]] = kiln.rand
// CHECK-NEXT: %[[S0:.*]] = kiln.add %arg1, %[[R0]]
// CHECK-NEXT: %[[R1:.*]] = kiln.rand
// CHECK-NEXT: %[[S1:.*]] = kiln.add %[[S0]], %[[R1]]
// CHECK-NEXT: %[[R2:.*]] = kiln.rand
// CHECK-NEXT: %[[S2:.*]] = kiln.add %[[S1]], %[[R2]]
// CHECK-NEXT: return %[[S2]]
func.func @random_draws(%n: i64, %x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) {
    %d = kiln.rand [%n] : tensor<?xf32>
    %s = kiln.add %a, %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %s : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A loop that runs once has no second copy to make and stays as it is.
// CHECK-LABEL: func.func @trip_1
// CHECK: scf.for
// CHECK-NEXT: kiln.mul
// CHECK-NEXT: scf.yield
func.func @trip_1(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) {
    %m = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %m : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Innermost first: the inner 4-trip loop becomes 4 multiplies, after which
// the outer loop's body is small too and the outer 3 trips are unrolled:
// 12 multiplies and no loop.
// CHECK-LABEL: func.func @nested_small
// CHECK-NOT: scf.for
// CHECK-COUNT-12: kiln.mul
// CHECK-NOT: kiln.mul
// CHECK: return
func.func @nested_small(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) {
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%b = %a) -> (tensor<?xf32>) {
      %m = kiln.mul %b, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      scf.yield %m : tensor<?xf32>
    }
    scf.yield %s : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// The outer loop is judged on its body after the inner loop was unrolled:
// 9 copies of a 4-op body are 36 ops, over the limit, so the outer loop
// stays, holding the unrolled inner body. Before unrolling the outer body
// had only 5 ops; judging outer loops first would have unrolled it instead.
// CHECK-LABEL: func.func @nested_outer_grows
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK-COUNT-36: kiln.
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @nested_outer_grows(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) {
    %s = scf.for %j = %c0 to %c9 step %c1 iter_args(%b = %a) -> (tensor<?xf32>) {
      %e = kiln.exp %b : tensor<?xf32>
      %t = kiln.tanh %e : tensor<?xf32>
      %n = kiln.neg %t : tensor<?xf32>
      %m = kiln.mul %n, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      scf.yield %m : tensor<?xf32>
    }
    scf.yield %s : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A loop over i64 instead of index is left alone: MLIR 19's unroller would
// offset its induction variable by index constants. The frontend's loops are
// all over index.
// CHECK-LABEL: func.func @integer_loop
// CHECK: scf.for
// CHECK-NEXT: kiln.print
// CHECK-NEXT: kiln.mul
// CHECK-NEXT: scf.yield
func.func @integer_loop(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : i64
  %c3 = arith.constant 3 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<?xf32>) : i64 {
    kiln.print "{}"(%i : i64)
    %m = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    scf.yield %m : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
