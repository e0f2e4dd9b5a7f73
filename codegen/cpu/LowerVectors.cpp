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
//     of 1-d ones;
//   * a transposed block (a transpose's, VectorizeTiles.cpp) becomes
//     shuffles;
//   * a read whose elements lie a few apart (the stride-2 windows of a max
//     pool) becomes one contiguous load of the span they cover and a
//     shuffle that keeps every s-th lane (DeinterleaveStridedRead), where
//     the transfer's own lowering would load lane by lane.
//
// (VectorizeTiles peels short chunks rather than masking them, so there
// are no vector.mask ops to lower.)
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
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

/// The largest element stride a strided read is deinterleaved for: the
/// contiguous load reads `stride` times the lanes it keeps.
constexpr int64_t kMaxDeinterleavedStride = 4;

/// A 1-d in-bounds read of W lanes along a memref dim whose static stride
/// s is 2 to kMaxDeinterleavedStride becomes a contiguous load of the
/// (W - 1) * s + 1 elements from the first lane to the last and a shuffle
/// of lanes 0, s, 2s, ...: the span lies inside the memref because both
/// its ends do (the read is in bounds), so nothing outside is touched.
struct DeinterleaveStridedRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(read.getSource().getType());
    VectorType vector = read.getVectorType();
    // (Bytes and wider only: a vector of i1 is bit-packed in memory, a
    // memref of i1 is not.)
    if (!memref || vector.getRank() != 1 || vector.isScalable() ||
        vector.getElementTypeBitWidth() < 8 || read.getMask() ||
        !read.getPermutationMap().isMinorIdentity() || !read.isDimInBounds(0))
      return failure();
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(getStridesAndOffset(memref, strides, offset)) ||
        strides.empty())
      return failure();
    int64_t stride = strides.back();
    if (ShapedType::isDynamic(stride) || stride < 2 ||
        stride > kMaxDeinterleavedStride)
      return failure();
    int64_t lanes = vector.getDimSize(0);
    int64_t span = (lanes - 1) * stride + 1;

    Location loc = read.getLoc();
    auto meta = rewriter.create<memref::ExtractStridedMetadataOp>(
        loc, read.getSource());
    Value first = meta.getOffset();
    for (auto [index, dimStride] :
         llvm::zip(read.getIndices(), meta.getStrides()))
      first = rewriter.create<arith::AddIOp>(
          loc, first, rewriter.create<arith::MulIOp>(loc, index, dimStride));
    auto spanType = MemRefType::get(
        {span}, memref.getElementType(),
        StridedLayoutAttr::get(getContext(), ShapedType::kDynamic, {1}),
        memref.getMemorySpace());
    Value view = rewriter.create<memref::ReinterpretCastOp>(
        loc, spanType, meta.getBaseBuffer(), OpFoldResult(first),
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(span)},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value whole = rewriter.create<vector::LoadOp>(
        loc, VectorType::get({span}, vector.getElementType()), view, zero);
    SmallVector<int64_t> kept;
    for (int64_t lane = 0; lane < lanes; ++lane)
      kept.push_back(lane * stride);
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(read, whole, whole, kept);
    return success();
  }
};

struct LowerVectorsPass
    : public PassWrapper<LowerVectorsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerVectorsPass)

  StringRef getArgument() const final { return "kiln-lower-vectors"; }
  StringRef getDescription() const final {
    return "Lower multi-reductions, broadcast reads and transfers of the "
           "vectorized tiles to 1-d vector ops the LLVM conversion takes";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    // (VectorToSCF's loops for a transfer that may leave its memref compute
    // their bounds with affine.apply.)
    registry.insert<affine::AffineDialect, arith::ArithDialect,
                    memref::MemRefDialect,
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
      // A transpose's 16 x 16 blocks of 32-bit elements (VectorizeTiles)
      // as two-source shuffles of whole rows (AVX-512's vpermt2ps); its
      // 8 x 8 blocks element by element, which LLVM makes blends.
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransformsOptions().setVectorTransposeLowering(
                        vector::VectorTransposeLowering::Shuffle16x16));
    };
    // Transfers of more than one dim that are left: loops of 1-d ones.
    auto loops = [](RewritePatternSet &patterns) {
      VectorTransferToSCFOptions options;
      options.setTargetRank(1);
      populateVectorToSCFConversionPatterns(patterns, options);
    };
    auto stridedReads = [](RewritePatternSet &patterns) {
      patterns.add<DeinterleaveStridedRead>(patterns.getContext());
    };
    // Strided reads before the loops, which would load them lane by lane.
    if (failed(apply(reductions)) || failed(apply(unitDims)) ||
        failed(apply(stridedReads)) || failed(apply(shapes)) ||
        failed(apply(loops)))
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
