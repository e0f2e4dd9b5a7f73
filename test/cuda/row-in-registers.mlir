// The register path of kiln-map-to-kernels (codegen/cuda/RowInRegisters.cpp):
// a row tile whose passes read the same row runs, for rows of up to 256
// and 512 points, as a kernel per tier in which each lane loads its 8 or
// 16 elements of the row once, into registers, for all the passes. The host launches the tier that holds the row, or the kernel of
// any length (warp-tiles.mlir) for a longer one.
// RUN: kiln-opt %s --split-input-file --kiln-map-to-kernels | FileCheck %s

// Softmax: the max loads the lane's elements (l, l + 32, ..., l + 224),
// one past the row's end loading its last point instead; the sum and the
// output read them from registers, and the output stores only the row's
// points, each at its own index.
// CHECK-LABEL: func.func @softmax(
// CHECK: %[[LONGEST:.*]] = arith.maxui
// CHECK: %[[SHORT:.*]] = arith.cmpi ule, %[[LONGEST]], %c256
// CHECK: %[[FITS8:.*]] = arith.andi %{{.*}}, %[[SHORT]]
// CHECK: scf.if %[[FITS8]] {
// CHECK: gpu.launch
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[N:.*]] = arith.maxsi
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %c1
// CHECK: %[[P0:.*]] = arith.addi %[[LANE]], %c0
// CHECK: %[[V0:.*]] = arith.cmpi ult, %[[P0]], %[[N]]
// CHECK: %[[I0:.*]] = arith.addi %c0{{.*}}, %{{.*}} : index
// CHECK: %[[C0:.*]] = arith.minui %[[P0]], %[[LAST]]
// CHECK: %[[L0:.*]] = arith.muli %[[C0]]
// CHECK: %[[P7:.*]] = arith.addi %[[LANE]], %c224
// CHECK: %[[V7:.*]] = arith.cmpi ult, %[[P7]], %[[N]]
// CHECK: %[[I7:.*]] = arith.addi %c0{{.*}}, %{{.*}} : index
// CHECK-NOT: scf.if
// CHECK-COUNT-8: memref.load %{{.*}} : memref<1x?xf32
// CHECK: %[[M0:.*]] = arith.maximumf
// CHECK-NEXT: arith.select %[[V0]], %[[M0]]
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK-NOT: memref.load %{{.*}} : memref<1x?xf32
// CHECK: math.exp
// CHECK-NOT: memref.load %{{.*}} : memref<1x?xf32
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK-NOT: memref.load %{{.*}} : memref<1x?xf32
// CHECK: scf.if %[[V0]] {
// CHECK-NEXT: memref.store %{{.*}}[%{{.*}}, %[[I0]]] : memref<1x?xf32
// CHECK-COUNT-6: scf.if
// CHECK: scf.if %[[V7]] {
// CHECK-NEXT: memref.store %{{.*}}[%{{.*}}, %[[I7]]] : memref<1x?xf32
// CHECK: gpu.terminator
// CHECK: } else {
// CHECK: arith.cmpi ule, %[[LONGEST]], %c512
// CHECK: gpu.launch
// CHECK-COUNT-16: memref.load %{{.*}} : memref<1x?xf32
// CHECK-NOT: memref.load %{{.*}} : memref<1x?xf32
// CHECK: gpu.terminator
// CHECK: } else {
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @softmax(%x: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %row = memref.subview %x[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    %max = memref.alloca() : memref<1xf32>
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      memref.store %ninf, %max[%i] : memref<1xf32>
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      scf.for %k = %c0 to %n step %c1 {
        %v = memref.load %row[%i, %k] : memref<1x?xf32, strided<[?, 1], offset: ?>>
        %m = memref.load %max[%i] : memref<1xf32>
        %next = arith.maximumf %v, %m : f32
        memref.store %next, %max[%i] : memref<1xf32>
      }
      scf.reduce
    }
    %sum = memref.alloca() : memref<1xf32>
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      memref.store %zero, %sum[%i] : memref<1xf32>
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      scf.for %k = %c0 to %n step %c1 {
        %v = memref.load %row[%i, %k] : memref<1x?xf32, strided<[?, 1], offset: ?>>
        %m = memref.load %max[%i] : memref<1xf32>
        %s = memref.load %sum[%i] : memref<1xf32>
        %d = arith.subf %v, %m : f32
        %e = math.exp %d : f32
        %next = arith.addf %e, %s : f32
        memref.store %next, %sum[%i] : memref<1xf32>
      }
      scf.reduce
    }
    %dst = memref.subview %out[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %n) step (%c1, %c1) {
      %v = memref.load %row[%i, %j] : memref<1x?xf32, strided<[?, 1], offset: ?>>
      %m = memref.load %max[%i] : memref<1xf32>
      %s = memref.load %sum[%i] : memref<1xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %y = arith.divf %e, %s : f32
      memref.store %y, %dst[%i, %j] : memref<1x?xf32, strided<[?, 1], offset: ?>>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// A variance whose sum of squares is the tile's root, accumulated in
// global memory: the mean loads the row, the sum of squares reuses it,
// and lane 0 alone adds the warp's total to the output.
// CHECK-LABEL: func.func @variance(
// CHECK: arith.cmpi ule, %{{.*}}, %c256
// CHECK: gpu.launch
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK-COUNT-8: memref.load %{{.*}} : memref<1x?xf32
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK-NOT: memref.load %{{.*}} : memref<1x?xf32
// CHECK: arith.mulf
// CHECK-NOT: memref.load %{{.*}} : memref<1x?xf32
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: scf.if %[[LEADER]] {
// CHECK: memref.load %{{.*}} : memref<1xf32, strided<[1], offset: ?>>
// CHECK: memref.store %{{.*}} : memref<1xf32, strided<[1], offset: ?>>
// CHECK: gpu.terminator
func.func @variance(%x: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %row = memref.subview %x[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    %mean = memref.alloca() : memref<1xf32>
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      memref.store %zero, %mean[%i] : memref<1xf32>
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      scf.for %k = %c0 to %n step %c1 {
        %v = memref.load %row[%i, %k] : memref<1x?xf32, strided<[?, 1], offset: ?>>
        %s = memref.load %mean[%i] : memref<1xf32>
        %next = arith.addf %v, %s : f32
        memref.store %next, %mean[%i] : memref<1xf32>
      }
      scf.reduce
    }
    %o = memref.subview %out[%r] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      scf.for %k = %c0 to %n step %c1 {
        %v = memref.load %row[%i, %k] : memref<1x?xf32, strided<[?, 1], offset: ?>>
        %m = memref.load %mean[%i] : memref<1xf32>
        %d = arith.subf %v, %m : f32
        %sq = arith.mulf %d, %d : f32
        %s = memref.load %o[%i] : memref<1xf32, strided<[1], offset: ?>>
        %next = arith.addf %sq, %s : f32
        memref.store %next, %o[%i] : memref<1xf32, strided<[1], offset: ?>>
      }
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// A row whose length the tile computes itself is not known to the host
// before the launch, so the tile keeps the kernel of any length alone.
// CHECK-LABEL: func.func @length_in_tile(
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @length_in_tile(%x: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %row = memref.subview %x[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    %m = memref.dim %row, %c1 : memref<1x?xf32, strided<[?, 1], offset: ?>>
    %mean = memref.alloca() : memref<1xf32>
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      memref.store %zero, %mean[%i] : memref<1xf32>
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      scf.for %k = %c0 to %m step %c1 {
        %v = memref.load %row[%i, %k] : memref<1x?xf32, strided<[?, 1], offset: ?>>
        %s = memref.load %mean[%i] : memref<1xf32>
        %next = arith.addf %v, %s : f32
        memref.store %next, %mean[%i] : memref<1xf32>
      }
      scf.reduce
    }
    %o = memref.subview %out[%r] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      scf.for %k = %c0 to %m step %c1 {
        %v = memref.load %row[%i, %k] : memref<1x?xf32, strided<[?, 1], offset: ?>>
        %mu = memref.load %mean[%i] : memref<1xf32>
        %d = arith.subf %v, %mu : f32
        %s = memref.load %o[%i] : memref<1xf32, strided<[1], offset: ?>>
        %next = arith.addf %d, %s : f32
        memref.store %next, %o[%i] : memref<1xf32, strided<[1], offset: ?>>
      }
      scf.reduce
    }
    scf.reduce
  }
  return
}
