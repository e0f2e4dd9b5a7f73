// RUN: kiln-opt %s --cse --canonicalize | FileCheck %s

// CSE and DCE are MLIR's own (cse, and the canonicalizer's removal of unused
// ops); kiln's side-effect traits are what make them correct here.
// print and assert write to the program's output, and rand/randn advance the
// random generator: CSE never merges two identical ones and DCE never removes
// an unused one. Pure ops are merged by CSE and removed when unused.

// Two identical prints both stay, in order.
// CHECK-LABEL: func.func @prints_kept
// CHECK: kiln.print "x = {}"
// CHECK-NEXT: kiln.print "x = {}"
func.func @prints_kept(%a: tensor<3xf32>) {
  kiln.print "x = {}"(%a : tensor<3xf32>)
  kiln.print "x = {}"(%a : tensor<3xf32>)
  return
}

// Two identical asserts both stay.
// CHECK-LABEL: func.func @asserts_kept
// CHECK: kiln.assert %{{.*}}, "boom"
// CHECK-NEXT: kiln.assert %{{.*}}, "boom"
func.func @asserts_kept(%c: i1) {
  kiln.assert %c, "boom"
  kiln.assert %c, "boom"
  return
}

// Two identical rand calls give two different tensors, and an unused randn
// still advances the generator.
// CHECK-LABEL: func.func @random_kept
// CHECK: %[[A:.*]] = kiln.rand [%{{.*}}] : tensor<?xf32>
// CHECK-NEXT: %[[B:.*]] = kiln.rand [%{{.*}}] : tensor<?xf32>
// CHECK-NEXT: kiln.randn
// CHECK-NEXT: kiln.add %[[A]], %[[B]]
func.func @random_kept(%n: i64) -> tensor<?xf32> {
  %a = kiln.rand [%n] : tensor<?xf32>
  %b = kiln.rand [%n] : tensor<?xf32>
  %unused = kiln.randn [%n] : tensor<?xf32>
  %s = kiln.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// Identical pure ops are merged into one, and unused ones disappear.
// CHECK-LABEL: func.func @pure_merged
// CHECK-NEXT: %[[E:.*]] = kiln.exp %arg0
// CHECK-NEXT: %[[M:.*]] = kiln.mul %[[E]], %[[E]]
// CHECK-NEXT: return %[[M]]
func.func @pure_merged(%a: tensor<3xf32>) -> tensor<3xf32> {
  %e1 = kiln.exp %a : tensor<3xf32>
  %e2 = kiln.exp %a : tensor<3xf32>
  %dead = kiln.tanh %a : tensor<3xf32>
  %dead2 = kiln.list_construct(%a) : (tensor<3xf32>) -> !kiln.list<tensor<3xf32>>
  %m = kiln.mul %e1, %e2 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %m : tensor<3xf32>
}

// kiln.dim of a static dim folds to an arith.constant; a dynamic one stays.
// CHECK-LABEL: func.func @dim_folds
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[D:.*]] = kiln.dim %arg0, 0 : tensor<?x4xf32>
// CHECK: return %[[D]], %[[C4]]
func.func @dim_folds(%a: tensor<?x4xf32>) -> (i64, i64) {
  %0 = kiln.dim %a, 0 : tensor<?x4xf32>
  %1 = kiln.dim %a, 1 : tensor<?x4xf32>
  return %0, %1 : i64, i64
}

// Identical tensor constants are merged (the add is not a constant: it
// reads an argument).
// CHECK-LABEL: func.func @constants_merged
// CHECK-NEXT: %[[C:.*]] = kiln.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[A:.*]] = kiln.add %[[C]], %arg0
// CHECK-NEXT: kiln.add %[[A]], %[[C]]
func.func @constants_merged(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = kiln.constant dense<1.0> : tensor<2xf32>
  %b = kiln.constant dense<1.0> : tensor<2xf32>
  %s = kiln.add %a, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t = kiln.add %s, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %t : tensor<2xf32>
}
