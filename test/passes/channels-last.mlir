// RUN: kiln-opt %s --split-input-file --kiln-channels-last | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-channels-last | kiln-opt --split-input-file | FileCheck %s

// A residual block: two convolutions with batch norm's per-channel scale
// and shift, relu, and the block's input added back. Everything between
// the convolutions computes channels last; the per-channel operands become
// [1, 1, 1, C]; the input is permuted once, for the first convolution and
// the residual add alike; only the result is permuted back.
// CHECK-LABEL: func.func @residual_block
// CHECK: %[[X:.*]] = kiln.permute %arg0 {dims = array<i64: 0, 2, 3, 1>} : tensor<?x16x8x8xf32> -> tensor<?x8x8x16xf32>
// CHECK: %[[C1:.*]] = kiln.conv2d %[[X]], %arg1 {channels_last, {{.*}}} : (tensor<?x8x8x16xf32>, tensor<16x16x3x3xf32>) -> tensor<?x8x8x16xf32>
// CHECK: %[[S:.*]] = kiln.unsqueeze %arg3 {dim = 0 : i64} : tensor<16x1x1xf32> -> tensor<1x16x1x1xf32>
// CHECK: %[[SL:.*]] = kiln.permute %[[S]] {dims = array<i64: 0, 2, 3, 1>} : tensor<1x16x1x1xf32> -> tensor<1x1x1x16xf32>
// CHECK: %[[M:.*]] = kiln.mul %[[C1]], %[[SL]] : (tensor<?x8x8x16xf32>, tensor<1x1x1x16xf32>) -> tensor<?x8x8x16xf32>
// CHECK: %[[R1:.*]] = kiln.relu %[[M]] : tensor<?x8x8x16xf32>
// CHECK: %[[C2:.*]] = kiln.conv2d %[[R1]], %arg2 {channels_last, {{.*}}} : (tensor<?x8x8x16xf32>, tensor<16x16x3x3xf32>) -> tensor<?x8x8x16xf32>
// CHECK: %[[A:.*]] = kiln.add %[[C2]], %[[X]] : (tensor<?x8x8x16xf32>, tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32>
// CHECK: %[[R2:.*]] = kiln.relu %[[A]] : tensor<?x8x8x16xf32>
// CHECK: %[[OUT:.*]] = kiln.permute %[[R2]] {dims = array<i64: 0, 3, 1, 2>} : tensor<?x8x8x16xf32> -> tensor<?x16x8x8xf32>
// CHECK: return %[[OUT]]
// CHECK-NOT: kiln.permute
func.func @residual_block(%x: tensor<?x16x8x8xf32>, %w1: tensor<16x16x3x3xf32>, %w2: tensor<16x16x3x3xf32>, %scale: tensor<16x1x1xf32>) -> tensor<?x16x8x8xf32> {
  %c1 = kiln.conv2d %x, %w1 {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<?x16x8x8xf32>
  %m = kiln.mul %c1, %scale : (tensor<?x16x8x8xf32>, tensor<16x1x1xf32>) -> tensor<?x16x8x8xf32>
  %r1 = kiln.relu %m : tensor<?x16x8x8xf32>
  %c2 = kiln.conv2d %r1, %w2 {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<?x16x8x8xf32>
  %a = kiln.add %c2, %x : (tensor<?x16x8x8xf32>, tensor<?x16x8x8xf32>) -> tensor<?x16x8x8xf32>
  %r2 = kiln.relu %a : tensor<?x16x8x8xf32>
  return %r2 : tensor<?x16x8x8xf32>
}

// -----

// Operands of every kind on the way: a Python number and a one-element
// tensor stay as they are, a [W] row becomes [1, 1, W, 1], a comparison
// and a where follow, and two convolutions' results meet in one add.
// CHECK-LABEL: func.func @operands
// CHECK: %[[X:.*]] = kiln.permute %arg0
// CHECK: %[[A:.*]] = kiln.conv2d %[[X]], %arg1 {channels_last
// CHECK-NOT: kiln.permute %arg0
// CHECK: %[[B:.*]] = kiln.conv2d %[[X]], %arg2 {channels_last
// CHECK: %[[S:.*]] = kiln.add %[[A]], %[[B]] : (tensor<2x4x4x32xf32>, tensor<2x4x4x32xf32>) -> tensor<2x4x4x32xf32>
// CHECK: %[[N:.*]] = kiln.mul %[[S]], %arg4 : (tensor<2x4x4x32xf32>, f64) -> tensor<2x4x4x32xf32>
// CHECK: %[[O:.*]] = kiln.mul %[[N]], %arg5 : (tensor<2x4x4x32xf32>, tensor<1xf32>) -> tensor<2x4x4x32xf32>
// CHECK: kiln.unsqueeze %arg3 {dim = 0 : i64} : tensor<4xf32> -> tensor<1x4xf32>
// CHECK: kiln.unsqueeze
// CHECK: kiln.unsqueeze
// CHECK: %[[R:.*]] = kiln.permute %{{.*}} {dims = array<i64: 0, 2, 3, 1>} : tensor<1x1x1x4xf32> -> tensor<1x1x4x1xf32>
// CHECK: %[[W:.*]] = kiln.mul %[[O]], %[[R]] : (tensor<2x4x4x32xf32>, tensor<1x1x4x1xf32>) -> tensor<2x4x4x32xf32>
// CHECK: %[[P:.*]] = kiln.cmp gt, %[[W]], %arg4 : (tensor<2x4x4x32xf32>, f64) -> tensor<2x4x4x32xi1>
// CHECK: %[[Y:.*]] = kiln.where %[[P]], %[[W]], %[[O]] : (tensor<2x4x4x32xi1>, tensor<2x4x4x32xf32>, tensor<2x4x4x32xf32>) -> tensor<2x4x4x32xf32>
// CHECK: kiln.permute %[[Y]] {dims = array<i64: 0, 3, 1, 2>} : tensor<2x4x4x32xf32> -> tensor<2x32x4x4xf32>
func.func @operands(%x: tensor<2x16x8x8xf32>, %w1: tensor<32x16x3x3xf32>, %w2: tensor<32x16x1x1xf32>, %row: tensor<4xf32>, %k: f64, %one: tensor<1xf32>) -> tensor<2x32x4x4xf32> {
  %a = kiln.conv2d %x, %w1 {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x16x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<2x32x4x4xf32>
  %b = kiln.conv2d %x, %w2 {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x16x8x8xf32>, tensor<32x16x1x1xf32>) -> tensor<2x32x4x4xf32>
  %s = kiln.add %a, %b : (tensor<2x32x4x4xf32>, tensor<2x32x4x4xf32>) -> tensor<2x32x4x4xf32>
  %n = kiln.mul %s, %k : (tensor<2x32x4x4xf32>, f64) -> tensor<2x32x4x4xf32>
  %o = kiln.mul %n, %one : (tensor<2x32x4x4xf32>, tensor<1xf32>) -> tensor<2x32x4x4xf32>
  %w = kiln.mul %o, %row : (tensor<2x32x4x4xf32>, tensor<4xf32>) -> tensor<2x32x4x4xf32>
  %p = kiln.cmp gt, %w, %k : (tensor<2x32x4x4xf32>, f64) -> tensor<2x32x4x4xi1>
  %y = kiln.where %p, %w, %o : (tensor<2x32x4x4xi1>, tensor<2x32x4x4xf32>, tensor<2x32x4x4xf32>) -> tensor<2x32x4x4xf32>
  return %y : tensor<2x32x4x4xf32>
}

// -----

// Where a permute would cost a transpose of its own, it stays put: a
// feature map that nothing else reads channels last, and a pooling. The
// permute back is then above the op, as the library's reorder was.
// CHECK-LABEL: func.func @stops
// CHECK: %[[C:.*]] = kiln.conv2d %{{.*}}, %arg1 {channels_last
// CHECK: %[[B:.*]] = kiln.permute %[[C]] {dims = array<i64: 0, 3, 1, 2>}
// CHECK-NOT: kiln.permute
// CHECK: kiln.mul %[[B]], %arg2 : (tensor<1x16x6x6xf32>, tensor<1x16x6x6xf32>)
// CHECK: kiln.max_pool2d %[[B]]
func.func @stops(%x: tensor<1x16x6x6xf32>, %w: tensor<16x16x1x1xf32>, %z: tensor<1x16x6x6xf32>) -> (tensor<1x16x6x6xf32>, tensor<1x16x3x3xf32>) {
  %c = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x6x6xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x6x6xf32>
  %m = kiln.mul %c, %z : (tensor<1x16x6x6xf32>, tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %p = kiln.max_pool2d %c {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<1x16x6x6xf32> -> tensor<1x16x3x3xf32>
  return %m, %p : tensor<1x16x6x6xf32>, tensor<1x16x3x3xf32>
}

// -----

// Convolutions the library does not compute channels last keep their
// layout: few input or output channels (an image's three; LeNet's six),
// groups, and other element types.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: kiln.permute
// CHECK-NOT: channels_last
// CHECK: return
func.func @kept(%img: tensor<1x3x8x8xf32>, %w3: tensor<16x3x3x3xf32>, %x: tensor<1x16x8x8xf32>, %w6: tensor<6x16x1x1xf32>, %wg: tensor<16x8x1x1xf32>, %xd: tensor<1x16x8x8xf64>, %wd: tensor<16x16x1x1xf64>) -> (tensor<1x16x6x6xf32>, tensor<1x6x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x16x8x8xf64>) {
  %a = kiln.conv2d %img, %w3 {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
  %b = kiln.conv2d %x, %w6 {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<6x16x1x1xf32>) -> tensor<1x6x8x8xf32>
  %c = kiln.conv2d %x, %wg {dilation = array<i64: 1, 1>, groups = 2 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x8x8xf32>
  %d = kiln.conv2d %xd, %wd {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x8x8xf64>, tensor<16x16x1x1xf64>) -> tensor<1x16x8x8xf64>
  return %a, %b, %c, %d : tensor<1x16x6x6xf32>, tensor<1x6x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x16x8x8xf64>
}
