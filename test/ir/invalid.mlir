// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Static dims that are neither equal nor 1 do not broadcast.
func.func @broadcast_mismatch(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{operands are not broadcast-compatible: tensor<3xf32> and tensor<4xf32> differ in dimension 0 (3 vs 4)}}
  %0 = kiln.add %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Dims are numbered in the broadcast result, aligned on the right.
func.func @broadcast_mismatch_ranks(%a: tensor<2x3xf32>, %b: tensor<5x4x3xf32>) {
  // expected-error @+1 {{tensor<2x3xf32> and tensor<5x4x3xf32> differ in dimension 1 (2 vs 4)}}
  %0 = kiln.mul %a, %b : (tensor<2x3xf32>, tensor<5x4x3xf32>) -> tensor<5x4x3xf32>
  return
}

// -----

// A result may be less static than inferred, but not contradict a static dim.
func.func @result_contradicts_dim(%a: tensor<3xf32>, %b: tensor<1xf32>) {
  // expected-error @+1 {{result type tensor<5xf32> contradicts the inferred type tensor<3xf32> in dimension 0 (5 vs 3)}}
  %0 = kiln.sub %a, %b : (tensor<3xf32>, tensor<1xf32>) -> tensor<5xf32>
  return
}

// -----

// The result element type follows PyTorch's promotion (int tensor * float tensor is float).
func.func @result_wrong_dtype(%a: tensor<3xi64>, %b: tensor<3xf32>) {
  // expected-error @+1 {{result type tensor<3xi64> contradicts the inferred type tensor<3xf32> (element type)}}
  %0 = kiln.mul %a, %b : (tensor<3xi64>, tensor<3xf32>) -> tensor<3xi64>
  return
}

// -----

// Two Python scalars give a Python scalar, not a tensor.
func.func @scalar_result_is_scalar(%a: i64, %b: i64) {
  // expected-error @+1 {{result type tensor<i64> contradicts the inferred type i64}}
  %0 = kiln.add %a, %b : (i64, i64) -> tensor<i64>
  return
}

// -----

// Python int / int is a float.
func.func @truediv_is_float(%a: i64, %b: i64) {
  // expected-error @+1 {{result type i64 contradicts the inferred type f64}}
  %0 = kiln.div %a, %b : (i64, i64) -> i64
  return
}

// -----

// Bitwise ops reject floats.
func.func @bitwise_float(%a: tensor<3xf32>, %b: i64) {
  // expected-error @+1 {{bitwise operations need bool or int operands, got tensor<3xf32> and i64}}
  %0 = kiln.bitand %a, %b : (tensor<3xf32>, i64) -> tensor<3xf32>
  return
}

// -----

// Comparisons yield bools.
func.func @cmp_not_bool(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{result type tensor<3xf32> contradicts the inferred type tensor<3xi1> (element type)}}
  %0 = kiln.cmp gt, %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// The float math ops reject int tensors.
func.func @exp_int(%a: tensor<3xi32>) {
  // expected-error @+1 {{needs a float tensor or a float, got tensor<3xi32>}}
  %0 = kiln.exp %a : tensor<3xi32>
  return
}

// -----

// neg rejects bools, as PyTorch does.
func.func @neg_bool(%a: tensor<3xi1>) {
  // expected-error @+1 {{needs a numeric operand, got tensor<3xi1>}}
  %0 = kiln.neg %a : tensor<3xi1>
  return
}

// -----

// not takes only bools.
func.func @not_float(%a: f64) {
  // expected-error @+1 {{needs a bool tensor or a bool, got f64}}
  %0 = kiln.not %a : f64
  return
}

// -----

// cast never turns a tensor into a scalar (that is kiln.item).
func.func @cast_tensor_to_scalar(%a: tensor<f32>) {
  // expected-error @+1 {{casts a tensor to a tensor or a scalar to a scalar, got tensor<f32> to f64}}
  %0 = kiln.cast %a : tensor<f32> to f64
  return
}

// -----

// cast keeps the shape.
func.func @cast_shape(%a: tensor<3xf32>) {
  // expected-error @+1 {{cannot change the shape: tensor<3xf32> to tensor<4xi64>}}
  %0 = kiln.cast %a : tensor<3xf32> to tensor<4xi64>
  return
}

// -----

// from_scalar makes a 0-d tensor.
func.func @from_scalar_rank(%a: f64) {
  // expected-error @+1 {{result must be a 0-d tensor, got tensor<1xf32>}}
  %0 = kiln.from_scalar %a : f64 -> tensor<1xf32>
  return
}

// -----

// item on a tensor that statically has more than one element.
func.func @item_numel(%a: tensor<?x2xf32>) {
  // expected-error @+1 {{needs a tensor with exactly one element, got tensor<?x2xf32>}}
  %0 = kiln.item %a : tensor<?x2xf32> -> f64
  return
}

// -----

// A constant's result type is its value's type.
func.func @constant_type() {
  // expected-error @+1 {{value type tensor<2xf32> differs from the result type tensor<3xf32>}}
  %0 = "kiln.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

// matmul contracts lhs's last dim with rhs's second to last.
func.func @matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{matmul contraction dimensions differ: tensor<2x3xf32> and tensor<4x5xf32> (3 vs 4)}}
  %0 = kiln.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// matmul needs equal element types (no promotion, as in torch.matmul).
func.func @matmul_dtype(%a: tensor<2x3xf32>, %b: tensor<3x5xf64>) {
  // expected-error @+1 {{matmul operands must have the same element type, got tensor<2x3xf32> and tensor<3x5xf64>}}
  %0 = kiln.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xf64>) -> tensor<2x5xf32>
  return
}

// -----

// matmul batch dims broadcast.
func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<5x4x6xf32>) {
  // expected-error @+1 {{matmul batch dimensions are not broadcast-compatible: tensor<2x3x4xf32> and tensor<5x4x6xf32> differ in dimension 0 (2 vs 5)}}
  %0 = kiln.matmul %a, %b : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

// matmul_epilogue's activation is one of ir/Activations.h's.
func.func @epilogue_activation(%a: tensor<2x4xf32>, %b: tensor<4x8xf32>, %bias: tensor<8xf32>) {
  // expected-error @+1 {{has no activation 'gelu'}}
  %0 = kiln.matmul_epilogue %a, %b, %bias {activation = "gelu"} : (tensor<2x4xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// Its bias is a vector of the product's columns.
func.func @epilogue_bias(%a: tensor<2x4xf32>, %b: tensor<4x8xf32>, %bias: tensor<7xf32>) {
  // expected-error @+1 {{needs a bias vector of the result's last dim and element type, got tensor<7xf32> for tensor<2x8xf32>}}
  %0 = kiln.matmul_epilogue %a, %b, %bias {activation = "none"} : (tensor<2x4xf32>, tensor<4x8xf32>, tensor<7xf32>) -> tensor<2x8xf32>
  return
}

// -----

// matmul of a vector and a matrix drops the vector's dim.
func.func @matmul_vector_result(%a: tensor<3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{result type tensor<1x5xf32> contradicts the inferred type tensor<5xf32> (rank)}}
  %0 = kiln.matmul %a, %b : (tensor<3xf32>, tensor<3x5xf32>) -> tensor<1x5xf32>
  return
}

// -----

// Reduction dims must exist.
func.func @reduce_dim_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{reduction dim 2 is out of range for tensor<2x3xf32> (rank 2)}}
  %0 = kiln.sum %a {dims = array<i64: 2>, keepdim = false} : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// Reduction dims are sorted and unique (the frontend normalizes them).
func.func @reduce_dims_sorted(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{reduction dims must be sorted and unique, got 1 before 0}}
  %0 = kiln.amax %a {dims = array<i64: 1, 0>, keepdim = false} : tensor<2x3xf32> -> tensor<f32>
  return
}

// -----

// sum of an int tensor is i64.
func.func @sum_int_dtype(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{result type tensor<2xi32> contradicts the inferred type tensor<2xi64> (element type)}}
  %0 = kiln.sum %a {dims = array<i64: 1>, keepdim = false} : tensor<2x3xi32> -> tensor<2xi32>
  return
}

// -----

// keepdim keeps the reduced dim as size 1.
func.func @reduce_keepdim(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{result type tensor<2xf32> contradicts the inferred type tensor<2x1xf32> (rank)}}
  %0 = kiln.amin %a {dims = array<i64: 1>, keepdim = true} : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

// mean is only defined for floats.
func.func @mean_int(%a: tensor<2x3xi64>) {
  // expected-error @+1 {{needs a float tensor, got tensor<2x3xi64>}}
  %0 = kiln.mean %a {dims = array<i64>, keepdim = false} : tensor<2x3xi64> -> tensor<i64>
  return
}

// -----

// var's correction cannot be negative.
func.func @var_correction(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{correction must be non-negative, got -1}}
  %0 = kiln.var %a {correction = -1 : i64, dims = array<i64>, keepdim = false} : tensor<2x3xf32> -> tensor<f32>
  return
}

// -----

// max_dim's indices are i64.
func.func @max_dim_indices(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{result type tensor<2xi32> contradicts the inferred type tensor<2xi64> (element type)}}
  %0:2 = kiln.max_dim %a {dim = 1 : i64, keepdim = false} : tensor<2x3xf32> -> (tensor<2xf32>, tensor<2xi32>)
  return
}

// -----

// dim's index must name a dim.
func.func @dim_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{index 2 is out of range for tensor<2x3xf32> (rank 2)}}
  %0 = kiln.dim %a, 2 : tensor<2x3xf32>
  return
}

// -----

// reshape takes one size per result dim.
func.func @reshape_count(%a: tensor<6xf32>, %n: i64) {
  // expected-error @+1 {{has 1 sizes but the result type tensor<2x3xf32> has rank 2}}
  %0 = kiln.reshape %a[%n] : tensor<6xf32> -> tensor<2x3xf32>
  return
}

// -----

// reshape keeps the element count when both shapes are static.
func.func @reshape_numel(%a: tensor<6xf32>, %n: i64) {
  // expected-error @+1 {{cannot change the number of elements: tensor<6xf32> has 6 and tensor<2x4xf32> has 8}}
  %0 = kiln.reshape %a[%n, %n] : tensor<6xf32> -> tensor<2x4xf32>
  return
}

// -----

// reshape keeps the element type.
func.func @reshape_dtype(%a: tensor<6xf32>, %n: i64) {
  // expected-error @+1 {{cannot change the element type: tensor<6xf32> to tensor<6xf64>}}
  %0 = kiln.reshape %a[%n] : tensor<6xf32> -> tensor<6xf64>
  return
}

// -----

// expand only stretches size-1 dims.
func.func @expand_dim(%a: tensor<3xf32>, %n: i64) {
  // expected-error @+1 {{cannot expand dimension 0 of tensor<3xf32> from 3 to 4}}
  %0 = kiln.expand %a[%n, %n] : tensor<3xf32> -> tensor<2x4xf32>
  return
}

// -----

// expand never lowers the rank.
func.func @expand_rank(%a: tensor<1x3xf32>, %n: i64) {
  // expected-error @+1 {{cannot reduce the rank: tensor<1x3xf32> to tensor<3xf32>}}
  %0 = kiln.expand %a[%n] : tensor<1x3xf32> -> tensor<3xf32>
  return
}

// -----

// unsqueeze may insert at 0..rank.
func.func @unsqueeze_range(%a: tensor<3xf32>) {
  // expected-error @+1 {{unsqueeze dim 2 is out of range for tensor<3xf32> (rank 1)}}
  %0 = kiln.unsqueeze %a {dim = 2 : i64} : tensor<3xf32> -> tensor<3x1xf32>
  return
}

// -----

// squeeze removes only a dim of size 1 (or ?).
func.func @squeeze_not_one(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{squeeze dim 1 of tensor<3x2xf32> has size 2, not 1}}
  %0 = kiln.squeeze %a {dim = 1 : i64} : tensor<3x2xf32> -> tensor<3xf32>
  return
}

// -----

// transpose's dims must exist.
func.func @transpose_range(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{transpose dim 2 is out of range for tensor<3x2xf32> (rank 2)}}
  %0 = kiln.transpose %a {dim0 = 0 : i64, dim1 = 2 : i64} : tensor<3x2xf32> -> tensor<2x3xf32>
  return
}

// -----

// transpose swaps the sizes too.
func.func @transpose_result(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{result type tensor<3x2xf32> contradicts the inferred type tensor<2x3xf32> in dimension 0 (3 vs 2)}}
  %0 = kiln.transpose %a {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<3x2xf32> -> tensor<3x2xf32>
  return
}

// -----

// permute's dims are a permutation.
func.func @permute_dims(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{permute dims [0, 0] are not a permutation of the 2 dims of tensor<3x2xf32>}}
  %0 = kiln.permute %a {dims = array<i64: 0, 0>} : tensor<3x2xf32> -> tensor<3x3xf32>
  return
}

// -----

// select's dim must exist.
func.func @select_dim_range(%a: tensor<3x2xf32>, %i: i64) {
  // expected-error @+1 {{select dim 2 is out of range for tensor<3x2xf32> (rank 2)}}
  %0 = kiln.select %a[%i] {dim = 2 : i64} : tensor<3x2xf32> -> tensor<3xf32>
  return
}

// -----

// select drops the selected dim.
func.func @select_result(%a: tensor<3x2xf32>, %i: i64) {
  // expected-error @+1 {{result type tensor<3xf32> contradicts the inferred type tensor<2xf32> in dimension 0 (3 vs 2)}}
  %0 = kiln.select %a[%i] {dim = 0 : i64} : tensor<3x2xf32> -> tensor<3xf32>
  return
}

// -----

// A slice is never longer than its input.
func.func @slice_longer(%a: tensor<3x2xf32>, %i: i64) {
  // expected-error @+1 {{result type tensor<4x2xf32> is longer than tensor<3x2xf32> along dim 0}}
  %0 = kiln.slice %a[%i : %i : %i] {dim = 0 : i64} : tensor<3x2xf32> -> tensor<4x2xf32>
  return
}

// -----

// A slice keeps the other dims.
func.func @slice_other_dim(%a: tensor<3x2xf32>, %i: i64) {
  // expected-error @+1 {{result type tensor<?x5xf32> is not a slice of tensor<3x2xf32> along dim 0}}
  %0 = kiln.slice %a[%i : %i : %i] {dim = 0 : i64} : tensor<3x2xf32> -> tensor<?x5xf32>
  return
}

// -----

// select_scatter's src is the input without the dim.
func.func @select_scatter_src(%a: tensor<3x2xf32>, %src: tensor<3xf32>, %i: i64) {
  // expected-error @+1 {{src type tensor<3xf32> does not match tensor<2xf32> (the input without dim 0)}}
  %0 = kiln.select_scatter %a[%i] = %src {dim = 0 : i64} : tensor<3xf32> into tensor<3x2xf32>
  return
}

// -----

// slice_scatter's src has the input's rank.
func.func @slice_scatter_src(%a: tensor<3x2xf32>, %src: tensor<2xf32>, %i: i64) {
  // expected-error @+1 {{src type tensor<2xf32> is not a slice of tensor<3x2xf32> along dim 0}}
  %0 = kiln.slice_scatter %a[%i : %i : %i] = %src {dim = 0 : i64} : tensor<2xf32> into tensor<3x2xf32>
  return
}

// -----

// full takes one size per result dim.
func.func @full_count(%v: f64, %n: i64) {
  // expected-error @+1 {{has 1 sizes but the result type tensor<?x?xf32> has rank 2}}
  %0 = kiln.full %v, [%n] : f64 -> tensor<?x?xf32>
  return
}

// -----

// rand produces floats.
func.func @rand_int(%n: i64) {
  // expected-error @+1 {{produces floats, got tensor<?xi64>}}
  %0 = kiln.rand [%n] : tensor<?xi64>
  return
}

// -----

// stack adds a dim.
func.func @stack_rank(%l: !kiln.list<tensor<3xf32>>) {
  // expected-error @+1 {{result type tensor<?xf32> contradicts the inferred type tensor<?x3xf32> (rank)}}
  %0 = kiln.stack %l {dim = 0 : i64} : !kiln.list<tensor<3xf32>> -> tensor<?xf32>
  return
}

// -----

// cat's dim must exist in the elements.
func.func @cat_dim(%l: !kiln.list<tensor<3xf32>>) {
  // expected-error @+1 {{cat dim 1 is out of range for tensor<3xf32> (rank 1)}}
  %0 = kiln.cat %l {dim = 1 : i64} : !kiln.list<tensor<3xf32>> -> tensor<?xf32>
  return
}

// -----

// stack and cat need a list of tensors.
func.func @stack_not_tensors(%l: !kiln.list<i64>) {
  // expected-error @+1 {{operand #0 must be kiln list of ranked tensors}}
  %0 = kiln.stack %l {dim = 0 : i64} : !kiln.list<i64> -> tensor<?xi64>
  return
}

// -----

// All list elements have the list's element type exactly.
func.func @list_element(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{list element 1 has type tensor<4xf32> but the list holds tensor<3xf32>}}
  %0 = kiln.list_construct(%a, %b) : (tensor<3xf32>, tensor<4xf32>) -> !kiln.list<tensor<3xf32>>
  return
}

// -----

// list_append's value has the element type.
func.func @list_append(%l: !kiln.list<i64>, %v: f64) {
  // expected-error @+1 {{cannot append f64 to a list of i64}}
  %0 = kiln.list_append %l, %v : !kiln.list<i64>, f64
  return
}

// -----

// list_get yields the element type.
func.func @list_get(%l: !kiln.list<i64>, %i: i64) {
  // expected-error @+1 {{result type f64 differs from the element type i64}}
  %0 = kiln.list_get %l[%i] : !kiln.list<i64> -> f64
  return
}

// -----

// print has one argument per {}.
func.func @print_count(%a: i64) {
  // expected-error @+1 {{format has 2 placeholders but 1 arguments}}
  kiln.print "{} and {}"(%a : i64)
  return
}

// -----

// A lone brace in print's format must be doubled.
func.func @print_brace() {
  // expected-error @+1 {{format has an unmatched '}' at offset 2 (literal braces are doubled)}}
  kiln.print "a }"
  return
}

// -----

// assert's condition is a bool.
func.func @assert_bool(%c: i64) {
  // expected-error @+1 {{operand #0 must be 1-bit signless integer}}
  "kiln.assert"(%c) {message = "oops"} : (i64) -> ()
  return
}

// -----

// A fusion group's body may only hold pure kiln ops: codegen fuses it
// freely, which would reorder or drop a print.
func.func @group_with_print(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = kiln.fusion_group(%x) : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>):
    // expected-error @+1 {{cannot be part of a fusion group: only pure kiln ops without regions can}}
    kiln.print "{}"(%a : tensor<3xf32>)
    kiln.yield %a : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}

// -----

// The body's arguments stand for the inputs, one for one.
func.func @group_argument_type(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{input #0 has type 'tensor<3xf32>' but the body's argument has type 'tensor<?xf32>'}}
  %0 = kiln.fusion_group(%x) : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<?xf32>):
    %e = kiln.exp %a : tensor<?xf32>
    kiln.yield %x : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}

// -----

// What the body yields must match the group's results.
func.func @group_yield_types(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{yields ('tensor<3xi1>') but its results are ('tensor<3xf32>')}}
  %0 = kiln.fusion_group(%x) : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>):
    %c = kiln.cmp gt, %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    kiln.yield %c : tensor<3xi1>
  }
  return %0 : tensor<3xf32>
}

// -----

// Every result is computed in the group: an input passed through has no
// loop nest to come from.
func.func @group_pass_through(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  // expected-error @+1 {{result #0 passes an input through; use the input instead}}
  %0:2 = kiln.fusion_group(%x) : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  ^bb0(%a: tensor<3xf32>):
    %n = kiln.neg %a : tensor<3xf32>
    kiln.yield %a, %n : tensor<3xf32>, tensor<3xf32>
  }
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// The body cannot see values from outside: every value it uses is an input.
func.func @group_isolated(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = kiln.fusion_group(%x) : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>):
    // expected-error @+1 {{using value defined outside the region}}
    %e = kiln.add %a, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    kiln.yield %e : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}

// -----

// conv2d: the input's channels must be the weight's C/groups times groups.
func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{conv2d expects 4 input channels (weight tensor<6x4x3x3xf32>, groups 1), got tensor<1x3x8x8xf32>}}
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

// conv2d channels_last: the input is N x H x W x C, so its last dim must be
// the weight's input channels.
func.func @conv_channels_last(%x: tensor<1x8x8x3xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{conv2d expects 4 input channels (weight tensor<6x4x3x3xf32>, groups 1), got tensor<1x3x8x8xf32>}}
  %0 = kiln.conv2d %x, %w {channels_last, dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

// conv2d channels_last: the result is N x OH x OW x O.
func.func @conv_channels_last_result(%x: tensor<1x8x10x4xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{result type tensor<1x6x6x8xf32> contradicts the inferred type tensor<1x6x8x6xf32> in dimension 2 (6 vs 8)}}
  %0 = kiln.conv2d %x, %w {channels_last, dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x10x4xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x8xf32>
  return
}

// -----

// conv2d channels_last takes a 4-D input.
func.func @conv_channels_last_rank(%x: tensor<8x8x4xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{channels_last needs a 4-D input, got 'tensor<8x8x4xf32>'}}
  %0 = kiln.conv2d %x, %w {channels_last, dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<8x8x4xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

// conv2d: groups must divide the output channels.
func.func @conv_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error @+1 {{conv2d groups must be >= 1 and divide the 6 output channels, got 4}}
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 4 : i64, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

// conv2d: a stride of 0 is rejected, naming the attribute.
func.func @conv_stride(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error @+1 {{conv2d stride must be two values >= 1, got (0, 1)}}
  %0 = kiln.conv2d %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, padding = array<i64: 0, 0>, stride = array<i64: 0, 1>} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

// Pooling: padding may be at most half the kernel, as PyTorch requires.
func.func @pool_padding(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{pooling padding (2, 1) must be at most half the kernel size (3, 3)}}
  %0 = kiln.max_pool2d %x {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, padding = array<i64: 2, 1>, stride = array<i64: 1, 1>} : tensor<1x3x8x8xf32> -> tensor<1x3x10x8xf32>
  return
}

// -----

// Pooling: a window larger than the padded input is rejected.
func.func @pool_window(%x: tensor<1x3x2x2xf32>) {
  // expected-error @+1 {{pooling window (3, 3) is larger than the padded input tensor<1x3x2x2xf32>}}
  %0 = kiln.avg_pool2d %x {ceil_mode = false, count_include_pad = true, kernel = array<i64: 3, 3>, padding = array<i64: 0, 0>, stride = array<i64: 1, 1>} : tensor<1x3x2x2xf32> -> tensor<1x3x1x1xf32>
  return
}

// -----

// where needs a bool condition.
func.func @where_condition(%c: tensor<3xf32>, %a: tensor<3xf32>) {
  // expected-error @+1 {{where() needs a bool condition, got tensor<3xf32>}}
  %0 = kiln.where %c, %a, %a : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// where: the condition broadcasts with the values like any operand.
func.func @where_broadcast(%c: tensor<4xi1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{operands are not broadcast-compatible}}
  %0 = kiln.where %c, %a, %a : (tensor<4xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// embedding indices are integers.
func.func @embedding_float_indices(%w: tensor<10x4xf32>, %i: tensor<5xf32>) {
  // expected-error @+1 {{embedding indices must be an int32 or int64 tensor, got tensor<5xf32>}}
  %0 = kiln.embedding %w[%i] : (tensor<10x4xf32>, tensor<5xf32>) -> tensor<5x4xf32>
  return
}

// -----

// embedding's weight is a 2-D table.
func.func @embedding_weight_rank(%w: tensor<10xf32>, %i: tensor<5xi64>) {
  // expected-error @+1 {{embedding weight must be a 2-D tensor, got tensor<10xf32>}}
  %0 = kiln.embedding %w[%i] : (tensor<10xf32>, tensor<5xi64>) -> tensor<5x4xf32>
  return
}

// -----

// arange gives a 1-D tensor.
func.func @arange_rank(%n: i64) {
  // expected-error @+1 {{result must be 1-D, got 'tensor<2x?xf32>'}}
  %0 = kiln.arange %n, %n, %n : (i64, i64, i64) -> tensor<2x?xf32>
  return
}

// -----

// arange cannot produce bools.
func.func @arange_bool(%n: i64) {
  // expected-error @+1 {{result cannot be bool, got 'tensor<?xi1>'}}
  %0 = kiln.arange %n, %n, %n : (i64, i64, i64) -> tensor<?xi1>
  return
}

// -----

// A param must be declared in the module's kiln.params.
module attributes {kiln.params = {"fc.bias" = tensor<3xf32>}} {
  func.func @param_undeclared() {
    // expected-error @+1 {{names 'fc.weight', which 'kiln.params' does not declare}}
    %0 = kiln.param "fc.weight" : tensor<3x4xf32>
    return
  }
}

// -----

// A param has the type its declaration gives.
module attributes {kiln.params = {"fc.weight" = tensor<3x4xf32>}} {
  func.func @param_type() {
    // expected-error @+1 {{type 'tensor<4x3xf32>' differs from the declared 'tensor<3x4xf32>'}}
    %0 = kiln.param "fc.weight" : tensor<4x3xf32>
    return
  }
}

// -----

// A param needs the kiln.params table of its module.
func.func @param_no_table() {
  // expected-error @+1 {{needs the enclosing module's 'kiln.params' dictionary}}
  %0 = kiln.param "fc.weight" : tensor<3x4xf32>
  return
}

// -----

// gather's index is an integer tensor.
func.func @gather_float_index(%x: tensor<3x4xf32>, %i: tensor<3x2xf32>) {
  // expected-error @+1 {{gather index must be an int32 or int64 tensor, got tensor<3x2xf32>}}
  %0 = kiln.gather %x[%i] {dim = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

// gather's index has the input's rank.
func.func @gather_rank(%x: tensor<3x4xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{gather index tensor<2xi64> must have the rank of the input tensor<3x4xf32>}}
  %0 = kiln.gather %x[%i] {dim = 1 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

// Outside `dim`, gather's index is no larger than the input.
func.func @gather_larger(%x: tensor<3x4xf32>, %i: tensor<5x2xi64>) {
  // expected-error @+1 {{gather index tensor<5x2xi64> is larger than the input tensor<3x4xf32> in dimension 0}}
  %0 = kiln.gather %x[%i] {dim = 1 : i64} : (tensor<3x4xf32>, tensor<5x2xi64>) -> tensor<5x2xf32>
  return
}

// -----

// gather's dim is in range.
func.func @gather_dim(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{gather dim 2 is out of range for tensor<3x4xf32> (rank 2)}}
  %0 = kiln.gather %x[%i] {dim = 2 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return
}

// -----

// gather's result has the index's shape.
func.func @gather_result(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{result type tensor<3x4xf32> contradicts the inferred type tensor<3x2xf32> in dimension 1 (4 vs 2)}}
  %0 = kiln.gather %x[%i] {dim = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x4xf32>
  return
}

// -----

// index_select takes a 0-D or 1-D index.
func.func @index_select_rank(%x: tensor<3x4xf32>, %i: tensor<2x2xi64>) {
  // expected-error @+1 {{index_select index must be a 0-D or 1-D int32 or int64 tensor, got tensor<2x2xi64>}}
  %0 = kiln.index_select %x[%i] {dim = 0 : i64} : (tensor<3x4xf32>, tensor<2x2xi64>) -> tensor<4x4xf32>
  return
}

// -----

// index_select replaces dim `dim` by the index count.
func.func @index_select_result(%x: tensor<3x4xf32>, %i: tensor<5xi64>) {
  // expected-error @+1 {{result type tensor<5x4xf32> contradicts the inferred type tensor<3x5xf32> in dimension 0 (5 vs 3)}}
  %0 = kiln.index_select %x[%i] {dim = 1 : i64} : (tensor<3x4xf32>, tensor<5xi64>) -> tensor<5x4xf32>
  return
}

// -----

// A scan keeps the input's shape.
func.func @cumsum_shape(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{result type tensor<3x5xf32> contradicts the inferred type tensor<3x4xf32> in dimension 1 (5 vs 4)}}
  %0 = kiln.cumsum %x {dim = 1 : i64} : tensor<3x4xf32> -> tensor<3x5xf32>
  return
}

// -----

// A scan has no bool result.
func.func @cumprod_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{result cannot be bool, got tensor<3xi1>}}
  %0 = kiln.cumprod %x {dim = 0 : i64} : tensor<3xi1> -> tensor<3xi1>
  return
}

// -----

// A scan's dim is in range.
func.func @cumsum_dim(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{scan dim 2 is out of range for tensor<3x4xf32> (rank 2)}}
  %0 = kiln.cumsum %x {dim = 2 : i64} : tensor<3x4xf32> -> tensor<3x4xf32>
  return
}

// -----

// flip's dims do not repeat.
func.func @flip_repeat(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{flip dim 1 repeats for tensor<3x4xf32>}}
  %0 = kiln.flip %x {dims = array<i64: 1, 1>} : tensor<3x4xf32> -> tensor<3x4xf32>
  return
}

// -----

// flip's dims are in range.
func.func @flip_range(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{flip dim 2 is out of range for tensor<3x4xf32>}}
  %0 = kiln.flip %x {dims = array<i64: 2>} : tensor<3x4xf32> -> tensor<3x4xf32>
  return
}

// -----

// sort has no order on bools.
func.func @sort_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{sort needs a numeric tensor, got tensor<3xi1>}}
  %0:2 = kiln.sort %x {descending = false} : tensor<3xi1> -> (tensor<3xi1>, tensor<3xi64>)
  return
}

// -----

// sort's indices are i64.
func.func @sort_indices(%x: tensor<3xf32>) {
  // expected-error @+1 {{result type tensor<3xi32> contradicts the inferred type tensor<3xi64> (element type)}}
  %0:2 = kiln.sort %x {descending = false} : tensor<3xf32> -> (tensor<3xf32>, tensor<3xi32>)
  return
}
