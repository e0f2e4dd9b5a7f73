// RUN: kiln-opt %s --split-input-file --kiln-library-epilogues | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: kiln-opt %s --split-input-file --kiln-library-epilogues=gpu | FileCheck %s --check-prefixes=CHECK,GPU
// RUN: kiln-opt %s --split-input-file --kiln-library-epilogues | kiln-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,CPU

// A Linear's bias add, the first op of a fusion group, moves into the
// library call with the activation after it where the target's library
// keeps NaN as PyTorch does: relu on the GPU (cuBLASLt), not on the CPU
// (oneDNN's relu makes NaN 0). The group keeps what is left, or goes.
// CHECK-LABEL: func.func @linear_relu
// CHECK: %[[WT:.*]] = kiln.transpose %arg1
// CPU: %[[MM:.*]] = kiln.matmul_epilogue %arg0, %[[WT]], %arg2 {activation = "none"}
// CPU: %[[G:.*]] = kiln.fusion_group(%[[MM]]) : (tensor<?x8xf32>) -> tensor<?x8xf32> {
// CPU: ^bb0(%[[X:.*]]: tensor<?x8xf32>):
// CPU:   kiln.relu %[[X]]
// CPU: return %[[G]]
// GPU: %[[MM:.*]] = kiln.matmul_epilogue %arg0, %[[WT]], %arg2 {activation = "relu"}
// GPU-NOT: kiln.fusion_group
// GPU: return %[[MM]]
func.func @linear_relu(%x: tensor<?x4xf32>, %w: tensor<8x4xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %wt = kiln.transpose %w {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<8x4xf32> -> tensor<4x8xf32>
  %mm = kiln.matmul %x, %wt : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
  %g = kiln.fusion_group(%mm, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32> {
  ^bb0(%m: tensor<?x8xf32>, %bias: tensor<8xf32>):
    %s = kiln.add %m, %bias : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
    %r = kiln.relu %s : tensor<?x8xf32>
    kiln.yield %r : tensor<?x8xf32>
  }
  return %g : tensor<?x8xf32>
}

// -----

// tanh is oneDNN's, not cuBLASLt's; the ops after it stay in the group.
// CHECK-LABEL: func.func @bias_first_tanh
// CPU: %[[MM:.*]] = kiln.matmul_epilogue %arg0, %arg1, %arg2 {activation = "tanh"}
// CPU: kiln.fusion_group(%[[MM]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CPU: kiln.neg
// GPU: %[[MM:.*]] = kiln.matmul_epilogue %arg0, %arg1, %arg2 {activation = "none"}
// GPU: kiln.fusion_group(%[[MM]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// GPU: kiln.tanh
// GPU: kiln.neg
func.func @bias_first_tanh(%x: tensor<2x5xf32>, %w: tensor<5x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %mm = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %g = kiln.fusion_group(%b, %mm) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> {
  ^bb0(%bias: tensor<3xf32>, %m: tensor<2x3xf32>):
    %s = kiln.add %bias, %m : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %t = kiln.tanh %s : tensor<2x3xf32>
    %n = kiln.neg %t : tensor<2x3xf32>
    kiln.yield %n : tensor<2x3xf32>
  }
  return %g : tensor<2x3xf32>
}

// -----

// SiLU as the prelude writes it, s * sigmoid(s), is oneDNN's swish: on the
// CPU the sigmoid and the multiply go into the call, in either operand
// order; cuBLASLt has no SiLU, so on the GPU they stay in the group.
// CHECK-LABEL: func.func @linear_silu
// CPU: %[[MM:.*]] = kiln.matmul_epilogue %arg0, %arg1, %arg2 {activation = "silu"}
// CPU-NOT: kiln.fusion_group
// CPU: return %[[MM]]
// GPU: %[[MM:.*]] = kiln.matmul_epilogue %arg0, %arg1, %arg2 {activation = "none"}
// GPU: kiln.fusion_group(%[[MM]])
// GPU: kiln.sigmoid
// GPU: kiln.mul
func.func @linear_silu(%x: tensor<2x5xf32>, %w: tensor<5x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %mm = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %g = kiln.fusion_group(%mm, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32> {
  ^bb0(%m: tensor<2x3xf32>, %bias: tensor<3xf32>):
    %s = kiln.add %m, %bias : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %sg = kiln.sigmoid %s : tensor<2x3xf32>
    %y = kiln.mul %sg, %s : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    kiln.yield %y : tensor<2x3xf32>
  }
  return %g : tensor<2x3xf32>
}

// -----

// Not SiLU: the sum is read a third time, or multiplied by the sigmoid of
// something else; only the bias goes into the call.
// CHECK-LABEL: func.func @not_silu
// CHECK: %[[M0:.*]] = kiln.matmul_epilogue {{.*}} {activation = "none"}
// CHECK: %[[G0:.*]] = kiln.sigmoid %[[M0]]
// CHECK: kiln.mul %[[M0]], %[[G0]]
// CHECK: kiln.exp %[[M0]]
// CHECK: %[[M1:.*]] = kiln.matmul_epilogue {{.*}} {activation = "none"}
// CHECK: %[[G1:.*]] = kiln.sigmoid %arg3
// CHECK: kiln.mul %[[M1]], %[[G1]]
func.func @not_silu(%x: tensor<2x5xf32>, %w: tensor<5x3xf32>, %b: tensor<3xf32>, %o: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %m0 = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %s0 = kiln.add %m0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %g0 = kiln.sigmoid %s0 : tensor<2x3xf32>
  %y0 = kiln.mul %s0, %g0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %e0 = kiln.exp %s0 : tensor<2x3xf32>
  %m1 = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %s1 = kiln.add %m1, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %g1 = kiln.sigmoid %o : tensor<2x3xf32>
  %y1 = kiln.mul %s1, %g1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y0, %e0, %y1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A bias add outside any group (-O2 leaves a lone op ungrouped).
// CHECK-LABEL: func.func @lone_add
// CHECK: %[[MM:.*]] = kiln.matmul_epilogue %arg0, %arg1, %arg2 {activation = "none"}
// CHECK-NEXT: return %[[MM]]
func.func @lone_add(%x: tensor<2x5xf32>, %w: tensor<5x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %mm = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %s = kiln.add %mm, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

// -----

// Left alone: a product read twice; a bias of one element (it broadcasts);
// a bias whose size is not known; an f64 product; a bias that is a full
// matrix.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: kiln.matmul_epilogue
// CHECK: return
func.func @left_alone(%x: tensor<2x5xf32>, %w: tensor<5x3xf32>, %b1: tensor<1xf32>, %bq: tensor<?xf32>, %xd: tensor<2x5xf64>, %wd: tensor<5x3xf64>, %bd: tensor<3xf64>, %bm: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf64>, tensor<2x3xf32>) {
  %m0 = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %s0 = kiln.add %m0, %m0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %m1 = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %s1 = kiln.add %m1, %b1 : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %m2 = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %s2 = kiln.add %m2, %bq : (tensor<2x3xf32>, tensor<?xf32>) -> tensor<2x3xf32>
  %m3 = kiln.matmul %xd, %wd : (tensor<2x5xf64>, tensor<5x3xf64>) -> tensor<2x3xf64>
  %s3 = kiln.add %m3, %bd : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  %m4 = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %s4 = kiln.add %m4, %bm : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %s0, %s1, %s2, %s3, %s4 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf64>, tensor<2x3xf32>
}

// -----

// A bias computed in the group itself stays there with its add.
// CHECK-LABEL: func.func @bias_computed_in_group
// CHECK: kiln.matmul %arg0, %arg1
// CHECK-NOT: kiln.matmul_epilogue
func.func @bias_computed_in_group(%x: tensor<2x5xf32>, %w: tensor<5x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %mm = kiln.matmul %x, %w : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %g = kiln.fusion_group(%mm, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32> {
  ^bb0(%m: tensor<2x3xf32>, %bias: tensor<3xf32>):
    %twice = kiln.add %bias, %bias : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %s = kiln.add %m, %twice : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    kiln.yield %s : tensor<2x3xf32>
  }
  return %g : tensor<2x3xf32>
}

// -----

// A group that also yields the sum: the call's result replaces that
// result, and the group keeps only what it computes.
// CHECK-LABEL: func.func @sum_also_yielded
// CPU: %[[MM:.*]] = kiln.matmul_epilogue %arg0, %arg1, %arg2 {activation = "none"}
// CPU: %[[G:.*]] = kiln.fusion_group(%[[MM]]) : (tensor<?x8xf32>) -> tensor<?x8xf32> {
// CPU: ^bb0(%[[X:.*]]: tensor<?x8xf32>):
// CPU:   %[[R:.*]] = kiln.relu %[[X]]
// CPU:   kiln.yield %[[R]] : tensor<?x8xf32>
// CPU: return %[[MM]], %[[G]]
func.func @sum_also_yielded(%x: tensor<?x4xf32>, %w: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %mm = kiln.matmul %x, %w : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
  %g:2 = kiln.fusion_group(%mm, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  ^bb0(%m: tensor<?x8xf32>, %bias: tensor<8xf32>):
    %s = kiln.add %m, %bias : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
    %r = kiln.relu %s : tensor<?x8xf32>
    kiln.yield %s, %r : tensor<?x8xf32>, tensor<?x8xf32>
  }
  return %g#0, %g#1 : tensor<?x8xf32>, tensor<?x8xf32>
}
