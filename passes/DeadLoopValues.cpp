//===- DeadLoopValues.cpp - drop loop-carried values nothing reads --------===//
//
// Why: `acc = acc + x` in a loop whose `acc` is never read afterwards keeps
// its whole chain alive, because each iteration's value is used by the next
// one. Plain dead-code elimination only removes ops without users, so it
// never sees such a cycle. MLIR's remove-dead-values pass would, but in
// LLVM 19 it crashes on an scf.if without results (a loop body with a
// print in an `if`, as the seed RNN has), so kiln does this one job itself
// and leaves the rest to MLIR's canonicalizer.
//
// How, per scf.for, innermost first:
// 1. Start with the carried values whose loop result is used.
// 2. Mark what the body needs: ops with side effects (with everything they
//    contain), the yielded values of carried values already needed, and,
//    transitively, the producers of whatever a needed op uses. A needed op
//    that reads the body's argument for another carried value makes that
//    value needed too; repeat until nothing changes.
// 3. Every carried value left over yields its own argument unchanged, and
//    the ops that computed it, now unused, are erased. scf.for's own
//    canonicalization then removes the pass-through value from the loop.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"

namespace kiln {
#define GEN_PASS_DEF_DEADLOOPVALUES
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// The ops of `body` that the needed carried values and side effects use.
/// `needed` grows as the body turns out to read more carried values.
llvm::DenseSet<Operation *> markNeeded(scf::ForOp loop,
                                       llvm::SmallBitVector &needed) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  llvm::DenseSet<Operation *> live;
  SmallVector<Operation *> worklist;
  auto use = [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body && arg.getArgNumber() > 0)
        needed.set(arg.getArgNumber() - 1);
      return;
    }
    Operation *def = v.getDefiningOp();
    if (def && def->getBlock() == body && live.insert(def).second)
      worklist.push_back(def);
  };
  for (Operation &op : body->without_terminator())
    if (!isMemoryEffectFree(&op) && live.insert(&op).second)
      worklist.push_back(&op);

  unsigned before;
  do {
    before = needed.count();
    for (unsigned i : needed.set_bits())
      use(yield.getOperand(i));
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      // Values used inside nested regions count as used by `op`.
      op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          use(operand);
      });
    }
  } while (needed.count() != before);
  return live;
}

/// Makes every carried value of `loop` that nothing needs a pass-through and
/// erases what computed it. Returns true if anything changed.
bool dropDeadCarriedValues(scf::ForOp loop) {
  llvm::SmallBitVector needed(loop.getNumResults());
  for (OpResult result : loop.getResults())
    if (!result.use_empty())
      needed.set(result.getResultNumber());
  llvm::DenseSet<Operation *> live = markNeeded(loop, needed);
  if (needed.all())
    return false;

  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  bool changed = false;
  for (unsigned i = 0, e = loop.getNumResults(); i < e; ++i) {
    Value arg = loop.getRegionIterArg(i);
    if (needed.test(i) || yield.getOperand(i) == arg)
      continue;
    yield.setOperand(i, arg);
    changed = true;
  }
  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator())
    ops.push_back(&op);
  // Users before producers, so each dead op is unused when its turn comes.
  for (Operation *op : llvm::reverse(ops))
    if (!live.contains(op) && op->use_empty()) {
      op->erase();
      changed = true;
    }
  return changed;
}

struct DeadLoopValuesPass
    : public kiln::impl::DeadLoopValuesBase<DeadLoopValuesPass> {
  void runOnOperation() override {
    bool changed = false;
    // Post-order: an inner loop's dead values go before the outer loop is
    // judged, so the outer loop sees the smaller body.
    getOperation()->walk(
        [&](scf::ForOp loop) { changed |= dropDeadCarriedValues(loop); });
    if (!changed)
      return;
    RewritePatternSet patterns(&getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createDeadLoopValuesPass() {
  return std::make_unique<DeadLoopValuesPass>();
}
