//===- LoopUnroll.cpp - unroll scf.for with TorchScript's policy ----------===//
//
// Every later pass works inside one block: fusion groups never cross a region
// boundary, and shape refinement and the constant folder see one iteration at
// a time. The seed `for i in range(10): x = x * x` is therefore a loop around
// a single multiply until this pass turns it into ten multiplies in a row,
// which fusion then compiles into one kernel. TorchScript's unroller makes the
// same trade, and this pass keeps its policy and its numbers:
//
//   - only scf.for (Python's `for ... in range`) is unrolled; scf.while has no
//     trip count to reason about;
//   - the body's size is its op count, nested ops included, terminators and
//     constants not: a body over `unroll-max-body` is left alone, because
//     copying it would grow the program more than it speeds it up;
//   - a constant trip count of at most 64 unrolls fully, leaving no loop;
//   - anything else is unrolled by `unroll-factor`, with a remainder loop when
//     the trip count is unknown or not a multiple of the factor.
//
// Loops are visited innermost first, so an outer loop is judged on the size
// its body has after its inner loops were unrolled, as in TorchScript.
//
// The copying itself is MLIR's `loopUnrollByFactor`, and a full unroll is an
// unroll by the trip count whose single remaining iteration MLIR promotes
// into the parent block. The copies are cloned in iteration order, so prints,
// asserts and random draws keep program order. The only additions here are
// around that utility: it reads bounds only from constant ops, while the
// frontend's are index_casts of i64 constants until the constant folder runs,
// so such bounds are materialized as index constants first; and the copies'
// induction variables, which the utility writes as `lb + i * step`, are folded
// so that a fully unrolled body sees plain constants.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_LOOPUNROLL
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// TorchScript's kMaxBodyRepeats: the longest loop unrolled away entirely.
static constexpr int64_t kMaxFullUnrollTripCount = 64;

/// Counts the body's ops, nested ones included, but not terminators or
/// constants, which cost nothing once the loop is gone. Stops counting once
/// `limit` is exceeded: only the comparison with it matters.
static unsigned getBodySize(scf::ForOp forOp, unsigned limit) {
  unsigned size = 0;
  forOp.getBody()->walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::IsTerminator>() ||
        op->hasTrait<OpTrait::ConstantLike>())
      return WalkResult::advance();
    return ++size > limit ? WalkResult::interrupt() : WalkResult::advance();
  });
  return size;
}

/// The constant value of a loop bound, looking through the index_cast the
/// frontend puts between range()'s i64 arguments and scf.for.
static std::optional<int64_t> getConstantBound(Value bound) {
  if (std::optional<int64_t> value = getConstantIntValue(bound))
    return value;
  if (auto cast = bound.getDefiningOp<arith::IndexCastOp>())
    return getConstantIntValue(cast.getIn());
  return std::nullopt;
}

static OpFoldResult getBoundFoldResult(Value bound) {
  if (std::optional<int64_t> value = getConstantBound(bound))
    return IntegerAttr::get(bound.getType(), *value);
  return bound;
}

static std::optional<int64_t> getConstantTripCount(scf::ForOp forOp) {
  return constantTripCount(getBoundFoldResult(forOp.getLowerBound()),
                           getBoundFoldResult(forOp.getUpperBound()),
                           getBoundFoldResult(forOp.getStep()));
}

/// Replaces bounds that are casts of constants by constants, because MLIR's
/// unroller and promoteIfSingleIteration recognize only the latter.
static void materializeConstantBounds(scf::ForOp forOp) {
  OpBuilder builder(forOp);
  for (OpOperand *bound :
       {&forOp.getLowerBoundMutable(), &forOp.getUpperBoundMutable(),
        &forOp.getStepMutable()}) {
    if (getConstantIntValue(bound->get()))
      continue;
    if (std::optional<int64_t> value = getConstantBound(bound->get()))
      bound->set(builder.create<arith::ConstantOp>(
          forOp.getLoc(),
          builder.getIntegerAttr(bound->get().getType(), *value)));
  }
}

/// MLIR's unroller computes an unknown trip count as ub - lb + step - 1
/// divided *unsigned* by step, which is huge when ub < lb at run time
/// (`range(0, n, 2)` with n = -6), and its remainder loop then runs
/// iterations Python never would. Raising ub to at least lb keeps the
/// difference non-negative and leaves the loop's meaning alone.
static void clampUpperBound(scf::ForOp forOp) {
  OpBuilder builder(forOp);
  forOp.setUpperBound(builder.create<arith::MaxSIOp>(
      forOp.getLoc(), forOp.getUpperBound(), forOp.getLowerBound()));
}

/// Folds the index arithmetic in [begin, end) (the copies' induction
/// variables, the remainder loop's bounds, their casts to i64) and erases
/// what became dead, including `extraOps`. Only arith ops are touched: kiln
/// ops are left to the constant folder.
static void foldIndexArithmetic(Block::iterator begin, Block::iterator end,
                                ArrayRef<Operation *> extraOps) {
  SmallVector<Operation *> ops(extraOps);
  for (Operation &op : llvm::make_range(begin, end))
    op.walk([&](Operation *nested) {
      if (isa<arith::ArithDialect>(nested->getDialect()))
        ops.push_back(nested);
    });
  if (ops.empty())
    return;
  GreedyRewriteConfig config;
  config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
  (void)applyOpPatternsAndFold(
      ops, RewritePatternSet(ops.front()->getContext()), config);
}

namespace {
struct LoopUnrollPass : public kiln::impl::LoopUnrollBase<LoopUnrollPass> {
  using LoopUnrollBase::LoopUnrollBase;

  void runOnOperation() override;

private:
  /// The factor `forOp` is unrolled by under the policy, or 0 to leave it.
  uint64_t chooseFactor(scf::ForOp forOp);
  void unroll(scf::ForOp forOp, uint64_t factor);
};
} // namespace

uint64_t LoopUnrollPass::chooseFactor(scf::ForOp forOp) {
  // MLIR 19's unroller offsets the copies' induction variables by index
  // constants, which breaks a loop over integers. kiln's loops are over index.
  if (!forOp.getInductionVar().getType().isIndex())
    return 0;
  if (getBodySize(forOp, unrollMaxBody) > unrollMaxBody)
    return 0;
  std::optional<int64_t> tripCount = getConstantTripCount(forOp);
  if (!tripCount)
    return unrollFactor > 1 ? unrollFactor : 0;
  // Zero or one iteration: there is no second copy to make.
  if (*tripCount <= 1)
    return 0;
  if (*tripCount <= kMaxFullUnrollTripCount)
    return *tripCount;
  // A factor above the trip count would leave a main loop that never runs
  // holding `factor` copies of the body.
  if (unrollFactor <= 1 || static_cast<int64_t>(unrollFactor) >= *tripCount)
    return 0;
  return unrollFactor;
}

void LoopUnrollPass::unroll(scf::ForOp forOp, uint64_t factor) {
  // Everything the unroller creates or leaves lies between the loop's
  // neighbours: the bounds it computes before the loop, the main loop or the
  // promoted body, and the remainder loop or its promoted body after it.
  Block *block = forOp->getBlock();
  Operation *prev = forOp->getPrevNode();
  Operation *next = forOp->getNextNode();
  // The ops computing the bounds may die with the loop.
  SmallVector<Operation *> boundOps;
  for (Value bound :
       {forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()})
    if (Operation *def = bound.getDefiningOp();
        def && isa<arith::ArithDialect>(def->getDialect()) &&
        !llvm::is_contained(boundOps, def))
      boundOps.push_back(def);
  materializeConstantBounds(forOp);
  if (!getConstantTripCount(forOp))
    clampUpperBound(forOp);
  // MLIR refuses only a factor of 1, before touching the loop.
  if (failed(loopUnrollByFactor(forOp, factor)))
    return;
  foldIndexArithmetic(prev ? std::next(prev->getIterator()) : block->begin(),
                      next ? next->getIterator() : block->end(), boundOps);
}

void LoopUnrollPass::runOnOperation() {
  // walk() is post-order, so inner loops come before the loops around them.
  // Unrolling a loop erases or clones only loops nested in it, which have
  // been visited already, so the remaining entries stay valid.
  SmallVector<scf::ForOp> loops;
  getOperation()->walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
  for (scf::ForOp forOp : loops)
    if (uint64_t factor = chooseFactor(forOp))
      unroll(forOp, factor);
}

std::unique_ptr<Pass> kiln::createLoopUnrollPass() {
  return std::make_unique<LoopUnrollPass>();
}

std::unique_ptr<Pass>
kiln::createLoopUnrollPass(const LoopUnrollOptions &options) {
  return std::make_unique<LoopUnrollPass>(options);
}
