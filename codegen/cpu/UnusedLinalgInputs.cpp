//===- UnusedLinalgInputs.cpp - Drop the inputs a linalg op never reads ---===//
//
// Why: MLIR 19's canonicalization erases a linalg.generic on buffers whose
// body is a lone linalg.yield and whose one input is its one output buffer,
// as if it copied the buffer onto itself (EraseIdentityLinalgOp). It does
// not check what the yield yields. In-place bufferization makes exactly
// that op out of `x * 0` once the multiply folds to a constant: the body
// yields 0, the input is dead, and the zeros were never written, so
// `torch.arange(3) * 0` returned [0, 1, 2]. Removing the inputs that a
// body never reads, before bufferization, leaves such an op with outputs
// only, which that pattern does not touch; it also spares the loop a load.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

struct UnusedLinalgInputsPass
    : public PassWrapper<UnusedLinalgInputsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UnusedLinalgInputsPass)

  StringRef getArgument() const final { return "kiln-unused-linalg-inputs"; }
  StringRef getDescription() const final {
    return "Remove the inputs and results of linalg.generic that nothing "
           "reads, before bufferization";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createUnusedLinalgInputsPass() {
  return std::make_unique<UnusedLinalgInputsPass>();
}
