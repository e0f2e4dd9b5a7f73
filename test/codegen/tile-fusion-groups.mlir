// RUN: kiln-opt %s --split-input-file --kiln-lower-to-linalg --kiln-tile-fusion-groups --cse --canonicalize | FileCheck %s

// The codegen strategy's tiling (docs/codegen.md): each fused group becomes
// one scf.forall over runs of rows of its root, about 16K points a tile
// (2K when the group reduces), with the group's other ops fused into the
// tile.

// An elementwise group over a dynamic size: tiles of 16384 elements.
// CHECK-LABEL: func.func @elementwise
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (%{{.*}}) step (16384) shared_outs
// CHECK:           affine.min
// CHECK:           linalg.generic
// CHECK-COUNT-2:     arith.mulf
// CHECK:           tensor.parallel_insert_slice
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @elementwise(%x: tensor<?xf32>) -> tensor<?xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: tensor<?xf32>):
    %1 = kiln.mul %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %2 = kiln.mul %1, %1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    kiln.yield %2 : tensor<?xf32>
  }
  return %0 : tensor<?xf32>
}

// -----

// Softmax, one group (the fusion pass keeps a normalization together). A
// group with a reduction gets tiles of about 2K points, here 2 rows of
// 1024, so that its passes over a tile after the first read L1. The row
// max, exp and sum are fused into the tile, each once: the exp is too
// costly to compute again for the division, so its tile is kept, and the
// sum and the division both read it.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%[[I:.*]]) = (0) to (512) step (2) shared_outs
// CHECK:           linalg.fill {{.*}} -> tensor<2xf32>
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}tensor<2x1024xf32>{{.*}}tensor<2xf32>
// CHECK:             arith.maximumf {{.*}} fastmath<nsz>
// CHECK:           %[[E:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:             math.exp
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[E]] : tensor<2x1024xf32>)
// CHECK-NOT:         math.exp
// CHECK:             arith.addf {{.*}} fastmath<reassoc>
// CHECK:           linalg.generic {{.*}} ins(%[[E]],
// CHECK-NOT:         math.exp
// CHECK:             arith.divf
// CHECK:           tensor.parallel_insert_slice
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return
func.func @softmax(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  ^bb0(%a: tensor<512x1024xf32>):
    %m = kiln.amax %a {dims = array<i64: 1>, keepdim = true} : tensor<512x1024xf32> -> tensor<512x1xf32>
    %d = kiln.sub %a, %m : (tensor<512x1024xf32>, tensor<512x1xf32>) -> tensor<512x1024xf32>
    %e = kiln.exp %d : tensor<512x1024xf32>
    %s = kiln.sum %e {dims = array<i64: 1>, keepdim = true} : tensor<512x1024xf32> -> tensor<512x1xf32>
    %q = kiln.div %e, %s : (tensor<512x1024xf32>, tensor<512x1xf32>) -> tensor<512x1024xf32>
    kiln.yield %q : tensor<512x1024xf32>
  }
  return %0 : tensor<512x1024xf32>
}

// A layer norm's x - mean is cheap (one subtraction), so both its readers,
// the variance's sum of squares and the output, compute it again rather
// than keep a tile of it.
// CHECK-LABEL: func.func @centered
// CHECK:         scf.forall
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:             arith.subf
// CHECK:             arith.mulf
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:             arith.subf
// CHECK:           tensor.parallel_insert_slice
func.func @centered(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  ^bb0(%a: tensor<512x1024xf32>):
    %m = kiln.sum %a {dims = array<i64: 1>, keepdim = true} : tensor<512x1024xf32> -> tensor<512x1xf32>
    %d = kiln.sub %a, %m : (tensor<512x1024xf32>, tensor<512x1xf32>) -> tensor<512x1024xf32>
    %sq = kiln.mul %d, %d : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %v = kiln.sum %sq {dims = array<i64: 1>, keepdim = true} : tensor<512x1024xf32> -> tensor<512x1xf32>
    %y = kiln.div %d, %v : (tensor<512x1024xf32>, tensor<512x1xf32>) -> tensor<512x1024xf32>
    kiln.yield %y : tensor<512x1024xf32>
  }
  return %0 : tensor<512x1024xf32>
}

// -----

// A column reduction read by every row is the same in every tile: it stays
// before the loop, computed once, instead of once per tile.
// CHECK-LABEL: func.func @column_mean_removed
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// CHECK:         scf.forall
// CHECK-NOT:       "reduction"
// CHECK:           arith.subf
// CHECK:         return
func.func @column_mean_removed(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  ^bb0(%a: tensor<512x1024xf32>):
    %s = kiln.sum %a {dims = array<i64: 0>, keepdim = true} : tensor<512x1024xf32> -> tensor<1x1024xf32>
    %d = kiln.sub %a, %s : (tensor<512x1024xf32>, tensor<1x1024xf32>) -> tensor<512x1024xf32>
    kiln.yield %d : tensor<512x1024xf32>
  }
  return %0 : tensor<512x1024xf32>
}

// -----

// A group whose root is a row reduction: its rows are tiled, its reduced
// dim stays whole in each tile, and the keepdim reshape follows the loop.
// CHECK-LABEL: func.func @row_sums
// CHECK:         scf.forall (%{{.*}}) in (64) shared_outs
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}tensor<1x4096xf32>{{.*}}tensor<1xf32>
// CHECK:         tensor.expand_shape
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

// A small group (here 32 points) stays one loop nest: a tile loop would
// only add overhead.
// CHECK-LABEL: func.func @small
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
// CHECK:         return
func.func @small(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %1 = kiln.mul %a, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = kiln.exp %1 : tensor<4x8xf32>
    kiln.yield %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// Images: [1, 3, 224, 224] is cut on its rows (73 rows of 224 points a
// tile), one channel at a time; the loop over the batch of 1 folds away.
// CHECK-LABEL: func.func @image
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (3, 224) step (1, 73)
func.func @image(%x: tensor<1x3x224x224xf32>) -> tensor<1x3x224x224xf32> attributes {kiln.entry} {
  %0 = kiln.fusion_group(%x) : (tensor<1x3x224x224xf32>) -> tensor<1x3x224x224xf32> {
  ^bb0(%a: tensor<1x3x224x224xf32>):
    %1 = kiln.relu %a : tensor<1x3x224x224xf32>
    kiln.yield %1 : tensor<1x3x224x224xf32>
  }
  return %0 : tensor<1x3x224x224xf32>
}
