// RUN: kiln-opt %s --inline --symbol-dce --loop-invariant-code-motion | FileCheck %s

// Calls to helper functions made of kiln ops inline (the dialect has an
// inliner interface and kiln-opt registers func's), and the inlined print
// keeps its place.
// CHECK-LABEL: func.func @caller
// CHECK-NOT: call
// CHECK: kiln.exp
// CHECK-NEXT: kiln.print "{}"
// CHECK-NOT: func.func private @helper
func.func private @helper(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = kiln.exp %a : tensor<3xf32>
  kiln.print "{}"(%0 : tensor<3xf32>)
  return %0 : tensor<3xf32>
}
func.func @caller(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = func.call @helper(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// Pure kiln ops are hoisted out of loops; print stays inside.
// CHECK-LABEL: func.func @hoist
// CHECK: kiln.tanh
// CHECK: scf.for
// CHECK-NEXT: kiln.print
func.func @hoist(%a: tensor<3xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = kiln.tanh %a : tensor<3xf32>
    kiln.print "{}"(%t : tensor<3xf32>)
  }
  return
}
