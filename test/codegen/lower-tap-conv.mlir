// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg | FileCheck %s

// An f32 convolution with fewer than 16 output channels, stride 1 and at
// most 27 taps (codegen/lowering/ConvolutionOps.cpp, isTapConvolution) is
// one elementwise linalg.generic over its output, a group of its own: each
// tap is the input slice holding that tap's element of every window (read
// across the output channels) and the weight's column for that tap (read
// across everything else), multiplied and added in tap order. Padding is
// a zero fill around the input; dilation spaces the slices' offsets.
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[TAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-NOT: kiln_rt_conv2d
// CHECK-LABEL: func.func private @first_layer
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x1x34x34xf32>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %arg0 into %[[FILL]][0, 0, 1, 1] [%{{.*}}, 1, 32, 32] [1, 1, 1, 1]
// CHECK: %[[X0:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [%{{.*}}, 1, 32, 30] [1, 1, 1, 1] : tensor<?x1x34x34xf32> to tensor<?x32x30xf32>
// CHECK: %[[W0:.*]] = tensor.extract_slice %arg1[0, 0, 0, 0] [6, 1, 1, 1] [1, 1, 1, 1] : tensor<6x1x3x3xf32> to tensor<6xf32>
// CHECK: %[[X1:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 0, 2] [%{{.*}}, 1, 32, 30] [1, 1, 1, 1]
// CHECK: %[[W1:.*]] = tensor.extract_slice %arg1[0, 0, 0, 1] [6, 1, 1, 1]
// CHECK: %[[X8:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 2, 4] [%{{.*}}, 1, 32, 30] [1, 1, 1, 1]
// CHECK: %[[W8:.*]] = tensor.extract_slice %arg1[0, 0, 2, 2] [6, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[WINDOW]], #[[TAP]], #[[WINDOW]], #[[TAP]], {{.*}}, #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[X0]], %[[W0]], %[[X1]], %[[W1]], {{.*}}, %[[X8]], %[[W8]] : {{.*}}) outs(%{{.*}} : tensor<?x6x32x30xf32>) attrs =  {kiln.group = -1 : i64}
// CHECK-NEXT: ^bb0(%[[A0:[a-z_0-9]+]]: f32, %[[B0:[a-z_0-9]+]]: f32, %[[A1:[a-z_0-9]+]]: f32, %[[B1:[a-z_0-9]+]]: f32,
// CHECK-NEXT:   %[[S0:.*]] = arith.mulf %[[A0]], %[[B0]] : f32
// CHECK-NEXT:   %[[S1:.*]] = math.fma %[[A1]], %[[B1]], %[[S0]] : f32
// CHECK-COUNT-7: math.fma
// CHECK-NEXT:   linalg.yield
func.func @first_layer(%x: tensor<?x1x32x32xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<?x6x32x30xf32> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 2>, groups = 1 : i64, padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x1x32x32xf32>, tensor<6x1x3x3xf32>) -> tensor<?x6x32x30xf32>
  return %0 : tensor<?x6x32x30xf32>
}

// -----

// 27 taps (three input channels, 3x3) and 15 output channels, the largest
// of both, are still generated; the input channel is the slices' second
// offset.
// CHECK-NOT: kiln_rt_conv2d
// CHECK-LABEL: func.func private @three_channels
// CHECK: tensor.extract_slice %arg0[0, 2, 2, 2] [2, 1, 6, 6] [1, 1, 1, 1] : tensor<2x3x8x8xf32> to tensor<2x6x6xf32>
// CHECK: tensor.extract_slice %arg1[0, 2, 2, 2] [15, 1, 1, 1] [1, 1, 1, 1] : tensor<15x3x3x3xf32> to tensor<15xf32>
// CHECK: linalg.generic
// CHECK-COUNT-26: math.fma
func.func @three_channels(%x: tensor<2x3x8x8xf32>, %w: tensor<15x3x3x3xf32>) -> tensor<2x15x6x6xf32> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x3x8x8xf32>, tensor<15x3x3x3xf32>) -> tensor<2x15x6x6xf32>
  return %0 : tensor<2x15x6x6xf32>
}

// -----

// The library keeps 16 output channels, a stride, 28 taps, groups and a
// weight whose channels are known only at run time.
// CHECK-LABEL: func.func private @sixteen_channels
// CHECK: call @kiln_rt_conv2d_f32
// CHECK-LABEL: func.func private @strided
// CHECK: call @kiln_rt_conv2d_f32
// CHECK-LABEL: func.func private @many_taps
// CHECK: call @kiln_rt_conv2d_f32
// CHECK-LABEL: func.func private @grouped
// CHECK: call @kiln_rt_conv2d_f32
// CHECK-LABEL: func.func private @dynamic_weight
// CHECK: call @kiln_rt_conv2d_f32
func.func @sixteen_channels(%x: tensor<2x1x8x8xf32>, %w: tensor<16x1x3x3xf32>) -> tensor<2x16x6x6xf32> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x1x8x8xf32>, tensor<16x1x3x3xf32>) -> tensor<2x16x6x6xf32>
  return %0 : tensor<2x16x6x6xf32>
}
func.func @strided(%x: tensor<2x1x8x8xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<2x6x6x3xf32> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 2>} : (tensor<2x1x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x6x3xf32>
  return %0 : tensor<2x6x6x3xf32>
}
func.func @many_taps(%x: tensor<2x4x8x8xf32>, %w: tensor<6x4x7x1xf32>) -> tensor<2x6x2x8xf32> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x4x8x8xf32>, tensor<6x4x7x1xf32>) -> tensor<2x6x2x8xf32>
  return %0 : tensor<2x6x2x8xf32>
}
func.func @grouped(%x: tensor<2x2x8x8xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<2x6x6x6xf32> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 2 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x2x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x6x6xf32>
  return %0 : tensor<2x6x6x6xf32>
}
func.func @dynamic_weight(%x: tensor<2x1x8x8xf32>, %w: tensor<?x1x3x3xf32>) -> tensor<2x?x6x6xf32> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x1x8x8xf32>, tensor<?x1x3x3xf32>) -> tensor<2x?x6x6xf32>
  return %0 : tensor<2x?x6x6xf32>
}
