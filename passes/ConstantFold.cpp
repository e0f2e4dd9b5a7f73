//===- ConstantFold.cpp - fold constants and float-safe identities --------===//
//
// The frontend lowers Python as written, so a script is full of work that
// is known before it runs: `x.size(1) * 4` on a static dim, `2 ** 10`, the
// bounds of `range(n // 2)` for a constant n, `if DEBUG:` on a module
// constant, `x.reshape(B, -1).reshape(B, 784)`, a transpose undone by
// another. Left in place, each costs a kernel launch or a branch at run time,
// hides constant trip counts from the loop unroller and static sizes from
// shape refinement, and splits chains that fusion would otherwise merge.
//
// The knowledge of what folds lives on the ops (ir/KilnFolding.cpp), so
// MLIR's folder and canonicalizer use it everywhere; this pass only drives
// it. The algorithm is MLIR's greedy pattern rewriter, run to a fixed point:
//
//   - every op on the worklist is first folded: a kiln op whose operands
//     are constants becomes a constant (arith.constant for Python scalars,
//     kiln.constant for tensors, through KilnDialect::materializeConstant),
//     and one that is an identity is replaced by its operand;
//   - ops that do not fold are offered to the rewrite patterns: those of
//     scf.for, scf.if and scf.while (an `if` on a constant condition is
//     replaced by the branch taken, a loop that runs zero times by its
//     initial values), those of every arith op (the frontend's index_casts
//     and integer arithmetic on loop bounds), and kiln's own patterns below;
//   - the users of whatever changed go back on the worklist, and pure ops
//     left without users are erased. Constants are deduplicated and hoisted
//     to the start of their function.
//
// Side effects are never lost: print, assert and the random ops are not
// pure, so nothing here removes or reorders them, except an assert whose
// condition is the constant true, which cannot fail.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_CONSTANTFOLD
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// `assert True` cannot fail. Shape refinement and the folders turn many of
/// the checks the frontend emits into exactly that.
struct EraseAssertTrue : public OpRewritePattern<AssertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AssertOp op,
                                PatternRewriter &rewriter) const override {
    if (!matchPattern(op.getCondition(), m_One()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConstantFoldPass
    : public kiln::impl::ConstantFoldBase<ConstantFoldPass> {
  using ConstantFoldBase::ConstantFoldBase;

  /// scf's patterns are built in initialize(), before the IR is seen, so
  /// the dialect must be loaded even where the IR has no loop yet.
  void getDependentDialects(DialectRegistry &registry) const override {
    ConstantFoldBase::getDependentDialects(registry);
    registry.insert<scf::SCFDialect>();
  }

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    scf::ForOp::getCanonicalizationPatterns(set, context);
    scf::IfOp::getCanonicalizationPatterns(set, context);
    scf::WhileOp::getCanonicalizationPatterns(set, context);
    // Every arith op, so that new arith ops need no change here.
    for (RegisteredOperationName name : context->getRegisteredOperations())
      if (name.getDialectNamespace() ==
          arith::ArithDialect::getDialectNamespace())
        name.getCanonicalizationPatterns(set, context);
    set.add<EraseAssertTrue>(context);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    // Not reaching a fixed point within the driver's iteration limit only
    // means that some folding is left for the next run of the pass; the IR
    // is valid either way, so that is not an error.
    (void)applyPatternsAndFoldGreedily(getOperation(), patterns);
  }

  FrozenRewritePatternSet patterns;
};

} // namespace

std::unique_ptr<Pass> kiln::createConstantFoldPass() {
  return std::make_unique<ConstantFoldPass>();
}
