// kiln-map-to-kernels on GPU row tiles (codegen/cuda/WarpTiles.cpp): a
// parallel loop over rows whose body holds the tile's loops, as
// kiln-tile-fusion-groups{gpu}, kiln-tile-stack-buffers, scf-forall-to-
// parallel and convert-linalg-to-parallel-loops leave it, becomes one
// kernel with a warp per row.
// RUN: kiln-opt %s --split-input-file --kiln-map-to-kernels | FileCheck %s

// Softmax: the row's max and sum are each lane's own buffers (alloca);
// the lanes reduce each together with xor shuffles, after which every
// lane stores the result in its own copy. The output's points go to the
// lanes in turn, 16 in flight (512 a round), then one at a time (32
// apart). Nothing is read back from global memory, so no __syncwarp.
// This is the kernel for rows longer than the register path's two tiers
// take (row-in-registers.mlir), the third launch.
// CHECK-LABEL: func.func @softmax(
// CHECK-COUNT-2: gpu.launch
// CHECK: gpu.launch {{.*}} threads(%[[TX:[a-z0-9]+]],
// CHECK: %[[WARP:.*]] = arith.divui %[[TX]], %c32
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[WARP]] : index
// CHECK: %[[LANE:.*]] = arith.remui %[[TX]], %c32
// CHECK: scf.if
// CHECK: %[[MAX:.*]] = memref.alloca() : memref<1xf32>
// CHECK: memref.store %{{.*}}, %[[MAX]]
// CHECK: arith.muli %[[LANE]]
// CHECK: scf.for
// CHECK: arith.maximumf
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK-NOT: scf.if
// CHECK: %[[OLD:.*]] = memref.load %[[MAX]]
// CHECK: %[[NEW:.*]] = arith.maximumf %{{.*}}, %[[OLD]]
// CHECK: memref.store %[[NEW]], %[[MAX]]
// CHECK: %[[SUM:.*]] = memref.alloca() : memref<1xf32>
// CHECK: math.exp
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: memref.store %{{.*}}, %[[SUM]]
// CHECK: scf.for %[[BASE:.*]] = %{{.*}} to %{{.*}} step %c512
// CHECK: arith.addi %[[LANE]], %c0
// CHECK: arith.addi %[[LANE]], %c32
// CHECK: arith.addi %[[LANE]], %c64
// CHECK: arith.addi %[[LANE]], %c480
// CHECK-COUNT-16: memref.load %{{.*}} : memref<1x?xf32
// CHECK-COUNT-16: math.exp
// CHECK-COUNT-16: memref.store
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// CHECK: math.exp
// CHECK: memref.store
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: gpu.terminator
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

// A row written to global memory and read back by the row's sum: the
// lanes wrote different points, so a __syncwarp comes between. The sum
// accumulates in global memory (the tile's root), so lane 0 alone
// combines it with the initial value and stores it.
// CHECK-LABEL: func.func @written_then_read(
// CHECK: gpu.launch {{.*}} threads(%[[TX:[a-z0-9]+]],
// CHECK: %[[LANE:.*]] = arith.remui %[[TX]], %c32
// CHECK: step %c512
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<1x?xf32
// CHECK: step %c32
// CHECK: %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync %[[ALL]] : i32
// CHECK: scf.for
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: scf.if %[[LEADER]] {
// CHECK: memref.load %{{.*}} : memref<1xf32
// CHECK: arith.addf
// CHECK: memref.store %{{.*}} : memref<1xf32
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK: gpu.terminator
func.func @written_then_read(%x: memref<?x?xf32>, %tmp: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %row = memref.subview %x[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    %t = memref.subview %tmp[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %n) step (%c1, %c1) {
      %v = memref.load %row[%i, %j] : memref<1x?xf32, strided<[?, 1], offset: ?>>
      %e = math.exp %v : f32
      memref.store %e, %t[%i, %j] : memref<1x?xf32, strided<[?, 1], offset: ?>>
      scf.reduce
    }
    %o = memref.subview %out[%r] [1] [1] : memref<?xf32> to memref<1xf32, strided<[1], offset: ?>>
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      scf.for %k = %c0 to %n step %c1 {
        %v = memref.load %t[%i, %k] : memref<1x?xf32, strided<[?, 1], offset: ?>>
        %s = memref.load %o[%i] : memref<1xf32, strided<[1], offset: ?>>
        %next = arith.addf %v, %s : f32
        memref.store %next, %o[%i] : memref<1xf32, strided<[1], offset: ?>>
      }
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// A sum of f64, which gpu.shuffle does not move: every lane sums the whole
// row into its own buffer, each getting the same result. Correct, and no
// faster than a thread per row.
// CHECK-LABEL: func.func @wide_sum(
// CHECK: gpu.launch {{.*}} threads(%[[TX:[a-z0-9]+]],
// CHECK: arith.remui %[[TX]], %c32
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<1xf64>
// CHECK-NOT: gpu.shuffle
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: step %c512
// CHECK: gpu.terminator
func.func @wide_sum(%x: memref<?x?xf64>, %out: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %rows = memref.dim %x, %c0 : memref<?x?xf64>
  %n = memref.dim %x, %c1 : memref<?x?xf64>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %row = memref.subview %x[%r, 0] [1, %n] [1, 1] : memref<?x?xf64> to memref<1x?xf64, strided<[?, 1], offset: ?>>
    %acc = memref.alloca() : memref<1xf64>
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      memref.store %zero, %acc[%i] : memref<1xf64>
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
      scf.for %k = %c0 to %n step %c1 {
        %v = memref.load %row[%i, %k] : memref<1x?xf64, strided<[?, 1], offset: ?>>
        %s = memref.load %acc[%i] : memref<1xf64>
        %next = arith.addf %v, %s : f64
        memref.store %next, %acc[%i] : memref<1xf64>
      }
      scf.reduce
    }
    %dst = memref.subview %out[%r, 0] [1, %n] [1, 1] : memref<?x?xf64> to memref<1x?xf64, strided<[?, 1], offset: ?>>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %n) step (%c1, %c1) {
      %v = memref.load %row[%i, %j] : memref<1x?xf64, strided<[?, 1], offset: ?>>
      %s = memref.load %acc[%i] : memref<1xf64>
      %y = arith.divf %v, %s : f64
      memref.store %y, %dst[%i, %j] : memref<1x?xf64, strided<[?, 1], offset: ?>>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// A loop that writes both a lane's own buffer and global memory cannot be
// shared by a warp: the tile keeps a thread per row.
// CHECK-LABEL: func.func @both_kinds(
// CHECK: gpu.launch
// CHECK-NOT: arith.remui %{{.*}}, %c32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.terminator
func.func @both_kinds(%x: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    %row = memref.subview %x[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    %own = memref.alloca() : memref<1xf32>
    %dst = memref.subview %out[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<1x?xf32, strided<[?, 1], offset: ?>>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %n) step (%c1, %c1) {
      %v = memref.load %row[%i, %j] : memref<1x?xf32, strided<[?, 1], offset: ?>>
      memref.store %v, %own[%i] : memref<1xf32>
      memref.store %v, %dst[%i, %j] : memref<1x?xf32, strided<[?, 1], offset: ?>>
      scf.reduce
    }
    scf.reduce
  }
  return
}
