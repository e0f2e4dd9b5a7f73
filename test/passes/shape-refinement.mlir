// RUN: kiln-opt %s --split-input-file --kiln-shape-refinement | FileCheck %s

// A helper inlined with a static argument: the frontend's merge cast goes,
// every op downstream becomes static, and the entry point still returns
// its declared tensor<?xf32> through a tensor.cast.
// CHECK-LABEL: func.func @inlined
// CHECK-SAME: -> tensor<?xf32>
// CHECK-NEXT: %[[E:.*]] = kiln.exp %arg0 : tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = kiln.add %[[E]], %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.cast %[[S]] : tensor<4xf32> to tensor<?xf32>
// CHECK-NEXT: return %[[C]] : tensor<?xf32>
func.func @inlined(%a: tensor<4xf32>) -> tensor<?xf32> attributes {kiln.entry} {
  %0 = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %1 = kiln.exp %0 : tensor<?xf32>
  %2 = kiln.add %1, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// A dim that is dynamic at run time (a function argument's) stays ?, while
// broadcasting against a static operand fills in the dims it can.
// CHECK-LABEL: func.func @truly_dynamic
// CHECK: kiln.add %arg0, %arg1 : (tensor<?x?xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK: kiln.tanh %{{.*}} : tensor<?x3xf32>
// CHECK: kiln.neg %arg0 : tensor<?x?xf32>
func.func @truly_dynamic(%x: tensor<?x?xf32>, %y: tensor<3xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = kiln.add %x, %y : (tensor<?x?xf32>, tensor<3xf32>) -> tensor<?x?xf32>
  %1 = kiln.tanh %0 : tensor<?x?xf32>
  %2 = kiln.neg %x : tensor<?x?xf32>
  return %1, %2 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// Sizes that are constants, or dims the pass has just made static, give
// static reshape, full, rand and randn results; -1 in a reshape is the
// element count over the other sizes. A negative size (a run-time error)
// and a size held in an argument stay ?.
// CHECK-LABEL: func.func @sizes
// CHECK: kiln.reshape %arg0[%{{.*}}, %{{.*}}] : tensor<6xf32> -> tensor<2x3xf32>
// CHECK: kiln.reshape %arg0[%{{.*}}, %{{.*}}] : tensor<6xf32> -> tensor<3x2xf32>
// CHECK: kiln.full %{{.*}}, [%{{.*}}, %{{.*}}] : f64 -> tensor<2x3xf32>
// CHECK: kiln.rand [%{{.*}}, %{{.*}}] : tensor<3x?xf32>
// CHECK: kiln.randn [%{{.*}}] : tensor<?xf32>
func.func @sizes(%x: tensor<6xf32>, %n: i64, %v: f64) {
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %m1 = arith.constant -1 : i64
  %m5 = arith.constant -5 : i64
  %0 = kiln.reshape %x[%c2, %c3] : tensor<6xf32> -> tensor<?x?xf32>
  %1 = kiln.reshape %x[%m1, %c2] : tensor<6xf32> -> tensor<?x?xf32>
  %d = kiln.dim %0, 1 : tensor<?x?xf32>
  %2 = kiln.full %v, [%c2, %d] : f64 -> tensor<?x?xf32>
  %3 = kiln.rand [%d, %n] : tensor<?x?xf32>
  %4 = kiln.randn [%m5] : tensor<?xf32>
  kiln.print "{} {} {} {}"(%1, %2, %3, %4 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>)
  return
}

// -----

// Slices with known bounds on a static dim clamp as Python does: [1:3],
// [-2:max] and [::2] of 5 elements; an unknown end leaves the dim ?, but
// the other dims still come from the input.
// CHECK-LABEL: func.func @slices
// CHECK: kiln.slice %{{.*}}[%{{.*}} : %{{.*}} : %{{.*}}] {dim = 0 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>
// CHECK: kiln.slice %{{.*}}[%{{.*}} : %{{.*}} : %{{.*}}] {dim = 0 : i64} : tensor<5x4xf32> -> tensor<2x4xf32>
// CHECK: kiln.slice %{{.*}}[%{{.*}} : %{{.*}} : %{{.*}}] {dim = 0 : i64} : tensor<5x4xf32> -> tensor<3x4xf32>
// CHECK: kiln.slice %{{.*}}[%{{.*}} : %arg1 : %{{.*}}] {dim = 0 : i64} : tensor<5x4xf32> -> tensor<?x4xf32>
func.func @slices(%a: tensor<5x4xf32>, %end: i64) {
  %x = tensor.cast %a : tensor<5x4xf32> to tensor<?x?xf32>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %m2 = arith.constant -2 : i64
  %max = arith.constant 9223372036854775807 : i64
  %0 = kiln.slice %x[%c1 : %c3 : %c1] {dim = 0 : i64} : tensor<?x?xf32> -> tensor<?x?xf32>
  %1 = kiln.slice %x[%m2 : %max : %c1] {dim = 0 : i64} : tensor<?x?xf32> -> tensor<?x?xf32>
  %2 = kiln.slice %x[%c0 : %max : %c2] {dim = 0 : i64} : tensor<?x?xf32> -> tensor<?x?xf32>
  %3 = kiln.slice %x[%c0 : %end : %c1] {dim = 0 : i64} : tensor<?x?xf32> -> tensor<?x?xf32>
  kiln.print "{} {} {} {}"(%0, %1, %2, %3 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
  return
}

// -----

// Shape ops, select, expand, matmul and reductions all follow their
// operands: -1 in expand keeps the input's dim, a new leading dim takes the
// constant size.
// CHECK-LABEL: func.func @shape_ops
// CHECK: kiln.select %{{.*}}[%{{.*}}] {dim = 0 : i64} : tensor<2x3x4xf32> -> tensor<3x4xf32>
// CHECK: kiln.transpose %{{.*}} {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<3x4xf32> -> tensor<4x3xf32>
// CHECK: kiln.unsqueeze %{{.*}} {dim = 0 : i64} : tensor<4x3xf32> -> tensor<1x4x3xf32>
// CHECK: kiln.expand %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x4x3xf32> -> tensor<5x4x3xf32>
// CHECK: kiln.permute %{{.*}} {dims = array<i64: 2, 0, 1>} : tensor<5x4x3xf32> -> tensor<3x5x4xf32>
// CHECK: kiln.matmul %{{.*}}, %{{.*}} : (tensor<3x5x4xf32>, tensor<4x3xf32>) -> tensor<3x5x3xf32>
// CHECK: kiln.sum %{{.*}} {dims = array<i64: 1>, keepdim = true} : tensor<3x5x3xf32> -> tensor<3x1x3xf32>
// CHECK: kiln.squeeze %{{.*}} {dim = 1 : i64} : tensor<3x1x3xf32> -> tensor<3x3xf32>
// CHECK: kiln.max_dim %{{.*}} {dim = 0 : i64, keepdim = false} : tensor<3x3xf32> -> (tensor<3xf32>, tensor<3xi64>)
func.func @shape_ops(%a: tensor<2x3x4xf32>, %i: i64) {
  %x = tensor.cast %a : tensor<2x3x4xf32> to tensor<?x?x?xf32>
  %c5 = arith.constant 5 : i64
  %m1 = arith.constant -1 : i64
  %0 = kiln.select %x[%i] {dim = 0 : i64} : tensor<?x?x?xf32> -> tensor<?x?xf32>
  %1 = kiln.transpose %0 {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<?x?xf32> -> tensor<?x?xf32>
  %2 = kiln.unsqueeze %1 {dim = 0 : i64} : tensor<?x?xf32> -> tensor<1x?x?xf32>
  %3 = kiln.expand %2[%c5, %m1, %m1] : tensor<1x?x?xf32> -> tensor<?x?x?xf32>
  %4 = kiln.permute %3 {dims = array<i64: 2, 0, 1>} : tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  %5 = kiln.matmul %4, %1 : (tensor<?x?x?xf32>, tensor<?x?xf32>) -> tensor<?x?x?xf32>
  %6 = kiln.sum %5 {dims = array<i64: 1>, keepdim = true} : tensor<?x?x?xf32> -> tensor<?x1x?xf32>
  %7 = kiln.squeeze %6 {dim = 1 : i64} : tensor<?x1x?xf32> -> tensor<?x?xf32>
  %8:2 = kiln.max_dim %7 {dim = 0 : i64, keepdim = false} : tensor<?x?xf32> -> (tensor<?xf32>, tensor<?xi64>)
  kiln.print "{} {}"(%8#0, %8#1 : tensor<?xf32>, tensor<?xi64>)
  return
}

// -----

// stack and cat of a list built in view: the list's length and the
// elements' (refined) shapes give the joined dim. The list keeps its
// element type, so each element gets a cast back to it.
// CHECK-LABEL: func.func @lists
// CHECK: %[[X:.*]] = tensor.cast %arg0 : tensor<2x3xf32> to tensor<?x?xf32>
// CHECK-NEXT: kiln.list_construct(%[[X]])
// CHECK: kiln.stack %{{.*}} {dim = 0 : i64} : !kiln.list<tensor<?x?xf32>> -> tensor<3x2x3xf32>
// CHECK-NEXT: kiln.cat %{{.*}} {dim = 1 : i64} : !kiln.list<tensor<?x?xf32>> -> tensor<2x9xf32>
func.func @lists(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<?x?x?xf32>, tensor<?x?xf32>) {
  %x = tensor.cast %a : tensor<2x3xf32> to tensor<?x?xf32>
  %y = tensor.cast %b : tensor<2x3xf32> to tensor<?x?xf32>
  %l0 = kiln.list_construct(%x) : (tensor<?x?xf32>) -> !kiln.list<tensor<?x?xf32>>
  %l1 = kiln.list_append %l0, %y : !kiln.list<tensor<?x?xf32>>, tensor<?x?xf32>
  %l2 = kiln.list_append %l1, %x : !kiln.list<tensor<?x?xf32>>, tensor<?x?xf32>
  %s = kiln.stack %l2 {dim = 0 : i64} : !kiln.list<tensor<?x?xf32>> -> tensor<?x?x?xf32>
  %c = kiln.cat %l2 {dim = 1 : i64} : !kiln.list<tensor<?x?xf32>> -> tensor<?x?xf32>
  return %s, %c : tensor<?x?x?xf32>, tensor<?x?xf32>
}

// -----

// An scf.if result keeps the dims both branches agree on (4 and 4), not
// those they disagree on (4 and 5); a branch that yields kiln.undef never
// reads the value, so the other branch decides and the undef is retyped.
// CHECK-LABEL: func.func @ifs
// CHECK: scf.if %arg0 -> (tensor<4xf32>, tensor<?xf32>, tensor<4xf32>)
// CHECK: %[[U:.*]] = kiln.undef : tensor<4xf32>
// CHECK: scf.yield %arg1, %{{.*}}, %[[U]] : tensor<4xf32>, tensor<?xf32>, tensor<4xf32>
// CHECK: } else {
// CHECK: scf.yield %arg2, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<?xf32>, tensor<4xf32>
// CHECK: kiln.neg %{{.*}}#0 : tensor<4xf32>
// CHECK: kiln.neg %{{.*}}#1 : tensor<?xf32>
// CHECK: kiln.neg %{{.*}}#2 : tensor<4xf32>
func.func @ifs(%cond: i1, %a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<5xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0:3 = scf.if %cond -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
    %x = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
    %u = kiln.undef : tensor<?xf32>
    scf.yield %x, %x, %u : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  } else {
    %y = tensor.cast %b : tensor<4xf32> to tensor<?xf32>
    %w = tensor.cast %c : tensor<5xf32> to tensor<?xf32>
    %e = kiln.exp %y : tensor<?xf32>
    scf.yield %y, %w, %e : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  }
  %1 = kiln.neg %0#0 : tensor<?xf32>
  %2 = kiln.neg %0#1 : tensor<?xf32>
  %3 = kiln.neg %0#2 : tensor<?xf32>
  return %1, %2, %3 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// -----

// A loop-carried value whose shape every iteration keeps is refined, body
// and result included. One that a cat grows each iteration stays ?, and so
// does everything in the body computed from it, although its init is
// static.
// CHECK-LABEL: func.func @loop_carried
// CHECK: %[[INIT:.*]] = tensor.cast %arg0 : tensor<4xf32> to tensor<?xf32>
// CHECK: scf.for {{.*}} iter_args(%[[H:.*]] = %arg0, %[[G:.*]] = %[[INIT]]) -> (tensor<4xf32>, tensor<?xf32>)
// CHECK: kiln.tanh %[[H]] : tensor<4xf32>
// CHECK: kiln.exp %[[G]] : tensor<?xf32>
// CHECK: kiln.cat %{{.*}} {dim = 0 : i64} : !kiln.list<tensor<?xf32>> -> tensor<?xf32>
// CHECK: scf.yield %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<?xf32>
// CHECK: %[[R:.*]] = tensor.cast %{{.*}}#0 : tensor<4xf32> to tensor<?xf32>
// CHECK: return %[[R]], %{{.*}}#1 : tensor<?xf32>, tensor<?xf32>
func.func @loop_carried(%a: tensor<4xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x, %g = %x) -> (tensor<?xf32>, tensor<?xf32>) {
    %t = kiln.tanh %h : tensor<?xf32>
    %s = kiln.add %t, %a : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
    %e = kiln.exp %g : tensor<?xf32>
    %l = kiln.list_construct(%e, %e) : (tensor<?xf32>, tensor<?xf32>) -> !kiln.list<tensor<?xf32>>
    %grown = kiln.cat %l {dim = 0 : i64} : !kiln.list<tensor<?xf32>> -> tensor<?xf32>
    scf.yield %s, %grown : tensor<?xf32>, tensor<?xf32>
  }
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// scf.while: the value carried through the condition and the body keeps
// its static init shape in both regions and in the result.
// CHECK-LABEL: func.func @while_loop
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %arg0) : (i64, tensor<4xf32>) -> (i64, tensor<4xf32>)
// CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : i64, tensor<4xf32>
// CHECK: ^bb0(%{{.*}}: i64, %[[K:.*]]: tensor<4xf32>):
// CHECK: kiln.sigmoid %[[K]] : tensor<4xf32>
// CHECK: scf.yield %{{.*}}, %{{.*}} : i64, tensor<4xf32>
// CHECK: tensor.cast %{{.*}}#1 : tensor<4xf32> to tensor<?xf32>
func.func @while_loop(%a: tensor<4xf32>, %n: i64) -> tensor<?xf32> {
  %x = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:2 = scf.while (%i = %c0, %h = %x) : (i64, tensor<?xf32>) -> (i64, tensor<?xf32>) {
    %lt = kiln.cmp lt, %i, %n : (i64, i64) -> i1
    scf.condition(%lt) %i, %h : i64, tensor<?xf32>
  } do {
  ^bb0(%j: i64, %k: tensor<?xf32>):
    %t = kiln.sigmoid %k : tensor<?xf32>
    %j1 = kiln.add %j, %c1 : (i64, i64) -> i64
    scf.yield %j1, %t : i64, tensor<?xf32>
  }
  return %r#1 : tensor<?xf32>
}

// -----

// Nested loops reach a fixed point together; select_scatter's result
// follows its input exactly.
// CHECK-LABEL: func.func @nested_loops
// CHECK: scf.for {{.*}} -> (tensor<2x3xf32>)
// CHECK: scf.for {{.*}} -> (tensor<2x3xf32>)
// CHECK: kiln.select_scatter %{{.*}}[%{{.*}}] = %arg2 {dim = 0 : i64} : tensor<3xf32> into tensor<2x3xf32>
// CHECK: kiln.mul %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @nested_loops(%a: tensor<2x3xf32>, %n: index, %v: tensor<3xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i0 = arith.constant 0 : i64
  %x = tensor.cast %a : tensor<2x3xf32> to tensor<?x?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<?x?xf32>) {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%k = %h) -> (tensor<?x?xf32>) {
      %vv = tensor.cast %v : tensor<3xf32> to tensor<?xf32>
      %u = kiln.select_scatter %k[%i0] = %vv {dim = 0 : i64} : tensor<?xf32> into tensor<?x?xf32>
      scf.yield %u : tensor<?x?xf32>
    }
    %m = kiln.mul %in, %h : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    scf.yield %m : tensor<?x?xf32>
  }
  return %r : tensor<?x?xf32>
}

// -----

// Operands that would contradict each other once refined (an add of 3 and
// 4 elements, which fails at run time if this branch is ever taken) are
// cast back, and the op keeps its types.
// CHECK-LABEL: func.func @contradiction
// CHECK: %[[X:.*]] = tensor.cast %arg1 : tensor<3xf32> to tensor<?xf32>
// CHECK: %[[Y:.*]] = tensor.cast %arg2 : tensor<4xf32> to tensor<?xf32>
// CHECK: kiln.add %[[X]], %[[Y]] : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK: kiln.exp %{{.*}} : tensor<?xf32>
func.func @contradiction(%c: i1, %a: tensor<3xf32>, %b: tensor<4xf32>) {
  %x = tensor.cast %a : tensor<3xf32> to tensor<?xf32>
  %y = tensor.cast %b : tensor<4xf32> to tensor<?xf32>
  scf.if %c {
    %s = kiln.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %t = kiln.exp %s : tensor<?xf32>
    kiln.print "{}"(%t : tensor<?xf32>)
  }
  return
}

// -----

// Signatures never change: a call gets its declared argument type through
// a cast, and so does a fusion group, which the pass leaves as it is; the
// callee keeps its ? types.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: (%arg0: tensor<?xf32>) -> tensor<?xf32>
// CHECK-LABEL: func.func @calls
// CHECK: %[[E:.*]] = kiln.exp %arg0 : tensor<4xf32>
// CHECK: %[[C:.*]] = tensor.cast %[[E]] : tensor<4xf32> to tensor<?xf32>
// CHECK: call @callee(%[[C]]) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK: %[[F:.*]] = tensor.cast %[[E]] : tensor<4xf32> to tensor<?xf32>
// CHECK: kiln.fusion_group(%[[F]]) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK: kiln.neg %{{.*}} : tensor<?xf32>
func.func private @callee(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func @calls(%a: tensor<4xf32>) -> tensor<?xf32> {
  %x = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %e = kiln.exp %x : tensor<?xf32>
  %r = func.call @callee(%e) : (tensor<?xf32>) -> tensor<?xf32>
  %f = kiln.fusion_group(%e) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%arg: tensor<?xf32>):
    %n = kiln.neg %arg : tensor<?xf32>
    kiln.yield %n : tensor<?xf32>
  }
  %s = kiln.add %r, %f : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}
