//===- FusionGroups.cpp - one loop nest per kiln.fusion_group -------------===//
//
// The kiln fusion pass decides what fuses; MLIR's linalg elementwise fusion
// does the loop-level work. By the time this runs, the conversion has
// lowered each group's ops to linalg.generic ops inside the group, so the
// group is the fusion's scope: ops in different groups, or outside any, are
// never merged, exactly as the kiln IR shows. (The GPU's untiled lowering
// is the exception: there a shared elementwise value is recomputed by each
// op that reads it, across groups too; see FuseProducer.)
//
// Fusing a producer that feeds two operands of one consumer (x * x) would
// copy the producer's computation once per operand; ten squarings would
// become 1023 multiplies. Linalg's clean-up patterns merge duplicate inputs,
// so fusion waits until it has.
//
// The broadcast checks between the ops read the sizes of intermediate
// results, which would keep them alive; those sizes are resolved to the
// sizes they were computed from, and checks that compare a size with
// itself fold away.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringSupport.h"
#include "codegen/strategy/Tiling.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace kiln::codegen {

/// Does `operand`'s value reach its consumer through another operand with
/// the same indexing map too?
static bool hasDuplicateInput(OpOperand *operand) {
  auto consumer = cast<linalg::GenericOp>(operand->getOwner());
  AffineMap map = consumer.getMatchingIndexingMap(operand);
  for (OpOperand *other : consumer.getDpsInputOperands())
    if (other != operand && other->get() == operand->get() &&
        consumer.getMatchingIndexingMap(other) == map)
      return true;
  return false;
}

/// Whether `producer` is cheap enough to compute once per consumer: a few
/// arithmetic ops, no division and no math function. A normalization's
/// x - mean is (its square's sum and the output both read it); softmax's
/// exp is not, and stays one op whose result the tile keeps.
static bool isCheapToRecompute(Operation *producer) {
  constexpr size_t kMaxCheapOps = 8;
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!generic)
    return false;
  size_t ops = 0;
  for (Operation &op : generic.getBody()->without_terminator()) {
    if (++ops > kMaxCheapOps || !isa<arith::ArithDialect>(op.getDialect()) ||
        isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp,
            arith::RemSIOp, arith::RemUIOp>(op))
      return false;
  }
  return true;
}

/// Whether `user` is a linalg op of `consumer`'s group other than itself.
static bool isGroupReader(Operation *user, Operation *consumer) {
  return user != consumer && isa<linalg::LinalgOp>(user) &&
         user->getBlock() == consumer->getBlock();
}

/// Whether fusing `operand`'s producer into its consumer would compute the
/// producer twice: another linalg op of the group reads the same result
/// and the producer is not cheap. (A reader after the group takes the
/// result of the fused op instead; see FuseProducer.) Two elementwise
/// readers of one value end up in one op anyway (their inputs merge); a
/// reduction and the op after it (softmax's sum and division, both
/// reading exp) never do.
static bool wouldRecompute(OpOperand *operand) {
  Operation *consumer = operand->getOwner();
  Operation *producer = operand->get().getDefiningOp();
  bool otherReader =
      llvm::any_of(operand->get().getUsers(), [&](Operation *user) {
        return isGroupReader(user, consumer);
      });
  return otherReader && !isCheapToRecompute(producer);
}

/// Whether fusing `operand`'s producer into its consumer would compute a
/// costly producer once per point of a larger space: the consumer reads it
/// broadcast (its indexing map drops loops), as a row's exp would be for
/// every column.
static bool wouldBroadcast(OpOperand *operand) {
  auto consumer = cast<linalg::GenericOp>(operand->getOwner());
  return !consumer.getMatchingIndexingMap(operand).isPermutation() &&
         !isCheapToRecompute(operand->get().getDefiningOp());
}

namespace {
/// Fuses the producer of one operand into its consumer, as linalg's own
/// pattern does, with one difference: a producer result that is also used
/// after the fused op (a group result) is taken from the fused op, which
/// computes it anyway. Linalg's pattern keeps the producer for such uses,
/// so the value would be computed twice.
///
/// With `recompute` (GPU kernels), a producer that other linalg ops of the
/// group read is fused into each of them rather than kept: each op is a
/// kernel of its own there, and an intermediate they share would be
/// written to memory by one kernel and read back by the others. Softmax
/// then reads its input three times and writes only its output (its
/// scaled and masked scores, and their exp, are recomputed by the max,
/// the sum and the division): half the memory traffic of keeping them.
struct FuseProducer : public OpRewritePattern<linalg::GenericOp> {
  FuseProducer(MLIRContext *context, bool recompute)
      : OpRewritePattern(context), recompute(recompute) {}

  bool recompute;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      // (Inside a group, every op is in one block; a module-wide round
      // must not pull a producer into a loop body.)
      Operation *producer = operand->get().getDefiningOp();
      if (!producer || producer->getBlock() != consumer->getBlock() ||
          !linalg::areElementwiseOpsFusable(operand) ||
          hasDuplicateInput(operand) ||
          (recompute ? wouldBroadcast(operand) : wouldRecompute(operand)))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        continue;
      Operation *fusedOp = fused->fusedOp;
      for (auto [original, replacement] : fused->replacements) {
        // With recompute, the producer's other linalg readers fuse it too.
        bool keepReaders = recompute && original.getDefiningOp() == producer;
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          Operation *user =
              fusedOp->getBlock()->findAncestorOpInBlock(*use.getOwner());
          return user && user != consumer && user != fusedOp &&
                 fusedOp->isBeforeInBlock(user) &&
                 !(keepReaders && isGroupReader(user, consumer));
        });
      }
      rewriter.eraseOp(consumer);
      return success();
    }
    return failure();
  }
};
} // namespace

void sinkConstantInputs(ModuleOp module) {
  module.walk([](FusionGroupOp group) {
    Block &body = group.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    for (auto [input, arg] : llvm::zip(group.getInputs(), body.getArguments())) {
      Operation *def = input.getDefiningOp();
      if (def && def->hasTrait<OpTrait::ConstantLike>() && !arg.use_empty())
        arg.replaceAllUsesWith(b.clone(*def)->getResult(0));
    }
  });
}

void fuseAndInlineGroups(ModuleOp module, bool recompute) {
  MLIRContext *context = module.getContext();
  RewritePatternSet patterns(context);
  patterns.add<FuseProducer>(context, recompute);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
  linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  tensor::DimOp::getCanonicalizationPatterns(patterns, context);
  scf::IfOp::getCanonicalizationPatterns(patterns, context);
  FrozenRewritePatternSet frozen(std::move(patterns));

  SmallVector<FusionGroupOp> groups;
  module.walk([&](FusionGroupOp group) { groups.push_back(group); });
  IRRewriter rewriter(context);
  Builder b(context);
  for (auto [id, group] : llvm::enumerate(groups)) {
    // Fusion is a cost decision the kiln pass already made; the greedy
    // driver only has to reach the fixed point.
    (void)applyPatternsAndFoldGreedily(group.getBody(), frozen);
    Block &body = group.getBody().front();
    // The group outlives its op as an attribute, which tiling reads
    // (TileFusionGroups.cpp) to fuse the group's ops into one tile loop.
    for (Operation &op : body.without_terminator())
      op.setAttr(kFusionGroupAttrName, b.getI64IntegerAttr(id));
    Operation *yield = body.getTerminator();
    SmallVector<Value> results(yield->getOperands());
    rewriter.inlineBlockBefore(&body, group, group.getInputs());
    rewriter.eraseOp(yield);
    rewriter.replaceOp(group, results);
  }
  // Untiled, a group's bounds matter no more: an op of one group reading an
  // elementwise result of another (softmax's sum reading exp, which fused
  // into the max's group) recomputes it too.
  if (!recompute)
    return;
  // Region simplification would look into ops that the conversion left
  // for later passes; only the fusion is wanted here.
  GreedyRewriteConfig config;
  config.enableRegionSimplification = GreedySimplifyRegionLevel::Disabled;
  module.walk([&](func::FuncOp fn) {
    (void)applyPatternsAndFoldGreedily(fn.getBody(), frozen, config);
  });
}

} // namespace kiln::codegen
