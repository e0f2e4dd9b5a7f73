//===- WarpTilePlan.h - How a warp runs a row tile's ops --------*- C++ -*-===//
//
// Private to codegen/cuda: the plan WarpTiles.cpp makes for a row tile
// (one step per op of the tile's body) and the register path
// (RowInRegisters.cpp) that emits it for rows short enough.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_CUDA_WARPTILEPLAN_H
#define KILN_CODEGEN_CUDA_WARPTILEPLAN_H

#include "codegen/cuda/KernelMapping.h"

namespace kiln::cuda {

/// Whether `memref` views a buffer the tile allocated on the thread's
/// stack (kiln-tile-stack-buffers), which no other thread sees.
bool isLaneOwn(mlir::Value memref);

/// What an op of the tile does to memory, nested ops included.
struct Access {
  bool readsGlobal = false, writesGlobal = false, writesOwn = false;
};

/// How the warp runs one op of the tile (WarpTiles.cpp's file comment).
enum class Role { EveryLane, Reduce, Spread, LaneZero };

struct Step {
  mlir::Operation *op;
  Role role;
  Access access;
  std::optional<Accumulation> acc;
  bool writesGlobal;
  bool syncAfter = false;
};

/// Emits `step` at `b` for any row length, `lane` being the thread's lane.
void emitStep(mlir::OpBuilder &b, const Step &step, mlir::IRMapping &mapping,
              mlir::Value lane);

/// After a step: the __syncwarp that `step.syncAfter` asks for.
void syncAfter(mlir::OpBuilder &b, const Step &step);

/// A Reduce step's whole-warp `total` combined into its accumulator: by
/// every lane into its own copy, or by lane 0 alone into global memory.
void storeReduced(mlir::OpBuilder &b, const Step &step,
                  mlir::IRMapping &point, mlir::Value total, mlir::Value lane);

/// Whether the warp runs `tile`'s body as `steps` (WarpTiles.cpp).
mlir::FailureOr<llvm::SmallVector<Step>> planTile(mlir::scf::ParallelOp tile);

/// When two of `tile`'s passes read the same row, a copy of `tile` for
/// each tier of the register path (RowInRegisters.cpp), with its elements
/// per lane, each run on the host only when the row fits that tier and
/// none fits a smaller one; `tile` itself runs for longer rows. Nothing
/// when no two passes read the same row.
llvm::SmallVector<std::pair<mlir::scf::ParallelOp, int64_t>>
splitShortRows(mlir::scf::ParallelOp tile, llvm::ArrayRef<Step> steps);

/// Emits a copy's `steps` at `b`, inside its kernel, with `perLane`
/// elements of the row per lane held in registers, loaded once for all
/// the passes over the row.
void emitRowInRegisters(mlir::OpBuilder &b, mlir::scf::ParallelOp tile,
                        llvm::ArrayRef<Step> steps, int64_t perLane,
                        mlir::IRMapping &mapping, mlir::Value lane);

} // namespace kiln::cuda

#endif // KILN_CODEGEN_CUDA_WARPTILEPLAN_H
