//===- TileFusionGroups.cpp - One scf.forall of tiles per fusion group ----===//
//
// Each fusion group's root (the one op whose result leaves the group) is
// tiled into an `scf.forall` with the target's tile sizes (Tiling.h), and
// the group's other ops are fused into the tile, producer after producer,
// each computing just the slice its consumers read. Softmax's max, exp,
// sum and division then run on one run of rows at a time, while those rows
// are in cache, and the tiles are independent, so the runtime's threads
// may share them.
//
// A producer whose slice is the same in every tile (a row vector that
// every row of the root reads, a column reduction feeding rows) is not
// fused: each tile would compute it again. It stays before the loop,
// computed once. A group with several results, or a root that is not a
// linalg op, stays as it is.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/strategy/Tiling.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/CSE.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace kiln::codegen {
namespace {

/// The group's op whose results are read outside it, looking through a
/// reshape of it (a keepdim reduction's expand_shape); null unless there
/// is exactly one and it is a linalg op.
linalg::LinalgOp findRoot(ArrayRef<Operation *> group) {
  llvm::SmallPtrSet<Operation *, 8> members(group.begin(), group.end());
  Operation *root = nullptr;
  Block *block = group.front()->getBlock();
  for (Operation *op : group) {
    // A use inside a member's body (a constant the body reads) stays in.
    bool leaves = llvm::any_of(op->getUsers(), [&](Operation *user) {
      Operation *top = block->findAncestorOpInBlock(*user);
      return !top || !members.contains(top);
    });
    if (!leaves)
      continue;
    if (root)
      return nullptr;
    root = op;
  }
  while (root && isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(root)) {
    Operation *source = root->getOperand(0).getDefiningOp();
    if (!source || !members.contains(source) || !source->hasOneUse())
      return nullptr;
    root = source;
  }
  return dyn_cast_or_null<linalg::LinalgOp>(root);
}

/// The map that reads `expand`'s source where `map` read `expand`'s result,
/// when the expansion only adds unit dims (keepdim=True); null otherwise.
AffineMap readSource(tensor::ExpandShapeOp expand, AffineMap map) {
  ArrayRef<int64_t> shape = expand.getResultType().getShape();
  SmallVector<AffineExpr> results;
  for (ReassociationIndices group : expand.getReassociationIndices()) {
    SmallVector<int64_t> wide;
    for (int64_t dim : group)
      if (shape[dim] != 1)
        wide.push_back(dim);
    if (wide.size() > 1)
      return AffineMap();
    results.push_back(wide.empty()
                          ? getAffineConstantExpr(0, map.getContext())
                          : map.getResult(wide.front()));
  }
  return AffineMap::get(map.getNumDims(), 0, results, map.getContext());
}

/// A generic that reads a keepdim reduction through its expand_shape
/// (softmax's x / x.sum(-1, keepdim=True)) reads the reduction instead, so
/// that tiling fuses the reduction: the reshape is no tiling op. Returns
/// the group without the reshapes this left unused.
SmallVector<Operation *> readThroughUnitExpands(ArrayRef<Operation *> group) {
  for (Operation *op : group) {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || !generic.hasPureTensorSemantics())
      continue;
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand)
        continue;
      unsigned index = input->getOperandNumber();
      AffineMap map = readSource(expand, maps[index]);
      if (!map)
        continue;
      maps[index] = map;
      input->set(expand.getSrc());
    }
    generic.setIndexingMapsAttr(
        Builder(op->getContext()).getAffineMapArrayAttr(maps));
  }
  SmallVector<Operation *> kept;
  for (Operation *op : group) {
    if (isa<tensor::ExpandShapeOp>(op) && op->use_empty())
      op->erase();
    else
      kept.push_back(op);
  }
  return kept;
}

/// Whether `slice` reads the same part of its source in every tile of
/// `loop`: then fusing its producer would compute that part once per tile.
bool sameInEveryTile(tensor::ExtractSliceOp slice, scf::ForallOp loop) {
  auto varies = [&](OpFoldResult ofr) {
    auto value = dyn_cast<Value>(ofr);
    return value && loop->isAncestor(value.getParentBlock()->getParentOp());
  };
  return llvm::none_of(slice.getMixedOffsets(), varies) &&
         llvm::none_of(slice.getMixedSizes(), varies);
}

/// A slice inside `loop` of a group op outside it that is worth fusing;
/// null when none is left.
tensor::ExtractSliceOp nextFusable(
    scf::ForallOp loop, const llvm::SmallPtrSetImpl<Operation *> &members,
    const llvm::SmallPtrSetImpl<Operation *> &refused) {
  tensor::ExtractSliceOp found;
  loop.getBody()->walk([&](tensor::ExtractSliceOp slice) {
    Operation *producer = slice.getSource().getDefiningOp();
    if (!producer || !members.contains(producer) ||
        !isa<TilingInterface>(producer) || refused.contains(slice) ||
        sameInEveryTile(slice, loop))
      return WalkResult::advance();
    found = slice;
    return WalkResult::interrupt();
  });
  return found;
}

/// Fuses the group's producers into the tile loop until none is left.
/// Slices of one producer that are equal after CSE (softmax's exp, which
/// the sum and the division both read) fuse once.
void fuseProducers(RewriterBase &rewriter, scf::ForallOp loop,
                   const llvm::SmallPtrSetImpl<Operation *> &members) {
  llvm::SmallPtrSet<Operation *, 8> refused;
  SmallVector<LoopLikeOpInterface> loops = {loop};
  while (true) {
    DominanceInfo dominance(loop);
    eliminateCommonSubExpressions(rewriter, dominance, loop);
    tensor::ExtractSliceOp slice = nextFusable(loop, members, refused);
    if (!slice)
      return;
    rewriter.setInsertionPoint(slice);
    if (!scf::tileAndFuseProducerOfSlice(rewriter, slice, loops))
      refused.insert(slice);
  }
}

void tileGroup(ArrayRef<Operation *> ops, ForallTileSizesFn tileSizes) {
  SmallVector<Operation *> group = readThroughUnitExpands(ops);
  linalg::LinalgOp root = findRoot(group);
  if (!root || !root.hasPureTensorSemantics())
    return;
  bool reduces = llvm::any_of(group, [](Operation *op) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    return linalgOp && linalgOp.getNumReductionLoops() != 0;
  });
  SmallVector<int64_t> sizes = tileSizes(root, reduces);
  if (sizes.empty())
    return;
  MLIRContext *context = root->getContext();
  IRRewriter rewriter(context);
  rewriter.setInsertionPoint(root);
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(context, sizes));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  auto tilable = cast<TilingInterface>(root.getOperation());
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, tilable, options);
  if (failed(tiled))
    return;
  llvm::SmallPtrSet<Operation *, 8> members(group.begin(), group.end());
  members.erase(root);
  rewriter.replaceOp(root, tiled->replacements);
  fuseProducers(rewriter, cast<scf::ForallOp>(tiled->loops.front()),
                members);
  // What was fused is computed in the tiles now.
  for (Operation *op : llvm::reverse(group))
    if (op != root.getOperation() && isOpTriviallyDead(op))
      rewriter.eraseOp(op);
}

struct TileFusionGroupsPass
    : public PassWrapper<TileFusionGroupsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileFusionGroupsPass)

  StringRef getArgument() const final { return "kiln-tile-fusion-groups"; }
  StringRef getDescription() const final {
    return "Tile each fused group's root into an scf.forall with the "
           "target's tile sizes and fuse the group's other ops into the "
           "tiles";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<affine::AffineDialect, arith::ArithDialect,
                    scf::SCFDialect, tensor::TensorDialect>();
  }

  void runOnOperation() override {
    llvm::MapVector<int64_t, SmallVector<Operation *>> groups;
    getOperation().walk([&](Operation *op) {
      if (auto id = op->getAttrOfType<IntegerAttr>(kFusionGroupAttrName)) {
        groups[id.getInt()].push_back(op);
        op->removeAttr(kFusionGroupAttrName);
      }
    });
    for (auto &[id, group] : groups)
      tileGroup(group, cpuForallTileSizes);
  }
};

} // namespace
} // namespace kiln::codegen

std::unique_ptr<mlir::Pass> kiln::createTileFusionGroupsPass() {
  return std::make_unique<codegen::TileFusionGroupsPass>();
}
