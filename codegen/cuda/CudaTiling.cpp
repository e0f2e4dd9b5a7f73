//===- CudaTiling.cpp - The GPU's tile sizes for row groups ---------------===//
//
// On the GPU a tile is one row: every leading parallel loop of the root is
// cut by one, and its last loop (with any reduction loops) stays whole.
// A warp runs each tile (codegen/cuda/WarpTiles.cpp): its lanes reduce the
// row together, so the row's max and sum stay in registers, and the row
// is read from memory once; the passes after the first find it in L1.
// Untiled, softmax's max, sum and scaling were each a kernel that read
// the input again from memory (and the two reductions' results went
// through memory too).
//
// Only ops that read a row's reduction are tiled (TileFusionGroups.cpp):
// an elementwise kernel already runs a thread per point, which a row tile
// would only constrain.
//
//===----------------------------------------------------------------------===//

#include "codegen/strategy/Tiling.h"

using namespace mlir;

namespace kiln::codegen {

SmallVector<int64_t> gpuForallTileSizes(linalg::LinalgOp root) {
  SmallVector<utils::IteratorType> iterators = root.getIteratorTypesArray();
  size_t loops = iterators.size();
  size_t rows = 0;
  while (rows < loops && iterators[rows] == utils::IteratorType::parallel)
    ++rows;
  rows = std::min(rows, loops - 1);
  if (rows == 0)
    return {};
  SmallVector<int64_t> sizes(loops, 0);
  std::fill_n(sizes.begin(), rows, 1);
  return sizes;
}

} // namespace kiln::codegen
