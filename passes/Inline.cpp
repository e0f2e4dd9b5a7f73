//===- Inline.cpp - MLIR's inliner, bounded by loop depth -----------------===//
//
// Why: one-shot bufferization infers the buffer type of a loop-carried
// tensor by asking the loops around it and the loops inside it, which is
// exponential in the depth of a scf.for nest (26 nested loops took 2 s,
// 30 more than a minute). The frontend keeps each function within
// CPython's 20 statically nested loops, but inlining composes nests: a
// helper with 15 nested loops called inside 15 loops would make 30.
//
// How: MLIR's Inliner does the work, bottom-up over the call graph, with
// the canonicalizer run on each function after inlining into it, as
// MLIR's inline pass does. Its profitability hook refuses a call when the
// loops around the call site plus the deepest nest in the callee exceed
// max-loop-depth. Such a call stays a call, and function boundaries keep
// each nest's bufferization separate.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/Limits.h"

#include "mlir/Analysis/CallGraph.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/Passes.h"

namespace kiln {
#define GEN_PASS_DECL_INLINE
#define GEN_PASS_DEF_INLINE
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

bool isLoop(Operation *op) { return isa<scf::ForOp, scf::WhileOp>(op); }

/// Loops enclosing `op`, up to the function it is in.
unsigned enclosingLoops(Operation *op) {
  unsigned depth = 0;
  for (Operation *parent = op->getParentOp();
       parent && !isa<CallableOpInterface>(parent);
       parent = parent->getParentOp())
    depth += isLoop(parent);
  return depth;
}

/// The deepest loop nest inside `region`.
unsigned nestedLoops(Region &region) {
  unsigned deepest = 0;
  region.walk([&](Operation *op) {
    if (!isLoop(op))
      return;
    unsigned depth = 1;
    for (Operation *parent = op->getParentOp();
         parent && parent->getParentRegion() && parent != region.getParentOp();
         parent = parent->getParentOp())
      depth += isLoop(parent);
    deepest = std::max(deepest, depth);
  });
  return deepest;
}

struct InlinePass : public kiln::impl::InlineBase<InlinePass> {
  using InlineBase::InlineBase;

  void runOnOperation() override {
    CallGraph &graph = getAnalysis<CallGraph>();
    InlinerConfig config(
        [](OpPassManager &pm) { pm.addPass(createCanonicalizerPass()); },
        /*maxInliningIterations=*/4);
    auto runPipeline = [](Pass &pass, OpPassManager &pipeline, Operation *op) {
      return static_cast<InlinePass &>(pass).runPipeline(pipeline, op);
    };
    unsigned limit = maxLoopDepth;
    auto profitable = [limit](const Inliner::ResolvedCall &call) {
      Region *body = call.targetNode->getCallableRegion();
      return !body || enclosingLoops(call.call) + nestedLoops(*body) <= limit;
    };
    Inliner inliner(getOperation(), graph, *this, getAnalysisManager(),
                    runPipeline, config, profitable);
    if (failed(inliner.doInlining()))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createInlinePass() {
  return std::make_unique<InlinePass>();
}
