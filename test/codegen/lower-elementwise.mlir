// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg | FileCheck %s

// A static size-1 (here: missing) dim broadcasts through a constant-free
// indexing map; the static dims agree at compile time, so no run-time check
// is emitted.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @static_broadcast
// CHECK-NOT: kiln_rt_raise
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.addf
func.func @static_broadcast(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> attributes {kiln.entry} {
  %0 = kiln.add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Two dynamic dims must agree at run time: the size of b is compared with
// a's and a mismatch raises one of two sites (the second says why when one
// size is 1). Both messages land in the module's kiln.sites table.
// CHECK: kiln.sites = [{col = 8 : i64, file = "{{.*}}", line = {{[0-9]+}} : i64, message = "the size of tensor a ({0}) must match the size of tensor b ({1}) at non-singleton dimension 0"}, {col = 8 : i64, file = "{{.*}}", line = {{[0-9]+}} : i64, message = "the size of tensor a ({0}) must match the size of tensor b ({1}) at non-singleton dimension 0; kiln broadcasts a dynamic dim only where its shape spec declares it 1"}]
// CHECK: func.func private @kiln_rt_raise(i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @dynamic_dims_checked
// CHECK: %[[DA:.*]] = tensor.dim %arg0
// CHECK: %[[DB:.*]] = tensor.dim %arg1
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[DB]], %[[DA]]
// CHECK: %[[SITE:.*]] = arith.select %{{.*}}, %c1_i64, %c0_i64
// CHECK: scf.if %[[NE]] {
// CHECK:   func.call @kiln_rt_raise(%[[SITE]], %{{.*}}, %{{.*}}, %c0_i64
// CHECK: linalg.generic
// CHECK: arith.subf
func.func @dynamic_dims_checked(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> attributes {kiln.entry} {
  %0 = kiln.sub %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A Python float operand is converted to the tensor's dtype once, outside
// the loop, and captured by the body.
// CHECK-LABEL: func.func @scalar_operand
// CHECK: %[[X:.*]] = tensor.extract %arg1[] : tensor<f64>
// CHECK: %[[S:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK: linalg.generic
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK:   arith.mulf %[[IN]], %[[S]] : f32
func.func @scalar_operand(%a: tensor<?xf32>, %s: f64) -> tensor<?xf32> attributes {kiln.entry} {
  %0 = kiln.mul %a, %s : (tensor<?xf32>, f64) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Python int `//` on scalars: division by zero raises instead of trapping,
// so does MIN // -1, the one quotient that does not fit (x86 traps on it),
// and the quotient rounds toward negative infinity. The divide only ever
// sees a safe divisor.
// CHECK: message = "ZeroDivisionError: integer division or modulo by zero"
// CHECK-SAME: message = "OverflowError: {0} // -1 does not fit in a 64-bit integer"
// CHECK-LABEL: func.func private @int_floordiv
// CHECK: %[[Z:.*]] = arith.cmpi eq, %arg1, %c0_i64
// CHECK: scf.if %[[Z]]
// CHECK: %[[M1:.*]] = arith.cmpi eq, %arg1, %c-1_i64
// CHECK: %[[MIN:.*]] = arith.cmpi eq, %arg0, %c-9223372036854775808_i64
// CHECK: %[[OVER:.*]] = arith.andi %[[M1]], %[[MIN]]
// CHECK: scf.if %[[OVER]]
// CHECK:   func.call @kiln_rt_raise(%{{.*}}, %arg0,
// CHECK: %[[UNSAFE:.*]] = arith.ori %[[OVER]], %[[Z]]
// CHECK: %[[D:.*]] = arith.select %[[UNSAFE]], %c1_i64{{.*}}, %arg1
// CHECK: arith.floordivsi %arg0, %[[D]] : i64
func.func @int_floordiv(%a: i64, %b: i64) -> i64 {
  %0 = kiln.floordiv %a, %b : (i64, i64) -> i64
  return %0 : i64
}

// -----

// != on floats is unordered (NaN != NaN is true, as in Python); < is
// ordered.
// CHECK-LABEL: func.func @compare
// CHECK: arith.cmpf une
// CHECK: arith.cmpf olt
func.func @compare(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xi1>, tensor<3xi1>) attributes {kiln.entry} {
  %0 = kiln.cmp ne, %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %1 = kiln.cmp lt, %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %0, %1 : tensor<3xi1>, tensor<3xi1>
}

// -----

// float to int truncates toward zero; .item() on a dynamic tensor checks it
// has exactly one element.
// CHECK: message = "a Tensor with {0} elements cannot be converted to Scalar"
// CHECK-LABEL: func.func @cast_and_item
// CHECK: arith.fptosi %{{.*}} : f32 to i64
// CHECK: arith.cmpi ne, %{{.*}}, %c1
// CHECK: func.call @kiln_rt_raise
// CHECK: tensor.extract
func.func @cast_and_item(%a: tensor<?xf32>) -> (tensor<?xi64>, f64) attributes {kiln.entry} {
  %0 = kiln.cast %a : tensor<?xf32> to tensor<?xi64>
  %1 = kiln.item %a : tensor<?xf32> -> f64
  return %0, %1 : tensor<?xi64>, f64
}

// -----

// Entry points take and return only tensors (kiln/abi.h): a Python scalar
// parameter arrives as a rank-0 tensor and a scalar result leaves as one.
// Inputs are the caller's buffers, so they are not writable. Helpers
// become private.
// CHECK-LABEL: func.func @scalar_boundary(%arg0: tensor<i64> {bufferization.writable = false}) -> tensor<i64> attributes {kiln.entry, llvm.emit_c_interface}
// CHECK: %[[X:.*]] = tensor.extract %arg0[] : tensor<i64>
// CHECK: %[[R:.*]] = call @helper(%[[X]])
// CHECK: tensor.from_elements %[[R]] : tensor<i64>
// CHECK: func.func private @helper(%arg0: i64) -> i64
// CHECK-LABEL: func.func @view_result
// CHECK: %[[S:.*]] = tensor.extract_slice
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[C:.*]] = linalg.copy ins(%[[S]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK: return %[[C]]
func.func @scalar_boundary(%n: i64) -> i64 attributes {kiln.entry} {
  %0 = func.call @helper(%n) : (i64) -> i64
  return %0 : i64
}
func.func @helper(%n: i64) -> i64 {
  return %n : i64
}

// A result that is a view of an input is copied into a fresh dense buffer:
// the ABI hands results over as separately owned, dense buffers.
func.func @view_result(%x: tensor<3x4xf32>, %i: i64) -> tensor<4xf32> attributes {kiln.entry} {
  %0 = kiln.select %x[%i] {dim = 0 : i64} : tensor<3x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
