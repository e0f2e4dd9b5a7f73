// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg | FileCheck %s

// x.size(i) reads a dynamic dim with tensor.dim and folds a static one.
// CHECK-LABEL: func.func private @dim
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0 : tensor<?x4xf32>
// CHECK: %[[N:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK: %[[C4:.*]] = arith.constant 4 : i64
// CHECK: return %[[N]], %[[C4]]
func.func @dim(%x: tensor<?x4xf32>) -> (i64, i64) {
  %0 = kiln.dim %x, 0 : tensor<?x4xf32>
  %1 = kiln.dim %x, 1 : tensor<?x4xf32>
  return %0, %1 : i64, i64
}

// -----

// A static reshape is a view (collapse_shape) with no run-time checks.
// CHECK-LABEL: func.func private @reshape_static
// CHECK-NOT: scf.if
// CHECK: %[[R:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_static(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %c6 = arith.constant 6 : i64
  %0 = kiln.reshape %x[%c6] : tensor<2x3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// reshape(-1, 2) of a dynamic input infers the -1 at run time, and checks
// the element count with PyTorch's message (the constant sizes are written
// into it). The result is a view: flatten, then expand_shape.
// CHECK: kiln.sites = [{col = {{.*}}message = "shape '[-1, 2]' is invalid for input of size {0}"}]
// CHECK-LABEL: func.func private @reshape_infer
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[NUMEL:.*]] = arith.muli
// CHECK: arith.remsi %[[NUMEL]], %[[TWO:.*]] : i64
// CHECK: scf.if
// CHECK:   func.call @kiln_rt_raise(%{{.*}}, %[[NUMEL]],
// CHECK: %[[Q:.*]] = arith.divsi %[[NUMEL]], %[[TWO]] : i64
// CHECK: %[[ROWS:.*]] = arith.index_cast %[[Q]] : i64 to index
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [%[[ROWS]], 2] : tensor<?xf32> into tensor<?x2xf32>
func.func @reshape_infer(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %m1 = arith.constant -1 : i64
  %c2 = arith.constant 2 : i64
  %0 = kiln.reshape %x[%m1, %c2] : tensor<?x4xf32> -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// With run-time sizes every PyTorch check is emitted: negative sizes, more
// than one -1, the element count and the ambiguous 0-element case. Two
// dynamic dims in one group become tensor.reshape, which bufferizes where
// expand_shape does not.
// CHECK: message = "invalid shape dimension {0}"
// CHECK: message = "invalid shape dimension {0}"
// CHECK: message = "only one dimension can be inferred"
// CHECK: message = "shape '[{1}, {2}]' is invalid for input of size {0}"
// CHECK: message = "cannot reshape tensor of 0 elements into shape [{1}, {2}] because the unspecified dimension size -1 can be any value and is ambiguous"
// CHECK-LABEL: func.func private @reshape_dynamic
// CHECK-COUNT-5: func.call @kiln_rt_raise
// CHECK: %[[SHAPE:.*]] = tensor.from_elements %{{.*}}, %{{.*}} : tensor<2xindex>
// CHECK: tensor.reshape %{{.*}}(%[[SHAPE]]) : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @reshape_dynamic(%x: tensor<?x4xf32>, %a: i64, %b: i64) -> tensor<?x?xf32> {
  %0 = kiln.reshape %x[%a, %b] : tensor<?x4xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// expand stretches a dim the type says is 1 by reading index 0; -1 keeps a
// dim, and a new leading size is checked for being negative.
// CHECK: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: message = "the expanded size of the tensor ({0}) isn't allowed in a leading, non-existing dimension {1}"
// CHECK: message = "trying to create tensor with negative dimension {0}: [{0}, 3, -1]"
// CHECK-LABEL: func.func private @expand_static_one
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x3x4xf32>
// CHECK-NOT: scf.if
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x4xf32>) outs(%[[E]] : tensor<?x3x4xf32>)
func.func @expand_static_one(%x: tensor<1x4xf32>, %n: i64) -> tensor<?x3x4xf32> {
  %m1 = arith.constant -1 : i64
  %c3 = arith.constant 3 : i64
  %0 = kiln.expand %x[%n, %c3, %m1] : tensor<1x4xf32> -> tensor<?x3x4xf32>
  return %0 : tensor<?x3x4xf32>
}

// -----

// A `?` dim may be 1 at run time, where PyTorch stretches it: the plain copy
// runs unless it is, and a gathering copy (index 0 along it) then. A size
// that is neither 1 nor the target raises PyTorch's message.
// CHECK: message = "the expanded size of the tensor ({0}) must match the existing size ({1}) at non-singleton dimension {2}"
// CHECK-LABEL: func.func private @expand_dynamic
// CHECK: %[[D:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[D]], %c1_i64{{.*}} : i64
// CHECK: func.call @kiln_rt_raise
// CHECK: %[[STRETCH:.*]] = arith.andi %{{.*}}, %[[ONE]] : i1
// CHECK: scf.if %{{.*}} -> (tensor<?x4xf32>) {
// CHECK:   linalg.generic
// CHECK:     %[[I:.*]] = linalg.index 0 : index
// CHECK:     %[[J:.*]] = arith.select %[[STRETCH]], %{{.*}}, %[[I]] : index
// CHECK:     tensor.extract %arg0[%[[J]], %{{.*}}] : tensor<?x4xf32>
// CHECK: } else {
// CHECK:   linalg.generic {{.*}} ins(%arg0 : tensor<?x4xf32>)
func.func @expand_dynamic(%x: tensor<?x4xf32>, %n: i64) -> tensor<?x4xf32> {
  %m1 = arith.constant -1 : i64
  %0 = kiln.expand %x[%n, %m1] : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// unsqueeze and squeeze of a static 1 are views.
// CHECK-LABEL: func.func private @unsqueeze_squeeze
// CHECK: tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [%{{.*}}, 4, 1] : tensor<?x4xf32> into tensor<?x4x1xf32>
// CHECK-NOT: scf.if
// CHECK: tensor.collapse_shape %arg1 {{\[}}[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
func.func @unsqueeze_squeeze(%x: tensor<?x4xf32>, %y: tensor<1x4xf32>) -> (tensor<?x4x1xf32>, tensor<4xf32>) {
  %0 = kiln.unsqueeze %x {dim = 2 : i64} : tensor<?x4xf32> -> tensor<?x4x1xf32>
  %1 = kiln.squeeze %y {dim = 0 : i64} : tensor<1x4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<?x4x1xf32>, tensor<4xf32>
}

// -----

// squeeze of a `?` dim: PyTorch keeps a dim that is not 1, which would change
// the rank fixed at compile time, so it raises instead.
// CHECK: message = "cannot squeeze dimension 0 of size {0}: PyTorch would keep it, but the result's rank was fixed at compile time; declare the dim 1 in the shape spec"
// CHECK-LABEL: func.func private @squeeze_dynamic
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[BAD:.*]] = arith.cmpi ne, %[[N]], %c1_i64{{.*}} : i64
// CHECK: scf.if %[[BAD]] {
// CHECK:   func.call @kiln_rt_raise(%{{.*}}, %[[N]],
// CHECK: %[[ONE:.*]] = tensor.cast %arg0 : tensor<?x4xf32> to tensor<1x4xf32>
// CHECK: tensor.collapse_shape %[[ONE]] {{\[}}[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
func.func @squeeze_dynamic(%x: tensor<?x4xf32>) -> tensor<4xf32> {
  %0 = kiln.squeeze %x {dim = 0 : i64} : tensor<?x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// transpose and permute are linalg.transpose; swapping a dim with itself is
// no copy.
// CHECK-LABEL: func.func private @transpose_permute
// CHECK: linalg.transpose ins(%arg0 : tensor<?x4x5xf32>) outs(%{{.*}} : tensor<4x?x5xf32>) permutation = [1, 0, 2]
// CHECK: linalg.transpose ins(%arg0 : tensor<?x4x5xf32>) outs(%{{.*}} : tensor<5x?x4xf32>) permutation = [2, 0, 1]
// CHECK: return %{{.*}}, %{{.*}}, %arg0
func.func @transpose_permute(%x: tensor<?x4x5xf32>) -> (tensor<4x?x5xf32>, tensor<5x?x4xf32>, tensor<?x4x5xf32>) {
  %0 = kiln.transpose %x {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<?x4x5xf32> -> tensor<4x?x5xf32>
  %1 = kiln.permute %x {dims = array<i64: 2, 0, 1>} : tensor<?x4x5xf32> -> tensor<5x?x4xf32>
  %2 = kiln.transpose %x {dim0 = 1 : i64, dim1 = 1 : i64} : tensor<?x4x5xf32> -> tensor<?x4x5xf32>
  return %0, %1, %2 : tensor<4x?x5xf32>, tensor<5x?x4xf32>, tensor<?x4x5xf32>
}

// -----

// x[i]: a negative index counts from the end, one out of range raises
// PyTorch's message, and the row is a rank-reducing extract_slice (a view).
// CHECK: message = "index {0} is out of bounds for dimension {1} with size {2}"
// CHECK-LABEL: func.func private @select
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %arg1, %c0_i64{{.*}} : i64
// CHECK: %[[WRAPPED:.*]] = arith.addi %arg1, %[[N]] : i64
// CHECK: %[[I:.*]] = arith.select %[[NEG]], %[[WRAPPED]], %arg1 : i64
// CHECK: scf.if
// CHECK:   func.call @kiln_rt_raise(%{{.*}}, %arg1, %{{.*}}, %[[N]], %{{.*}})
// CHECK: %[[IDX:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK: tensor.extract_slice %arg0[%[[IDX]], 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<4xf32>
func.func @select(%x: tensor<?x4xf32>, %i: i64) -> tensor<4xf32> {
  %0 = kiln.select %x[%i] {dim = 0 : i64} : tensor<?x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x[a:b:c] clamps start and end as Python does and checks the step; the
// result is a strided extract_slice.
// CHECK: message = "slice step must be positive"
// CHECK-LABEL: func.func private @slice
// CHECK: arith.cmpi sle, %arg3, %c0_i64{{.*}} : i64
// CHECK: func.call @kiln_rt_raise
// CHECK: %[[STEP:.*]] = arith.index_cast %arg3 : i64 to index
// CHECK: tensor.extract_slice %arg0[0, %{{.*}}] [%{{.*}}, %{{.*}}] [1, %[[STEP]]] : tensor<?x4xf32> to tensor<?x?xf32>
func.func @slice(%x: tensor<?x4xf32>, %a: i64, %b: i64, %c: i64) -> tensor<?x?xf32> {
  %0 = kiln.slice %x[%a : %b : %c] {dim = 1 : i64} : tensor<?x4xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Constant bounds fold: x[1:8:3] of a static dim is a static slice, no check.
// CHECK-LABEL: func.func private @slice_static
// CHECK-NOT: scf.if
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[0, 1] [2, 3] [1, 3] : tensor<2x10xf32> to tensor<2x3xf32>
// CHECK-NEXT: return %[[S]]
func.func @slice_static(%x: tensor<2x10xf32>) -> tensor<2x3xf32> {
  %a = arith.constant 1 : i64
  %b = arith.constant 8 : i64
  %c = arith.constant 3 : i64
  %0 = kiln.slice %x[%a : %b : %c] {dim = 1 : i64} : tensor<2x10xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// x[i] = row is an insert_slice of the row into x (in place after
// bufferization), with the index checked as for x[i].
// CHECK: message = "index {0} is out of bounds for dimension {1} with size {2}"
// CHECK-LABEL: func.func private @select_scatter
// CHECK: func.call @kiln_rt_raise
// CHECK: tensor.insert_slice %arg1 into %arg0[%{{.*}}, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<?x4xf32>
func.func @select_scatter(%x: tensor<?x4xf32>, %r: tensor<4xf32>, %i: i64) -> tensor<?x4xf32> {
  %0 = kiln.select_scatter %x[%i] = %r {dim = 0 : i64} : tensor<4xf32> into tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// x[:, a:b:c] = s: a strided insert_slice; a source whose size differs from
// the slice's raises copy_'s message.
// CHECK: message = "slice step must be positive"
// CHECK: message = "the expanded size of the tensor ({0}) must match the existing size ({1}) at non-singleton dimension {2}"
// CHECK-LABEL: func.func private @slice_scatter
// CHECK: %[[SRC:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[BAD:.*]] = arith.cmpi ne, %[[SRC]], %[[LEN:.*]] : i64
// CHECK: scf.if %[[BAD]] {
// CHECK-NEXT: arith.constant 0 : i64
// CHECK-NEXT: func.call @kiln_rt_raise(%{{.*}}, %[[LEN]], %[[SRC]], %c1_i64{{.*}}, %{{.*}})
// CHECK: tensor.insert_slice %arg1 into %arg0[0, %{{.*}}] [2, %{{.*}}] [1, %{{.*}}] : tensor<2x?xf32> into tensor<2x8xf32>
func.func @slice_scatter(%x: tensor<2x8xf32>, %s: tensor<2x?xf32>, %a: i64, %b: i64, %c: i64) -> tensor<2x8xf32> {
  %0 = kiln.slice_scatter %x[%a : %b : %c] = %s {dim = 1 : i64} : tensor<2x?xf32> into tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
