// RUN: kiln-opt %s --split-input-file --kiln-inline=max-loop-depth=2 | FileCheck %s

// A helper with one loop, called inside one loop: the nest stays at two
// loops, so the call is inlined.
// CHECK-LABEL: func.func @within
// CHECK-NOT: call @one_loop
// CHECK: scf.for
// CHECK: scf.for
// CHECK: kiln.exp
func.func private @one_loop(%a: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> tensor<3xf32> {
    %e = kiln.exp %x : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
func.func @within(%a: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> tensor<3xf32> {
    %y = func.call @one_loop(%x, %n) : (tensor<3xf32>, index) -> tensor<3xf32>
    scf.yield %y : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// Negative: two loops around the call and one inside the helper would nest
// three deep, past max-loop-depth: the call stays a call, and so does the
// helper. (In the pipeline the limit is CPython's 20, kiln::kMaxLoopDepth.)
// CHECK-LABEL: func.func private @one_loop
// CHECK: scf.for
// CHECK-LABEL: func.func @too_deep
// CHECK: scf.for
// CHECK: scf.for
// CHECK: func.call @one_loop
func.func private @one_loop(%a: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> tensor<3xf32> {
    %e = kiln.exp %x : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
func.func @too_deep(%a: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> tensor<3xf32> {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%z = %x) -> tensor<3xf32> {
      %y = func.call @one_loop(%z, %n) : (tensor<3xf32>, index) -> tensor<3xf32>
      scf.yield %y : tensor<3xf32>
    }
    scf.yield %s : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
