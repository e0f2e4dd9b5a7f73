// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg --kiln-tile-fusion-groups --kiln-vectorize-tiles=lanes=16 --canonicalize --loop-invariant-subset-hoisting --canonicalize --cse | FileCheck %s

// The codegen strategy's vectorization (docs/codegen.md): after tiling,
// each elementwise or row-reducing linalg op is vector-dialect code in
// chunks of `width` elements along its innermost dim.

// A fused elementwise group: an scf.forall of tiles, each a loop over rows
// and chunks of 64 whose body is vector ops; no linalg op is left.
// CHECK-LABEL: func.func @elementwise
// CHECK:         scf.forall (%{{.*}}) = (0) to (512) step (16)
// CHECK:           scf.for {{.*}} step %c1
// CHECK:             scf.for {{.*}} step %c64
// CHECK:               vector.transfer_read {{.*}} : tensor<1x64xf32>, vector<1x64xf32>
// CHECK:               arith.mulf {{.*}} : vector<1x64xf32>
// CHECK:               math.tanh {{.*}} : vector<1x64xf32>
// CHECK:               vector.transfer_write {{.*}} : vector<1x64xf32>, tensor<1x64xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @elementwise(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  ^bb0(%a: tensor<512x1024xf32>):
    %1 = kiln.mul %a, %a : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %2 = kiln.tanh %1 : tensor<512x1024xf32>
    kiln.yield %2 : tensor<512x1024xf32>
  }
  return %0 : tensor<512x1024xf32>
}

// -----

// A row reduction: each row (one a tile here) is a loop over chunks of 64
// that carries the partial sums as a vector (hoisted out of memory), then
// one horizontal reduction of that vector.
// CHECK-LABEL: func.func @row_sums
// CHECK:         scf.forall
// CHECK:             [[PARTIAL:%[0-9]+]] = scf.for {{.*}} step %c64 iter_args([[ACC:%[a-z0-9_]+]] = {{.*}}) -> (vector<1x64xf32>)
// CHECK:               [[CHUNK:%[0-9]+]] = vector.transfer_read {{.*}} : tensor<1x64xf32>, vector<1x64xf32>
// CHECK:               [[TANH:%[0-9]+]] = math.tanh [[CHUNK]] : vector<1x64xf32>
// CHECK:               [[SUM:%[0-9]+]] = arith.addf [[TANH]], [[ACC]] fastmath<reassoc> : vector<1x64xf32>
// CHECK:               scf.yield [[SUM]] : vector<1x64xf32>
// CHECK:             vector.multi_reduction <add>, [[PARTIAL]], %{{.*}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @row_sums(%x: tensor<64x4096xf32>) -> tensor<64x1xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<64x4096xf32>) -> tensor<64x1xf32> {
  ^bb0(%a: tensor<64x4096xf32>):
    %t = kiln.tanh %a : tensor<64x4096xf32>
    %s = kiln.sum %t {dims = array<i64: 1>, keepdim = true} : tensor<64x4096xf32> -> tensor<64x1xf32>
    kiln.yield %s : tensor<64x1xf32>
  }
  return %0 : tensor<64x1xf32>
}

// -----

// A small group stays untiled (no scf.forall) but is still vector code:
// rows of 32 are one vector<1x32> each.
// CHECK-LABEL: func.func @small
// CHECK-NOT:     scf.forall
// CHECK:         scf.for
// CHECK:           vector.transfer_read {{.*}} vector<1x32xf32>
// CHECK:           math.exp {{.*}} : vector<1x32xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @small(%x: tensor<4x32xf32>) -> tensor<4x32xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<4x32xf32>) -> tensor<4x32xf32> {
  ^bb0(%a: tensor<4x32xf32>):
    %1 = kiln.mul %a, %a : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %2 = kiln.exp %1 : tensor<4x32xf32>
    kiln.yield %2 : tensor<4x32xf32>
  }
  return %0 : tensor<4x32xf32>
}

// -----

// An innermost dim shorter than kMinChunk (pairwise distance's two
// coordinates) stays a linalg op: LLVM unrolls it and vectorizes the loop
// around it.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT:     vector.transfer_read
// CHECK:         linalg.generic
func.func @short_rows(%x: tensor<200x2xf32>) -> tensor<200xf32> attributes {kiln.entry} {
  %0 = kiln.sum %x {dims = array<i64: 1>, keepdim = false} : tensor<200x2xf32> -> tensor<200xf32>
  return %0 : tensor<200xf32>
}

// -----

// A row shorter than one register but of kMinChunk elements or more is one
// chunk of its own length: a max pool's rows of 15, read from the input's
// stride-2 slices (kiln-lower-vectors deinterleaves those reads).
// CHECK-LABEL: func.func @pool_rows
// CHECK-COUNT-4: vector.transfer_read {{.*}} : tensor<1x1x1x15xf32>, vector<1x1x1x15xf32>
// CHECK:         arith.maximumf {{.*}} : vector<1x1x1x15xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @pool_rows(%x: tensor<2x6x30x30xf32>) -> tensor<2x6x15x15xf32> attributes {kiln.entry} {
  %0 = kiln.max_pool2d %x {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<2x6x30x30xf32> -> tensor<2x6x15x15xf32>
  return %0 : tensor<2x6x15x15xf32>
}

// -----

// An operand broadcast through size-1 dims (a convolution's bias as
// [C, 1, 1], its map (d1, 0, 0)) is read once per chunk and splat.
// CHECK-LABEL: func.func @bias_relu
// CHECK:         vector.transfer_read {{.*}} : tensor<1x1x1x36xf32>, vector<1x1x1x36xf32>
// CHECK:         vector.transfer_read {{.*}} permutation_map = #{{.*}}} : tensor<1x1x1xf32>, vector<1x1x1x36xf32>
// CHECK:         arith.addf {{.*}} : vector<1x1x1x36xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @bias_relu(%x: tensor<4x16x6x36xf32>, %b: tensor<16x1x1xf32>) -> tensor<4x16x6x36xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x, %b) : (tensor<4x16x6x36xf32>, tensor<16x1x1xf32>) -> tensor<4x16x6x36xf32> {
  ^bb0(%a0: tensor<4x16x6x36xf32>, %a1: tensor<16x1x1xf32>):
    %1 = kiln.add %a0, %a1 : (tensor<4x16x6x36xf32>, tensor<16x1x1xf32>) -> tensor<4x16x6x36xf32>
    %2 = kiln.relu %1 : tensor<4x16x6x36xf32>
    kiln.yield %2 : tensor<4x16x6x36xf32>
  }
  return %0 : tensor<4x16x6x36xf32>
}

// -----

// A row reduction over fewer elements than one register stays a linalg
// op (a horizontal reduction per row of 10 was slower than LLVM's loop).
// CHECK-LABEL: func.func @short_reduction
// CHECK-NOT:     vector.multi_reduction
// CHECK:         linalg.generic
func.func @short_reduction(%x: tensor<512x10xf32>) -> tensor<512xf32> attributes {kiln.entry} {
  %0 = kiln.sum %x {dims = array<i64: 1>, keepdim = false} : tensor<512x10xf32> -> tensor<512xf32>
  return %0 : tensor<512xf32>
}

// -----

// A dynamic length: the loop over whole chunks of 64 is vector code, and
// the short last chunk, peeled off, stays a scalar linalg op.
// CHECK-LABEL: func.func @dynamic
// CHECK:         scf.for {{.*}} step %c64
// CHECK:           vector.transfer_read {{.*}} : tensor<64xf32>, vector<64xf32>
// CHECK:           math.exp {{.*}} : vector<64xf32>
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<?xf32>)
// CHECK:             math.exp {{.*}} : f32
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> attributes {kiln.entry} {
  %0 = kiln.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Two dynamic extents: the chunk loops run only when neither is 0, so a
// [2^40, 0] input does not spin through 2^40 empty rows.
// CHECK-LABEL: func.func @two_dynamic
// CHECK:         %[[EMPTY:.*]] = arith.ori
// CHECK:         scf.if %[[EMPTY]] -> (tensor<?x?xf32>) {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } else {
// CHECK:           scf.for
// CHECK:             vector.transfer_read
func.func @two_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> attributes {kiln.entry} {
  %0 = kiln.neg %x : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// f64 and ops that convert between types stay linalg ops for LLVM's loop
// vectorizer (MLIR 19 would widen f64 vector math as if it were f16).
// CHECK-LABEL: func.func @double
// CHECK-NOT:     vector.transfer_read
// CHECK:         linalg.generic
// CHECK:           math.exp {{.*}} : f64
func.func @double(%x: tensor<64x64xf64>) -> tensor<64x64xf64> attributes {kiln.entry} {
  %0 = kiln.exp %x : tensor<64x64xf64>
  return %0 : tensor<64x64xf64>
}

// -----

// A transpose of the innermost dims (N x H x W x C back to N x C x H x W)
// is a group of its own, whose tiles span whole blocks of C; each tile is
// cut into 16 x 16 blocks over C and W, the two dims the input and the
// output are contiguous along, each read and written as 16 vectors and
// transposed in between; the 8 columns left of W = 56 are cut again into
// 8 x 8 blocks. A matrix of 8 x 32, narrower than a block of 16 and too
// small to tile, is cut into blocks of 8.
// CHECK-LABEL: func.func @transpose_blocks
// CHECK:         scf.forall (%{{.*}}) = (0) to (64) step (16)
// CHECK:           scf.for {{.*}} = %c0 to %c56 step %c1
// CHECK:             scf.for {{.*}} = %c0 to %c48 step %c16
// CHECK:               %[[R:.*]] = vector.transfer_read {{.*}} : tensor<1x1x16x16xf32>, vector<1x16x1x16xf32>
// CHECK:               vector.transfer_write %[[R]], {{.*}} : vector<1x16x1x16xf32>, tensor<1x16x1x16xf32>
// CHECK:             scf.for {{.*}} = %c0 to %c16 step %c8
// CHECK:               %[[E:.*]] = vector.transfer_read {{.*}} : tensor<1x1x8x8xf32>, vector<1x8x1x8xf32>
// CHECK:               vector.transfer_write %[[E]], {{.*}} : vector<1x8x1x8xf32>, tensor<1x8x1x8xf32>
// CHECK:         scf.for {{.*}} = %c0 to %c32 step %c8
// CHECK:           vector.transfer_read {{.*}} : tensor<8x8xf32>, vector<8x8xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         return
func.func @transpose_blocks(%x: tensor<1x56x56x64xf32>, %m: tensor<8x32xf32>) -> (tensor<1x64x56x56xf32>, tensor<32x8xf32>) attributes {kiln.entry} {
  %0 = kiln.permute %x {dims = array<i64: 0, 3, 1, 2>} : tensor<1x56x56x64xf32> -> tensor<1x64x56x56xf32>
  %1 = kiln.permute %m {dims = array<i64: 1, 0>} : tensor<8x32xf32> -> tensor<32x8xf32>
  return %0, %1 : tensor<1x64x56x56xf32>, tensor<32x8xf32>
}

// -----

// A transpose of outer dims only (the innermost stays put) copies whole
// rows: it is vectorized along them like an elementwise op. One of 64-bit
// elements and one narrower than 8 stay as they are.
// CHECK-LABEL: func.func @transpose_kept
// CHECK:         scf.for {{.*}} = %c0 to %c4 step %c1
// CHECK:           scf.for {{.*}} = %c0 to %c8 step %c1
// CHECK:             vector.transfer_read {{.*}} : tensor<1x1x32xf32>, vector<1x1x32xf32>
// CHECK-NOT:     vector.transfer_read
// CHECK-COUNT-2: linalg.transpose
// CHECK-NOT:     vector.transfer_read
func.func @transpose_kept(%x: tensor<8x4x32xf32>, %y: tensor<32x32xf64>, %z: tensor<4x32xf32>) -> (tensor<4x8x32xf32>, tensor<32x32xf64>, tensor<32x4xf32>) attributes {kiln.entry} {
  %0 = kiln.permute %x {dims = array<i64: 1, 0, 2>} : tensor<8x4x32xf32> -> tensor<4x8x32xf32>
  %1 = kiln.permute %y {dims = array<i64: 1, 0>} : tensor<32x32xf64> -> tensor<32x32xf64>
  %2 = kiln.permute %z {dims = array<i64: 1, 0>} : tensor<4x32xf32> -> tensor<32x4xf32>
  return %0, %1, %2 : tensor<4x8x32xf32>, tensor<32x32xf64>, tensor<32x4xf32>
}
