// RUN: kiln-opt %s --split-input-file --kiln-constant-fold | FileCheck %s

// kiln-constant-fold evaluates kiln ops on constants the way the generated
// code would, replaces float-safe identities by their operand, and removes
// `if`s on constant conditions and loops that never run. The comment above
// each case says what it proves; the NEGATIVE cases prove what must stay.

// Python ints: `//` rounds toward -inf and `%` takes the divisor's sign, also
// with negative operands; int ** non-negative int stays an int.
// CHECK-LABEL: func.func @int_arith
// CHECK-DAG: %[[M4:.*]] = arith.constant -4 : i64
// CHECK-DAG: %[[P1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[P:.*]] = arith.constant 1024 : i64
// CHECK-DAG: %[[S:.*]] = arith.constant -35 : i64
// CHECK-NOT: kiln.
// CHECK: return %[[M4]], %[[P1]], %[[M4]], %[[M1]], %[[P]], %[[S]]
func.func @int_arith() -> (i64, i64, i64, i64, i64, i64) {
  %m7 = arith.constant -7 : i64
  %p7 = arith.constant 7 : i64
  %p2 = arith.constant 2 : i64
  %m2 = arith.constant -2 : i64
  %p10 = arith.constant 10 : i64
  %p1 = arith.constant 1 : i64
  %0 = kiln.floordiv %m7, %p2 : (i64, i64) -> i64
  %1 = kiln.rem %m7, %p2 : (i64, i64) -> i64
  %2 = kiln.floordiv %p7, %m2 : (i64, i64) -> i64
  %3 = kiln.rem %p7, %m2 : (i64, i64) -> i64
  %4 = kiln.pow %p2, %p10 : (i64, i64) -> i64
  // (-7 - 10) * 2 + -2 + 1 = -35
  %5 = kiln.sub %m7, %p10 : (i64, i64) -> i64
  %6 = kiln.mul %5, %p2 : (i64, i64) -> i64
  %7 = kiln.add %6, %m2 : (i64, i64) -> i64
  %8 = kiln.add %7, %p1 : (i64, i64) -> i64
  return %0, %1, %2, %3, %4, %8 : i64, i64, i64, i64, i64, i64
}

// -----

// Python floats: float // and % follow Python too, and int with float
// promotes to float.
// CHECK-LABEL: func.func @float_arith
// CHECK-DAG: %[[FD:.*]] = arith.constant -4.000000e+00 : f64
// CHECK-DAG: %[[M1:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-DAG: %[[M2:.*]] = arith.constant -5.000000e-01 : f64
// CHECK-DAG: %[[D:.*]] = arith.constant 3.500000e+00 : f64
// CHECK-NOT: kiln.
// CHECK: return %[[FD]], %[[M1]], %[[M2]], %[[D]]
func.func @float_arith() -> (f64, f64, f64, f64) {
  %a = arith.constant -7.5 : f64
  %b = arith.constant 2.0 : f64
  %nb = arith.constant -2.0 : f64
  %c = arith.constant 7.5 : f64
  %n = arith.constant 7 : i64
  %0 = kiln.floordiv %a, %b : (f64, f64) -> f64
  %1 = kiln.rem %a, %b : (f64, f64) -> f64
  %2 = kiln.rem %c, %nb : (f64, f64) -> f64
  // int / int is a float: 7 / 2 = 3.5.
  %p2 = arith.constant 2 : i64
  %3 = kiln.div %n, %p2 : (i64, i64) -> f64
  return %0, %1, %2, %3 : f64, f64, f64, f64
}

// -----

// Comparisons, not, and bitwise ops on bools give bools; bool + bool is
// an int in Python.
// CHECK-LABEL: func.func @compare
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NOT: kiln.
// CHECK: return %[[T]], %[[F]], %[[F]], %[[T]], %[[TWO]]
func.func @compare() -> (i1, i1, i1, i1, i64) {
  %one = arith.constant 1 : i64
  %half = arith.constant 1.5 : f64
  %t = arith.constant true
  %0 = kiln.cmp lt, %one, %half : (i64, f64) -> i1
  %1 = kiln.cmp eq, %one, %half : (i64, f64) -> i1
  %2 = kiln.not %0 : i1
  %3 = kiln.bitor %2, %0 : (i1, i1) -> i1
  %4 = kiln.add %t, %t : (i1, i1) -> i64
  return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i64
}

// -----

// Casts between scalars: float to int truncates toward zero, and bool(x) is
// x != 0.
// CHECK-LABEL: func.func @scalar_casts
// CHECK-DAG: %[[M3:.*]] = arith.constant -3 : i64
// CHECK-DAG: %[[F:.*]] = arith.constant 7.000000e+00 : f64
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-NOT: kiln.
// CHECK: return %[[M3]], %[[F]], %[[T]]
func.func @scalar_casts() -> (i64, f64, i1) {
  %a = arith.constant -3.7 : f64
  %n = arith.constant 7 : i64
  %0 = kiln.cast %a : f64 to i64
  %1 = kiln.cast %n : i64 to f64
  %2 = kiln.cast %a : f64 to i1
  return %0, %1, %2 : i64, f64, i1
}

// -----

// NEGATIVE: division and modulo by zero are left for the run time to report,
// and so is int ** negative int, a cast whose float does not fit an int,
// and int arithmetic that overflows in the generated code's division.
// CHECK-LABEL: func.func @no_fold_errors
// CHECK: kiln.floordiv
// CHECK: kiln.rem
// CHECK: kiln.div
// CHECK: kiln.rem
// CHECK: kiln.pow
// CHECK: kiln.cast
// CHECK: kiln.floordiv
func.func @no_fold_errors() -> (i64, i64, f64, f64, i64, i64, i64) {
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  %fone = arith.constant 1.0 : f64
  %fzero = arith.constant 0.0 : f64
  %neg = arith.constant -1 : i64
  %big = arith.constant 1.0e30 : f64
  %min = arith.constant -9223372036854775808 : i64
  %0 = kiln.floordiv %one, %zero : (i64, i64) -> i64
  %1 = kiln.rem %one, %zero : (i64, i64) -> i64
  %2 = kiln.div %fone, %fzero : (f64, f64) -> f64
  %3 = kiln.rem %fone, %fzero : (f64, f64) -> f64
  %4 = kiln.pow %one, %neg : (i64, i64) -> i64
  %5 = kiln.cast %big : f64 to i64
  %6 = kiln.floordiv %min, %neg : (i64, i64) -> i64
  return %0, %1, %2, %3, %4, %5, %6 : i64, i64, f64, f64, i64, i64, i64
}

// -----

// A static dim is a constant, and arithmetic on it folds; a dynamic one
// stays a query.
// CHECK-LABEL: func.func @dims
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[D:.*]] = kiln.dim %arg0, 0
// CHECK: return %[[C16]], %[[D]]
func.func @dims(%x: tensor<?x4xf32>) -> (i64, i64) {
  %c4 = arith.constant 4 : i64
  %0 = kiln.dim %x, 1 : tensor<?x4xf32>
  %1 = kiln.mul %0, %c4 : (i64, i64) -> i64
  %2 = kiln.dim %x, 0 : tensor<?x4xf32>
  return %1, %2 : i64, i64
}

// -----

// Constant tensors fold elementwise with broadcasting and PyTorch's type
// promotion: an f32 tensor with a Python float stays f32, an i32 tensor with
// a Python int stays i32, and int / int gives f32.
// CHECK-LABEL: func.func @tensor_elementwise
// CHECK-DAG: kiln.constant dense<[2.500000e+00, 3.500000e+00, 4.500000e+00]> : tensor<3xf32>
// CHECK-DAG: kiln.constant dense<{{\[}}[11, 12, 13], [21, 22, 23]]> : tensor<2x3xi32>
// CHECK-DAG: kiln.constant dense<[5.000000e-01, 1.000000e+00, 1.500000e+00]> : tensor<3xf32>
// CHECK-DAG: kiln.constant dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: kiln.constant dense<[-2, 1, -1]> : tensor<3xi32>
// CHECK-NOT: kiln.add
// CHECK-NOT: kiln.div
// CHECK-NOT: kiln.cmp
// CHECK-NOT: kiln.floordiv
// CHECK: return
func.func @tensor_elementwise() -> (tensor<3xf32>, tensor<2x3xi32>, tensor<3xf32>, tensor<3xi1>, tensor<3xi32>) {
  %a = kiln.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %half = arith.constant 1.5 : f64
  %0 = kiln.add %a, %half : (tensor<3xf32>, f64) -> tensor<3xf32>
  %col = kiln.constant dense<[[10], [20]]> : tensor<2x1xi32>
  %row = kiln.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1 = kiln.add %col, %row : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %two = arith.constant 2 : i64
  %2 = kiln.div %row, %two : (tensor<3xi32>, i64) -> tensor<3xf32>
  %3 = kiln.cmp gt, %a, %half : (tensor<3xf32>, f64) -> tensor<3xi1>
  %num = kiln.constant dense<[-7, 3, -3]> : tensor<3xi32>
  %den = kiln.constant dense<[4, 2, 3]> : tensor<3xi32>
  %4 = kiln.floordiv %num, %den : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<2x3xi32>, tensor<3xf32>, tensor<3xi1>, tensor<3xi32>
}

// -----

// Unary ops, casts, from_scalar and full fold on constants; f16 math runs in
// f32 and rounds once, as the generated code does.
// CHECK-LABEL: func.func @tensor_unary
// CHECK-DAG: kiln.constant dense<[0.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: kiln.constant dense<[-1, 2]> : tensor<2xi64>
// CHECK-DAG: kiln.constant dense<3.000000e+00> : tensor<f16>
// CHECK-DAG: kiln.constant dense<7> : tensor<2x3xi32>
// CHECK-DAG: kiln.constant dense<[1.000000e+00, 2.718750e+00]> : tensor<2xf16>
// CHECK-NOT: kiln.relu
// CHECK-NOT: kiln.cast
// CHECK-NOT: kiln.from_scalar
// CHECK-NOT: kiln.full
// CHECK-NOT: kiln.exp
// CHECK: return
func.func @tensor_unary() -> (tensor<2xf32>, tensor<2xi64>, tensor<f16>, tensor<2x3xi32>, tensor<2xf16>) {
  %a = kiln.constant dense<[-1.5, 2.0]> : tensor<2xf32>
  %0 = kiln.relu %a : tensor<2xf32>
  %1 = kiln.cast %a : tensor<2xf32> to tensor<2xi64>
  %three = arith.constant 3 : i64
  %2 = kiln.from_scalar %three : i64 -> tensor<f16>
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %seven = arith.constant 7.9 : f64
  %3 = kiln.full %seven, [%c2, %c3] : f64 -> tensor<2x3xi32>
  %h = kiln.constant dense<[0.0, 1.0]> : tensor<2xf16>
  %4 = kiln.exp %h : tensor<2xf16>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xi64>, tensor<f16>, tensor<2x3xi32>, tensor<2xf16>
}

// -----

// Shape ops on constants: reshape, unsqueeze, transpose and permute reorder
// the elements; expand repeats them.
// CHECK-LABEL: func.func @tensor_shapes
// CHECK-DAG: kiln.constant dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
// CHECK-DAG: kiln.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi64>
// CHECK-DAG: kiln.constant dense<{{\[}}{{\[}}[1, 2, 3]], {{\[}}[4, 5, 6]]]> : tensor<2x1x3xi64>
// CHECK-DAG: kiln.constant dense<{{\[}}[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi64>
// CHECK-NOT: kiln.reshape
// CHECK-NOT: kiln.transpose
// CHECK-NOT: kiln.unsqueeze
// CHECK-NOT: kiln.expand
// CHECK-NOT: kiln.permute
// CHECK: return
func.func @tensor_shapes() -> (tensor<2x3xi64>, tensor<3x2xi64>, tensor<2x1x3xi64>, tensor<2x3xi64>, tensor<3x2xi64>) {
  %v = kiln.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>
  %c2 = arith.constant 2 : i64
  %m1 = arith.constant -1 : i64
  %0 = kiln.reshape %v[%c2, %m1] : tensor<6xi64> -> tensor<2x3xi64>
  %1 = kiln.transpose %0 {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<2x3xi64> -> tensor<3x2xi64>
  %2 = kiln.unsqueeze %0 {dim = 1 : i64} : tensor<2x3xi64> -> tensor<2x1x3xi64>
  %row = kiln.constant dense<[1, 2, 3]> : tensor<3xi64>
  %3 = kiln.expand %row[%c2, %m1] : tensor<3xi64> -> tensor<2x3xi64>
  %4 = kiln.permute %0 {dims = array<i64: 1, 0>} : tensor<2x3xi64> -> tensor<3x2xi64>
  return %0, %1, %2, %3, %4 : tensor<2x3xi64>, tensor<3x2xi64>, tensor<2x1x3xi64>, tensor<2x3xi64>, tensor<3x2xi64>
}

// -----

// NEGATIVE: a result over the 1024-element cap is not folded, splats
// included, so the archive cannot blow up; a result whose type is not fully
// static is not folded either.
// CHECK-LABEL: func.func @size_cap
// CHECK: kiln.full
// CHECK: kiln.add
// CHECK: kiln.full
func.func @size_cap(%n: i64) -> (tensor<2048xf32>, tensor<2048xf32>, tensor<?xf32>) {
  %big = arith.constant 2048 : i64
  %one = arith.constant 1.0 : f64
  %0 = kiln.full %one, [%big] : f64 -> tensor<2048xf32>
  %c = kiln.constant dense<2.0> : tensor<2048xf32>
  %1 = kiln.add %c, %one : (tensor<2048xf32>, f64) -> tensor<2048xf32>
  %small = arith.constant 4 : i64
  %2 = kiln.full %one, [%small] : f64 -> tensor<?xf32>
  return %0, %1, %2 : tensor<2048xf32>, tensor<2048xf32>, tensor<?xf32>
}

// -----

// Identities that hold for every float: x * 1, 1 * x, x / 1, x ** 1,
// x - 0 and x + (-0.0); and x + 0 for an int x. Each returns x itself.
// CHECK-LABEL: func.func @identities
// CHECK-NOT: kiln.
// CHECK: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg1, %arg1
func.func @identities(%x: tensor<?x3xf32>, %n: i64) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, i64, i64) {
  %one = arith.constant 1 : i64
  %fone = arith.constant 1.0 : f64
  %zero = arith.constant 0 : i64
  %negzero = arith.constant -0.0 : f64
  %ones = kiln.constant dense<1.0> : tensor<3xf32>
  %0 = kiln.mul %x, %one : (tensor<?x3xf32>, i64) -> tensor<?x3xf32>
  %1 = kiln.mul %ones, %x : (tensor<3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %2 = kiln.div %x, %fone : (tensor<?x3xf32>, f64) -> tensor<?x3xf32>
  %3 = kiln.pow %x, %one : (tensor<?x3xf32>, i64) -> tensor<?x3xf32>
  %4 = kiln.sub %x, %zero : (tensor<?x3xf32>, i64) -> tensor<?x3xf32>
  %5 = kiln.add %negzero, %x : (f64, tensor<?x3xf32>) -> tensor<?x3xf32>
  %6 = kiln.add %n, %zero : (i64, i64) -> i64
  %7 = kiln.mul %one, %n : (i64, i64) -> i64
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, i64, i64
}

// -----

// NEGATIVE: x - x and x * 0 are NaN for x = inf or NaN, a float x + 0.0 is
// +0.0 for x = -0.0, and x - (-0.0) is x + 0.0; none of them folds. An
// identity whose result type is not x's (broadcast or promotion) does not
// fold either.
// CHECK-LABEL: func.func @no_fold_identities
// CHECK: kiln.sub %arg0, %arg0
// CHECK: kiln.mul %arg0, %{{.*}}
// CHECK: kiln.add %arg0, %{{.*}}
// CHECK: kiln.sub %arg0, %{{.*}}
// CHECK: kiln.mul %arg0, %{{.*}} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: kiln.mul %arg1, %{{.*}} : (i64, f64) -> f64
func.func @no_fold_identities(%x: tensor<?x3xf32>, %n: i64) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>, f64) {
  %zero = arith.constant 0 : i64
  %fzero = arith.constant 0.0 : f64
  %negzero = arith.constant -0.0 : f64
  %fone = arith.constant 1.0 : f64
  %ones = kiln.constant dense<1.0> : tensor<2x3xf32>
  %0 = kiln.sub %x, %x : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = kiln.mul %x, %zero : (tensor<?x3xf32>, i64) -> tensor<?x3xf32>
  %2 = kiln.add %x, %fzero : (tensor<?x3xf32>, f64) -> tensor<?x3xf32>
  %3 = kiln.sub %x, %negzero : (tensor<?x3xf32>, f64) -> tensor<?x3xf32>
  %4 = kiln.mul %x, %ones : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = kiln.mul %n, %fone : (i64, f64) -> f64
  return %0, %1, %2, %3, %4, %5 : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>, f64
}

// -----

// Shape identities: transpose twice with the same dims, permutations that
// compose to the identity, squeeze of the unsqueezed dim, and a cast to the
// same type all give x back.
// CHECK-LABEL: func.func @shape_identities
// CHECK-NOT: kiln.
// CHECK: return %arg0, %arg0, %arg0, %arg0
func.func @shape_identities(%x: tensor<?x3x5xf32>) -> (tensor<?x3x5xf32>, tensor<?x3x5xf32>, tensor<?x3x5xf32>, tensor<?x3x5xf32>) {
  %t = kiln.transpose %x {dim0 = 0 : i64, dim1 = 2 : i64} : tensor<?x3x5xf32> -> tensor<5x3x?xf32>
  %0 = kiln.transpose %t {dim0 = 2 : i64, dim1 = 0 : i64} : tensor<5x3x?xf32> -> tensor<?x3x5xf32>
  %p = kiln.permute %x {dims = array<i64: 1, 2, 0>} : tensor<?x3x5xf32> -> tensor<3x5x?xf32>
  %1 = kiln.permute %p {dims = array<i64: 2, 0, 1>} : tensor<3x5x?xf32> -> tensor<?x3x5xf32>
  %u = kiln.unsqueeze %x {dim = 1 : i64} : tensor<?x3x5xf32> -> tensor<?x1x3x5xf32>
  %2 = kiln.squeeze %u {dim = 1 : i64} : tensor<?x1x3x5xf32> -> tensor<?x3x5xf32>
  %3 = kiln.cast %x : tensor<?x3x5xf32> to tensor<?x3x5xf32>
  return %0, %1, %2, %3 : tensor<?x3x5xf32>, tensor<?x3x5xf32>, tensor<?x3x5xf32>, tensor<?x3x5xf32>
}

// -----

// NEGATIVE: permutations that do not compose to the identity stay, and so
// does a squeeze of another dim than the one unsqueezed.
// CHECK-LABEL: func.func @no_fold_shape_identities
// CHECK: kiln.permute
// CHECK: kiln.permute
// CHECK: kiln.unsqueeze
// CHECK: kiln.squeeze
func.func @no_fold_shape_identities(%x: tensor<3x3x3xf32>, %y: tensor<1x4xf32>) -> (tensor<3x3x3xf32>, tensor<4x1xf32>) {
  %p = kiln.permute %x {dims = array<i64: 1, 2, 0>} : tensor<3x3x3xf32> -> tensor<3x3x3xf32>
  %0 = kiln.permute %p {dims = array<i64: 1, 2, 0>} : tensor<3x3x3xf32> -> tensor<3x3x3xf32>
  %u = kiln.unsqueeze %y {dim = 2 : i64} : tensor<1x4xf32> -> tensor<1x4x1xf32>
  %1 = kiln.squeeze %u {dim = 0 : i64} : tensor<1x4x1xf32> -> tensor<4x1xf32>
  return %0, %1 : tensor<3x3x3xf32>, tensor<4x1xf32>
}

// -----

// reshape(reshape(x)) reshapes x once; a reshape or expand to x's own sizes
// (static constants, x.size(i), or -1 for expand) is x.
// CHECK-LABEL: func.func @reshape_identities
// CHECK: %[[R:.*]] = kiln.reshape %arg0[%{{.*}}] : tensor<?x4xf32> -> tensor<?xf32>
// CHECK-NOT: kiln.reshape
// CHECK-NOT: kiln.expand
// CHECK: return %[[R]], %arg0, %arg0
func.func @reshape_identities(%x: tensor<?x4xf32>) -> (tensor<?xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  %m1 = arith.constant -1 : i64
  %c2 = arith.constant 2 : i64
  %c4 = arith.constant 4 : i64
  %r = kiln.reshape %x[%m1, %c2] : tensor<?x4xf32> -> tensor<?x2xf32>
  %0 = kiln.reshape %r[%m1] : tensor<?x2xf32> -> tensor<?xf32>
  %d = kiln.dim %x, 0 : tensor<?x4xf32>
  %1 = kiln.reshape %x[%d, %c4] : tensor<?x4xf32> -> tensor<?x4xf32>
  %2 = kiln.expand %x[%m1, %c4] : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// NEGATIVE: a reshape to a size that is not known to be x's (another
// tensor's dim, or a run-time int) stays, and so does an expand that
// broadcasts.
// CHECK-LABEL: func.func @no_fold_reshape
// CHECK: kiln.reshape
// CHECK: kiln.expand
func.func @no_fold_reshape(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>, %n: i64) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %c4 = arith.constant 4 : i64
  %d = kiln.dim %y, 0 : tensor<?x4xf32>
  %0 = kiln.reshape %x[%d, %c4] : tensor<?x4xf32> -> tensor<?x4xf32>
  %1 = kiln.expand %x[%n, %c4] : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// An `if` on a condition that folds to a constant is replaced by the branch
// taken.
// CHECK-LABEL: func.func @constant_if
// CHECK-NOT: scf.if
// CHECK: %[[E:.*]] = kiln.exp %arg0
// CHECK: return %[[E]]
func.func @constant_if(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c4 = arith.constant 4 : i64
  %d = kiln.dim %x, 0 : tensor<3xf32>
  %cond = kiln.cmp lt, %d, %c4 : (i64, i64) -> i1
  %r = scf.if %cond -> (tensor<3xf32>) {
    %e = kiln.exp %x : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  } else {
    %t = kiln.tanh %x : tensor<3xf32>
    scf.yield %t : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// A loop over range(n // 4) with n = 3 runs zero times: it disappears and
// its result is its initial value.
// CHECK-LABEL: func.func @zero_trip_loop
// CHECK-NOT: scf.for
// CHECK-NOT: kiln.mul
// CHECK: return %arg0
func.func @zero_trip_loop(%x: tensor<3xf32>) -> tensor<3xf32> {
  %n = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %q = kiln.floordiv %n, %c4 : (i64, i64) -> i64
  %ub = arith.index_cast %q : i64 to index
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %x) -> (tensor<3xf32>) {
    %m = kiln.mul %acc, %acc : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    scf.yield %m : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// NEGATIVE: print, assert and randn have side effects: a print of constants,
// an assert that may fail and an unused randn all stay, in order, while the
// arithmetic feeding them folds. Only an assert of a constant true, which
// cannot fail, goes.
// CHECK-LABEL: func.func @side_effects
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : i64
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK: kiln.print "n = {}"(%[[C6]] : i64)
// CHECK-NEXT: kiln.assert %[[F]], "never"
// CHECK-NEXT: kiln.assert %arg0, "maybe"
// CHECK-NEXT: kiln.randn
// CHECK-NEXT: return
func.func @side_effects(%c: i1) {
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %six = kiln.mul %c2, %c3 : (i64, i64) -> i64
  kiln.print "n = {}"(%six : i64)
  %never = kiln.cmp gt, %c2, %c3 : (i64, i64) -> i1
  kiln.assert %never, "never"
  kiln.assert %c, "maybe"
  %always = kiln.cmp lt, %c2, %c3 : (i64, i64) -> i1
  kiln.assert %always, "always"
  %unused = kiln.randn [%c2] : tensor<2xf32>
  return
}
