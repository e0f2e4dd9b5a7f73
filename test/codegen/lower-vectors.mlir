// RUN: kiln-opt %s --kiln-lower-vectors | FileCheck %s

// What kiln-vectorize-tiles leaves, after bufferization, lowered to what
// the LLVM conversion takes (codegen/cpu/LowerVectors.cpp): 1-d loads and
// stores, a row's value read once and splat, and a horizontal reduction
// that may combine its lanes in any order (reassoc for a sum).
// CHECK-LABEL: func.func @scale_row
// CHECK-NOT:     vector.transfer_read
// CHECK:         %[[X:.*]] = vector.load %{{.*}} : memref<64xf32{{.*}}>, vector<64xf32>
// CHECK:         %[[S:.*]] = memref.load
// CHECK:         %[[SPLAT:.*]] = vector.splat %[[S]] : vector<64xf32>
// CHECK:         %[[Y:.*]] = arith.mulf %[[X]], %[[SPLAT]] : vector<64xf32>
// CHECK:         vector.store %[[Y]]
// CHECK:         vector.reduction <add>, %[[Y]], %{{.*}} fastmath<reassoc> : vector<64xf32> into f32
// CHECK-NOT:     vector.multi_reduction
func.func @scale_row(%x: memref<1x64xf32>, %s: memref<1xf32>, %y: memref<1x64xf32>, %sum: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %x[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x64xf32>, vector<1x64xf32>
  %b = vector.transfer_read %s[%c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0) -> (d0, 0)>} : memref<1xf32>, vector<1x64xf32>
  %m = arith.mulf %v, %b : vector<1x64xf32>
  vector.transfer_write %m, %y[%c0, %c0] {in_bounds = [true, true]} : vector<1x64xf32>, memref<1x64xf32>
  %acc = vector.transfer_read %sum[%c0], %pad {in_bounds = [true]} : memref<1xf32>, vector<1xf32>
  %r = vector.multi_reduction <add>, %m, %acc [1] : vector<1x64xf32> to vector<1xf32>
  vector.transfer_write %r, %sum[%c0] {in_bounds = [true]} : vector<1xf32>, memref<1xf32>
  return
}
