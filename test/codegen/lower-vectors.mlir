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

// A max pool's stride-2 window read (the lanes lie two apart) is one
// contiguous load of the 29 elements from the first lane to the last and a
// shuffle that keeps every other lane, not 15 scalar loads.
// CHECK-LABEL: func.func @stride_two
// CHECK:         %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}:3, %{{.*}}:3 = memref.extract_strided_metadata %{{.*}}
// CHECK:         %[[SPAN:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%{{.*}}], sizes: [29], strides: [1]
// CHECK:         %[[WHOLE:.*]] = vector.load %[[SPAN]][%{{.*}}] : memref<29xf32, strided<[1], offset: ?>>, vector<29xf32>
// CHECK:         vector.shuffle %[[WHOLE]], %[[WHOLE]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28] : vector<29xf32>, vector<29xf32>
// CHECK-NOT:     memref.load
func.func @stride_two(%x: memref<6x30x30xf32>, %i: index, %y: memref<1x1x15xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %window = memref.subview %x[0, 1, 1] [6, 15, 15] [1, 2, 2] : memref<6x30x30xf32> to memref<6x15x15xf32, strided<[900, 60, 2], offset: 31>>
  %v = vector.transfer_read %window[%i, %i, %c0], %pad {in_bounds = [true, true, true]} : memref<6x15x15xf32, strided<[900, 60, 2], offset: 31>>, vector<1x1x15xf32>
  vector.transfer_write %v, %y[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x15xf32>, memref<1x1x15xf32>
  return
}

// The first element of the span is the read's own: offset 31 plus its
// indices times the strides, (%i * 900 + %j * 60 + %k * 3 + 31).
// CHECK-LABEL: func.func @stride_three
// CHECK-SAME:    (%{{.*}}: memref<6x30x30xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: index
// CHECK-DAG:     %[[C900:.*]] = arith.constant 900 : index
// CHECK-DAG:     %[[C60:.*]] = arith.constant 60 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C31:.*]] = arith.constant 31 : index
// CHECK:         %[[A:.*]] = arith.muli %[[I]], %[[C900]]
// CHECK:         %[[B:.*]] = arith.addi %[[A]], %[[C31]]
// CHECK:         %[[C:.*]] = arith.muli %[[J]], %[[C60]]
// CHECK:         %[[D:.*]] = arith.addi %[[B]], %[[C]]
// CHECK:         %[[E:.*]] = arith.muli %[[K]], %[[C3]]
// CHECK:         %[[F:.*]] = arith.addi %[[D]], %[[E]]
// CHECK:         memref.reinterpret_cast %{{.*}} to offset: [%[[F]]], sizes: [13], strides: [1]
// CHECK:         vector.shuffle %{{.*}}, %{{.*}} [0, 3, 6, 9, 12] : vector<13xf32>, vector<13xf32>
func.func @stride_three(%x: memref<6x30x30xf32>, %i: index, %j: index, %k: index, %y: memref<5xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %window = memref.subview %x[0, 1, 1] [6, 15, 9] [1, 2, 3] : memref<6x30x30xf32> to memref<6x15x9xf32, strided<[900, 60, 3], offset: 31>>
  %v = vector.transfer_read %window[%i, %j, %k], %pad {in_bounds = [true]} : memref<6x15x9xf32, strided<[900, 60, 3], offset: 31>>, vector<5xf32>
  vector.transfer_write %v, %y[%c0] {in_bounds = [true]} : vector<5xf32>, memref<5xf32>
  return
}

// Left to the transfer's own lowering: a stride of 5 (the load would be
// mostly waste), a read that may run past its row (not in bounds: the
// span could leave the memref), and a stride known only at run time.
// CHECK-LABEL: func.func @not_deinterleaved
// CHECK-NOT:     vector.shuffle
// CHECK-NOT:     memref.reinterpret_cast
// CHECK:         return
func.func @not_deinterleaved(%x: memref<6x30x30xf32>, %d: memref<?xf32, strided<[?]>>, %i: index, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %five = memref.subview %x[0, 0, 0] [1, 1, 6] [1, 1, 5] : memref<6x30x30xf32> to memref<6xf32, strided<[5]>>
  %a = vector.transfer_read %five[%c0], %pad {in_bounds = [true]} : memref<6xf32, strided<[5]>>, vector<4xf32>
  vector.transfer_write %a, %y[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  %two = memref.subview %x[0, 0, 0] [1, 1, 15] [1, 1, 2] : memref<6x30x30xf32> to memref<15xf32, strided<[2]>>
  %b = vector.transfer_read %two[%i], %pad {in_bounds = [false]} : memref<15xf32, strided<[2]>>, vector<4xf32>
  vector.transfer_write %b, %y[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  %c = vector.transfer_read %d[%i], %pad {in_bounds = [true]} : memref<?xf32, strided<[?]>>, vector<4xf32>
  vector.transfer_write %c, %y[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  return
}

// A transpose's 16 x 16 block (kiln-vectorize-tiles): row loads, the
// transpose as 64 two-source shuffles of whole rows (no element moved on
// its own), and row stores.
// CHECK-LABEL: func.func @transpose_block
// CHECK:          vector.load %{{.*}} : memref<16x16xf32, strided<[64, 1]>>, vector<16xf32>
// CHECK-NOT:      f32 from vector
// CHECK-COUNT-64: vector.shuffle {{.*}} : vector<16xf32>, vector<16xf32>
// CHECK-NOT:      f32 from vector
// CHECK:          vector.store %{{.*}} : memref<16x16xf32, strided<[56, 1]>>, vector<16xf32>
func.func @transpose_block(%x: memref<16x16xf32, strided<[64, 1]>>, %y: memref<16x16xf32, strided<[56, 1]>>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %x[%c0, %c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x16xf32, strided<[64, 1]>>, vector<16x16xf32>
  vector.transfer_write %v, %y[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32, strided<[56, 1]>>
  return
}
