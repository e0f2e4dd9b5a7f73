// RUN: kiln-opt %s | FileCheck %s

// The verifiers accept exactly the result types that PyTorch's type
// promotion gives (torch.result_type), including its three tiers:
// dimensioned tensors, 0-d tensors and Python scalars.

// CHECK-LABEL: func.func @promotion
func.func @promotion(%i32: tensor<3xi32>, %f: f64, %f64z: tensor<f64>, %b: tensor<3xi1>, %n: i64, %h: tensor<3xf16>, %bh: tensor<3xbf16>, %i32z: tensor<i32>, %d: tensor<?xf32>, %o: tensor<1xf32>, %c: i1) {
  // An int tensor with a Python float becomes the default dtype, f32.
  %0 = kiln.add %i32, %f : (tensor<3xi32>, f64) -> tensor<3xf32>
  // CHECK: kiln.add {{.*}} -> tensor<3xf32>
  // A 0-d f64 tensor of a higher category gives its own dtype.
  %1 = kiln.add %i32, %f64z : (tensor<3xi32>, tensor<f64>) -> tensor<3xf64>
  // CHECK: kiln.add {{.*}} -> tensor<3xf64>
  // A bool tensor with a Python int becomes i64.
  %2 = kiln.add %b, %n : (tensor<3xi1>, i64) -> tensor<3xi64>
  // CHECK: kiln.add {{.*}} -> tensor<3xi64>
  // f16 with bf16 promotes to f32.
  %3 = kiln.add %h, %bh : (tensor<3xf16>, tensor<3xbf16>) -> tensor<3xf32>
  // CHECK: kiln.add {{.*}} -> tensor<3xf32>
  // A Python int does not widen an i32 tensor.
  %4 = kiln.add %i32, %n : (tensor<3xi32>, i64) -> tensor<3xi32>
  // CHECK: kiln.add {{.*}} -> tensor<3xi32>
  // A 0-d i32 tensor with a Python float is f32.
  %5 = kiln.add %i32z, %f : (tensor<i32>, f64) -> tensor<f32>
  // CHECK: kiln.add {{.*}} -> tensor<f32>
  // ? broadcast with 1 stays ?.
  %6 = kiln.add %d, %o : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  // CHECK: kiln.add {{.*}} -> tensor<?xf32>
  // True + True is the int 2 in Python.
  %7 = kiln.add %c, %c : (i1, i1) -> i64
  // CHECK: kiln.add {{.*}} -> i64
  // True & True stays a bool.
  %8 = kiln.bitand %c, %c : (i1, i1) -> i1
  // CHECK: kiln.bitand {{.*}} -> i1
  // Dividing bool tensors gives f32.
  %9 = kiln.div %b, %b : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xf32>
  // CHECK: kiln.div {{.*}} -> tensor<3xf32>
  // A Python float does not widen an f16 tensor.
  %10 = kiln.add %h, %f : (tensor<3xf16>, f64) -> tensor<3xf16>
  // CHECK: kiln.add {{.*}} -> tensor<3xf16>
  // A 0-d f64 tensor does not widen an f16 tensor (same category).
  %11 = kiln.add %h, %f64z : (tensor<3xf16>, tensor<f64>) -> tensor<3xf16>
  // CHECK: kiln.add {{.*}} -> tensor<3xf16>
  return
}
