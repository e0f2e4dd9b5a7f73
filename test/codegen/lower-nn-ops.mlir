// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg --kiln-expand-math | FileCheck %s --check-prefix=MATH

// max_pool2d with padding and ceil_mode on `?` spatial dims: the output
// size is computed at run time as PyTorch does (floor division, then one
// fewer window if the last would start in the right padding) and checked
// to be at least 1. The input is padded with -inf by a fill plus
// insert_slice, with extra bottom/right padding for ceil_mode's overhang,
// so that every window lies inside it. A 3x3 window is one elementwise
// linalg.generic over the output that reads the padded input nine times,
// through maps (oh * 2 + i, ow * 2 + j), and takes the maximum with
// PyTorch's NaN rule (floatExtremum: maximumf, nsz).
// CHECK: message = "output size is too small: input size {0} gives output size {1} in dimension 2"
// CHECK: message = "output size is too small: input size {0} gives output size {1} in dimension 3"
// CHECK-LABEL: func.func private @max_pool_ceil
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: %[[HI:.*]] = arith.index_cast %[[H]] : index to i64
// CHECK: %[[Q:.*]] = arith.floordivsi %{{.*}}, %c2_i64 : i64
// CHECK: %[[CEIL:.*]] = arith.addi %[[Q]], %c1_i64 : i64
// CHECK: %[[START:.*]] = arith.muli %[[Q]], %c2_i64 : i64
// CHECK: %[[EDGE:.*]] = arith.addi %[[HI]], %c1_i64 : i64
// CHECK: %[[LATE:.*]] = arith.cmpi sge, %[[START]], %[[EDGE]] : i64
// CHECK: %[[OH:.*]] = arith.select %[[LATE]], %[[Q]], %[[CEIL]] : i64
// CHECK: %[[SMALL:.*]] = arith.cmpi slt, %[[OH]], %c1_i64 : i64
// CHECK: scf.if %[[SMALL]] {
// CHECK:   func.call @kiln_rt_raise(%{{.*}}, %[[HI]], %[[OH]], %{{.*}})
// CHECK: %[[OVER:.*]] = arith.maxsi %{{.*}}, %c0_i64{{.*}} : i64
// CHECK: %[[HIGH:.*]] = arith.addi %[[OVER]], %c1_i64 : i64
// CHECK: %[[HIGHX:.*]] = arith.index_cast %[[HIGH]] : i64 to index
// CHECK: scf.if
// CHECK: %[[PADS:.*]] = arith.addi %[[HIGHX]], %c1 : index
// CHECK: %[[PH:.*]] = arith.addi %{{.*}}, %[[PADS]] : index
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}, %[[PH]], %{{.*}}) : tensor<?x3x?x?xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[E]] : tensor<?x3x?x?xf32>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %arg0 into %[[FILL]][0, 0, 1, 1]
// Each of the window's nine elements is a strided slice of the padded
// input, read with an identity map, so that the pool tiles like any
// elementwise op; it is a group of its own (kiln.group below 0).
// CHECK: %[[W00:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [%{{.*}}, 3, %{{.*}}, %{{.*}}] [1, 1, 2, 2]
// CHECK-COUNT-7: tensor.extract_slice %[[PADDED]]
// CHECK: %[[W22:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 2, 2] [%{{.*}}, 3, %{{.*}}, %{{.*}}] [1, 1, 2, 2]
// CHECK: %[[INIT:.*]] = tensor.empty({{.*}}) : tensor<?x3x?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]], #[[ID]], #[[ID]], #[[ID]], #[[ID]], #[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[W00]], {{.*}}, %[[W22]] : {{.*}}) outs(%[[INIT]] : tensor<?x3x?x?xf32>) attrs = {kiln.group = -1 : i64}
// CHECK-COUNT-8: arith.maximumf %{{.*}}, %{{.*}} fastmath<nsz> : f32
// CHECK-NEXT: linalg.yield
func.func @max_pool_ceil(%x: tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32> {
  %0 = kiln.max_pool2d %x {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x3x?x?xf32> -> tensor<?x3x?x?xf32>
  return %0 : tensor<?x3x?x?xf32>
}

// -----

// Negative: static spatial dims without padding or ceil_mode need neither a
// run-time check nor a padded copy; the pool reads the input itself, the
// window's elements at row and column offsets 0 and 1, stride 2.
// CHECK: kiln.sites = []
// CHECK-LABEL: func.func private @max_pool_plain
// CHECK-NOT: kiln_rt_raise
// CHECK-NOT: tensor.insert_slice
// CHECK: %[[P00:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [%{{.*}}, 3, 4, 4] [1, 1, 2, 2]
// CHECK: %[[P01:.*]] = tensor.extract_slice %arg0[0, 0, 0, 1] [%{{.*}}, 3, 4, 4] [1, 1, 2, 2]
// CHECK: %[[P10:.*]] = tensor.extract_slice %arg0[0, 0, 1, 0] [%{{.*}}, 3, 4, 4] [1, 1, 2, 2]
// CHECK: %[[P11:.*]] = tensor.extract_slice %arg0[0, 0, 1, 1] [%{{.*}}, 3, 4, 4] [1, 1, 2, 2]
// CHECK: linalg.generic {{.*}} ins(%[[P00]], %[[P01]], %[[P10]], %[[P11]] : {{.*}}) outs(%{{.*}} : tensor<?x3x4x4xf32>)
func.func @max_pool_plain(%x: tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32> {
  %0 = kiln.max_pool2d %x {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<?x3x8x8xf32> -> tensor<?x3x4x4xf32>
  return %0 : tensor<?x3x4x4xf32>
}

// -----

// ceil_mode without padding: the last windows start at row and column 6
// of 7, so they overhang the input, by two rows (dilation 2 spans rows 6 and
// 8) and one column (columns 6 and 7); only the bottom and right get -inf.
// Dilation reaches the slices' offsets: rows 0 and 2, stride 3.
// CHECK-LABEL: func.func private @max_pool_overhang
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x3x9x8xf32>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %arg0 into %[[FILL]][0, 0, 0, 0] [1, 3, 7, 7] [1, 1, 1, 1] : tensor<1x3x7x7xf32> into tensor<1x3x9x8xf32>
// CHECK: %[[O00:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [1, 3, 3, 3] [1, 1, 3, 3]
// CHECK: %[[O01:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 0, 1] [1, 3, 3, 3] [1, 1, 3, 3]
// CHECK: %[[O10:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 2, 0] [1, 3, 3, 3] [1, 1, 3, 3]
// CHECK: %[[O11:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 2, 1] [1, 3, 3, 3] [1, 1, 3, 3]
// CHECK: linalg.generic {{.*}} ins(%[[O00]], %[[O01]], %[[O10]], %[[O11]] : {{.*}}) outs(%{{.*}} : tensor<1x3x3x3xf32>)
func.func @max_pool_overhang(%x: tensor<1x3x7x7xf32>) -> tensor<1x3x3x3xf32> {
  %0 = kiln.max_pool2d %x {ceil_mode = true, dilation = array<i64: 2, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 3, 3>} : tensor<1x3x7x7xf32> -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

// A window of more than 16 elements (5x5) keeps linalg.pooling_nchw_max,
// whose running maximum starts from -inf.
// CHECK-LABEL: func.func private @max_pool_large_window
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x2x2xf32>)
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<5> : tensor<2xi64>} ins(%arg0, %{{.*}} : tensor<2x3x10x10xf32>, tensor<5x5xf32>) outs(%[[INIT]] : tensor<2x3x2x2xf32>)
func.func @max_pool_large_window(%x: tensor<2x3x10x10xf32>) -> tensor<2x3x2x2xf32> {
  %0 = kiln.max_pool2d %x {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 5, 5>, padding = array<i64: 0, 0>, stride = array<i64: 5, 5>} : tensor<2x3x10x10xf32> -> tensor<2x3x2x2xf32>
  return %0 : tensor<2x3x2x2xf32>
}

// -----

// avg_pool2d counting the padding, without ceil_mode: every window lies in
// the zero-padded input, so every divisor is the window size, a constant.
// CHECK-LABEL: func.func private @avg_pool_count_pad
// CHECK: %[[FILL:.*]] = linalg.fill ins(%cst : f32) outs(%{{.*}} : tensor<?x3x10x10xf32>)
// CHECK: %[[PADDED:.*]] = tensor.insert_slice %arg0 into %[[FILL]][0, 0, 1, 1]
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PADDED]], %{{.*}} : tensor<?x3x10x10xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<?x3x4x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<?x3x4x4xf32>)
// CHECK-NOT: linalg.index
// CHECK: %[[NINE:.*]] = arith.constant 9.000000e+00 : f32
// CHECK: arith.divf %{{.*}}, %[[NINE]] : f32
func.func @avg_pool_count_pad(%x: tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32> {
  %0 = kiln.avg_pool2d %x {ceil_mode = false, count_include_pad = true, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x3x8x8xf32> -> tensor<?x3x4x4xf32>
  return %0 : tensor<?x3x4x4xf32>
}

// -----

// avg_pool2d with count_include_pad false: each output element divides by
// its window clipped to the input, as PyTorch's kernel does: start =
// o * stride - padding, end = min(start + kernel, size + padding), then both
// clipped to [0, size]; the count is the product over H and W.
// CHECK-LABEL: func.func private @avg_pool_exclude_pad
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<?x3x4x4xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK:   %[[OH:.*]] = linalg.index 2 : index
// CHECK:   %[[O:.*]] = arith.index_cast %[[OH]] : index to i64
// CHECK:   %[[S:.*]] = arith.muli %[[O]], %{{.*}} : i64
// CHECK:   %[[START:.*]] = arith.subi %[[S]], %{{.*}} : i64
// CHECK:   %[[END0:.*]] = arith.addi %[[START]], %{{.*}} : i64
// CHECK:   %[[END:.*]] = arith.minsi %[[END0]], %c9_i64{{.*}} : i64
// CHECK:   %[[LO:.*]] = arith.maxsi %[[START]], %c0_i64{{.*}} : i64
// CHECK:   %[[HI:.*]] = arith.minsi %[[END]], %c8_i64{{.*}} : i64
// CHECK:   %[[ROWS:.*]] = arith.subi %[[HI]], %[[LO]] : i64
// CHECK:   linalg.index 3 : index
// CHECK:   %[[COUNT:.*]] = arith.muli %[[ROWS]], %{{.*}} : i64
// CHECK:   %[[DIV:.*]] = arith.sitofp %[[COUNT]] : i64 to f32
// CHECK:   arith.divf %[[IN]], %[[DIV]] : f32
func.func @avg_pool_exclude_pad(%x: tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32> {
  %0 = kiln.avg_pool2d %x {ceil_mode = false, count_include_pad = false, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<?x3x8x8xf32> -> tensor<?x3x4x4xf32>
  return %0 : tensor<?x3x4x4xf32>
}

// -----

// avg_pool2d of f16 with ceil_mode and count_include_pad: the sum
// accumulates in f32 (the pooling op extends each element), the divisor
// counts the padding but not ceil_mode's overhang (the window end is
// clipped to size + padding = 7, and the start is not clipped), and the
// mean is rounded to f16 once.
// CHECK-LABEL: func.func private @avg_pool_ceil_half
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x4x4xf32>)
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x3x9x9xf16>, tensor<3x3xf16>) outs(%[[ACC]] : tensor<2x3x4x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x3x4x4xf32>) outs(%{{.*}} : tensor<2x3x4x4xf16>)
// CHECK:   %[[END:.*]] = arith.minsi %{{.*}}, %c7_i64{{.*}} : i64
// CHECK-NOT: arith.maxsi
// CHECK:   arith.subi %[[END]], %{{.*}} : i64
// CHECK:   %[[MEAN:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:   arith.truncf %[[MEAN]] : f32 to f16
func.func @avg_pool_ceil_half(%x: tensor<2x3x6x6xf16>) -> tensor<2x3x4x4xf16> {
  %0 = kiln.avg_pool2d %x {ceil_mode = true, count_include_pad = true, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : tensor<2x3x6x6xf16> -> tensor<2x3x4x4xf16>
  return %0 : tensor<2x3x4x4xf16>
}

// -----

// where broadcasts its three operands as elementwise ops do: the
// condition's static size-1 dim reads index 0, two `?` dims that must agree
// are checked at run time, and a Python float is converted to the result's
// f32 once, outside the loop. The body is one select.
// CHECK-DAG: #[[COND:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: message = "the size of tensor a ({0}) must match the size of tensor b ({1}) at non-singleton dimension 0"
// CHECK-LABEL: func.func private @where_broadcast
// CHECK: %[[DC:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[DA:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[DA]], %[[DC]] : index
// CHECK: scf.if %[[NE]] {
// CHECK:   func.call @kiln_rt_raise
// CHECK: %[[S:.*]] = arith.truncf %arg2 : f64 to f32
// CHECK: linalg.generic {indexing_maps = [#[[COND]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<?x1xi1>, tensor<?x4xf32>) outs(%{{.*}} : tensor<?x4xf32>)
// CHECK: ^bb0(%[[C:.*]]: i1, %[[A:.*]]: f32, %{{.*}}: f32):
// CHECK:   %[[R:.*]] = arith.select %[[C]], %[[A]], %[[S]] : f32
// CHECK:   linalg.yield %[[R]] : f32
func.func @where_broadcast(%c: tensor<?x1xi1>, %a: tensor<?x4xf32>, %s: f64) -> tensor<?x4xf32> {
  %0 = kiln.where %c, %a, %s : (tensor<?x1xi1>, tensor<?x4xf32>, f64) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// where promotes its values, not its condition: an i64 tensor with an f16
// tensor gives f16 (both converted in the body), and f16 is selected as it
// is, without the f32 round trip that arithmetic takes.
// CHECK-LABEL: func.func private @where_promote
// CHECK: ^bb0(%[[C:.*]]: i1, %[[A:.*]]: i64, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK:   %[[AF:.*]] = arith.sitofp %[[A]] : i64 to f16
// CHECK-NOT: arith.extf
// CHECK:   arith.select %[[C]], %[[AF]], %[[B]] : f16
func.func @where_promote(%c: tensor<4xi1>, %a: tensor<4xi64>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = kiln.where %c, %a, %b : (tensor<4xi1>, tensor<4xi64>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// where and erf inside a fusion group (the fusion pass lists both as
// elementwise) fuse with their neighbours into one loop nest.
// CHECK-LABEL: func.func private @where_fuses
// CHECK: linalg.generic
// CHECK:   math.erf
// CHECK:   arith.mulf
// CHECK:   arith.select
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @where_fuses(%x: tensor<?x4xf32>, %m: tensor<4xi1>, %z: f64) -> tensor<?x4xf32> {
  %0 = kiln.fusion_group(%x, %m, %z) : (tensor<?x4xf32>, tensor<4xi1>, f64) -> tensor<?x4xf32> {
  ^bb0(%a: tensor<?x4xf32>, %b: tensor<4xi1>, %c: f64):
    %1 = kiln.erf %a : tensor<?x4xf32>
    %2 = kiln.mul %a, %1 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    %3 = kiln.where %b, %2, %c : (tensor<4xi1>, tensor<?x4xf32>, f64) -> tensor<?x4xf32>
    kiln.yield %3 : tensor<?x4xf32>
  }
  return %0 : tensor<?x4xf32>
}

// -----

// erf is math.erf; bf16 computes in f32 and rounds once, as the other math
// ops do. kiln-expand-math replaces the f32 erf with MLIR's polynomial (so
// the loop vectorizes), while f64 keeps math.erf, which becomes a libm call.
// CHECK-LABEL: func.func private @erf
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK: %[[E:.*]] = math.erf %[[W]] : f32
// CHECK: arith.truncf %[[E]] : f32 to bf16
// CHECK: math.erf %{{.*}} : f64
// MATH-LABEL: func.func private @erf
// MATH-NOT: math.erf %{{.*}} : f32
// MATH: math.fma
// MATH: math.erf %{{.*}} : f64
func.func @erf(%a: tensor<?xbf16>, %b: tensor<?xf64>) -> (tensor<?xbf16>, tensor<?xf64>) {
  %0 = kiln.erf %a : tensor<?xbf16>
  %1 = kiln.erf %b : tensor<?xf64>
  return %0, %1 : tensor<?xbf16>, tensor<?xf64>
}

// -----

// arange on ints: a zero step and a step pointing away from the end raise
// PyTorch's messages; the length is ceil(|end - start| / |step|) computed
// exactly (the slice lowering's ceil division), and element i is
// start + step * i in i64.
// CHECK: message = "step must be nonzero"
// CHECK: message = "upper bound and larger bound inconsistent with step sign"
// CHECK-LABEL: func.func private @arange_int
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %arg2, %c0_i64 : i64
// CHECK: scf.if %[[ZERO]] {
// CHECK: %[[UP:.*]] = arith.cmpi sgt, %arg2, %c0_i64 : i64
// CHECK: scf.if
// CHECK: %[[SPAN:.*]] = arith.select %[[UP]], %{{.*}}, %{{.*}} : i64
// CHECK: %[[STEP:.*]] = arith.select %[[UP]], %arg2, %{{.*}} : i64
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[SPAN]], %c0_i64 : i64
// CHECK: %[[M1:.*]] = arith.subi %[[SPAN]], %[[ONE:c1_i64.*]] : i64
// CHECK: %[[Q:.*]] = arith.divsi %[[M1]], %[[STEP]] : i64
// CHECK: %[[L1:.*]] = arith.addi %[[Q]], %[[ONE]] : i64
// CHECK: %[[LEN:.*]] = arith.select %[[EMPTY]], %c0_i64, %[[L1]] : i64
// CHECK: %[[N:.*]] = arith.index_cast %[[LEN]] : i64 to index
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?xi64>)
// CHECK:   %[[I:.*]] = linalg.index 0 : index
// CHECK:   %[[II:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:   %[[OFF:.*]] = arith.muli %arg2, %[[II]] : i64
// CHECK:   arith.addi %arg0, %[[OFF]] : i64
func.func @arange_int(%start: i64, %end: i64, %step: i64) -> tensor<?xi64> {
  %0 = kiln.arange %start, %end, %step : (i64, i64, i64) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

// arange on floats into f32: the length is ceil((end - start) / step) in
// f64 as PyTorch computes it, after checks for a zero (or NaN) step,
// infinite bounds, the step's sign and an overflowing size; the elements are
// computed in f64 (PyTorch's accumulate type for f32) and rounded.
// CHECK: message = "step must be nonzero"
// CHECK: message = "unsupported range: start and end must be finite"
// CHECK: message = "upper bound and larger bound inconsistent with step sign"
// CHECK: message = "invalid size, possible overflow?"
// CHECK-LABEL: func.func private @arange_float
// CHECK: %[[START:.*]] = arith.sitofp %arg0 : i64 to f64
// CHECK: arith.cmpf ueq, %arg2, %{{.*}} : f64
// CHECK: %[[SPAN:.*]] = arith.subf %arg1, %[[START]] : f64
// CHECK: %[[RATIO:.*]] = arith.divf %[[SPAN]], %arg2 : f64
// CHECK: %[[SIZE:.*]] = math.ceil %[[RATIO]] : f64
// CHECK: %[[LEN:.*]] = arith.fptosi %[[SIZE]] : f64 to i64
// CHECK: linalg.generic
// CHECK:   %[[FI:.*]] = arith.sitofp %{{.*}} : i64 to f64
// CHECK:   %[[OFF:.*]] = arith.mulf %arg2, %[[FI]] : f64
// CHECK:   %[[V:.*]] = arith.addf %[[START]], %[[OFF]] : f64
// CHECK:   arith.truncf %[[V]] : f64 to f32
func.func @arange_float(%start: i64, %end: f64, %step: f64) -> tensor<?xf32> {
  %0 = kiln.arange %start, %end, %step : (i64, f64, f64) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Negative: constant bounds fold the length and every check away.
// CHECK: kiln.sites = []
// CHECK-LABEL: func.func private @arange_constant
// CHECK-NOT: kiln_rt_raise
// CHECK: tensor.empty() : tensor<4xi32>
func.func @arange_constant() -> tensor<4xi32> {
  %start = arith.constant 0 : i64
  %end = arith.constant 10 : i64
  %step = arith.constant 3 : i64
  %0 = kiln.arange %start, %end, %step : (i64, i64, i64) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// embedding checks every index first, with one reduction that finds the
// smallest and largest (from 0 and -1, so no indices pass): a negative one
// or one past the last row raises PyTorch's message with the bad index and
// the row count. Then one parallel loop gathers weight[index, column].
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[NONE:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK: message = "index out of range in self: index {0} is out of bounds for dimension 0 with size {1}"
// CHECK-LABEL: func.func private @embedding
// CHECK: %[[ROWS:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[R:.*]] = arith.index_cast %[[ROWS]] : index to i64
// CHECK: %[[LOW0:.*]] = linalg.fill ins(%c0_i64 : i64) outs(%{{.*}} : tensor<i64>)
// CHECK: %[[HIGH0:.*]] = linalg.fill ins(%c-1_i64 : i64) outs(%{{.*}} : tensor<i64>)
// CHECK: %[[B:.*]]:2 = linalg.generic {indexing_maps = [#[[ALL]], #[[NONE]], #[[NONE]]], iterator_types = ["reduction", "reduction"]} ins(%arg1 : tensor<?x5xi64>) outs(%[[LOW0]], %[[HIGH0]] : tensor<i64>, tensor<i64>)
// CHECK:   arith.minsi
// CHECK:   arith.maxsi
// CHECK: %[[LOW:.*]] = tensor.extract %[[B]]#0[]
// CHECK: %[[HIGH:.*]] = tensor.extract %[[B]]#1[]
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[LOW]], %c0_i64{{.*}} : i64
// CHECK: %[[PAST:.*]] = arith.cmpi sge, %[[HIGH]], %[[R]] : i64
// CHECK: %[[BAD:.*]] = arith.ori %[[NEG]], %[[PAST]] : i1
// CHECK: %[[WHICH:.*]] = arith.select %[[NEG]], %[[LOW]], %[[HIGH]] : i64
// CHECK: scf.if %[[BAD]] {
// CHECK:   func.call @kiln_rt_raise(%{{.*}}, %[[WHICH]], %[[R]], %{{.*}})
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<?x5xi64>) outs(%{{.*}} : tensor<?x5x16xf32>)
// CHECK: ^bb0(%[[I:.*]]: i64, %{{.*}}: f32):
// CHECK:   %[[ROW:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK:   %[[COL:.*]] = linalg.index 2 : index
// CHECK:   %[[V:.*]] = tensor.extract %arg0[%[[ROW]], %[[COL]]] : tensor<?x16xf32>
// CHECK:   linalg.yield %[[V]] : f32
func.func @embedding(%w: tensor<?x16xf32>, %i: tensor<?x5xi64>) -> tensor<?x5x16xf32> {
  %0 = kiln.embedding %w[%i] : (tensor<?x16xf32>, tensor<?x5xi64>) -> tensor<?x5x16xf32>
  return %0 : tensor<?x5x16xf32>
}

// -----

// embedding with i32 indices of a static table: the indices are widened
// for the check, whose message has the row count written in, and a 1-D
// index tensor gives a 2-D result.
// CHECK: message = "index out of range in self: index {0} is out of bounds for dimension 0 with size 10"
// CHECK-LABEL: func.func private @embedding_i32
// CHECK: ^bb0(%[[I:.*]]: i32, %{{.*}}: i64, %{{.*}}: i64):
// CHECK:   arith.extsi %[[I]] : i32 to i64
// CHECK: arith.cmpi sge, %{{.*}}, %c10_i64 : i64
// CHECK: ^bb0(%[[J:.*]]: i32, %{{.*}}: bf16):
// CHECK:   arith.index_cast %[[J]] : i32 to index
func.func @embedding_i32(%w: tensor<10x4xbf16>, %i: tensor<?xi32>) -> tensor<?x4xbf16> {
  %0 = kiln.embedding %w[%i] : (tensor<10x4xbf16>, tensor<?xi32>) -> tensor<?x4xbf16>
  return %0 : tensor<?x4xbf16>
}
