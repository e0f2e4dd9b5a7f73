// RUN: kiln-opt %s --kiln-inline --symbol-dce --loop-invariant-code-motion | FileCheck %s

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

// A helper called from two places is inlined into both and then removed:
// once inlined, nothing refers to it. The public caller stays.
// CHECK-LABEL: func.func @two_calls
// CHECK-NOT: call
// CHECK: kiln.mul
// CHECK: kiln.mul
// CHECK-NOT: func.func private @square
func.func private @square(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @two_calls(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = func.call @square(%a) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = func.call @square(%0) : (tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// Negative: a public function is kept even when nothing calls it, since
// it is an entry point.
// CHECK-LABEL: func.func @unused_public
func.func @unused_public(%a: tensor<3xf32>) -> tensor<3xf32> {
  return %a : tensor<3xf32>
}
