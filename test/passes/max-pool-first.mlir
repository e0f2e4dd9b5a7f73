// RUN: kiln-opt %s --split-input-file --kiln-max-pool-first | FileCheck %s

// A convolution's per-channel bias and relu move after the max pool, which
// they commute with exactly, so they read the pooled tensor.
// CHECK-LABEL: func.func @conv_bias_relu_pool
// CHECK: %[[C:.*]] = kiln.conv2d %arg0, %arg1
// CHECK: %[[P:.*]] = kiln.max_pool2d %[[C]] {{.*}} : tensor<?x6x30x30xf32> -> tensor<?x6x15x15xf32>
// CHECK: %[[A:.*]] = kiln.add %[[P]], %arg2 : (tensor<?x6x15x15xf32>, tensor<6x1x1xf32>) -> tensor<?x6x15x15xf32>
// CHECK: %[[R:.*]] = kiln.relu %[[A]] : tensor<?x6x15x15xf32>
// CHECK: return %[[R]]
func.func @conv_bias_relu_pool(%x: tensor<?x1x32x32xf32>, %w: tensor<6x1x3x3xf32>, %b: tensor<6x1x1xf32>) -> tensor<?x6x15x15xf32> {
  %c = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x1x32x32xf32>, tensor<6x1x3x3xf32>) -> tensor<?x6x30x30xf32>
  %a = kiln.add %c, %b : (tensor<?x6x30x30xf32>, tensor<6x1x1xf32>) -> tensor<?x6x30x30xf32>
  %r = kiln.relu %a : tensor<?x6x30x30xf32>
  %p = kiln.max_pool2d %r {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<?x6x30x30xf32> -> tensor<?x6x15x15xf32>
  return %p : tensor<?x6x15x15xf32>
}

// -----

// A relu alone, on an argument, and a Python number added first.
// CHECK-LABEL: func.func @relu_alone
// CHECK: %[[P:.*]] = kiln.max_pool2d %arg0
// CHECK: kiln.relu %[[P]]
// CHECK-LABEL: func.func @number_first
// CHECK: %[[P:.*]] = kiln.max_pool2d %arg0
// CHECK: kiln.add %arg1, %[[P]] : (f64, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
func.func @relu_alone(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %r = kiln.relu %x : tensor<1x2x4x4xf32>
  %p = kiln.max_pool2d %r {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}
func.func @number_first(%x: tensor<1x2x4x4xf32>, %s: f64) -> tensor<1x2x2x2xf32> {
  %a = kiln.add %s, %x : (f64, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = kiln.max_pool2d %a {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}

// -----

// Left alone: a bias that varies within a window; a relu read elsewhere
// too; a chain that starts at an elementwise op (batch norm's scale would
// stay a pass of its own).
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: kiln.max_pool2d %{{[0-9]+}}
func.func @left_alone(%x: tensor<1x2x4x4xf32>, %v: tensor<4xf32>, %s: tensor<2x1x1xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>) {
  %a = kiln.add %x, %v : (tensor<1x2x4x4xf32>, tensor<4xf32>) -> tensor<1x2x4x4xf32>
  %p0 = kiln.max_pool2d %a {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  %r = kiln.relu %x : tensor<1x2x4x4xf32>
  %p1 = kiln.max_pool2d %r {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  %m = kiln.mul %x, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r2 = kiln.relu %m : tensor<1x2x4x4xf32>
  %p2 = kiln.max_pool2d %r2 {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  return %p0, %p1, %r, %p2 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>
}
