//===- Tiling.h - How fused groups are cut into tiles ------------*- C++ -*-===//
//
// The target-independent half of kiln's codegen strategy: each fusion group
// becomes one `scf.forall` over tiles of its root op (the op whose result
// leaves the group), with the group's other ops fused into the tile. Which
// loops are tiled and how large a tile is are the target's choice: one
// function per target, below, and nothing else decides.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_STRATEGY_TILING_H
#define KILN_CODEGEN_STRATEGY_TILING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace kiln::codegen {

/// The fusion group an op was lowered from: set when the lowering inlines
/// kiln.fusion_group (FusionGroups.cpp), read and removed by tiling.
inline constexpr llvm::StringLiteral kFusionGroupAttrName = "kiln.group";

// Each target's function gives the tile sizes for the forall over
// `root`'s loops, one per loop (0: the loop stays whole inside each
// tile), or nothing to leave the group untiled.

/// The side of a transpose's square blocks (VectorizeTiles.cpp, which
/// says why 16); a tile of a transpose spans whole blocks.
inline constexpr int64_t kTransposeBlock = 16;

/// The loop a transpose's input is contiguous along, where that is not
/// the innermost loop (along which its output is): a linalg.transpose of
/// 32-bit elements, which VectorizeTiles cuts into square blocks over the
/// two (VectorizeTiles.cpp). None for any other op.
std::optional<unsigned> transposedLoop(mlir::linalg::LinalgOp op);

/// The CPU's choice (CpuTiling.cpp). `reduces` says whether any op of the
/// group has a reduction loop: then a tile's ops make several passes over
/// its data.
llvm::SmallVector<int64_t> cpuForallTileSizes(mlir::linalg::LinalgOp root,
                                              bool reduces);

/// The GPU's choice (codegen/cuda/CudaTiling.cpp) for an op that reads a
/// row's reduction: one row a tile, which a warp runs (WarpTiles.cpp).
llvm::SmallVector<int64_t> gpuForallTileSizes(mlir::linalg::LinalgOp root);

} // namespace kiln::codegen

#endif // KILN_CODEGEN_STRATEGY_TILING_H
