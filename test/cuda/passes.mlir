// The CUDA passes alone, with kiln-opt.
//
// kiln-map-to-kernels: an outermost scf.parallel becomes one gpu.launch of
// 256-thread blocks over its flattened iterations, each thread taking four
// points (kPointsPerThread) 256 apart; each point's flat index is split
// back into (i, j). A block whose points all exist runs the four bodies
// op by op, every load before the first store; the last block guards each
// point. The load of the rank-0 argument (a Python scalar, kept on the
// host) moves out of the kernel. kiln-host-scratch puts a buffer only the
// host touches on the stack.
// RUN: kiln-opt %s --kiln-map-to-kernels --kiln-host-scratch | FileCheck %s
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %[[X:.*]]: memref<?x?xf32>, %[[S:.*]]: memref<f32>, %[[OUT:.*]]: memref<?x?xf32>)
// CHECK: %[[V:.*]] = memref.load %[[S]][] : memref<f32>
//
// The host computes, once per launch, whether the points fit 32 bits, and
// the magic number, shift and divisor that split a flat index by the inner
// extent with a multiply (FastDivision.cpp).
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[TOTAL:.*]], %c2147483647 : index
// CHECK: math.ctlz
// CHECK: %[[MAGIC:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[SHIFT:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[DIVISOR:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[THREADS:.*]] = arith.constant 256 : index
// CHECK: %[[PERBLOCK:.*]] = arith.constant 1024 : index
// CHECK: %[[BLOCKS:.*]] = arith.ceildivsi %[[TOTAL]], %[[PERBLOCK]] : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[THREADS]],
// CHECK: %[[FIRST:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK: %[[END:.*]] = arith.addi %[[FIRST]], %{{.*}} : index
// CHECK: %[[FULL:.*]] = arith.cmpi sle, %[[END]], %[[TOTAL]] : index
// CHECK: scf.if %[[FULL]] {
// CHECK: %[[OFF0:.*]] = arith.addi %[[TX]], %c0{{.*}} : index
// CHECK: %[[P0:.*]] = arith.addi %[[FIRST]], %[[OFF0]] : index
// CHECK: %[[IJ:.*]]:2 = scf.if %[[FITS]] -> (index, index) {
// CHECK: %[[N:.*]] = arith.index_castui %[[P0]] : index to i32
// CHECK: %{{.*}}, %[[HIGH:.*]] = arith.mului_extended %[[N]], %[[MAGIC]] : i32
// CHECK: %[[SUM:.*]] = arith.addi %[[HIGH]], %[[N]] : i32
// CHECK: %[[Q:.*]] = arith.shrui %[[SUM]], %[[SHIFT]] : i32
// CHECK: arith.muli %[[Q]], %[[DIVISOR]] : i32
// CHECK: } else {
// CHECK: arith.remui %[[P0]]
// CHECK: arith.divui %[[P0]]
// CHECK: }
// CHECK: arith.addi %[[TX]], %c256{{.*}} : index
// CHECK: arith.addi %[[TX]], %c512{{.*}} : index
// CHECK: arith.addi %[[TX]], %c768{{.*}} : index
// CHECK-COUNT-4: memref.load %[[X]]
// CHECK-COUNT-4: arith.mulf %{{.*}}, %[[V]] : f32
// CHECK-COUNT-4: memref.store %{{.*}}, %[[OUT]]
// CHECK: } else {
// CHECK-COUNT-4: scf.if
// CHECK: gpu.terminator
// CHECK: memref.alloca() : memref<2xindex>
// CHECK-NOT: memref.dealloc
// CHECK: return
//
// kiln-kernel-launches, after outlining: the kernel moves to
// @kiln_kernels, and its launch becomes a call of the declaration
// kiln_launch__scale_kernel (grid, block, then the kernel's operands).
// RUN: kiln-opt %s --kiln-map-to-kernels --kiln-host-scratch --gpu-kernel-outlining --kiln-kernel-launches | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: func.func private @kiln_launch__scale_kernel(index, index, index, index, index, index,
// LAUNCH: call @kiln_launch__scale_kernel(
// LAUNCH-NOT: gpu.launch_func
// LAUNCH: gpu.module @kiln_kernels {
// LAUNCH-NEXT: gpu.func @scale_kernel(
// LAUNCH-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>}
//
// A row reduction becomes a warp per output: lane l sums elements l,
// l + 32, ... of the row from 0, 16 at a time (their loads first, then
// added in order) while 16 are left and then one at a time; five xor
// shuffles combine the warp, and lane 0 adds the output's initial value
// and stores. Eight rows per block.
// RUN: kiln-opt %s --kiln-map-to-kernels | FileCheck %s --check-prefix=WARP
// WARP-LABEL: func.func @row_sums(
// WARP: %[[EIGHT:.*]] = arith.constant 8 : index
// WARP: %[[BLOCKS:.*]] = arith.ceildivsi %{{.*}}, %[[EIGHT]] : index
// WARP: gpu.launch
// WARP: %[[LANE:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// WARP: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// WARP: %[[COUNT:.*]] = arith.divui
// WARP: %[[BATCHES:.*]] = arith.divui %[[COUNT]], %c16
// WARP: %[[FIRSTS:.*]] = arith.muli %[[BATCHES]], %c16
// WARP: %[[SPAN:.*]] = arith.muli %[[FIRSTS]]
// WARP: %[[SPLIT:.*]] = arith.addi %{{.*}}, %[[SPAN]] : index
// WARP: %[[BATCHED:.*]] = scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// WARP-COUNT-16: memref.load
// WARP: %[[A0:.*]] = arith.addf %{{.*}}, %[[ACC]] : f32
// WARP: %[[A1:.*]] = arith.addf %{{.*}}, %[[A0]] : f32
// WARP-COUNT-13: arith.addf
// WARP: %[[A15:.*]] = arith.addf
// WARP: scf.yield %[[A15]] : f32
// WARP: %[[SUM:.*]] = scf.for %{{.*}} = %[[SPLIT]] to %{{.*}} step %{{.*}} iter_args(%[[REST:.*]] = %[[BATCHED]]) -> (f32) {
// WARP: arith.addf %{{.*}}, %[[REST]] : f32
// WARP: gpu.shuffle  xor %[[SUM]], %c16_i32, %c32_i32 : f32
// WARP-COUNT-4: gpu.shuffle  xor
// WARP: scf.if
// WARP: %[[INIT:.*]] = memref.load
// WARP: %[[ALL:.*]] = arith.addf %{{.*}}, %[[INIT]] : f32
// WARP: memref.store %[[ALL]]
//
// A reduction kiln knows no identity for (a subtraction) keeps a thread
// per output, its row in a loop.
// WARP-LABEL: func.func @row_differences(
// WARP: %[[THREADS:.*]] = arith.constant 256 : index
// WARP-NOT: gpu.shuffle
// WARP: scf.for
// WARP: arith.subf
// WARP-NOT: gpu.shuffle
// WARP: return

// kiln-host-device-access: the host code's read of a device tensor's
// element (a Python number taken from it) becomes the runtime's
// device_read of the element's address, the aligned pointer plus
// (offset + i * stride) * 4 bytes, and a write device_write of the value's
// bits. The rank-0 input the runtime keeps on the host is read in place.
// kiln-check-host-code then refuses what is left that touches device
// memory: a copy on the host.
// RUN: not kiln-opt %s --kiln-map-to-kernels --kiln-host-scratch --kiln-host-device-access --kiln-check-host-code --split-input-file 2>/dev/null | FileCheck %s --check-prefix=HOST
// RUN: not kiln-opt %s --kiln-map-to-kernels --kiln-host-scratch --kiln-host-device-access --kiln-check-host-code --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REFUSE
// HOST-LABEL: func.func @branch(
// HOST-SAME: %[[X:.*]]: memref<4xf32>, %[[S:.*]]: memref<f32>)
// HOST: %[[SCALE:.*]] = memref.load %[[S]][] : memref<f32>
// HOST: %[[BASE:.*]], %[[OFFSET:.*]], %[[SIZE:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata %[[X]]
// HOST: %[[AT:.*]] = arith.muli %c2, %[[STRIDE]] : index
// HOST: %[[LINEAR:.*]] = arith.addi %[[OFFSET]], %[[AT]] : index
// HOST: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// HOST: %[[BYTES:.*]] = arith.muli %[[LINEAR]], %c4
// HOST: %[[ADDR:.*]] = arith.addi %[[PTR]], %[[BYTES]]
// HOST: %[[WORD:.*]] = arith.index_cast %[[ADDR]] : index to i64
// HOST: %[[P:.*]] = llvm.inttoptr %[[WORD]] : i64 to !llvm.ptr
// HOST: %[[BITS:.*]] = call @kiln_rt_device_read(%[[P]], %c4_i64) : (!llvm.ptr, i64) -> i64
// HOST: %[[LOW:.*]] = arith.trunci %[[BITS]] : i64 to i32
// HOST: %[[V:.*]] = arith.bitcast %[[LOW]] : i32 to f32
// HOST: %[[W:.*]] = arith.mulf %[[V]], %[[SCALE]]
// HOST: %[[WBITS:.*]] = arith.bitcast %[[W]] : f32 to i32
// HOST: %[[WIDE:.*]] = arith.extui %[[WBITS]] : i32 to i64
// HOST: call @kiln_rt_device_write(%{{.*}}, %[[WIDE]], %c4_i64{{.*}}) : (!llvm.ptr, i64, i64) -> ()
// HOST: return %[[V]] : f32
// REFUSE: error: --target=cuda does not support a copy or loop nest left on the host yet

func.func @scale(%x: memref<?x?xf32>, %s: memref<f32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %x, %c0 : memref<?x?xf32>
  %d1 = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%d0, %d1) step (%c1, %c1) {
    %a = memref.load %x[%i, %j] : memref<?x?xf32>
    %v = memref.load %s[] : memref<f32>
    %b = arith.mulf %a, %v : f32
    memref.store %b, %out[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  %scratch = memref.alloc() : memref<2xindex>
  memref.store %c0, %scratch[%c0] : memref<2xindex>
  memref.dealloc %scratch : memref<2xindex>
  return
}

func.func @row_sums(%x: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    scf.for %k = %c0 to %cols step %c1 {
      %v = memref.load %x[%i, %k] : memref<?x?xf32>
      %o = memref.load %out[%i] : memref<?xf32>
      %s = arith.addf %v, %o : f32
      memref.store %s, %out[%i] : memref<?xf32>
    }
    scf.reduce
  }
  return
}

func.func @row_differences(%x: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    scf.for %k = %c0 to %cols step %c1 {
      %v = memref.load %x[%i, %k] : memref<?x?xf32>
      %o = memref.load %out[%i] : memref<?xf32>
      %s = arith.subf %o, %v : f32
      memref.store %s, %out[%i] : memref<?xf32>
    }
    scf.reduce
  }
  return
}

// -----

func.func @branch(%x: memref<4xf32>, %s: memref<f32>) -> f32 {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %scale = memref.load %s[] : memref<f32>
  %v = memref.load %x[%c2] : memref<4xf32>
  %w = arith.mulf %v, %scale : f32
  memref.store %w, %x[%c3] : memref<4xf32>
  return %v : f32
}

// -----

func.func @copy(%x: memref<4xf32>, %y: memref<4xf32>) {
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return
}
