//===- LowerVectors.cpp - Vector ops the LLVM conversion takes ------------===//
//
// VectorizeTiles.cpp leaves vector ops over [1, ..., 1, W] shapes, reads
// that broadcast one element across a chunk, and multi-reductions. The
// LLVM conversion takes 1-d vectors, loads and stores, and
// vector.reduction. In between, after bufferization:
//
//   * a multi-reduction over the innermost dim becomes a vector.reduction
//     per row, whose lanes may combine in any order
//     (markHorizontalReduction);
//   * leading unit dims are cast away (vector<1x64xf32> is vector<64xf32>)
//     and dropped from transfers;
//   * a broadcast read becomes one load and a splat; transfers become
//     loads and stores, and a transfer that still has several dims a loop
//     of 1-d ones.
//
// (VectorizeTiles peels short chunks rather than masking them, so there
// are no vector.mask ops to lower.)
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

/// The horizontal step of a row reduction (VectorizeTiles.cpp) may
/// combine its lanes in any order, as the lanes themselves did: a float
/// sum or product reassociates, and a maximum or minimum leaves the sign of
/// a zero open, as every kiln reduction does (ReductionOps.cpp). Without
/// these flags LLVM adds 64 lanes one after another.
void markHorizontalReduction(vector::ReductionOp op) {
  if (!isa<FloatType>(op.getType()))
    return;
  arith::FastMathFlags flags = arith::FastMathFlags::none;
  switch (op.getKind()) {
  case vector::CombiningKind::ADD:
  case vector::CombiningKind::MUL:
    flags = arith::FastMathFlags::reassoc;
    break;
  case vector::CombiningKind::MAXIMUMF:
  case vector::CombiningKind::MINIMUMF:
  case vector::CombiningKind::MAXNUMF:
  case vector::CombiningKind::MINNUMF:
    flags = arith::FastMathFlags::nsz;
    break;
  default:
    return;
  }
  op.setFastmathAttr(arith::FastMathFlagsAttr::get(op.getContext(),
                                                   op.getFastmath() | flags));
}

struct LowerVectorsPass
    : public PassWrapper<LowerVectorsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerVectorsPass)

  StringRef getArgument() const final { return "kiln-lower-vectors"; }
  StringRef getDescription() const final {
    return "Lower multi-reductions, broadcast reads and transfers of the "
           "vectorized tiles to 1-d vector ops the LLVM conversion takes";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, memref::MemRefDialect,
                    scf::SCFDialect, vector::VectorDialect>();
  }

  void markHorizontalReductions() {
    getOperation().walk(
        [](vector::ReductionOp op) { markHorizontalReduction(op); });
  }

  /// Applies `populate`'s patterns to the module, greedily.
  LogicalResult apply(function_ref<void(RewritePatternSet &)> populate) {
    RewritePatternSet patterns(&getContext());
    populate(patterns);
    return applyPatternsAndFoldGreedily(getOperation(), std::move(patterns));
  }

  void runOnOperation() override {
    auto reductions = [](RewritePatternSet &patterns) {
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
    };
    // Unit dims before the broadcasts: a broadcast read of a row's max for each element of a
    // [1, 64] chunk is then a read of one element broadcast to [64].
    auto unitDims = [](RewritePatternSet &patterns) {
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::populateVectorTransferDropUnitDimsPatterns(patterns);
      vector::populateVectorToVectorCanonicalizationPatterns(patterns);
    };
    auto shapes = [](RewritePatternSet &patterns) {
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
    };
    // Transfers of more than one dim that are left: loops of 1-d ones.
    auto loops = [](RewritePatternSet &patterns) {
      VectorTransferToSCFOptions options;
      options.setTargetRank(1);
      populateVectorToSCFConversionPatterns(patterns, options);
    };
    if (failed(apply(reductions)) || failed(apply(unitDims)) ||
        failed(apply(shapes)) || failed(apply(loops)))
      return signalPassFailure();
    markHorizontalReductions();
    if (failed(apply([](RewritePatternSet &patterns) {
          vector::populateVectorTransferLoweringPatterns(
              patterns, /*maxTransferRank=*/1);
        })))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createLowerVectorsPass() {
  return std::make_unique<LowerVectorsPass>();
}
