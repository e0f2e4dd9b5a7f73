//===- ParallelTiles.cpp - Tile loops on the runtime's threads ------------===//
//
// Each scf.forall the codegen strategy made (TileFusionGroups.cpp) is, on
// buffers, a loop over independent tiles. Here it becomes a call that
// hands the tiles to the runtime's threads (kiln_host_api.parallel_for):
//
//   * The tile's stack buffers (TileStackBuffers.cpp) move to the start of
//     the outlined body, one set per thread's run of tiles.
//   * The tile body is outlined into `kiln_tiles__<fn>_<k>(begin, end,
//     values...)`, which runs the tiles [begin, end) one after another;
//     the forall becomes a call of `kiln_parallel__<fn>_<k>(n, points,
//     values...)`, which AbiGlue.cpp defines to pack the values and call
//     parallel_for with a trampoline to the body.
//
// The body runs on other threads, where the runtime's per-call state does
// not exist: a tile that still calls anything (a run-time check, print,
// the kernel library, an allocation too large for the stack) stays a
// serial loop on the calling thread.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace {

/// Moves the stack buffers of a tile body to before its loop `loop`: they
/// have static shapes, and one buffer serves every tile a thread runs, where
/// an alloca in the loop would grow the stack with each tile.
void hoistStackBuffers(Block *body, Operation *loop) {
  SmallVector<memref::AllocaOp> allocas;
  body->walk([&](memref::AllocaOp alloca) { allocas.push_back(alloca); });
  for (memref::AllocaOp alloca : allocas)
    alloca->moveBefore(loop);
}

/// Whether a tile may run on another thread: it calls nothing (the
/// runtime's per-call state lives on the calling thread) and allocates
/// nothing on the heap.
bool runsAnywhere(scf::ForallOp loop) {
  WalkResult result = loop.getBody()->walk([](Operation *op) {
    if (isa<CallOpInterface, memref::AllocOp, memref::DeallocOp,
            memref::ReallocOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// The product of `sizes`, each dynamic one at its upper bound (a tiled
/// dim's is the tile size), or 1024 when it has none.
int64_t boundedPoints(ArrayRef<OpFoldResult> sizes) {
  int64_t points = 1;
  for (OpFoldResult size : sizes) {
    std::optional<int64_t> extent = getConstantIntValue(size);
    if (!extent) {
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(size),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      extent = succeeded(bound) ? *bound : 1024;
    }
    points = std::min<int64_t>(points * std::max<int64_t>(*extent, 1), 1 << 30);
  }
  return points;
}

/// The points of one tile, for the runtime's choice between threads and
/// the calling thread: the largest iteration space of a linalg op in the
/// body, or the largest view of memory the tile takes (a vectorized body,
/// kiln-vectorize-tiles, has loops of vector ops instead of linalg ops).
int64_t pointsPerTile(scf::ForallOp loop) {
  int64_t points = 1;
  loop.getBody()->walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      OpBuilder b(op);
      SmallVector<OpFoldResult> sizes;
      for (Range range : linalgOp.createLoopRanges(b, op->getLoc()))
        sizes.push_back(range.size);
      points = std::max(points, boundedPoints(sizes));
    } else if (auto view = dyn_cast<memref::SubViewOp>(op)) {
      points = std::max(points, boundedPoints(view.getMixedSizes()));
    }
  });
  return points;
}

struct ParallelTilesPass
    : public PassWrapper<ParallelTilesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ParallelTilesPass)

  StringRef getArgument() const final { return "kiln-parallel-tiles"; }
  StringRef getDescription() const final {
    return "Hand the tiles of each scf.forall to the runtime's threads, or "
           "run them in a serial loop when a tile calls the runtime";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    memref::MemRefDialect, scf::SCFDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Post-order: a loop nested in another is done first, so the outer
    // one sees the call it became and stays serial.
    SmallVector<scf::ForallOp> loops;
    module.walk([&](scf::ForallOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    unsigned count = 0;
    for (scf::ForallOp loop : loops) {
      if (runsAnywhere(loop) && loop.getNumResults() == 0) {
        outline(rewriter, loop, count++);
        continue;
      }
      hoistStackBuffers(loop.getBody(), loop);
      rewriter.setInsertionPoint(loop);
      if (failed(scf::forallToForLoop(rewriter, loop)))
        return signalPassFailure();
    }
  }

  void outline(RewriterBase &rewriter, scf::ForallOp loop, unsigned index);
};

/// The trip count of each dim of `loop`, computed before it (0 for an
/// empty range).
SmallVector<Value> tripCounts(OpBuilder &b, scf::ForallOp loop) {
  Location loc = loop.getLoc();
  SmallVector<Value> trips;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getMixedLowerBound(), loop.getMixedUpperBound(),
                 loop.getMixedStep())) {
    Value l = getValueOrCreateConstantIndexOp(b, loc, lb);
    Value u = getValueOrCreateConstantIndexOp(b, loc, ub);
    Value s = getValueOrCreateConstantIndexOp(b, loc, step);
    Value span = b.create<arith::MaxSIOp>(
        loc, b.create<arith::SubIOp>(loc, u, l),
        b.create<arith::ConstantIndexOp>(loc, 0));
    trips.push_back(b.create<arith::CeilDivUIOp>(loc, span, s));
  }
  return trips;
}

void ParallelTilesPass::outline(RewriterBase &rewriter, scf::ForallOp loop,
                                unsigned index) {
  MLIRContext *context = &getContext();
  Location loc = loop.getLoc();
  auto parent = loop->getParentOfType<func::FuncOp>();
  std::string name = (parent.getName() + "_" + Twine(index)).str();

  // Every value the body reads from outside, with the bounds of each dim;
  // constants are copied in instead.
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> trips = tripCounts(rewriter, loop);
  SmallVector<Value> passed;
  for (Value trip : trips)
    passed.push_back(trip);
  for (OpFoldResult v : loop.getMixedLowerBound())
    passed.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, v));
  for (OpFoldResult v : loop.getMixedStep())
    passed.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, v));
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(loop.getRegion(), above);
  SmallVector<Operation *> constants;
  for (Value value : above) {
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(def);
    else
      passed.push_back(value);
  }
  Value n = trips.front();
  for (Value trip : ArrayRef<Value>(trips).drop_front())
    n = rewriter.create<arith::MulIOp>(loc, n, trip);

  // kiln_tiles__<name>(begin, end, passed...): the tiles [begin, end).
  Type indexType = rewriter.getIndexType();
  SmallVector<Type> types = {indexType, indexType};
  for (Value value : passed)
    types.push_back(value.getType());
  auto module = cast<ModuleOp>(parent->getParentOp());
  OpBuilder top(module.getBodyRegion());
  top.setInsertionPointAfter(parent);
  auto body = top.create<func::FuncOp>(loc, "kiln_tiles__" + name,
                                       FunctionType::get(context, types, {}));
  body.setPrivate();
  Block *entry = body.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  IRMapping map;
  size_t rank = trips.size();
  for (auto [i, value] : llvm::enumerate(passed))
    map.map(value, entry->getArgument(2 + i));
  for (Operation *constant : constants)
    b.clone(*constant, map);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  auto tiles = b.create<scf::ForOp>(loc, entry->getArgument(0),
                                    entry->getArgument(1), one);
  b.create<func::ReturnOp>(loc);
  b.setInsertionPointToStart(tiles.getBody());
  // The tile's index in each dim, innermost fastest, as scf.forall counts.
  Value rest = tiles.getInductionVar();
  SmallVector<Value> ivs(rank);
  for (size_t d = rank; d-- > 0;) {
    Value trip = entry->getArgument(2 + d);
    Value lb = entry->getArgument(2 + rank + d);
    Value step = entry->getArgument(2 + 2 * rank + d);
    Value i = d ? b.create<arith::RemUIOp>(loc, rest, trip) : rest;
    ivs[d] = b.create<arith::AddIOp>(loc, lb,
                                     b.create<arith::MulIOp>(loc, i, step));
    if (d)
      rest = b.create<arith::DivUIOp>(loc, rest, trip);
  }
  for (auto [iv, arg] : llvm::zip(ivs, loop.getInductionVars()))
    map.map(arg, iv);
  for (Operation &op : loop.getBody()->without_terminator())
    b.clone(op, map);
  hoistStackBuffers(tiles.getBody(), tiles);

  // The call that replaces the loop: n tiles of `points` points each.
  SmallVector<Type> callTypes = {indexType, indexType};
  callTypes.append(types.begin() + 2, types.end());
  auto launcher = top.create<func::FuncOp>(
      loc, "kiln_parallel__" + name, FunctionType::get(context, callTypes, {}));
  launcher.setPrivate();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> args = {
      n, rewriter.create<arith::ConstantIndexOp>(loc, pointsPerTile(loop))};
  args.append(passed.begin(), passed.end());
  rewriter.create<func::CallOp>(loc, launcher, args);
  rewriter.eraseOp(loop);
}

} // namespace

std::unique_ptr<mlir::Pass> kiln::createParallelTilesPass() {
  return std::make_unique<ParallelTilesPass>();
}
