// RUN: kiln-opt %s --split-input-file --kiln-record-static-blocks | FileCheck %s

// Each request as the code will make it: an aligned allocation asks for
// its bytes plus its alignment (8 x 1024 f32: 32768 + 64), an unaligned
// one for its bytes (6 i16: 12), alloc_result for the constant it is
// given. A dynamic size, a stack buffer, a dynamic alloc_result, empty
// buffers and an i1 buffer (whose element size is no whole byte) are not
// recorded.
// CHECK: module attributes {kiln.static_blocks = [array<i64: 12, 1>, array<i64: 4096, 1>, array<i64: 32832, 1>]}
module {
  func.func private @kiln_rt_alloc_result(i64, i64) -> !llvm.ptr
  func.func @entry(%n: index, %m: i64) attributes {kiln.entry} {
    %a = memref.alloc() {alignment = 64 : i64} : memref<8x1024xf32>
    %b = memref.alloc() : memref<6xi16>
    %d = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
    %s = memref.alloca() : memref<16xf32>
    %flags = memref.alloc() : memref<64xi1>
    %empty = memref.alloc() : memref<0x4xf32>
    %c0 = arith.constant 0 : i64
    %bytes = arith.constant 4096 : i64
    %r = call @kiln_rt_alloc_result(%c0, %bytes) : (i64, i64) -> !llvm.ptr
    %r2 = call @kiln_rt_alloc_result(%c0, %m) : (i64, i64) -> !llvm.ptr
    %none = arith.constant 0 : i64
    %r3 = call @kiln_rt_alloc_result(%c0, %none) : (i64, i64) -> !llvm.ptr
    memref.dealloc %a : memref<8x1024xf32>
    memref.dealloc %b : memref<6xi16>
    memref.dealloc %d : memref<?xf32>
    memref.dealloc %flags : memref<64xi1>
    memref.dealloc %empty : memref<0x4xf32>
    return
  }
}

// -----

// Blocks of one size that one call holds together count as many times;
// over two entry points, the most either needs (two of 4160, one of 1088,
// not three of 4160). A function that is no entry point's counts only
// through the calls of one.
// CHECK: module attributes {kiln.static_blocks = [array<i64: 1088, 1>, array<i64: 4160, 2>]}
module {
  func.func @first() attributes {kiln.entry} {
    %a = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
    %b = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32>
    memref.dealloc %a : memref<1024xf32>
    memref.dealloc %b : memref<32x32xf32>
    return
  }
  func.func @second() attributes {kiln.entry} {
    %a = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
    %b = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
    memref.dealloc %a : memref<1024xf32>
    memref.dealloc %b : memref<256xf32>
    return
  }
  func.func private @unused() {
    %a = memref.alloc() {alignment = 64 : i64} : memref<999xf64>
    memref.dealloc %a : memref<999xf64>
    return
  }
}

// -----

// A helper's allocations count for the entry that calls it, once however
// often it is called; so does one in a loop, which each trip frees and
// takes back.
// CHECK: module attributes {kiln.static_blocks = [array<i64: 128, 2>]}
module {
  func.func private @helper() {
    %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
    memref.dealloc %a : memref<16xf32>
    return
  }
  func.func @entry() attributes {kiln.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    scf.for %i = %c0 to %c9 step %c1 {
      %a = memref.alloc() {alignment = 64 : i64} : memref<4x4xf32>
      memref.dealloc %a : memref<4x4xf32>
    }
    call @helper() : () -> ()
    call @helper() : () -> ()
    return
  }
}

// -----

// No static request, no attribute.
// CHECK-NOT: kiln.static_blocks
module {
  func.func @entry(%n: index) attributes {kiln.entry} {
    %d = memref.alloc(%n) : memref<?xf32>
    memref.dealloc %d : memref<?xf32>
    return
  }
}
