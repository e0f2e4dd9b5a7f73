// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg | FileCheck %s

// print() becomes calls through kiln/abi.h: the format goes into the
// kiln.strings table and is passed by index, a tensor is passed as an
// unranked view of whatever buffer it has (no copy), a bool widens to i32.
// CHECK: kiln.strings = ["x = {} n = {} b = {}"]
// CHECK-LABEL: func.func @print
// CHECK: call @kiln_rt_print_begin(%c0_i64)
// CHECK: %[[M:.*]] = bufferization.to_memref %arg0 read_only : memref<?xf32, strided<[?], offset: ?>>
// CHECK: %[[U:.*]] = memref.cast %[[M]] : memref<?xf32, strided<[?], offset: ?>> to memref<*xf32>
// CHECK: call @kiln_rt_print_tensor_f32(%[[U]])
// CHECK: call @kiln_rt_print_i64(
// CHECK: %[[B:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: call @kiln_rt_print_bool(%[[B]])
// CHECK: call @kiln_rt_print_end()
func.func @print(%x: tensor<?xf32>, %n: i64, %b: i1) attributes {kiln.entry} {
  kiln.print "x = {} n = {} b = {}"(%x, %n, %b : tensor<?xf32>, i64, i1)
  return
}

// -----

// assert raises its site when the condition is false; braces in the user's
// message are doubled so the runtime does not read them as placeholders.
// CHECK: message = "AssertionError: n must be {{[{][{]}}positive{{[}][}]}}"
// CHECK-LABEL: func.func private @assert
// CHECK: %[[F:.*]] = arith.xori %arg0, %true
// CHECK: scf.if %[[F]] {
// CHECK:   func.call @kiln_rt_raise
func.func @assert(%c: i1) {
  kiln.assert %c, "AssertionError: n must be {positive}"
  return
}

// -----

// A list appended in a loop is mutated in place: the loop-carried list is
// seen by nothing else, so no clone is made. The list becomes an opaque
// pointer in the scf.for's iter_args; torch.stack asks the runtime for the
// result's dynamic sizes, allocates, and lets the runtime fill the buffer.
// CHECK-LABEL: func.func @append_in_loop
// CHECK: %[[L:.*]] = call @kiln_rt_list_new() : () -> !llvm.ptr
// CHECK: scf.for {{.*}} iter_args(%[[ARG:.*]] = %[[L]]) -> (!llvm.ptr)
// CHECK-NOT: kiln_rt_list_clone
// CHECK:   func.call @kiln_rt_list_append_f32(%[[ARG]], %{{.*}}) : (!llvm.ptr, memref<*xf32>) -> ()
// CHECK:   scf.yield %[[ARG]] : !llvm.ptr
// CHECK: call @kiln_rt_list_result_dim(
// CHECK: %[[BUF:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK: call @kiln_rt_list_materialize_f32(
// CHECK: bufferization.to_tensor %[[BUF]] restrict writable : memref<?x?xf32>
func.func @append_in_loop(%x: tensor<?xf32>, %n: index) -> tensor<?x?xf32> attributes {kiln.entry} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %empty = kiln.list_construct() : () -> !kiln.list<tensor<?xf32>>
  %list = scf.for %i = %c0 to %n step %c1 iter_args(%l = %empty) -> (!kiln.list<tensor<?xf32>>) {
    %next = kiln.list_append %l, %x : !kiln.list<tensor<?xf32>>, tensor<?xf32>
    scf.yield %next : !kiln.list<tensor<?xf32>>
  }
  %s = kiln.stack %list {dim = 0 : i64} : !kiln.list<tensor<?xf32>> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// -----

// Appending to a list that is still used afterwards copies it first, so the
// functional semantics of kiln.list_append survive the mutable runtime list.
// CHECK-LABEL: func.func private @append_keeps_old
// CHECK: %[[A:.*]] = call @kiln_rt_list_new()
// CHECK: %[[B:.*]] = call @kiln_rt_list_clone(%[[A]])
// CHECK: call @kiln_rt_list_append_i64(%[[B]]
// CHECK: call @kiln_rt_list_len(%[[A]])
// CHECK: call @kiln_rt_list_len(%[[B]])
func.func @append_keeps_old(%v: i64) -> (i64, i64) {
  %a = kiln.list_construct() : () -> !kiln.list<i64>
  %b = kiln.list_append %a, %v : !kiln.list<i64>, i64
  %na = kiln.list_len %a : !kiln.list<i64>
  %nb = kiln.list_len %b : !kiln.list<i64>
  return %na, %nb : i64, i64
}
