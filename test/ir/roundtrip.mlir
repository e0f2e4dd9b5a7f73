// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// Every kiln op and the !kiln.list type parse, verify and print back to a
// form that parses again to the same text. The comment above each case
// says what else it proves.

// Elementwise binary ops on tensors broadcast and promote
func.func @binary(%a: tensor<3x4xf32>, %b: tensor<4xf32>, %i: tensor<3x4xi64>, %n: i64, %f: f64) {
// CHECK-LABEL: func.func @binary
  // Two tensors broadcast: 3x4 with 4 gives 3x4.
  %0 = kiln.add %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  // CHECK: kiln.add %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  // A result may be less static than the inferred type.
  %1 = kiln.sub %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  // CHECK: kiln.sub %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  // A Python int with an f32 tensor stays f32.
  %2 = kiln.mul %a, %n : (tensor<3x4xf32>, i64) -> tensor<3x4xf32>
  // CHECK: kiln.mul %{{.*}}, %{{.*}} : (tensor<3x4xf32>, i64) -> tensor<3x4xf32>
  // True division of ints gives a float tensor.
  %3 = kiln.div %i, %n : (tensor<3x4xi64>, i64) -> tensor<3x4xf32>
  // CHECK: kiln.div %{{.*}}, %{{.*}} : (tensor<3x4xi64>, i64) -> tensor<3x4xf32>
  // Python scalars give a Python scalar: int // int is an int.
  %4 = kiln.floordiv %n, %n : (i64, i64) -> i64
  // CHECK: kiln.floordiv %{{.*}}, %{{.*}} : (i64, i64) -> i64
  // int % float is a float.
  %5 = kiln.rem %n, %f : (i64, f64) -> f64
  // CHECK: kiln.rem %{{.*}}, %{{.*}} : (i64, f64) -> f64
  // pow with a Python float keeps the f32 tensor dtype.
  %6 = kiln.pow %a, %f : (tensor<3x4xf32>, f64) -> tensor<3x4xf32>
  // CHECK: kiln.pow %{{.*}}, %{{.*}} : (tensor<3x4xf32>, f64) -> tensor<3x4xf32>
  // maximum broadcasts like add.
  %7 = kiln.maximum %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  // CHECK: kiln.maximum %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  // An i64 tensor with an f32 tensor promotes to f32.
  %8 = kiln.minimum %i, %a : (tensor<3x4xi64>, tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: kiln.minimum %{{.*}}, %{{.*}} : (tensor<3x4xi64>, tensor<3x4xf32>) -> tensor<3x4xf32>
  // Bitwise ops take int tensors and Python ints.
  %9 = kiln.bitand %i, %n : (tensor<3x4xi64>, i64) -> tensor<3x4xi64>
  // CHECK: kiln.bitand %{{.*}}, %{{.*}} : (tensor<3x4xi64>, i64) -> tensor<3x4xi64>
  // int | int is an int.
  %10 = kiln.bitor %n, %n : (i64, i64) -> i64
  // CHECK: kiln.bitor %{{.*}}, %{{.*}} : (i64, i64) -> i64
  // bitxor of two int tensors.
  %11 = kiln.bitxor %i, %i : (tensor<3x4xi64>, tensor<3x4xi64>) -> tensor<3x4xi64>
  // CHECK: kiln.bitxor %{{.*}}, %{{.*}} : (tensor<3x4xi64>, tensor<3x4xi64>) -> tensor<3x4xi64>
  // Comparisons print their predicate as a keyword and yield i1.
  %12 = kiln.cmp lt, %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  // CHECK: kiln.cmp lt, %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  // Python scalars compare to a bool, int with float allowed.
  %13 = kiln.cmp eq, %n, %f : (i64, f64) -> i1
  // CHECK: kiln.cmp eq, %{{.*}}, %{{.*}} : (i64, f64) -> i1
  return
}

// Unary ops keep their operand type
func.func @unary(%a: tensor<?x4xf32>, %i: tensor<2xi32>, %f: f64, %n: i64, %b: tensor<2xi1>, %c: i1) {
// CHECK-LABEL: func.func @unary
  // neg keeps a dynamic dim.
  %0 = kiln.neg %a : tensor<?x4xf32>
  // CHECK: kiln.neg %{{.*}} : tensor<?x4xf32>
  // abs takes a Python int.
  %1 = kiln.abs %n : i64
  // CHECK: kiln.abs %{{.*}} : i64
  // The float math ops take float tensors ...
  %2 = kiln.exp %a : tensor<?x4xf32>
  // CHECK: kiln.exp %{{.*}} : tensor<?x4xf32>
  // ... and Python floats.
  %3 = kiln.log %f : f64
  // CHECK: kiln.log %{{.*}} : f64
  // tanh on a float tensor.
  %4 = kiln.tanh %a : tensor<?x4xf32>
  // CHECK: kiln.tanh %{{.*}} : tensor<?x4xf32>
  // sigmoid on a float tensor.
  %5 = kiln.sigmoid %a : tensor<?x4xf32>
  // CHECK: kiln.sigmoid %{{.*}} : tensor<?x4xf32>
  // relu also takes int tensors.
  %6 = kiln.relu %i : tensor<2xi32>
  // CHECK: kiln.relu %{{.*}} : tensor<2xi32>
  // sqrt of a Python float.
  %7 = kiln.sqrt %f : f64
  // CHECK: kiln.sqrt %{{.*}} : f64
  // rsqrt on a float tensor.
  %8 = kiln.rsqrt %a : tensor<?x4xf32>
  // CHECK: kiln.rsqrt %{{.*}} : tensor<?x4xf32>
  // sin on a float tensor.
  %9 = kiln.sin %a : tensor<?x4xf32>
  // CHECK: kiln.sin %{{.*}} : tensor<?x4xf32>
  // cos of a Python float.
  %10 = kiln.cos %f : f64
  // CHECK: kiln.cos %{{.*}} : f64
  // floor on a float tensor.
  %11 = kiln.floor %a : tensor<?x4xf32>
  // CHECK: kiln.floor %{{.*}} : tensor<?x4xf32>
  // ceil of a Python float.
  %12 = kiln.ceil %f : f64
  // CHECK: kiln.ceil %{{.*}} : f64
  // not takes bool tensors and bools.
  %13 = kiln.not %b : tensor<2xi1>
  // CHECK: kiln.not %{{.*}} : tensor<2xi1>
  // not takes bool tensors and bools.
  %14 = kiln.not %c : i1
  // CHECK: kiln.not %{{.*}} : i1
  return
}

// Conversions, constants and undef
func.func @conversions(%a: tensor<?x4xf32>, %one: tensor<1x1xf32>, %n: i64) -> (f64, tensor<2xf32>, !kiln.list<tensor<?xf32>>) {
// CHECK-LABEL: func.func @conversions
  // cast keeps the shape and changes the element type.
  %0 = kiln.cast %a : tensor<?x4xf32> to tensor<?x4xi64>
  // CHECK: kiln.cast %{{.*}} : tensor<?x4xf32> to tensor<?x4xi64>
  // cast converts scalars too.
  %1 = kiln.cast %n : i64 to f64
  // CHECK: kiln.cast %{{.*}} : i64 to f64
  // from_scalar makes a 0-d tensor and may convert.
  %2 = kiln.from_scalar %n : i64 -> tensor<f32>
  // CHECK: kiln.from_scalar %{{.*}} : i64 -> tensor<f32>
  // item reads the single element of a one-element tensor.
  %3 = kiln.item %one : tensor<1x1xf32> -> f64
  // CHECK: kiln.item %{{.*}} : tensor<1x1xf32> -> f64
  // constant takes its type from its value.
  %4 = kiln.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: kiln.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // undef may stand for any kind of value, lists included.
  %5 = kiln.undef : !kiln.list<tensor<?xf32>>
  // CHECK: kiln.undef : !kiln.list<tensor<?xf32>>
  return %3, %4, %5 : f64, tensor<2xf32>, !kiln.list<tensor<?xf32>>
}

// matmul and reductions
func.func @linalg(%m: tensor<2x3x4xf32>, %k: tensor<4x5xf32>, %v: tensor<4xf32>, %i: tensor<3x4xi32>) {
// CHECK-LABEL: func.func @linalg
  // Batched matmul with a 2-D right operand.
  %0 = kiln.matmul %m, %k : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: kiln.matmul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  // Vector-vector matmul is a 0-d dot product.
  %1 = kiln.matmul %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  // CHECK: kiln.matmul %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  // sum of an int tensor gives i64; empty dims reduce everything.
  %2 = kiln.sum %i {dims = array<i64>, keepdim = false} : tensor<3x4xi32> -> tensor<i64>
  // CHECK: kiln.sum %{{.*}} {dims = array<i64>, keepdim = false} : tensor<3x4xi32> -> tensor<i64>
  // mean with keepdim keeps size-1 dims.
  %3 = kiln.mean %m {dims = array<i64: 1, 2>, keepdim = true} : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  // CHECK: kiln.mean %{{.*}} {dims = array<i64: 1, 2>, keepdim = true} : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  // amax drops the reduced dim.
  %4 = kiln.amax %m {dims = array<i64: 0>, keepdim = false} : tensor<2x3x4xf32> -> tensor<3x4xf32>
  // CHECK: kiln.amax %{{.*}} {dims = array<i64: 0>, keepdim = false} : tensor<2x3x4xf32> -> tensor<3x4xf32>
  // amin keeps the int dtype.
  %5 = kiln.amin %i {dims = array<i64: 1>, keepdim = false} : tensor<3x4xi32> -> tensor<3xi32>
  // CHECK: kiln.amin %{{.*}} {dims = array<i64: 1>, keepdim = false} : tensor<3x4xi32> -> tensor<3xi32>
  // var carries its correction.
  %6 = kiln.var %m {correction = 1 : i64, dims = array<i64: 2>, keepdim = false} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  // CHECK: kiln.var %{{.*}} {correction = 1 : i64, dims = array<i64: 2>, keepdim = false} : tensor<2x3x4xf32> -> tensor<2x3xf32>
  // max_dim returns values and i64 indices.
  %7:2 = kiln.max_dim %m {dim = 1 : i64, keepdim = false} : tensor<2x3x4xf32> -> (tensor<2x4xf32>, tensor<2x4xi64>)
  // CHECK: kiln.max_dim %{{.*}} {dim = 1 : i64, keepdim = false} : tensor<2x3x4xf32> -> (tensor<2x4xf32>, tensor<2x4xi64>)
  return
}

// Shape ops
func.func @shapes(%a: tensor<?x4xf32>, %n: i64) {
// CHECK-LABEL: func.func @shapes
  // dim reads one size.
  %0 = kiln.dim %a, 0 : tensor<?x4xf32>
  // CHECK: kiln.dim %{{.*}}, 0 : tensor<?x4xf32>
  %c2 = arith.constant 2 : i64
  %m1 = arith.constant -1 : i64
  // reshape takes one size operand per result dim.
  %1 = kiln.reshape %a[%m1, %c2] : tensor<?x4xf32> -> tensor<?x2xf32>
  // CHECK: kiln.reshape %{{.*}}[%{{.*}}, %{{.*}}] : tensor<?x4xf32> -> tensor<?x2xf32>
  // expand may add leading dims and stretch size-1 dims.
  %2 = kiln.expand %a[%n, %m1, %m1] : tensor<?x4xf32> -> tensor<?x?x4xf32>
  // CHECK: kiln.expand %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : tensor<?x4xf32> -> tensor<?x?x4xf32>
  // unsqueeze may append a dim at the end.
  %3 = kiln.unsqueeze %a {dim = 2 : i64} : tensor<?x4xf32> -> tensor<?x4x1xf32>
  // CHECK: kiln.unsqueeze %{{.*}} {dim = 2 : i64} : tensor<?x4xf32> -> tensor<?x4x1xf32>
  // squeeze removes a size-1 dim.
  %4 = kiln.squeeze %3 {dim = 2 : i64} : tensor<?x4x1xf32> -> tensor<?x4xf32>
  // CHECK: kiln.squeeze %{{.*}} {dim = 2 : i64} : tensor<?x4x1xf32> -> tensor<?x4xf32>
  // transpose swaps the static and dynamic dims.
  %5 = kiln.transpose %a {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<?x4xf32> -> tensor<4x?xf32>
  // CHECK: kiln.transpose %{{.*}} {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<?x4xf32> -> tensor<4x?xf32>
  // permute reorders dims.
  %6 = kiln.permute %3 {dims = array<i64: 2, 0, 1>} : tensor<?x4x1xf32> -> tensor<1x?x4xf32>
  // CHECK: kiln.permute %{{.*}} {dims = array<i64: 2, 0, 1>} : tensor<?x4x1xf32> -> tensor<1x?x4xf32>
  return
}

// Indexing and functional updates
func.func @indexing(%a: tensor<?x4xf32>, %row: tensor<4xf32>, %i: i64, %j: i64) {
// CHECK-LABEL: func.func @indexing
  %s = arith.constant 1 : i64
  // select drops the indexed dim.
  %0 = kiln.select %a[%i] {dim = 0 : i64} : tensor<?x4xf32> -> tensor<4xf32>
  // CHECK: kiln.select %{{.*}}[%{{.*}}] {dim = 0 : i64} : tensor<?x4xf32> -> tensor<4xf32>
  // slice keeps the rank.
  %1 = kiln.slice %a[%i : %j : %s] {dim = 1 : i64} : tensor<?x4xf32> -> tensor<?x?xf32>
  // CHECK: kiln.slice %{{.*}}[%{{.*}} : %{{.*}} : %{{.*}}] {dim = 1 : i64} : tensor<?x4xf32> -> tensor<?x?xf32>
  // x[i] = row
  %2 = kiln.select_scatter %a[%i] = %row {dim = 0 : i64} : tensor<4xf32> into tensor<?x4xf32>
  // CHECK: kiln.select_scatter %{{.*}}[%{{.*}}] = %{{.*}} {dim = 0 : i64} : tensor<4xf32> into tensor<?x4xf32>
  // x[:, i:j] = src
  %3 = kiln.slice_scatter %a[%i : %j : %s] = %1 {dim = 1 : i64} : tensor<?x?xf32> into tensor<?x4xf32>
  // CHECK: kiln.slice_scatter %{{.*}}[%{{.*}} : %{{.*}} : %{{.*}}] = %{{.*}} {dim = 1 : i64} : tensor<?x?xf32> into tensor<?x4xf32>
  return
}

// Creation: full, rand and randn
func.func @creation(%n: i64, %f: f64) {
// CHECK-LABEL: func.func @creation
  %c3 = arith.constant 3 : i64
  // full converts its f64 value to the f32 result.
  %0 = kiln.full %f, [%n, %c3] : f64 -> tensor<?x3xf32>
  // CHECK: kiln.full %{{.*}}, [%{{.*}}, %{{.*}}] : f64 -> tensor<?x3xf32>
  // rand makes an f32 tensor of run-time size.
  %1 = kiln.rand [%n] : tensor<?xf32>
  // CHECK: kiln.rand [%{{.*}}] : tensor<?xf32>
  // randn may produce f64.
  %2 = kiln.randn [%c3, %n] : tensor<3x?xf64>
  // CHECK: kiln.randn [%{{.*}}, %{{.*}}] : tensor<3x?xf64>
  return
}

// Lists, stack and cat
func.func @lists(%a: tensor<3xf32>, %b: tensor<3xf32>, %i: i64) -> (tensor<?x3xf32>, tensor<?xf32>, i64) {
// CHECK-LABEL: func.func @lists
  // A list literal; the list type prints as !kiln.list<T>.
  %0 = kiln.list_construct(%a, %b) : (tensor<3xf32>, tensor<3xf32>) -> !kiln.list<tensor<3xf32>>
  // CHECK: kiln.list_construct(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<3xf32>) -> !kiln.list<tensor<3xf32>>
  // An empty list.
  %1 = kiln.list_construct() : () -> !kiln.list<i64>
  // CHECK: kiln.list_construct() : () -> !kiln.list<i64>
  // list_append returns a new list.
  %2 = kiln.list_append %0, %a : !kiln.list<tensor<3xf32>>, tensor<3xf32>
  // CHECK: kiln.list_append %{{.*}}, %{{.*}} : !kiln.list<tensor<3xf32>>, tensor<3xf32>
  // list_get yields the element type.
  %3 = kiln.list_get %2[%i] : !kiln.list<tensor<3xf32>> -> tensor<3xf32>
  // CHECK: kiln.list_get %{{.*}}[%{{.*}}] : !kiln.list<tensor<3xf32>> -> tensor<3xf32>
  // list_len is an int.
  %4 = kiln.list_len %2 : !kiln.list<tensor<3xf32>>
  // CHECK: kiln.list_len %{{.*}} : !kiln.list<tensor<3xf32>>
  // stack adds a dim whose size is the (run-time) list length.
  %5 = kiln.stack %2 {dim = 0 : i64} : !kiln.list<tensor<3xf32>> -> tensor<?x3xf32>
  // CHECK: kiln.stack %{{.*}} {dim = 0 : i64} : !kiln.list<tensor<3xf32>> -> tensor<?x3xf32>
  // cat joins along an existing dim.
  %6 = kiln.cat %2 {dim = 0 : i64} : !kiln.list<tensor<3xf32>> -> tensor<?xf32>
  // CHECK: kiln.cat %{{.*}} {dim = 0 : i64} : !kiln.list<tensor<3xf32>> -> tensor<?xf32>
  // Lists nest.
  %7 = kiln.list_construct(%0) : (!kiln.list<tensor<3xf32>>) -> !kiln.list<!kiln.list<tensor<3xf32>>>
  // CHECK: kiln.list_construct(%{{.*}}) : (!kiln.list<tensor<3xf32>>) -> !kiln.list<!kiln.list<tensor<3xf32>>>
  return %5, %6, %4 : tensor<?x3xf32>, tensor<?xf32>, i64
}

// Side effects: print and assert
func.func @effects(%a: tensor<3xf32>, %n: i64, %c: i1) {
// CHECK-LABEL: func.func @effects
  // print takes tensors and scalars, one per {}.
  kiln.print "x = {} and n = {}"(%a, %n : tensor<3xf32>, i64)
  // CHECK: kiln.print "x = {} and n = {}"(%{{.*}}, %{{.*}} : tensor<3xf32>, i64)
  // A print without arguments; literal braces are doubled.
  kiln.print "{{}}"
  // CHECK: kiln.print "{{[{][{][}][}]}}"
  // assert carries its message.
  kiln.assert %c, "n must be positive"
  // CHECK: kiln.assert %{{.*}}, "n must be positive"
  return
}

// A fusion group with two inputs (one a Python scalar) and two results
// prints its body with explicit block arguments and parses back.
// CHECK-LABEL: func.func @fusion_group
// CHECK: %[[G:.*]]:2 = kiln.fusion_group(%arg0, %arg1) : (tensor<?x4xf32>, f64) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<?x4xf32>, %[[S:.*]]: f64):
// CHECK-NEXT:   %[[M:.*]] = kiln.mul %[[X]], %[[S]]
// CHECK-NEXT:   %[[T:.*]] = kiln.tanh %[[M]]
// CHECK-NEXT:   kiln.yield %[[M]], %[[T]] : tensor<?x4xf32>, tensor<?x4xf32>
// CHECK-NEXT: }
func.func @fusion_group(%x: tensor<?x4xf32>, %s: f64) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %0:2 = kiln.fusion_group(%x, %s) : (tensor<?x4xf32>, f64) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  ^bb0(%a: tensor<?x4xf32>, %b: f64):
    %m = kiln.mul %a, %b : (tensor<?x4xf32>, f64) -> tensor<?x4xf32>
    %t = kiln.tanh %m : tensor<?x4xf32>
    kiln.yield %m, %t : tensor<?x4xf32>, tensor<?x4xf32>
  }
  return %0#0, %0#1 : tensor<?x4xf32>, tensor<?x4xf32>
}

// Ops of nn.Module models
func.func @nn_ops(%x: tensor<?x4x32x32xf32>, %w: tensor<8x2x3x3xf32>, %c: tensor<?x1xi1>, %v: tensor<3xf32>, %i: tensor<?x5xi64>, %e: tensor<10x16xbf16>, %n: i64, %f: f64, %xl: tensor<?x32x32x16xf32>, %wl: tensor<24x16x3x3xf32>) {
// CHECK-LABEL: func.func @nn_ops
  // erf is a float unary op like tanh.
  %0 = kiln.erf %x : tensor<?x4x32x32xf32>
  // CHECK: kiln.erf %{{.*}} : tensor<?x4x32x32xf32>
  // A strided, padded, grouped conv2d: 4 input channels in 2 groups of 2.
  %1 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 2 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<?x4x32x32xf32>, tensor<8x2x3x3xf32>) -> tensor<?x8x16x16xf32>
  // CHECK: kiln.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1>, groups = 2 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<?x4x32x32xf32>, tensor<8x2x3x3xf32>) -> tensor<?x8x16x16xf32>
  // The same convolution channels last: N x H x W x C in and out.
  %cl = kiln.conv2d %xl, %wl {channels_last, dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<?x32x32x16xf32>, tensor<24x16x3x3xf32>) -> tensor<?x16x16x24xf32>
  // CHECK: kiln.conv2d %{{.*}}, %{{.*}} {channels_last, dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<?x32x32x16xf32>, tensor<24x16x3x3xf32>) -> tensor<?x16x16x24xf32>
  // max_pool2d with ceil_mode rounds (32 - 3) / 2 up: 16 windows, not 15.
  %2 = kiln.max_pool2d %x {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<?x4x32x32xf32> -> tensor<?x4x16x16xf32>
  // CHECK: kiln.max_pool2d %{{.*}} {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<?x4x32x32xf32> -> tensor<?x4x16x16xf32>
  // avg_pool2d has no dilation but count_include_pad.
  %3 = kiln.avg_pool2d %x {ceil_mode = false, count_include_pad = false, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<?x4x32x32xf32> -> tensor<?x4x16x16xf32>
  // CHECK: kiln.avg_pool2d %{{.*}} {ceil_mode = false, count_include_pad = false, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<?x4x32x32xf32> -> tensor<?x4x16x16xf32>
  // where broadcasts all three operands; a Python float keeps the f32 dtype.
  %4 = kiln.where %c, %v, %f : (tensor<?x1xi1>, tensor<3xf32>, f64) -> tensor<?x3xf32>
  // CHECK: kiln.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x1xi1>, tensor<3xf32>, f64) -> tensor<?x3xf32>
  // arange takes Python ints and floats; the result's dtype is its own.
  %5 = kiln.arange %n, %f, %n : (i64, f64, i64) -> tensor<?xf32>
  // CHECK: kiln.arange %{{.*}}, %{{.*}}, %{{.*}} : (i64, f64, i64) -> tensor<?xf32>
  // embedding appends the row size to the indices' shape.
  %6 = kiln.embedding %e[%i] : (tensor<10x16xbf16>, tensor<?x5xi64>) -> tensor<?x5x16xbf16>
  // CHECK: kiln.embedding %{{.*}}[%{{.*}}] : (tensor<10x16xbf16>, tensor<?x5xi64>) -> tensor<?x5x16xbf16>
  return
}

// Indexing, scans and reordering: gather takes the index's shape,
// index_select puts the index count at `dim`, a scan may change the element
// type, flip and sort keep the input's type (sort adds i64 indices).
// CHECK-LABEL: func.func @indexing_ops
func.func @indexing_ops(%x: tensor<?x6xf32>, %j: tensor<?x3xi64>, %k: tensor<4xi32>) {
  %0 = kiln.gather %x[%j] {dim = 1 : i64} : (tensor<?x6xf32>, tensor<?x3xi64>) -> tensor<?x3xf32>
  // CHECK: kiln.gather %{{.*}}[%{{.*}}] {dim = 1 : i64} : (tensor<?x6xf32>, tensor<?x3xi64>) -> tensor<?x3xf32>
  %1 = kiln.index_select %x[%k] {dim = 0 : i64} : (tensor<?x6xf32>, tensor<4xi32>) -> tensor<4x6xf32>
  // CHECK: kiln.index_select %{{.*}}[%{{.*}}] {dim = 0 : i64} : (tensor<?x6xf32>, tensor<4xi32>) -> tensor<4x6xf32>
  %2 = kiln.cumsum %x {dim = 1 : i64} : tensor<?x6xf32> -> tensor<?x6xf64>
  // CHECK: kiln.cumsum %{{.*}} {dim = 1 : i64} : tensor<?x6xf32> -> tensor<?x6xf64>
  %3 = kiln.cumprod %j {dim = 0 : i64} : tensor<?x3xi64> -> tensor<?x3xi64>
  // CHECK: kiln.cumprod %{{.*}} {dim = 0 : i64} : tensor<?x3xi64> -> tensor<?x3xi64>
  %4 = kiln.flip %x {dims = array<i64: 1, 0>} : tensor<?x6xf32> -> tensor<?x6xf32>
  // CHECK: kiln.flip %{{.*}} {dims = array<i64: 1, 0>} : tensor<?x6xf32> -> tensor<?x6xf32>
  %5:2 = kiln.sort %x {descending = true} : tensor<?x6xf32> -> (tensor<?x6xf32>, tensor<?x6xi64>)
  // CHECK: kiln.sort %{{.*}} {descending = true} : tensor<?x6xf32> -> (tensor<?x6xf32>, tensor<?x6xi64>)
  return
}

// A weight is declared, with its type, in the enclosing module's kiln.params.
// CHECK: module attributes {kiln.params = {fc.weight = tensor<3x4xf32>}}
// CHECK: kiln.param "fc.weight" : tensor<3x4xf32>
module attributes {kiln.params = {"fc.weight" = tensor<3x4xf32>}} {
  func.func @param() -> tensor<3x4xf32> {
    %0 = kiln.param "fc.weight" : tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }
}

// With ceil_mode a window may hang over the end of the input, as PyTorch's
// pooling_output_shape allows: a 2x2 input, kernel 3, stride 2 gives 1x1.
// A bool scalar condition picks between tensors without changing the shape.
// CHECK-LABEL: func.func @window_overhang
// CHECK: -> tensor<1x1x1x1xf32>
// CHECK: kiln.where %{{.*}} : (i1, tensor<?xf16>, f64) -> tensor<?xf16>
func.func @window_overhang(%x: tensor<1x1x2x2xf32>, %c: i1, %v: tensor<?xf16>, %s: f64) {
  %0 = kiln.max_pool2d %x {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<1x1x2x2xf32> -> tensor<1x1x1x1xf32>
  %1 = kiln.where %c, %v, %s : (i1, tensor<?xf16>, f64) -> tensor<?xf16>
  return
}
