//===- ExpandMath.cpp - Math functions as polynomials ---------------------===//
//
// LLVM lowers math.tanh, exp, log and friends to libm calls, which stop the
// loop vectorizer. MLIR's polynomial approximations (accurate to a few ulp
// in f32, as Eigen's and PyTorch's vectorized kernels are) keep them inline.
// erf, exp and GELU's chain are kiln's own, cheaper expansions
// (FastMath.h). Algebraic
// simplification first turns powf(x, 2) into x * x and the like.
// Integer floor and ceil division (Python's `//` on ints) have no LLVM
// instruction either; they become divsi plus a sign correction.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/cpu/FastMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

struct ExpandMathPass
    : public PassWrapper<ExpandMathPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExpandMathPass)

  StringRef getArgument() const final { return "kiln-expand-math"; }
  StringRef getDescription() const final {
    return "Replace math functions with polynomial approximations";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, math::MathDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() override {
    // GELU's chain first, while its erf is still one op.
    RewritePatternSet gelu(&getContext());
    kiln::populateFastGeluPatterns(gelu);
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(gelu))))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateMathAlgebraicSimplificationPatterns(patterns);
    kiln::populateFastErfPatterns(patterns);
    kiln::populateFastExpPatterns(patterns);
    populateMathPolynomialApproximationPatterns(patterns);
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createExpandMathPass() {
  return std::make_unique<ExpandMathPass>();
}
