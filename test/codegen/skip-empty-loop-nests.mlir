// RUN: kiln-opt %s --split-input-file --kiln-skip-empty-loop-nests | FileCheck %s

// A reduction over [?, ?] runs only when neither extent is zero: with a
// [2^40, 0] input the outer loop would otherwise spin 2^40 times around an
// empty inner loop.
// CHECK-LABEL: func.func @reduce
// CHECK: %[[D0:.*]] = memref.dim %arg0, %c0
// CHECK: %[[D1:.*]] = memref.dim %arg0, %c1
// CHECK: %[[NZ0:.*]] = arith.cmpi ne, %[[D0]], %c0
// CHECK: %[[NZ1:.*]] = arith.cmpi ne, %[[D1]], %c0
// CHECK: %[[BOTH:.*]] = arith.andi %[[NZ0]], %[[NZ1]]
// CHECK: scf.if %[[BOTH]] {
// CHECK-NEXT: linalg.generic
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @reduce(%in: memref<?x?xf32>, %out: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id, #row],
                  iterator_types = ["reduction", "parallel"]}
      ins(%in : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Static non-zero extents need no guard.
// CHECK-LABEL: func.func @static
// CHECK-NOT: scf.if
// CHECK: linalg.fill
func.func @static(%out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<4x8xf32>)
  return
}

// -----

// A static zero extent: the op would never run its body, so it is erased.
// CHECK-LABEL: func.func @empty
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @empty(%out: memref<0x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<0x?xf32>)
  return
}

// -----

// Ops on tensors are left for bufferization; only buffers are guarded.
// CHECK-LABEL: func.func @tensors
// CHECK-NOT: scf.if
// CHECK: linalg.fill
func.func @tensors(%t: tensor<?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %r = linalg.fill ins(%zero : f32) outs(%t : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
