// RUN: kiln-opt %s --split-input-file --kiln-result-buffers | FileCheck %s

// The buffer an entry returns whole is asked of alloc_result by its result
// index and byte size, and becomes a descriptor of the pointer it gets:
// offset 0, row-major strides. A buffer it only works in keeps alloc.
// CHECK: func.func private @kiln_rt_alloc_result(i64, i64) -> !llvm.ptr attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[TEMP:.*]] = memref.alloc(%[[N]]) : memref<?x8xf32>
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[STATIC:.*]] = arith.constant 32 : i64
// CHECK: %[[BYTES:.*]] = arith.muli %[[STATIC]], %[[N64]] : i64
// CHECK: %[[PTR:.*]] = call @kiln_rt_alloc_result(%c0_i64{{.*}}, %[[BYTES]]) : (i64, i64) -> !llvm.ptr
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[1]
// CHECK: llvm.insertvalue %{{.*}}[2]
// CHECK: %[[OUT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x8xf32>
// CHECK: linalg.copy ins(%[[TEMP]] : memref<?x8xf32>) outs(%[[OUT]] : memref<?x8xf32>)
// CHECK: memref.dealloc %[[TEMP]]
// CHECK: return %[[OUT]]
module {
  func.func @entry(%n: index) -> memref<?x8xf32> attributes {kiln.entry} {
    %temp = memref.alloc(%n) : memref<?x8xf32>
    %out = memref.alloc(%n) : memref<?x8xf32>
    linalg.copy ins(%temp : memref<?x8xf32>) outs(%out : memref<?x8xf32>)
    memref.dealloc %temp : memref<?x8xf32>
    return %out : memref<?x8xf32>
  }
}

// -----

// Through a cast, and by the index of the result it is: the second. A
// static buffer's byte count is one constant.
// CHECK-LABEL: func.func @second
// CHECK: %[[BYTES:.*]] = arith.constant 64 : i64
// CHECK: %[[PTR:.*]] = call @kiln_rt_alloc_result(%c1_i64, %[[BYTES]]) : (i64, i64) -> !llvm.ptr
// CHECK: %[[OUT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<16xf32>
// CHECK: %[[CAST:.*]] = memref.cast %[[OUT]] : memref<16xf32> to memref<?xf32>
// CHECK: return %arg0, %[[CAST]]
module {
  func.func @second(%x: memref<4xf32>) -> (memref<4xf32>, memref<?xf32>) attributes {kiln.entry} {
    %out = memref.alloc() : memref<16xf32>
    %cast = memref.cast %out : memref<16xf32> to memref<?xf32>
    return %x, %cast : memref<4xf32>, memref<?xf32>
  }
}

// -----

// Left alone: a buffer returned as two results (one output cannot be
// both), one made in a loop (it runs more than once), a view of a buffer,
// and a function that is not an entry point. No declaration is added.
// CHECK-NOT: alloc_result
module {
  func.func @twice() -> (memref<4xf32>, memref<4xf32>) attributes {kiln.entry} {
    %out = memref.alloc() : memref<4xf32>
    return %out, %out : memref<4xf32>, memref<4xf32>
  }
  func.func @looped(%n: index) -> memref<4xf32> attributes {kiln.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %first = memref.alloc() : memref<4xf32>
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %first) -> memref<4xf32> {
      %next = memref.alloc() : memref<4xf32>
      scf.yield %next : memref<4xf32>
    }
    return %last : memref<4xf32>
  }
  func.func @view() -> memref<2xf32, strided<[1], offset: 2>> attributes {kiln.entry} {
    %out = memref.alloc() : memref<4xf32>
    %part = memref.subview %out[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
    return %part : memref<2xf32, strided<[1], offset: 2>>
  }
  func.func @helper() -> memref<4xf32> {
    %out = memref.alloc() : memref<4xf32>
    return %out : memref<4xf32>
  }
}
