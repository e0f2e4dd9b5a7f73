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
// For GPU kernels (`gpu`) the groups are rows instead. The lowering has
// already put every elementwise producer into each op that reads it
// (kiln-lower-to-linalg{gpu}), so what an op still reads from another is
// a row's reduction (softmax's max and sum, layer norm's mean and
// variance) or a tensor read broadcast. Each op that reads a reduction
// one element per row becomes the root of a forall of one-row tiles
// (gpuForallTileSizes), into which only producers of one element a tile
// are fused: the row's reductions and what is computed from them alone (a
// sum's reciprocal). A slice of a row or more would be a buffer per GPU
// thread; it stays a kernel of its own.
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
#include "llvm/ADT/SetVector.h"

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

/// Whether `slice` is one element: what a GPU tile may fuse.
bool oneElement(tensor::ExtractSliceOp slice) {
  return llvm::all_of(slice.getStaticSizes(),
                      [](int64_t size) { return size == 1; });
}

/// A slice inside `loop` of a group op outside it that is worth fusing;
/// null when none is left.
tensor::ExtractSliceOp nextFusable(
    scf::ForallOp loop, const llvm::SmallPtrSetImpl<Operation *> &members,
    const llvm::SmallPtrSetImpl<Operation *> &refused, bool gpu) {
  tensor::ExtractSliceOp found;
  loop.getBody()->walk([&](tensor::ExtractSliceOp slice) {
    Operation *producer = slice.getSource().getDefiningOp();
    if (!producer || !members.contains(producer) ||
        !isa<TilingInterface>(producer) || refused.contains(slice) ||
        sameInEveryTile(slice, loop) || (gpu && !oneElement(slice)))
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
                   const llvm::SmallPtrSetImpl<Operation *> &members,
                   bool gpu) {
  llvm::SmallPtrSet<Operation *, 8> refused;
  SmallVector<LoopLikeOpInterface> loops = {loop};
  while (true) {
    DominanceInfo dominance(loop);
    eliminateCommonSubExpressions(rewriter, dominance, loop);
    tensor::ExtractSliceOp slice = nextFusable(loop, members, refused, gpu);
    if (!slice)
      return;
    rewriter.setInsertionPoint(slice);
    if (!scf::tileAndFuseProducerOfSlice(rewriter, slice, loops))
      refused.insert(slice);
  }
}

/// Tiles `root` with `sizes` and fuses what it reads of the rest of
/// `group` into the tiles; the ops of the group this leaves unused go, and
/// so does the root, all of them into `erased`.
void tileRoot(linalg::LinalgOp root, ArrayRef<int64_t> sizes,
              ArrayRef<Operation *> group, bool gpu,
              llvm::SmallPtrSetImpl<Operation *> &erased) {
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
  erased.insert(root);
  rewriter.replaceOp(root, tiled->replacements);
  fuseProducers(rewriter, cast<scf::ForallOp>(tiled->loops.front()),
                members, gpu);
  // What was fused is computed in the tiles now.
  for (Operation *op : llvm::reverse(group)) {
    if (erased.contains(op) || !isOpTriviallyDead(op))
      continue;
    erased.insert(op);
    rewriter.eraseOp(op);
  }
}

void tileGroup(ArrayRef<Operation *> ops) {
  SmallVector<Operation *> group = readThroughUnitExpands(ops);
  linalg::LinalgOp root = findRoot(group);
  if (!root || !root.hasPureTensorSemantics())
    return;
  bool reduces = llvm::any_of(group, [](Operation *op) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    return linalgOp && linalgOp.getNumReductionLoops() != 0;
  });
  SmallVector<int64_t> sizes = cpuForallTileSizes(root, reduces);
  llvm::SmallPtrSet<Operation *, 16> erased;
  if (!sizes.empty())
    tileRoot(root, sizes, group, /*gpu=*/false, erased);
}

/// Links of a chain of one-element ops (a sum, its reciprocal) that a
/// GPU tile looks through for a reduction.
constexpr int kMaxRowChain = 4;

/// Whether `value` is computed row by row by a reduction: a linalg op
/// that reduces, or one that computes from such a value (a sum's
/// reciprocal).
bool reducedPerRow(Value value, int links = 0) {
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  if (!op || links > kMaxRowChain)
    return false;
  if (op.getNumReductionLoops() != 0)
    return true;
  return llvm::any_of(op.getDpsInputs(), [&](Value input) {
    return reducedPerRow(input, links + 1);
  });
}

/// Whether `root`, cut into tiles of `sizes`, reads a reduction one
/// element per tile: its map of that input uses only the loops the tiles
/// cut by one.
bool readsRowReduction(linalg::LinalgOp root, ArrayRef<int64_t> sizes) {
  for (OpOperand *input : root.getDpsInputOperands()) {
    AffineMap map = root.getMatchingIndexingMap(input);
    bool perTile = llvm::all_of(llvm::seq(map.getNumDims()), [&](unsigned d) {
      return sizes[d] == 1 || !map.isFunctionOfDim(d);
    });
    if (perTile && reducedPerRow(input->get()))
      return true;
  }
  return false;
}

/// The GPU's row groups (the file comment): consumers first, so that a
/// reduction is fused into the ops that read it before it could be a root.
void tileRowGroups(Block &block) {
  SmallVector<Operation *> ops = llvm::to_vector(llvm::make_pointer_range(
      block.without_terminator()));
  ops = readThroughUnitExpands(ops);
  SmallVector<Operation *> linalgOps;
  for (Operation *op : ops)
    if (isa<linalg::LinalgOp>(op))
      linalgOps.push_back(op);
  llvm::SmallPtrSet<Operation *, 16> erased;
  for (Operation *op : llvm::reverse(linalgOps)) {
    if (erased.contains(op))
      continue;
    auto root = cast<linalg::LinalgOp>(op);
    if (!root.hasPureTensorSemantics())
      continue;
    SmallVector<int64_t> sizes = gpuForallTileSizes(root);
    if (sizes.empty() || !readsRowReduction(root, sizes))
      continue;
    SmallVector<Operation *> members;
    for (Operation *member : linalgOps)
      if (!erased.contains(member))
        members.push_back(member);
    tileRoot(root, sizes, members, /*gpu=*/true, erased);
  }
}

struct TileFusionGroupsPass
    : public PassWrapper<TileFusionGroupsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileFusionGroupsPass)

  TileFusionGroupsPass() = default;
  TileFusionGroupsPass(const TileFusionGroupsPass &other)
      : PassWrapper(other) {}
  explicit TileFusionGroupsPass(bool gpu) { gpu_ = gpu; }

  Option<bool> gpu_{
      *this, "gpu",
      llvm::cl::desc("Tile for GPU kernels: each op that reads a row's "
                     "reduction becomes a forall of one-row tiles with the "
                     "row's reductions fused in"),
      llvm::cl::init(false)};

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
    if (gpu_) {
      // Every block that holds linalg ops: a function's, a loop's body.
      llvm::SetVector<Block *> blocks;
      getOperation().walk([&](linalg::LinalgOp op) {
        blocks.insert(op->getBlock());
      });
      for (Block *block : blocks)
        tileRowGroups(*block);
      return;
    }
    for (auto &[id, group] : groups)
      tileGroup(group);
  }
};

} // namespace
} // namespace kiln::codegen

std::unique_ptr<mlir::Pass> kiln::createTileFusionGroupsPass(bool gpu) {
  return std::make_unique<codegen::TileFusionGroupsPass>(gpu);
}
