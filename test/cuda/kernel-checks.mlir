// kiln-kernel-checks: a run-time check inside a future kernel (an
// outermost scf.parallel) cannot call the runtime. The host asks for the
// call's check record once, before the loop; the raise becomes a
// compare-and-swap of site + 1 into the record's word 0, and the thread
// that wins stores the check's values in words 1 to 4. What follows the
// check in its block runs only if it passed, yielding zeros otherwise, so
// the index it guards is never read. A check outside a loop stays a raise.
// RUN: kiln-opt %s --kiln-kernel-checks | FileCheck %s

func.func private @kiln_rt_raise(i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}

// CHECK-LABEL: func.func @lookup(
// CHECK-SAME: %[[T:.*]]: memref<?xf32>, %[[I:.*]]: memref<?x?xi64>, %[[OUT:.*]]: memref<?xf32>, %[[N:.*]]: i64)
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: func.call @kiln_rt_raise(
// CHECK: %[[REC:.*]] = call @kiln_rt_kernel_check_record() : () -> !llvm.ptr
// CHECK-NEXT: scf.parallel (%[[P:.*]]) =
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK: %[[IDX:.*]] = memref.load %[[I]]
// CHECK: %[[BAD:.*]] = arith.ori
// CHECK: scf.if %[[BAD]] {
// CHECK: %[[CODE:.*]] = arith.addi %c7_i64, %{{.*}} : i64
// CHECK: %[[SWAP:.*]] = llvm.cmpxchg %[[REC]], %{{.*}}, %[[CODE]] monotonic monotonic : !llvm.ptr, i64
// CHECK: %[[WON:.*]] = llvm.extractvalue %[[SWAP]][1]
// CHECK: scf.if %[[WON]] {
// CHECK: %[[W1:.*]] = llvm.getelementptr %[[REC]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT: llvm.store %[[IDX]], %[[W1]] : i64, !llvm.ptr
// CHECK: %[[W2:.*]] = llvm.getelementptr %[[REC]][2]
// CHECK-NEXT: llvm.store %[[N]], %[[W2]]
// CHECK-NOT: func.call @kiln_rt_raise
// CHECK: %[[PASSED:.*]] = arith.xori %[[BAD]], %true
// CHECK: %[[NEXT:.*]] = scf.if %[[PASSED]] -> (f32) {
// CHECK: %[[AT:.*]] = arith.index_cast %[[IDX]]
// CHECK: %[[V:.*]] = memref.load %[[T]][%[[AT]]]
// CHECK: %[[ADD:.*]] = arith.addf %[[ACC]], %[[V]]
// CHECK: scf.yield %[[ADD]] : f32
// CHECK: } else {
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.yield %[[ZERO]] : f32
// CHECK: scf.yield %[[NEXT]] : f32
// CHECK: memref.store %[[SUM]], %[[OUT]][%[[P]]]
func.func @lookup(%table: memref<?xf32>, %idx: memref<?x?xi64>,
                  %out: memref<?xf32>, %n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %c3_i64 = arith.constant 3 : i64
  %c7_i64 = arith.constant 7 : i64
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %idx, %c0 : memref<?x?xi64>
  %cols = memref.dim %idx, %c1 : memref<?x?xi64>
  %empty = arith.cmpi eq, %n, %c0_i64 : i64
  scf.if %empty {
    func.call @kiln_rt_raise(%c3_i64, %c0_i64, %c0_i64, %c0_i64, %c0_i64) : (i64, i64, i64, i64, i64) -> ()
  }
  scf.parallel (%p) = (%c0) to (%rows) step (%c1) {
    %sum = scf.for %k = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
      %i = memref.load %idx[%p, %k] : memref<?x?xi64>
      %neg = arith.cmpi slt, %i, %c0_i64 : i64
      %big = arith.cmpi sge, %i, %n : i64
      %bad = arith.ori %neg, %big : i1
      scf.if %bad {
        func.call @kiln_rt_raise(%c7_i64, %i, %n, %c0_i64, %c0_i64) : (i64, i64, i64, i64, i64) -> ()
      }
      %at = arith.index_cast %i : i64 to index
      %v = memref.load %table[%at] : memref<?xf32>
      %add = arith.addf %acc, %v : f32
      scf.yield %add : f32
    }
    memref.store %sum, %out[%p] : memref<?xf32>
    scf.reduce
  }
  return
}
