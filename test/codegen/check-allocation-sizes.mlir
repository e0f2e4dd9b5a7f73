// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-check-allocation-sizes | FileCheck %s

// A dynamic allocation is checked before it happens: its extent (each zero
// dim counted as one, the runtime's rule for inputs) is multiplied up with
// 128-bit products saturating at limit + 1 (2^45 + 1 f32 elements is 2^47
// bytes + 4), and reaching the cap raises the new site, which is appended
// after the module's existing ones.
// CHECK: module attributes {kiln.sites = [{col = 1 : i64, file = "a.py", line = 1 : i64, message = "old"}, {col = 3 : i64, file = "t.py", line = 7 : i64, message = "this tensor would need more than 140737488355328 bytes, more than kiln can address (the limit is 2^47)"}]
// CHECK-LABEL: func.func @outer
// CHECK-SAME: (%[[M:.*]]: index, %[[N:.*]]: index)
// CHECK-DAG: %[[CAP:.*]] = arith.constant 35184372088833 : i64
// CHECK: %[[M64:.*]] = arith.index_castui %[[M]] : index to i64
// CHECK: %[[MZERO:.*]] = arith.cmpi eq, %[[M64]], %c0_i64
// CHECK: %[[MEXT:.*]] = arith.select %[[MZERO]], %c1_i64{{.*}}, %[[M64]]
// CHECK: %[[LO1:.*]], %[[HI1:.*]] = arith.mului_extended %{{.*}}, %[[MEXT]]
// CHECK: arith.select
// CHECK: %[[N64:.*]] = arith.index_castui %[[N]] : index to i64
// CHECK: arith.mului_extended
// CHECK: %[[COUNT:.*]] = arith.select
// CHECK: %[[BIG:.*]] = arith.cmpi eq, %[[COUNT]], %[[CAP]] : i64
// CHECK: %[[SITE:.*]] = arith.constant 1 : i64
// CHECK: scf.if %[[BIG]] {
// CHECK:   func.call @kiln_rt_raise(%[[SITE]],
// CHECK: }
// CHECK: memref.alloc(%[[M]], %[[N]]) : memref<?x?xf32>
module attributes {kiln.sites = [{col = 1 : i64, file = "a.py", line = 1 : i64, message = "old"}], kiln.strings = []} {
  func.func @outer(%m: index, %n: index) -> memref<?x?xf32> {
    %0 = memref.alloc(%m, %n) : memref<?x?xf32> loc("t.py":7:3)
    return %0 : memref<?x?xf32>
  }
}

// -----

// The static dims count too: an i64 buffer [?, 1024] caps at 2^47 / 8 + 1
// elements, and starts from 1024.
// CHECK-LABEL: func.func @mixed
// CHECK-DAG: arith.constant 17592186044417 : i64
// CHECK-DAG: arith.constant 1024 : i64
// CHECK: scf.if
// CHECK: memref.alloc
module {
  func.func @mixed(%m: index) -> memref<?x1024xi64> {
    %0 = memref.alloc(%m) : memref<?x1024xi64>
    return %0 : memref<?x1024xi64>
  }
}

// -----

// A static buffer within the limit needs no check.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.if
// CHECK-NOT: kiln_rt_raise
// CHECK: memref.alloc() : memref<4x8xf32>
module {
  func.func @small() -> memref<4x8xf32> {
    %0 = memref.alloc() : memref<4x8xf32>
    return %0 : memref<4x8xf32>
  }
}

// -----

// A static buffer over the limit is a compile-time error at its location
// (torch.zeros(2**62 + 1): its byte size would wrap to 4), and so is an
// empty one whose other dims span more than the limit.
module {
  func.func @huge() -> memref<4611686018427387905xf32> {
    // expected-error @+1 {{this tensor would need more than 140737488355328 bytes, more than kiln can address}}
    %0 = memref.alloc() : memref<4611686018427387905xf32>
    return %0 : memref<4611686018427387905xf32>
  }
}

// -----

module {
  func.func @empty_but_huge() -> memref<0x4294967296x4294967296xf32> {
    // expected-error @+1 {{this tensor would need more than 140737488355328 bytes}}
    %0 = memref.alloc() : memref<0x4294967296x4294967296xf32>
    return %0 : memref<0x4294967296x4294967296xf32>
  }
}
