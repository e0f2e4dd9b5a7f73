//===- PrefetchNextTile.cpp - A multi-pass tile fetches ahead -------------===//
//
// A tile that reduces its rows (softmax, layer norm) passes over its input
// several times: the first pass (the max) streams the rows in from L3 or
// memory, the middle ones (the exp and its sum) find them in L1 and are
// bound by arithmetic, and the last one streams the output out. Each phase
// waits on one resource while the others idle, and the hardware
// prefetchers, which follow the streams they see, do not fetch across the
// compute phase.
//
// So the last pass over a tile's input, the one that computes most, also
// prefetches line by line:
// - the same elements of the next tile's input, so that the next tile's
//   first pass reads L1. The next tile is the one after it along the
//   forall's innermost dim, as the runtime's threads take tiles in runs;
//   its offset is clamped so that its view stays inside the input (the
//   last tile prefetches itself);
// - the same elements of this tile's output, where a later pass writes a
//   view of the same type (the same shape and strides, so the same indices
//   are the same elements), so that its stores find their lines in cache.
// Softmax 512x1024 at one thread: 90 us without, 86 with the input's, 82
// with both (4K-point tiles; CpuTiling.cpp has the tile size's share).
//
// Only contiguous vector reads lead to prefetches, one for each 64-byte
// line they read; broadcast and strided reads lead to none. A prefetch
// changes no result, and x86's never faults.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace {

constexpr int64_t kCacheLineBytes = 64;

/// The subviews from `value` up to `view`, innermost first, or failure when
/// `value` is not a view of `view`.
FailureOr<SmallVector<memref::SubViewOp>> viewChain(Value value, Value view) {
  SmallVector<memref::SubViewOp> chain;
  while (value != view) {
    auto subview = value.getDefiningOp<memref::SubViewOp>();
    if (!subview)
      return failure();
    chain.push_back(subview);
    value = subview.getSource();
  }
  return chain;
}

/// The vector reads of `view` in `op`, directly or through subviews.
SmallVector<vector::TransferReadOp> readsOf(Operation *op, Value view) {
  SmallVector<vector::TransferReadOp> reads;
  op->walk([&](vector::TransferReadOp read) {
    if (succeeded(viewChain(read.getSource(), view)))
      reads.push_back(read);
  });
  return reads;
}

/// Whether `op` passes over `view`: it or an op in it, other than a
/// subview, takes `view` or a subview of it. A loop of vector code and a
/// linalg op that is still to become loops both count.
bool passesOver(Operation *op, Value view) {
  return op
      ->walk([&](Operation *nested) {
        if (isa<memref::SubViewOp>(nested))
          return WalkResult::advance();
        for (Value operand : nested->getOperands())
          if (isa<MemRefType>(operand.getType()) &&
              succeeded(viewChain(operand, view)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// A tile's view of a buffer from outside the forall, offset by the
/// forall's innermost induction variable along `dim`.
struct TileView {
  memref::SubViewOp view;
  unsigned dim;
};

std::optional<TileView> tileView(scf::ForallOp loop, memref::SubViewOp view) {
  if (loop->isAncestor(view.getSource().getParentRegion()->getParentOp()))
    return std::nullopt;
  Value iv = loop.getInductionVars().back();
  for (auto [dim, offset] : llvm::enumerate(view.getMixedOffsets()))
    if (auto value = dyn_cast<Value>(offset); value && value == iv)
      return TileView{view, static_cast<unsigned>(dim)};
  return std::nullopt;
}

/// The next tile's view: `tile.view` with its offset along `tile.dim`
/// moved on by the forall's step, but no further than leaves the tile's
/// size inside the forall's range.
Value nextTileView(OpBuilder &b, scf::ForallOp loop, TileView tile) {
  Location loc = tile.view.getLoc();
  auto index = [&](OpFoldResult value) {
    return getValueOrCreateConstantIndexOp(b, loc, value);
  };
  Value iv = loop.getInductionVars().back();
  Value step = index(loop.getMixedStep().back());
  Value upper = index(loop.getMixedUpperBound().back());
  Value size = index(tile.view.getMixedSizes()[tile.dim]);
  Value next = b.create<arith::AddIOp>(loc, iv, step);
  Value last = b.create<arith::SubIOp>(loc, upper, size);
  next = b.create<arith::MinSIOp>(loc, next, last);
  SmallVector<OpFoldResult> offsets = tile.view.getMixedOffsets();
  offsets[tile.dim] = next;
  return b.create<memref::SubViewOp>(
      loc, cast<MemRefType>(tile.view.getType()), tile.view.getSource(),
      offsets, tile.view.getMixedSizes(), tile.view.getMixedStrides());
}

/// Prefetches each line that `read` reads, in `target` (a view of the same
/// type as `view`) instead of `view`, if the read is of contiguous elements.
void prefetchLikeRead(OpBuilder &b, vector::TransferReadOp read, Value view,
                      Value target, bool forWrite) {
  auto type = cast<MemRefType>(read.getSource().getType());
  VectorType vector = read.getVectorType();
  if (!read.getPermutationMap().isMinorIdentity() ||
      vector.getRank() != read.getPermutationMap().getNumResults() ||
      llvm::any_of(vector.getShape().drop_back(),
                   [](int64_t size) { return size != 1; }))
    return;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getStridesAndOffset(type, strides, offset)) || strides.empty() ||
      strides.back() != 1 || type.getElementTypeBitWidth() < 8)
    return;
  b.setInsertionPoint(read);
  IRMapping mapping;
  mapping.map(view, target);
  Value source = target;
  // Named, not a temporary: llvm::reverse would outlive it.
  SmallVector<memref::SubViewOp> chain = *viewChain(read.getSource(), view);
  for (memref::SubViewOp subview : llvm::reverse(chain))
    source = b.clone(*subview, mapping)->getResult(0);
  Location loc = read.getLoc();
  int64_t lineElements = kCacheLineBytes * 8 / type.getElementTypeBitWidth();
  SmallVector<Value> indices(read.getIndices());
  Value innermost = indices.back();
  for (int64_t k = 0; k < vector.getShape().back(); k += lineElements) {
    if (k > 0)
      indices.back() = b.create<arith::AddIOp>(
          loc, innermost, b.create<arith::ConstantIndexOp>(loc, k));
    b.create<memref::PrefetchOp>(loc, source, indices, forWrite,
                                 /*localityHint=*/3, /*isDataCache=*/true);
  }
}

/// The views of this tile's outputs that ops after `lastPass` write, with
/// the type of `input`, made again before `lastPass`.
SmallVector<Value> outputViewsAfter(OpBuilder &b, scf::ForallOp loop,
                                    Operation *lastPass,
                                    memref::SubViewOp input) {
  SmallVector<Value> outputs;
  for (Operation *op = lastPass->getNextNode(); op; op = op->getNextNode()) {
    auto view = dyn_cast<memref::SubViewOp>(op);
    if (!view || view.getType() != input.getType() || !tileView(loop, view))
      continue;
    // Made again before `lastPass`, it may only use what is there.
    if (llvm::any_of(view->getOperands(), [&](Value operand) {
          Operation *def = operand.getDefiningOp();
          return def && def->getBlock() == lastPass->getBlock() &&
                 lastPass->isBeforeInBlock(def);
        }))
      continue;
    bool written = false;
    for (Operation *later = op->getNextNode(); later && !written;
         later = later->getNextNode())
      later->walk([&](vector::TransferWriteOp write) {
        written |= succeeded(viewChain(write.getSource(), view));
      });
    if (written)
      outputs.push_back(b.clone(*view)->getResult(0));
  }
  return outputs;
}

void prefetchNextTile(scf::ForallOp loop) {
  Block *body = loop.getBody();
  // A pass that reads several inputs prefetches the outputs once.
  llvm::SmallPtrSet<Operation *, 2> outputsPrefetched;
  for (auto input : llvm::to_vector(body->getOps<memref::SubViewOp>())) {
    std::optional<TileView> tile = tileView(loop, input);
    if (!tile)
      continue;
    Operation *lastPass = nullptr;
    unsigned passes = 0;
    for (Operation &op : *body)
      if (!isa<memref::SubViewOp>(op) && passesOver(&op, input)) {
        ++passes;
        lastPass = &op;
      }
    if (passes < 2)
      continue;
    SmallVector<vector::TransferReadOp> reads = readsOf(lastPass, input);
    if (reads.empty())
      continue;
    OpBuilder b(lastPass);
    Value nextInput = nextTileView(b, loop, *tile);
    SmallVector<Value> outputs;
    if (outputsPrefetched.insert(lastPass).second)
      outputs = outputViewsAfter(b, loop, lastPass, input);
    for (vector::TransferReadOp read : reads) {
      prefetchLikeRead(b, read, input, nextInput, /*forWrite=*/false);
      for (Value output : outputs)
        prefetchLikeRead(b, read, input, output, /*forWrite=*/true);
    }
  }
}

struct PrefetchNextTilePass
    : public PassWrapper<PrefetchNextTilePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrefetchNextTilePass)

  StringRef getArgument() const final { return "kiln-prefetch-next-tile"; }
  StringRef getDescription() const final {
    return "In a tile that passes over its input more than once, make the "
           "last pass prefetch the next tile's input and this tile's output";
  }

  void runOnOperation() override {
    getOperation().walk([](scf::ForallOp loop) { prefetchNextTile(loop); });
  }
};

} // namespace

std::unique_ptr<mlir::Pass> kiln::createPrefetchNextTilePass() {
  return std::make_unique<PrefetchNextTilePass>();
}
