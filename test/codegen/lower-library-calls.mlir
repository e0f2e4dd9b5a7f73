// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg | FileCheck %s

// f32 matmul calls the kernel library: the operands are passed as read-only
// views with any strides (no copies), the output is a fresh buffer the
// library writes, handed back to bufferization as a restrict, writable
// tensor. The library reports its own errors; the call's site only gives
// the location, so its message is empty.
// CHECK: kiln.sites = [{col = {{[0-9]+}} : i64, file = "{{.*}}", line = {{[0-9]+}} : i64, message = ""}]
// CHECK: func.func private @kiln_rt_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func private @matmul_2d
// CHECK: %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[A:.*]] = bufferization.to_memref %arg0 read_only : memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[AU:.*]] = memref.cast %[[A]] : memref<?x4xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
// CHECK: %[[B:.*]] = bufferization.to_memref %arg1 read_only : memref<4x5xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[BU:.*]] = memref.cast %[[B]]
// CHECK: %[[OUT:.*]] = memref.alloc(%[[M]]) : memref<?x5xf32>
// CHECK: %[[OU:.*]] = memref.cast %[[OUT]] : memref<?x5xf32> to memref<*xf32>
// CHECK: call @kiln_rt_matmul_f32(%[[AU]], %[[BU]], %[[OU]], %c0_i64)
// CHECK: %[[R:.*]] = bufferization.to_tensor %[[OUT]] restrict writable : memref<?x5xf32>
// CHECK: return %[[R]]
func.func @matmul_2d(%a: tensor<?x4xf32>, %b: tensor<4x5xf32>) -> tensor<?x5xf32> {
  %0 = kiln.matmul %a, %b : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// Contracted sizes that are only known at run time are still checked in the
// generated code, with PyTorch's message, before the call.
// CHECK: message = "mat1 and mat2 shapes cannot be multiplied (3x{0} and {1}x2)"
// CHECK-LABEL: func.func private @matmul_checked
// CHECK: %[[K1:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[K2:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[K1]], %[[K2]] : index
// CHECK: scf.if %[[NE]] {
// CHECK:   func.call @kiln_rt_raise
// CHECK: call @kiln_rt_matmul_f32
func.func @matmul_checked(%a: tensor<3x?xf32>, %b: tensor<?x2xf32>) -> tensor<3x2xf32> {
  %0 = kiln.matmul %a, %b : (tensor<3x?xf32>, tensor<?x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// 1-D times 1-D: the library sees a 1 x K row times a K x 1 column (views
// that add a unit dim) into a 1 x 1 buffer, which collapses to a 0-d result.
// CHECK: message = "inconsistent tensor size, expected tensor [{0}] and src [{1}] to have the same number of elements, but got {0} and {1} elements respectively"
// CHECK-LABEL: func.func private @dot
// CHECK: func.call @kiln_rt_raise
// CHECK: %[[ROW:.*]] = tensor.expand_shape %arg0 {{\[}}[0, 1]] output_shape [1, %{{.*}}] : tensor<?xf32> into tensor<1x?xf32>
// CHECK: bufferization.to_memref %[[ROW]] read_only
// CHECK: %[[COL:.*]] = tensor.expand_shape %arg1 {{\[}}[0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK: bufferization.to_memref %[[COL]] read_only
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<1x1xf32>
// CHECK: call @kiln_rt_matmul_f32
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[OUT]] restrict writable : memref<1x1xf32>
// CHECK: tensor.collapse_shape %[[T]] [] : tensor<1x1xf32> into tensor<f32>
func.func @dot(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<f32> {
  %0 = kiln.matmul %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A batched matrix times a vector: the vector becomes a 1 x K x 1 view (a
// leading unit batch dim the library broadcasts, and a unit column), and
// the unit column is dropped from the batch x M x 1 result.
// CHECK-LABEL: func.func private @matvec_batched
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: bufferization.to_memref %arg0 read_only : memref<?x3x4xf32, strided<[?, ?, ?], offset: ?>>
// CHECK: %[[V:.*]] = tensor.expand_shape %arg1 {{\[}}[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xf32> into tensor<1x4x1xf32>
// CHECK: bufferization.to_memref %[[V]] read_only
// CHECK: %[[OUT:.*]] = memref.alloc(%[[B]]) : memref<?x3x1xf32>
// CHECK: call @kiln_rt_matmul_f32
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[OUT]]
// CHECK: tensor.collapse_shape %[[T]] {{\[}}[0], [1, 2]] : tensor<?x3x1xf32> into tensor<?x3xf32>
func.func @matvec_batched(%m: tensor<?x3x4xf32>, %v: tensor<4xf32>) -> tensor<?x3xf32> {
  %0 = kiln.matmul %m, %v : (tensor<?x3x4xf32>, tensor<4xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Batch dims that broadcast (a static 1, and a missing dim that becomes a
// leading 1) reach the library as they are: no operand is expanded into a
// copy, only the output has the broadcast batch shape.
// CHECK-LABEL: func.func private @broadcast_batch
// CHECK-NOT: linalg.generic
// CHECK: bufferization.to_memref %arg0 read_only : memref<2x1x3x4xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK: %[[B:.*]] = tensor.expand_shape %arg1 {{\[}}[0, 1], [2], [3]] output_shape [1, 6, 4, 5] : tensor<6x4x5xf32> into tensor<1x6x4x5xf32>
// CHECK: bufferization.to_memref %[[B]] read_only : memref<1x6x4x5xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK: memref.alloc() : memref<2x6x3x5xf32>
// CHECK-NOT: linalg.generic
// CHECK: call @kiln_rt_matmul_f32
func.func @broadcast_batch(%a: tensor<2x1x3x4xf32>, %b: tensor<6x4x5xf32>) -> tensor<2x6x3x5xf32> {
  %0 = kiln.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<6x4x5xf32>) -> tensor<2x6x3x5xf32>
  return %0 : tensor<2x6x3x5xf32>
}

// -----

// Two `?` batch dims are assumed equal and checked, as elementwise
// broadcasting does; the output takes the rhs's size.
// CHECK: message = "the size of tensor a ({0}) must match the size of tensor b ({1}) at non-singleton dimension 0"
// CHECK-LABEL: func.func private @bmm_dynamic
// CHECK: %[[BA:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[BB:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[BA]], %[[BB]] : index
// CHECK: scf.if %[[NE]] {
// CHECK: memref.alloc(%[[BB]]) : memref<?x3x5xf32>
// CHECK: call @kiln_rt_matmul_f32
func.func @bmm_dynamic(%a: tensor<?x3x4xf32>, %b: tensor<?x4x5xf32>) -> tensor<?x3x5xf32> {
  %0 = kiln.matmul %a, %b : (tensor<?x3x4xf32>, tensor<?x4x5xf32>) -> tensor<?x3x5xf32>
  return %0 : tensor<?x3x5xf32>
}

// -----

// F.linear's x @ w.t(): the library reads w through a transposed view
// (memref.transpose swaps the strides), and the transpose's copy, which
// nothing reads any more, is erased.
// CHECK-LABEL: func.func private @linear
// CHECK-NOT: linalg.transpose
// CHECK: %[[W:.*]] = bufferization.to_memref %arg1 read_only : memref<5x4xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[WT:.*]] = memref.transpose %[[W]] (d0, d1) -> (d1, d0) : memref<5x4xf32, strided<[?, ?], offset: ?>> to memref<4x5xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[WU:.*]] = memref.cast %[[WT]] : memref<4x5xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
// CHECK: call @kiln_rt_matmul_f32(%{{.*}}, %[[WU]], %{{.*}}, %{{.*}})
// CHECK-NOT: linalg.transpose
func.func @linear(%x: tensor<?x4xf32>, %w: tensor<5x4xf32>) -> tensor<?x5xf32> {
  %t = kiln.transpose %w {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<5x4xf32> -> tensor<4x5xf32>
  %0 = kiln.matmul %x, %t : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// A transposed weight under a batched input: the leading unit batch dim is
// added to w first (a view), and the permutation of the view swaps the
// last two dims.
// CHECK-LABEL: func.func private @linear_batched
// CHECK: %[[W:.*]] = tensor.expand_shape %arg1 {{\[}}[0, 1], [2]] output_shape [1, 5, 4] : tensor<5x4xf32> into tensor<1x5x4xf32>
// CHECK: %[[WM:.*]] = bufferization.to_memref %[[W]] read_only
// CHECK: memref.transpose %[[WM]] (d0, d1, d2) -> (d0, d2, d1) : memref<1x5x4xf32, strided<[?, ?, ?], offset: ?>> to memref<1x4x5xf32, strided<[?, ?, ?], offset: ?>>
// CHECK: memref.alloc(%{{.*}}) : memref<?x7x5xf32>
func.func @linear_batched(%x: tensor<?x7x4xf32>, %w: tensor<5x4xf32>) -> tensor<?x7x5xf32> {
  %t = kiln.transpose %w {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<5x4xf32> -> tensor<4x5xf32>
  %0 = kiln.matmul %x, %t : (tensor<?x7x4xf32>, tensor<4x5xf32>) -> tensor<?x7x5xf32>
  return %0 : tensor<?x7x5xf32>
}

// -----

// A permute feeding a matmul is read through one strided view too, with the
// permutation composed from the kiln ops (here a permute of a transpose:
// dims (2, 0, 1) of dims (1, 0, 2) are dims (2, 1, 0) of %b). Neither copy
// is left.
// CHECK-LABEL: func.func private @permuted
// CHECK-NOT: linalg.transpose
// CHECK: %[[B:.*]] = bufferization.to_memref %arg1 read_only : memref<5x4x?xf32, strided<[?, ?, ?], offset: ?>>
// CHECK: memref.transpose %[[B]] (d0, d1, d2) -> (d2, d1, d0) : memref<5x4x?xf32, strided<[?, ?, ?], offset: ?>> to memref<?x4x5xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NOT: linalg.transpose
func.func @permuted(%a: tensor<?x3x4xf32>, %b: tensor<5x4x?xf32>) -> tensor<?x3x5xf32> {
  %t = kiln.transpose %b {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<5x4x?xf32> -> tensor<4x5x?xf32>
  %p = kiln.permute %t {dims = array<i64: 2, 0, 1>} : tensor<4x5x?xf32> -> tensor<?x4x5xf32>
  %0 = kiln.matmul %a, %p : (tensor<?x3x4xf32>, tensor<?x4x5xf32>) -> tensor<?x3x5xf32>
  return %0 : tensor<?x3x5xf32>
}

// -----

// Negative: a transpose that is also returned keeps its copy for that use;
// the matmul still reads the strided view.
// CHECK-LABEL: func.func private @transpose_kept
// CHECK: %[[COPY:.*]] = linalg.transpose ins(%arg1 : tensor<5x4xf32>)
// CHECK: memref.transpose
// CHECK: call @kiln_rt_matmul_f32
// CHECK: return %{{.*}}, %[[COPY]]
func.func @transpose_kept(%x: tensor<?x4xf32>, %w: tensor<5x4xf32>) -> (tensor<?x5xf32>, tensor<4x5xf32>) {
  %t = kiln.transpose %w {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<5x4xf32> -> tensor<4x5xf32>
  %0 = kiln.matmul %x, %t : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
  return %0, %t : tensor<?x5xf32>, tensor<4x5xf32>
}

// -----

// bf16 goes through the f32 library, as PyTorch's CPU matmul accumulates in
// f32: both operands are converted, and the f32 result is rounded once.
// CHECK-LABEL: func.func private @matmul_bf16
// CHECK: %[[A:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<?x8xbf16>) outs(%{{.*}} : tensor<?x8xf32>)
// CHECK:   arith.extf %{{.*}} : bf16 to f32
// CHECK: bufferization.to_memref %[[A]] read_only
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<8x3xbf16>) outs(%{{.*}} : tensor<8x3xf32>)
// CHECK: bufferization.to_memref %[[B]] read_only
// CHECK: call @kiln_rt_matmul_f32
// CHECK: %[[T:.*]] = bufferization.to_tensor
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<?x3xf32>) outs(%{{.*}} : tensor<?x3xbf16>)
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
func.func @matmul_bf16(%a: tensor<?x8xbf16>, %b: tensor<8x3xbf16>) -> tensor<?x3xbf16> {
  %0 = kiln.matmul %a, %b : (tensor<?x8xbf16>, tensor<8x3xbf16>) -> tensor<?x3xbf16>
  return %0 : tensor<?x3xbf16>
}

// -----

// Negative: f64 and integer matmul stay generated linalg contractions,
// accumulating in their own type; the library is not even declared.
// CHECK-NOT: kiln_rt_matmul
// CHECK-LABEL: func.func private @matmul_f64_i64
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<?x4xf64>, tensor<4x5xf64>) outs(%{{.*}} : tensor<?x5xf64>)
// CHECK: linalg.matmul ins(%arg2, %arg3 : tensor<2x3xi64>, tensor<3x4xi64>) outs(%{{.*}} : tensor<2x4xi64>)
// CHECK-NOT: kiln_rt_matmul
func.func @matmul_f64_i64(%a: tensor<?x4xf64>, %b: tensor<4x5xf64>, %i: tensor<2x3xi64>, %j: tensor<3x4xi64>) -> (tensor<?x5xf64>, tensor<2x4xi64>) {
  %0 = kiln.matmul %a, %b : (tensor<?x4xf64>, tensor<4x5xf64>) -> tensor<?x5xf64>
  %1 = kiln.matmul %i, %j : (tensor<2x3xi64>, tensor<3x4xi64>) -> tensor<2x4xi64>
  return %0, %1 : tensor<?x5xf64>, tensor<2x4xi64>
}

// -----

// f32 conv2d calls the library with the unpadded input (it pads itself),
// the weight, a fresh N x O x OH x OW buffer, and stride, padding, dilation
// (height, width) and groups. A `?` H or W gets PyTorch's output size and
// its check for a kernel larger than the padded input.
// CHECK: message = "calculated padded input size per channel: ({0} x {1}). kernel size: (3 x 5). kernel size can't be greater than actual input size"
// CHECK: func.func private @kiln_rt_conv2d_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func private @conv_f32
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: %[[HI:.*]] = arith.index_cast %[[H]] : index to i64
// CHECK: %[[PH:.*]] = arith.addi %[[HI]], %c2_i64 : i64
// CHECK: %[[Q:.*]] = arith.floordivsi %{{.*}}, %c2_i64 : i64
// CHECK: %[[OH:.*]] = arith.addi %[[Q]], %c1_i64 : i64
// CHECK: scf.if %{{.*}} {
// CHECK:   func.call @kiln_rt_raise(%{{.*}}, %[[PH]], %{{.*}}, %{{.*}})
// CHECK: %[[OHX:.*]] = arith.index_cast %[[OH]] : i64 to index
// CHECK: %[[IN:.*]] = bufferization.to_memref %arg0 read_only : memref<?x4x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK: %[[INU:.*]] = memref.cast %[[IN]]
// CHECK: %[[WU:.*]] = memref.cast %{{.*}} : memref<8x2x3x3xf32, strided<[?, ?, ?, ?], offset: ?>> to memref<*xf32>
// CHECK: %[[OUT:.*]] = memref.alloc(%[[N]], %[[OHX]], %{{.*}}) : memref<?x8x?x?xf32>
// CHECK: %[[OU:.*]] = memref.cast %[[OUT]]
// CHECK: call @kiln_rt_conv2d_f32(%[[INU]], %[[WU]], %[[OU]], %[[TWO:c2_i64[_0-9]*]], %[[ONE:c1_i64[_0-9]*]], %[[ONE]], %[[TWO]], %[[ONE]], %[[TWO]], %[[TWO]], %{{.*}})
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable : memref<?x8x?x?xf32>
func.func @conv_f32(%x: tensor<?x4x?x?xf32>, %w: tensor<8x2x3x3xf32>) -> tensor<?x8x?x?xf32> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 2>, groups = 2 : i64, padding = array<i64: 1, 2>, stride = array<i64: 2, 1>} : (tensor<?x4x?x?xf32>, tensor<8x2x3x3xf32>) -> tensor<?x8x?x?xf32>
  return %0 : tensor<?x8x?x?xf32>
}

// -----

// channels_last: the N x H x W x C input and result are buffers the
// library gets as N x C x H x W views (memref.transpose), strided as its
// kernels compute, so it reorders neither; the result is allocated
// N x OH x OW x O, and its sizes come from the input's dims in that order.
// CHECK-LABEL: func.func private @conv_channels_last
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[IN:.*]] = bufferization.to_memref %arg0 read_only : memref<?x?x9x16xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK: %[[INT:.*]] = memref.transpose %[[IN]] (d0, d1, d2, d3) -> (d0, d3, d1, d2) : memref<?x?x9x16xf32, strided<[?, ?, ?, ?], offset: ?>> to memref<?x16x?x9xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK: %[[INU:.*]] = memref.cast %[[INT]]
// CHECK: %[[OUT:.*]] = memref.alloc(%[[N]], %{{.*}}) : memref<?x?x9x32xf32>
// CHECK: %[[OUTT:.*]] = memref.transpose %[[OUT]] (d0, d1, d2, d3) -> (d0, d3, d1, d2) : memref<?x?x9x32xf32> to memref<?x32x?x9xf32, strided<[?, 1, 288, 32]>>
// CHECK: %[[OU:.*]] = memref.cast %[[OUTT]]
// CHECK: call @kiln_rt_conv2d_f32(%[[INU]], %{{.*}}, %[[OU]],
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable : memref<?x?x9x32xf32>
func.func @conv_channels_last(%x: tensor<?x?x9x16xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<?x?x9x32xf32> {
  %0 = kiln.conv2d %x, %w {channels_last, dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x?x9x16xf32>, tensor<32x16x3x3xf32>) -> tensor<?x?x9x32xf32>
  return %0 : tensor<?x?x9x32xf32>
}

// -----

// A `?` channel count is checked against the weight with PyTorch's
// message; the shapes' static sizes are written in.
// CHECK: message = "given groups=1, weight of size [16, 3, 3, 3], expected input[{1}, {0}, 8, 8] to have 3 channels, but got {0} channels instead"
// CHECK-LABEL: func.func private @conv_channels
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[C:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[CI:.*]] = arith.index_cast %[[C]] : index to i64
// CHECK: %[[BAD:.*]] = arith.cmpi ne, %[[CI]], %c3_i64 : i64
// CHECK: scf.if %[[BAD]] {
// CHECK:   %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:   func.call @kiln_rt_raise(%{{.*}}, %[[CI]], %[[NI]], %{{.*}})
// CHECK: call @kiln_rt_conv2d_f32
func.func @conv_channels(%x: tensor<?x?x8x8xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<?x16x6x6xf32> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x?x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<?x16x6x6xf32>
  return %0 : tensor<?x16x6x6xf32>
}

// -----

// Negative: static shapes need no checks. f16 goes through the f32
// library like bf16 matmul.
// CHECK: kiln.sites = [{col = {{[^}]*}}, message = ""}]
// CHECK-LABEL: func.func private @conv_half
// CHECK-NOT: kiln_rt_raise
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<1x3x8x8xf16>) outs(%{{.*}} : tensor<1x3x8x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<6x3x3x3xf16>) outs(%{{.*}} : tensor<6x3x3x3xf32>)
// CHECK: memref.alloc() : memref<1x6x6x6xf32>
// CHECK: call @kiln_rt_conv2d_f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @conv_half(%x: tensor<1x3x8x8xf16>, %w: tensor<6x3x3x3xf16>) -> tensor<1x6x6x6xf16> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf16>, tensor<6x3x3x3xf16>) -> tensor<1x6x6x6xf16>
  return %0 : tensor<1x6x6x6xf16>
}

// -----

// f64 conv2d stays generated code: the input is padded with zeros (a fill
// plus insert_slice), and linalg.conv_2d_nchw_fchw accumulates into a
// zeroed output with the stride and dilation.
// CHECK-NOT: kiln_rt_conv2d
// CHECK-LABEL: func.func private @conv_f64
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f64) outs(%{{.*}} : tensor<?x3x10x10xf64>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %arg0 into %[[FILL]][0, 0, 1, 1] [%{{.*}}, 3, 8, 8] [1, 1, 1, 1]
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f64) outs(%{{.*}} : tensor<?x6x4x4xf64>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PADDED]], %arg1 : tensor<?x3x10x10xf64>, tensor<6x3x3x3xf64>) outs(%[[ACC]] : tensor<?x6x4x4xf64>)
func.func @conv_f64(%x: tensor<?x3x8x8xf64>, %w: tensor<6x3x3x3xf64>) -> tensor<?x6x4x4xf64> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<?x3x8x8xf64>, tensor<6x3x3x3xf64>) -> tensor<?x6x4x4xf64>
  return %0 : tensor<?x6x4x4xf64>
}

// -----

// f64 conv2d with groups: views split the input's channels into
// (groups, C/groups), the weight's O into (groups, O/groups) and the
// output's likewise, so linalg.conv_2d_ngchw_gfchw reads every operand in
// place; the output's channels are merged back.
// CHECK-LABEL: func.func private @conv_f64_groups
// CHECK: %[[IN:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3], [4]] output_shape [%{{.*}}, 2, 2, 8, 8] : tensor<?x4x8x8xf64> into tensor<?x2x2x8x8xf64>
// CHECK: %[[W:.*]] = tensor.expand_shape %arg1 {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf64> into tensor<2x3x2x3x3xf64>
// CHECK: %[[ACC:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] output_shape [%{{.*}}, 2, 3, 6, 6] : tensor<?x6x6x6xf64> into tensor<?x2x3x6x6xf64>
// CHECK: %[[G:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[IN]], %[[W]] : tensor<?x2x2x8x8xf64>, tensor<2x3x2x3x3xf64>) outs(%[[ACC]] : tensor<?x2x3x6x6xf64>)
// CHECK: tensor.collapse_shape %[[G]] {{\[}}[0], [1, 2], [3], [4]] : tensor<?x2x3x6x6xf64> into tensor<?x6x6x6xf64>
func.func @conv_f64_groups(%x: tensor<?x4x8x8xf64>, %w: tensor<6x2x3x3xf64>) -> tensor<?x6x6x6xf64> {
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 2 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<?x4x8x8xf64>, tensor<6x2x3x3xf64>) -> tensor<?x6x6x6xf64>
  return %0 : tensor<?x6x6x6xf64>
}

// -----

// matmul_epilogue passes its bias as a read-only view and its activation
// as kiln/abi.h's code (relu: 1) to the library's epilogue call.
// CHECK: func.func private @kiln_rt_matmul_epilogue_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i32, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func private @linear_relu
// CHECK: %[[B:.*]] = bufferization.to_memref %arg2 read_only : memref<8xf32, strided<[?], offset: ?>>
// CHECK: %[[BU:.*]] = memref.cast %[[B]] : memref<8xf32, strided<[?], offset: ?>> to memref<*xf32>
// CHECK: %[[OUT:.*]] = memref.alloc(%{{.*}}) : memref<?x8xf32>
// CHECK: %[[OU:.*]] = memref.cast %[[OUT]]
// CHECK: call @kiln_rt_matmul_epilogue_f32(%{{.*}}, %{{.*}}, %[[BU]], %[[OU]], %c1_i32, %c0_i64)
func.func @linear_relu(%x: tensor<?x4xf32>, %wt: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %0 = kiln.matmul_epilogue %x, %wt, %b {activation = "relu"} : (tensor<?x4xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
