//===- StridedCopies.cpp - Copies between strided buffers as loops --------===//
//
// MLIR lowers a memref.copy between buffers that are not both dense to a
// call to `memrefCopy` from its C runner library, which a kiln code object
// does not link (it may only call the runtime through kiln/abi.h). Such a
// copy (a slice written into a row, a transposed view materialized) becomes
// a linalg.copy instead, which turns into a plain loop nest. Dense copies
// are left alone: they become memcpy.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

struct StridedCopyToLinalg : public OpRewritePattern<memref::CopyOp> {
  StridedCopyToLinalg(MLIRContext *context, bool allCopies)
      : OpRewritePattern(context), allCopies(allCopies) {}
  bool allCopies;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    auto source = cast<MemRefType>(op.getSource().getType());
    auto target = cast<MemRefType>(op.getTarget().getType());
    if (!allCopies && source.getLayout().isIdentity() &&
        target.getLayout().isIdentity())
      return failure();
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }
};

struct StridedCopiesPass
    : public PassWrapper<StridedCopiesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StridedCopiesPass)
  StridedCopiesPass() = default;
  StridedCopiesPass(const StridedCopiesPass &other) : PassWrapper(other) {}
  explicit StridedCopiesPass(bool all) { allCopies = all; }
  // A CUDA entry's copies run as kernels, dense or not.
  Option<bool> allCopies{*this, "all",
                         llvm::cl::desc("Dense copies too (for GPU kernels)"),
                         llvm::cl::init(false)};

  StringRef getArgument() const final { return "kiln-strided-copies"; }
  StringRef getDescription() const final {
    return "Turn copies between non-dense buffers into linalg.copy";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<StridedCopyToLinalg>(&getContext(), allCopies);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createStridedCopiesPass(bool allCopies) {
  return std::make_unique<StridedCopiesPass>(allCopies);
}
