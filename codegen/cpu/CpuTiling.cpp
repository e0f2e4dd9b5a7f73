//===- CpuTiling.cpp - The CPU's tile sizes for fused groups --------------===//
//
// A tile is the unit of work the runtime's threads share, so it must be
// large enough that handing it out (tens of nanoseconds) is noise, and
// small enough that a few cores find many tiles to split. About 16K points
// of the iteration space does both: 64 KB per f32 operand, which a core's
// L2 holds with the group's temporaries, and 64 tiles for x[1M].
// A group with a reduction (softmax, layer norm) passes over its tile
// several times (the max, the exp and its sum, the scaling): its tiles are
// 2K points, 8 KB per f32 operand, so that each pass after the first
// reads L1 rather than L2, with room beside them for the next tile's input
// and this tile's output, which the last pass prefetches
// (PrefetchNextTile.cpp). Softmax 512x1024 at one thread: 120 us with
// 16K-point tiles, 96 us with 4K; with the prefetches, 83 us with 4K, 75
// with 2K, 88 with 1K (one row a tile).
//
// Only leading parallel loops are cut: a reduction loop stays whole inside
// a tile, so each tile reduces its own rows and no partial results are
// merged. The loops before the cut one are tiled by 1 and those after it
// stay whole, so a tile is a run of contiguous rows, as PyTorch's own
// parallel_for splits its kernels.
//
//===----------------------------------------------------------------------===//

#include "codegen/strategy/Tiling.h"

using namespace mlir;

namespace kiln::codegen {

static constexpr int64_t kStreamingTileElements = 16384;
static constexpr int64_t kReducingTileElements = 2048;

SmallVector<int64_t> cpuForallTileSizes(linalg::LinalgOp root, bool reduces) {
  const int64_t tileElements =
      reduces ? kReducingTileElements : kStreamingTileElements;
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = root.getIteratorTypesArray();
  size_t loops = ranges.size();
  size_t parallel = 0;
  while (parallel < loops && iterators[parallel] == utils::IteratorType::parallel)
    ++parallel;
  // A group that reduces (softmax) reads whole rows of its root's last
  // loop, even when the root itself is elementwise: cutting that loop would
  // make each piece of a row compute the row's reduction again.
  if (reduces && loops > 1)
    parallel = std::min(parallel, loops - 1);
  if (parallel == 0)
    return {};
  // The points of one iteration of each loop: the product of the loops
  // inside it. A dynamic extent is taken as large, which batch and
  // sequence dims are.
  SmallVector<int64_t> inner(loops, 1);
  for (size_t d = loops - 1; d > 0; --d)
    inner[d - 1] = ShapedType::isDynamic(ranges[d])
                       ? tileElements
                       : std::min(tileElements, inner[d] * ranges[d]);
  int64_t points = 1;
  for (int64_t range : ranges)
    points = ShapedType::isDynamic(range) ? tileElements + 1
                                          : std::min(points * range,
                                                     tileElements + 1);
  if (points <= tileElements)
    return {};
  // The outermost parallel loop whose iterations are smaller than a tile
  // is cut into runs of them; every loop outside it is cut by one.
  size_t cut = 0;
  while (cut + 1 < parallel && inner[cut] >= tileElements)
    ++cut;
  SmallVector<int64_t> sizes(loops, 0);
  for (size_t d = 0; d < cut; ++d)
    sizes[d] = 1;
  sizes[cut] = std::max<int64_t>(1, tileElements / inner[cut]);
  // A transpose's tile spans whole blocks along the loop its input is
  // contiguous along; cut finer, it would have no block to transpose.
  if (std::optional<unsigned> along = transposedLoop(root);
      along && sizes[*along] != 0)
    sizes[*along] = llvm::alignTo(sizes[*along], kTransposeBlock);
  return sizes;
}

} // namespace kiln::codegen
