// RUN: kiln-opt %s --split-input-file --kiln-record-library-calls | FileCheck %s

// A Linear at static shapes: x @ w.t() + b. The weight is read transposed
// (strides [1, 784]) from its start; the bias is a weight too; x is the
// entry's dense input and the output a fresh buffer. The weights' argument
// marks are gone afterwards.
// CHECK: module attributes {kiln.library_calls = [{op = "matmul", operands = [{sizes = array<i64: 8, 784>, strides = array<i64: 784, 1>}, {offset = 0 : i64, sizes = array<i64: 784, 1024>, strides = array<i64: 1, 784>, weight = 1 : i64}, {offset = 0 : i64, sizes = array<i64: 1024>, strides = array<i64: 1>, weight = 0 : i64}, {sizes = array<i64: 8, 1024>, strides = array<i64: 1024, 1>}], params = array<i64: 4>}]}
// CHECK: func.func @linear(%{{.*}}: memref<8x784xf32>, %{{.*}}: memref<1024xf32>, %{{.*}}: memref<1024x784xf32>)
// CHECK-NOT: kiln.weight
module {
  func.func private @kiln_rt_matmul_epilogue_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i32, i64)
  func.func @linear(%x: memref<8x784xf32>, %b: memref<1024xf32> {kiln.weight = 0 : i64}, %w: memref<1024x784xf32> {kiln.weight = 1 : i64}) -> memref<8x1024xf32> {
    %silu = arith.constant 4 : i32
    %site = arith.constant 0 : i64
    %a = memref.cast %x : memref<8x784xf32> to memref<*xf32>
    %dyn = memref.cast %w : memref<1024x784xf32> to memref<1024x784xf32, strided<[?, ?], offset: ?>>
    %t = memref.transpose %dyn (d0, d1) -> (d1, d0) : memref<1024x784xf32, strided<[?, ?], offset: ?>> to memref<784x1024xf32, strided<[?, ?], offset: ?>>
    %wt = memref.cast %t : memref<784x1024xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
    %bias = memref.cast %b : memref<1024xf32> to memref<*xf32>
    %out = memref.alloc() : memref<8x1024xf32>
    %o = memref.cast %out : memref<8x1024xf32> to memref<*xf32>
    call @kiln_rt_matmul_epilogue_f32(%a, %wt, %bias, %o, %silu, %site) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i32, i64) -> ()
    return %out : memref<8x1024xf32>
  }
}

// -----

// A product in a loop, on a row slice at a loop-dependent offset: only a
// weight's offset is needed (the slice is no weight), and the call is
// recorded once, as two calls of the same shapes are. A weight sliced at
// a dynamic offset is not recorded: preparing it would read the weight.
// CHECK: module attributes {kiln.library_calls = [{op = "matmul", operands = [{sizes = array<i64: 8, 128>, strides = array<i64: 128, 1>}, {sizes = array<i64: 128, 128>, strides = array<i64: 128, 1>}, {sizes = array<i64: 8, 128>, strides = array<i64: 128, 1>}], params = array<i64>}]}
module {
  func.func private @kiln_rt_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64)
  func.func @steps(%x: memref<50x8x128xf32>, %u: memref<128x128xf32>, %w: memref<4x128x128xf32> {kiln.weight = 0 : i64}, %i: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c50 = arith.constant 50 : index
    %site = arith.constant 0 : i64
    %uu = memref.cast %u : memref<128x128xf32> to memref<*xf32>
    scf.for %t = %c0 to %c50 step %c1 {
      %row = memref.subview %x[%t, 0, 0] [1, 8, 128] [1, 1, 1] : memref<50x8x128xf32> to memref<8x128xf32, strided<[128, 1], offset: ?>>
      %r = memref.cast %row : memref<8x128xf32, strided<[128, 1], offset: ?>> to memref<*xf32>
      %out = memref.alloc() : memref<8x128xf32>
      %o = memref.cast %out : memref<8x128xf32> to memref<*xf32>
      func.call @kiln_rt_matmul_f32(%r, %uu, %o, %site) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) -> ()
      %out2 = memref.alloc() : memref<8x128xf32>
      %o2 = memref.cast %out2 : memref<8x128xf32> to memref<*xf32>
      func.call @kiln_rt_matmul_f32(%r, %uu, %o2, %site) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) -> ()
      %wi = memref.subview %w[%i, 0, 0] [1, 128, 128] [1, 1, 1] : memref<4x128x128xf32> to memref<128x128xf32, strided<[128, 1], offset: ?>>
      %wc = memref.cast %wi : memref<128x128xf32, strided<[128, 1], offset: ?>> to memref<*xf32>
      %out3 = memref.alloc() : memref<8x128xf32>
      %o3 = memref.cast %out3 : memref<8x128xf32> to memref<*xf32>
      func.call @kiln_rt_matmul_f32(%r, %wc, %o3, %site) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) -> ()
    }
    return
  }
}

// -----

// A convolution with its seven constant parameters, its weight a static
// slice of a weight (the second group of 6 output channels: offset 6 * 3
// * 3 * 3), through a collapse and an expand of the input.
// CHECK: module attributes {kiln.library_calls = [{op = "conv2d", operands = [{sizes = array<i64: 2, 3, 12, 12>, strides = array<i64: 432, 144, 12, 1>}, {offset = 162 : i64, sizes = array<i64: 6, 3, 3, 3>, strides = array<i64: 27, 9, 3, 1>, weight = 0 : i64}, {sizes = array<i64: 2, 6, 5, 5>, strides = array<i64: 150, 25, 5, 1>}], params = array<i64: 2, 2, 0, 0, 1, 1, 1>}]}
module {
  func.func private @kiln_rt_conv2d_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64)
  func.func @conv(%x: memref<2x432xf32>, %w: memref<12x3x3x3xf32> {kiln.weight = 0 : i64}) -> memref<2x6x5x5xf32> {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %flat = memref.collapse_shape %x [[0, 1]] : memref<2x432xf32> into memref<864xf32>
    %img = memref.expand_shape %flat [[0, 1, 2, 3]] output_shape [2, 3, 12, 12] : memref<864xf32> into memref<2x3x12x12xf32>
    %in = memref.cast %img : memref<2x3x12x12xf32> to memref<*xf32>
    %half = memref.subview %w[6, 0, 0, 0] [6, 3, 3, 3] [1, 1, 1, 1] : memref<12x3x3x3xf32> to memref<6x3x3x3xf32, strided<[27, 9, 3, 1], offset: 162>>
    %wc = memref.cast %half : memref<6x3x3x3xf32, strided<[27, 9, 3, 1], offset: 162>> to memref<*xf32>
    %out = memref.alloc() : memref<2x6x5x5xf32>
    %o = memref.cast %out : memref<2x6x5x5xf32> to memref<*xf32>
    call @kiln_rt_conv2d_f32(%in, %wc, %o, %c2, %c2, %c0, %c0, %c1, %c1, %c1, %c0) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
    return %out : memref<2x6x5x5xf32>
  }
}

// -----

// Not recorded: an activation only known at run time, an operand a
// private helper takes in any layout, and a buffer of dynamic shape.
// CHECK-NOT: kiln.library_calls
// CHECK-LABEL: func.func @unknown
module {
  func.func private @kiln_rt_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64)
  func.func private @kiln_rt_matmul_epilogue_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i32, i64)
  func.func @unknown(%x: memref<4x4xf32>, %act: i32, %n: index) {
    %site = arith.constant 0 : i64
    %a = memref.cast %x : memref<4x4xf32> to memref<*xf32>
    %out = memref.alloc() : memref<4x4xf32>
    %o = memref.cast %out : memref<4x4xf32> to memref<*xf32>
    %b = memref.alloc() : memref<4xf32>
    %bc = memref.cast %b : memref<4xf32> to memref<*xf32>
    call @kiln_rt_matmul_epilogue_f32(%a, %a, %bc, %o, %act, %site) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i32, i64) -> ()
    %d = memref.alloc(%n) : memref<?x4xf32>
    %dc = memref.cast %d : memref<?x4xf32> to memref<*xf32>
    call @kiln_rt_matmul_f32(%dc, %a, %o, %site) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) -> ()
    return
  }
  func.func private @helper(%x: memref<4x4xf32, strided<[?, ?], offset: ?>>) {
    %site = arith.constant 0 : i64
    %a = memref.cast %x : memref<4x4xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
    %out = memref.alloc() : memref<4x4xf32>
    %o = memref.cast %out : memref<4x4xf32> to memref<*xf32>
    call @kiln_rt_matmul_f32(%a, %a, %o, %site) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) -> ()
    return
  }
}
