// RUN: kiln-opt %s --split-input-file --kiln-fusion | FileCheck %s

// A chain of elementwise ops, with a broadcast operand and a Python scalar,
// becomes one group. The group reads the chain's three outside values and
// gives back only the value used after it.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[G:.*]] = kiln.fusion_group(%arg0, %arg1, %arg2) : (tensor<4x8xf32>, tensor<8xf32>, f64) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>, %[[S:.*]]: f64):
// CHECK-NEXT:   %[[A:.*]] = kiln.add %[[X]], %[[B]]
// CHECK-NEXT:   %[[M:.*]] = kiln.mul %[[A]], %[[S]]
// CHECK-NEXT:   %[[T:.*]] = kiln.tanh %[[M]]
// CHECK-NEXT:   kiln.yield %[[T]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[G]]
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %s: f64) -> tensor<4x8xf32> {
  %a = kiln.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %m = kiln.mul %a, %s : (tensor<4x8xf32>, f64) -> tensor<4x8xf32>
  %t = kiln.tanh %m : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// A value used both inside and after the group is a second result of the
// group, computed once: it is not recomputed outside.
// CHECK-LABEL: func.func @escaping_value
// CHECK-NEXT: %[[G:.*]]:2 = kiln.fusion_group(%arg0) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
// CHECK:        %[[E:.*]] = kiln.exp
// CHECK-NEXT:   %[[N:.*]] = kiln.neg %[[E]]
// CHECK-NEXT:   kiln.yield %[[E]], %[[N]]
// CHECK-NOT: kiln.exp
// CHECK: kiln.print "{} {}"(%[[G]]#0, %[[G]]#1
func.func @escaping_value(%x: tensor<?xf32>) {
  %e = kiln.exp %x : tensor<?xf32>
  %n = kiln.neg %e : tensor<?xf32>
  kiln.print "{} {}"(%e, %n : tensor<?xf32>, tensor<?xf32>)
  return
}

// -----

// Negative: fusion never crosses a print. The ops before it form one group
// and the ops after it another, and the print stays between them.
// CHECK-LABEL: func.func @print_splits
// CHECK:      kiln.fusion_group
// CHECK:        kiln.mul
// CHECK-NEXT:   kiln.add
// CHECK:      kiln.print "a"
// CHECK-NEXT: kiln.fusion_group
// CHECK:        kiln.tanh
// CHECK-NEXT:   kiln.exp
func.func @print_splits(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = kiln.mul %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %b = kiln.add %a, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  kiln.print "a"
  %c = kiln.tanh %b : tensor<3xf32>
  %d = kiln.exp %c : tensor<3xf32>
  return %d : tensor<3xf32>
}

// -----

// Negative: an op inside an scf.if is never grouped with ops outside it.
// Each side has only one elementwise op, so nothing is grouped at all.
// CHECK-LABEL: func.func @control_flow_boundary
// CHECK-NOT: kiln.fusion_group
func.func @control_flow_boundary(%c: i1, %x: tensor<3xf32>) -> tensor<3xf32> {
  %a = kiln.exp %x : tensor<3xf32>
  %r = scf.if %c -> tensor<3xf32> {
    %b = kiln.neg %a : tensor<3xf32>
    scf.yield %b : tensor<3xf32>
  } else {
    scf.yield %a : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// Negative: grouping `a` with `r` would put the matmul, which needs `a` and
// is needed by `r`, both before and after the group. The group would be a
// cycle, so `r` is not merged with `a`.
// CHECK-LABEL: func.func @not_convex
// CHECK-NOT: kiln.fusion_group
func.func @not_convex(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = kiln.exp %x : tensor<4x4xf32>
  %m = kiln.matmul %a, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = kiln.mul %a, %m : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Around a matmul, the chains on either side form their own groups; the
// second one reads the first group's result through the matmul.
// CHECK-LABEL: func.func @around_matmul
// CHECK:      %[[G1:.*]] = kiln.fusion_group(%arg0)
// CHECK:      %[[M:.*]] = kiln.matmul %[[G1]], %arg1
// CHECK-NEXT: kiln.fusion_group(%[[M]], %arg2)
func.func @around_matmul(%x: tensor<2x4xf32>, %w: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %a = kiln.neg %x : tensor<2x4xf32>
  %e = kiln.exp %a : tensor<2x4xf32>
  %m = kiln.matmul %e, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %s = kiln.add %m, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r = kiln.relu %s : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// A reduction that consumes the chain, when nothing else reads the chain,
// ends the group: the group's only result is the sum.
// CHECK-LABEL: func.func @trailing_reduction
// CHECK-NEXT: %[[G:.*]] = kiln.fusion_group(%arg0, %arg1) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?xf32>
// CHECK:        kiln.sub
// CHECK-NEXT:   kiln.mul
// CHECK-NEXT:   %[[S:.*]] = kiln.sum
// CHECK-NEXT:   kiln.yield %[[S]] : tensor<?xf32>
func.func @trailing_reduction(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> tensor<?xf32> {
  %d = kiln.sub %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %sq = kiln.mul %d, %d : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %s = kiln.sum %sq {dims = array<i64: 1>, keepdim = false} : tensor<?x8xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// -----

// Negative: the chain is also returned, so it is written to memory anyway;
// the reduction stays outside the group.
// CHECK-LABEL: func.func @reduction_of_escaping_chain
// CHECK:      %[[G:.*]] = kiln.fusion_group
// CHECK-NOT:    kiln.sum
// CHECK:      kiln.yield
// CHECK:      kiln.sum %[[G]]
func.func @reduction_of_escaping_chain(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>) {
  %a = kiln.neg %x : tensor<8xf32>
  %t = kiln.tanh %a : tensor<8xf32>
  %s = kiln.sum %t {dims = array<i64>, keepdim = false} : tensor<8xf32> -> tensor<f32>
  return %t, %s : tensor<8xf32>, tensor<f32>
}

// -----

// A normalization: the chain's other readers also read its reduction
// (softmax's exp(x - max) / sum), so the reduction keeps the group open and
// they join it: one group, max to division, whose only result is the
// output. Codegen then computes it over one tile of rows.
// CHECK-LABEL: func.func @normalization
// CHECK-NEXT: %[[G:.*]] = kiln.fusion_group(%arg0) : (tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK:        kiln.amax
// CHECK-NEXT:   kiln.sub
// CHECK-NEXT:   kiln.exp
// CHECK-NEXT:   kiln.sum
// CHECK-NEXT:   %[[D:.*]] = kiln.div
// CHECK-NEXT:   kiln.yield %[[D]] : tensor<?x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[G]]
func.func @normalization(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %m = kiln.amax %x {dims = array<i64: 1>, keepdim = true} : tensor<?x8xf32> -> tensor<?x1xf32>
  %d = kiln.sub %x, %m : (tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x8xf32>
  %e = kiln.exp %d : tensor<?x8xf32>
  %s = kiln.sum %e {dims = array<i64: 1>, keepdim = true} : tensor<?x8xf32> -> tensor<?x1xf32>
  %y = kiln.div %e, %s : (tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

// Negative: a normalization over rows of dynamic length stays two groups:
// codegen could not keep a row of the exp on a tile's stack.
// CHECK-LABEL: func.func @dynamic_row_normalization
// CHECK:      %[[E:.*]] = kiln.fusion_group(%arg0)
// CHECK-NOT:    kiln.sum
// CHECK:        kiln.exp
// CHECK:      kiln.fusion_group(%[[E]])
// CHECK:        kiln.sum
// CHECK:        kiln.div
func.func @dynamic_row_normalization(%x: tensor<8x?xf32>) -> tensor<8x?xf32> {
  %m = kiln.amax %x {dims = array<i64: 1>, keepdim = true} : tensor<8x?xf32> -> tensor<8x1xf32>
  %d = kiln.sub %x, %m : (tensor<8x?xf32>, tensor<8x1xf32>) -> tensor<8x?xf32>
  %e = kiln.exp %d : tensor<8x?xf32>
  %s = kiln.sum %e {dims = array<i64: 1>, keepdim = true} : tensor<8x?xf32> -> tensor<8x1xf32>
  %y = kiln.div %e, %s : (tensor<8x?xf32>, tensor<8x1xf32>) -> tensor<8x?xf32>
  return %y : tensor<8x?xf32>
}

// -----

// Negative: the chain's other reader does not read the reduction, so the
// chain is written to memory anyway and the reduction stays out of its
// group (the reader joins the chain's group instead).
// CHECK-LABEL: func.func @reader_independent_of_reduction
// CHECK:      %[[G:.*]]:2 = kiln.fusion_group(%arg0)
// CHECK-NOT:    kiln.sum
// CHECK:      kiln.yield
// CHECK:      kiln.sum %[[G]]#0
func.func @reader_independent_of_reduction(%x: tensor<8xf32>) -> (tensor<f32>, tensor<8xf32>) {
  %e = kiln.exp %x : tensor<8xf32>
  %s = kiln.sum %e {dims = array<i64>, keepdim = false} : tensor<8xf32> -> tensor<f32>
  %y = kiln.neg %e : tensor<8xf32>
  return %s, %y : tensor<f32>, tensor<8xf32>
}

// -----

// Negative: var needs two passes over its input, and rand draws from the
// generator (a side effect), so neither joins a group; two ops that are not
// connected do not make a group either.
// CHECK-LABEL: func.func @not_fusible
// CHECK-NOT: kiln.fusion_group
func.func @not_fusible(%x: tensor<8xf32>, %n: i64) -> (tensor<f32>, tensor<?xf32>, tensor<8xf32>) {
  %a = kiln.exp %x : tensor<8xf32>
  %v = kiln.var %a {correction = 1 : i64, dims = array<i64>, keepdim = false} : tensor<8xf32> -> tensor<f32>
  %r = kiln.rand [%n] : tensor<?xf32>
  %e = kiln.exp %r : tensor<?xf32>
  %c = kiln.cos %x : tensor<8xf32>
  return %v, %e, %c : tensor<f32>, tensor<?xf32>, tensor<8xf32>
}

// -----

// Groups form inside loop bodies too, and a value that is both carried and
// used by the group goes in as an input.
// CHECK-LABEL: func.func @inside_loop
// CHECK: scf.for
// CHECK:   kiln.fusion_group(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK:     kiln.mul
// CHECK-NEXT: kiln.sin
func.func @inside_loop(%x: tensor<3xf32>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<3xf32>) {
    %m = kiln.mul %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %s = kiln.sin %m : tensor<3xf32>
    scf.yield %s : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// Two groups must never need each other. %b needs %a2 through dim/full,
// which are not fusible, so it starts a group {%w, %b}; %e then must not
// join {%a, %a2}, although no op-level path leaves and re-enters that set:
// the group of %w runs after %b, which needs %a2. A group counts as one
// node when convexity is checked, also when it starts before the set (%w).
// (Found as invalid IR from F.cross_entropy with weights and smoothing.)
// CHECK-LABEL: func.func @groups_never_need_each_other
// CHECK:      %[[A:.*]] = kiln.fusion_group(%arg0) : (tensor<?xf32>) -> tensor<?xf32> {
// CHECK:        kiln.exp
// CHECK-NEXT:   kiln.neg
// CHECK-NEXT:   kiln.yield
// CHECK:      %[[D:.*]] = kiln.dim %[[A]], 0
// CHECK-NEXT: %[[Z:.*]] = kiln.full %{{.*}}, [%[[D]]]
// CHECK-NEXT: %[[B:.*]]:2 = kiln.fusion_group(%arg1, %arg2, %[[Z]], %[[A]])
// CHECK:        kiln.mul
// CHECK-NEXT:   kiln.where
// CHECK-NEXT:   kiln.mul
// CHECK:      return %[[B]]#0, %[[B]]#1
func.func @groups_never_need_each_other(%x: tensor<?xf32>, %y: tensor<?xf32>, %c: tensor<?xi1>) -> (tensor<?xf32>, tensor<?xf32>) {
  %cst = arith.constant 0.0 : f64
  %w = kiln.mul %y, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %a = kiln.exp %x : tensor<?xf32>
  %a2 = kiln.neg %a : tensor<?xf32>
  %d = kiln.dim %a2, 0 : tensor<?xf32>
  %z = kiln.full %cst, [%d] : f64 -> tensor<?xf32>
  %b = kiln.where %c, %w, %z : (tensor<?xi1>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %e = kiln.mul %a2, %w : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %b, %e : tensor<?xf32>, tensor<?xf32>
}
