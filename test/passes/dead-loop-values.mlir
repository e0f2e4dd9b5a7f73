// RUN: kiln-opt %s --split-input-file --kiln-dead-loop-values | FileCheck %s

// A carried value whose final value is unused and which only feeds its own
// next iteration is removed, with the ops that computed it.
// CHECK-LABEL: func.func @dead_accumulator
// CHECK:      scf.for {{.*}} iter_args(%[[A:.*]] = %arg0) -> (tensor<3xf32>)
// CHECK-NEXT:   %[[M:.*]] = kiln.mul %[[A]], %[[A]]
// CHECK-NEXT:   scf.yield %[[M]] : tensor<3xf32>
// CHECK-NOT: kiln.add
func.func @dead_accumulator(%x: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %acc = %x) -> (tensor<3xf32>, tensor<3xf32>) {
    %m = kiln.mul %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %s = kiln.add %acc, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    scf.yield %m, %s : tensor<3xf32>, tensor<3xf32>
  }
  return %r#0 : tensor<3xf32>
}

// -----

// Two dead values that feed each other go together.
// CHECK-LABEL: func.func @dead_cycle
// CHECK:      scf.for {{.*}} -> (tensor<3xf32>)
// CHECK-NOT: kiln.sub
func.func @dead_cycle(%x: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %p = %x, %q = %x) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
    %m = kiln.exp %a : tensor<3xf32>
    %p2 = kiln.sub %q, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %q2 = kiln.sub %p, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    scf.yield %m, %p2, %q2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
  }
  return %r#0 : tensor<3xf32>
}

// -----

// Negative: a carried value that a print reads is needed, even though the
// loop's result for it is unused; the print keeps its place.
// CHECK-LABEL: func.func @printed_value_kept
// CHECK:      scf.for {{.*}} -> (tensor<3xf32>, tensor<3xf32>)
// CHECK:        kiln.add
// CHECK:        kiln.print "{}"
func.func @printed_value_kept(%x: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %acc = %x) -> (tensor<3xf32>, tensor<3xf32>) {
    %m = kiln.mul %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %s = kiln.add %acc, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    kiln.print "{}"(%s : tensor<3xf32>)
    scf.yield %m, %s : tensor<3xf32>, tensor<3xf32>
  }
  return %r#0 : tensor<3xf32>
}

// -----

// Negative: a dead value that feeds a live one is needed. Here `acc` is
// not returned but the returned `a` is computed from it.
// CHECK-LABEL: func.func @feeds_live_value
// CHECK: scf.for {{.*}} -> (tensor<3xf32>, tensor<3xf32>)
func.func @feeds_live_value(%x: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %acc = %x) -> (tensor<3xf32>, tensor<3xf32>) {
    %s = kiln.add %acc, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %m = kiln.mul %s, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    scf.yield %m, %s : tensor<3xf32>, tensor<3xf32>
  }
  return %r#0 : tensor<3xf32>
}

// -----

// Negative: a random draw in the loop is a side effect; even when its value
// is only carried and then dropped, the draw stays (the generator advances).
// CHECK-LABEL: func.func @random_draw_kept
// CHECK: kiln.randn
func.func @random_draw_kept(%x: tensor<3xf32>, %n: index, %k: i64) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %noise = %x) -> (tensor<3xf32>, tensor<3xf32>) {
    %m = kiln.mul %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %z = kiln.randn [%k] : tensor<3xf32>
    scf.yield %m, %z : tensor<3xf32>, tensor<3xf32>
  }
  return %r#0 : tensor<3xf32>
}
