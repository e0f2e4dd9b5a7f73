//===- TileStackBuffers.cpp - A tile's small buffers on its stack ---------===//
//
// A fused reduction in a tile (TileFusionGroups.cpp) writes its row
// results to a buffer the tile allocates. Allocating it on the heap would
// cost a call per tile and tie the tile to the calling thread, whose
// per-call state tracks allocations; on the stack it costs nothing and a
// tile can run anywhere (ParallelTiles.cpp). A buffer moves when its size
// has a static upper bound (a partial last tile is bounded by the tile
// size) of at most 64 KiB; it is viewed at its actual sizes. A GPU row
// tile's buffers (one element of each reduction) become the thread's own
// the same way: registers, once LLVM has promoted them (WarpTiles.cpp).
//
// Runs before kiln-check-allocation-sizes, so a moved buffer gets no
// run-time size check: its bound is its size.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// The most bytes one tile buffer may take on the stack: the runtime's
/// threads, and an app's, have at least 256 KiB.
constexpr int64_t kMaxTileStackBytes = 64 * 1024;

/// The static upper bound of each size of `alloc`, or failure.
FailureOr<SmallVector<int64_t>> boundedShape(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  SmallVector<int64_t> shape(type.getShape());
  unsigned dynamic = 0;
  for (int64_t &size : shape) {
    if (!ShapedType::isDynamic(size))
      continue;
    Value value = alloc.getDynamicSizes()[dynamic++];
    FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(value),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(bound) || *bound < 0)
      return failure();
    size = *bound;
  }
  return shape;
}

/// Moves a tile's small buffer to its stack: a static alloca of the bound
/// shape, viewed at the actual sizes. Its deallocation goes.
bool moveToStack(RewriterBase &rewriter, memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.getLayout().isIdentity() || !type.getElementType().isIntOrFloat())
    return false;
  FailureOr<SmallVector<int64_t>> shape = boundedShape(alloc);
  if (failed(shape))
    return false;
  int64_t bytes = (type.getElementTypeBitWidth() + 7) / 8;
  for (int64_t size : *shape)
    if ((bytes *= size) > kMaxTileStackBytes)
      return false;
  // Only a leading dynamic dim keeps the view's strides those of the
  // buffer's own (identity) layout, so that a plain cast can restore the
  // type every user expects.
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      return false;
  for (Operation *user : alloc->getUsers())
    if (isa<memref::DeallocOp>(user))
      rewriter.eraseOp(user);
  rewriter.setInsertionPoint(alloc);
  Location loc = alloc.getLoc();
  auto stackType = MemRefType::get(*shape, type.getElementType());
  Value stack = rewriter.create<memref::AllocaOp>(loc, stackType,
                                                  alloc.getAlignmentAttr());
  if (type.hasStaticShape()) {
    rewriter.replaceOp(alloc, stack);
    return true;
  }
  SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes = alloc.getMixedSizes();
  Value view = rewriter.create<memref::SubViewOp>(loc, stack, offsets, sizes,
                                                  strides);
  rewriter.replaceOpWithNewOp<memref::CastOp>(alloc, type, view);
  return true;
}

struct TileStackBuffersPass
    : public PassWrapper<TileStackBuffersPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileStackBuffersPass)

  StringRef getArgument() const final { return "kiln-tile-stack-buffers"; }
  StringRef getDescription() const final {
    return "Move the small buffers a tile of an scf.forall allocates to the "
           "stack, at their static upper bound";
  }

  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](scf::ForallOp loop) {
      loop.getBody()->walk(
          [&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocOp alloc : allocs)
      moveToStack(rewriter, alloc);
  }
};

} // namespace

std::unique_ptr<mlir::Pass> kiln::createTileStackBuffersPass() {
  return std::make_unique<TileStackBuffersPass>();
}
