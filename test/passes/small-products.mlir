// RUN: kiln-opt %s --split-input-file --kiln-small-products | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-small-products | kiln-opt --split-input-file | FileCheck %s

// F.linear on one row: x @ w.t() with w of [120, 400] (48,000 elements)
// becomes the multiply and sum that kiln-fusion groups into one loop nest;
// the transpose, now unread, goes.
// CHECK-LABEL: func.func @linear_row
// CHECK-NOT: kiln.transpose
// CHECK: %[[X:.*]] = kiln.unsqueeze %arg0 {dim = 1 : i64} : tensor<1x400xf32> -> tensor<1x1x400xf32>
// CHECK: %[[W:.*]] = kiln.unsqueeze %arg1 {dim = 0 : i64} : tensor<120x400xf32> -> tensor<1x120x400xf32>
// CHECK: %[[P:.*]] = kiln.mul %[[X]], %[[W]] : (tensor<1x1x400xf32>, tensor<1x120x400xf32>) -> tensor<1x120x400xf32>
// CHECK: %[[S:.*]] = kiln.sum %[[P]] {dims = array<i64: 2>, keepdim = false} : tensor<1x120x400xf32> -> tensor<1x120xf32>
// CHECK-NOT: kiln.matmul
// CHECK: return %[[S]]
func.func @linear_row(%x: tensor<1x400xf32>, %w: tensor<120x400xf32>) -> tensor<1x120xf32> {
  %t = kiln.transpose %w {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<120x400xf32> -> tensor<400x120xf32>
  %y = kiln.matmul %x, %t : (tensor<1x400xf32>, tensor<400x120xf32>) -> tensor<1x120xf32>
  return %y : tensor<1x120xf32>
}

// -----

// A vector row broadcasts against the weight as it is; the weight at the
// threshold, 2^18 elements, is still small.
// CHECK-LABEL: func.func @vector_row
// CHECK: %[[P:.*]] = kiln.mul %arg0, %arg1 : (tensor<512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
// CHECK: %[[S:.*]] = kiln.sum %[[P]] {dims = array<i64: 1>, keepdim = false} : tensor<512x512xf32> -> tensor<512xf32>
// CHECK: return %[[S]]
func.func @vector_row(%x: tensor<512xf32>, %w: tensor<512x512xf32>) -> tensor<512xf32> {
  %t = kiln.transpose %w {dim0 = 1 : i64, dim1 = 0 : i64} : tensor<512x512xf32> -> tensor<512x512xf32>
  %y = kiln.matmul %x, %t : (tensor<512xf32>, tensor<512x512xf32>) -> tensor<512xf32>
  return %y : tensor<512xf32>
}

// -----

// The library keeps: a weight one row past the threshold, two rows, a
// weight that is not transposed (read down its columns), a dynamic size
// and f64 (which is generated code anyway).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: kiln.matmul
// CHECK-NOT: kiln.sum
func.func @kept(%x: tensor<1x512xf32>, %big: tensor<513x512xf32>,
                %x2: tensor<2x64xf32>, %w: tensor<32x64xf32>,
                %v: tensor<1x64xf32>, %m: tensor<64x32xf32>,
                %d: tensor<?x64xf32>, %x64: tensor<1x64xf64>,
                %w64: tensor<32x64xf64>)
    -> (tensor<1x513xf32>, tensor<2x32xf32>, tensor<1x32xf32>, tensor<?x32xf32>, tensor<1x32xf64>) {
  %tb = kiln.transpose %big {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<513x512xf32> -> tensor<512x513xf32>
  %a = kiln.matmul %x, %tb : (tensor<1x512xf32>, tensor<512x513xf32>) -> tensor<1x513xf32>
  %tw = kiln.transpose %w {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<32x64xf32> -> tensor<64x32xf32>
  %b = kiln.matmul %x2, %tw : (tensor<2x64xf32>, tensor<64x32xf32>) -> tensor<2x32xf32>
  %c = kiln.matmul %v, %m : (tensor<1x64xf32>, tensor<64x32xf32>) -> tensor<1x32xf32>
  %e = kiln.matmul %d, %tw : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  %t64 = kiln.transpose %w64 {dim0 = 0 : i64, dim1 = 1 : i64} : tensor<32x64xf64> -> tensor<64x32xf64>
  %f = kiln.matmul %x64, %t64 : (tensor<1x64xf64>, tensor<64x32xf64>) -> tensor<1x32xf64>
  return %a, %b, %c, %e, %f : tensor<1x513xf32>, tensor<2x32xf32>, tensor<1x32xf32>, tensor<?x32xf32>, tensor<1x32xf64>
}
