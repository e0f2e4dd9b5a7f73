//===- SmallProducts.cpp - one row times a small weight, as a reduction ---===//
//
// F.linear on one row, x @ w.t() with x of [1, K] (or [K]) and w of
// [N, K], is N dot products of contiguous rows. Through the kernel library
// it costs a call, a primitive's dispatch and a packed copy of w for a few
// microseconds of work; as generated code it is a multiply whose reduction
// over K kiln-fusion groups into one loop nest with the bias and
// activation after it, reading w where it lies. Measured on this machine
// (one thread, one row, bias included, median of 300 calls):
//
//   w of 256 x 256:    generated 1.54 us, library 2.62 us
//   w of 1024 x 784:   generated 32.6 us, library 32.1 us
//   w of 2048 x 2048:  generated 180 us,  library 165 us
//   4 rows, 256 x 256: generated 6.08 us, library 3.25 us
//
// So the pass rewrites the product of one row by a transposed f32 weight
// of at most kSmallProductElements elements into unsqueeze, multiply and
// sum, exactly as a script that wrote `(x.unsqueeze(1) *
// w.unsqueeze(0)).sum(-1)` would be lowered; larger weights, more rows and
// other layouts keep the library, which blocks them for the cache. It runs
// only in the -O2 pipeline, right before kiln-fusion: unfused, the
// multiply would make an N x K tensor.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/KilnDialect.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_SMALLPRODUCTS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

bool isStaticF32(Type type, int64_t rank) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == rank && tensor.hasStaticShape() &&
         tensor.getElementType().isF32();
}

struct SmallProduct : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getRhs().getDefiningOp<TransposeOp>();
    if (!transpose || transpose.getDim0() == transpose.getDim1())
      return rewriter.notifyMatchFailure(op, "the rhs is no transposed matrix");
    Value weight = transpose.getInput();
    Value row = op.getLhs();
    auto rowType = dyn_cast<RankedTensorType>(row.getType());
    if (!isStaticF32(weight.getType(), 2) || !rowType ||
        !(isStaticF32(rowType, 1) ||
          (isStaticF32(rowType, 2) && rowType.getDimSize(0) == 1)))
      return rewriter.notifyMatchFailure(op, "not one static f32 row");
    auto weightType = cast<RankedTensorType>(weight.getType());
    if (weightType.getNumElements() > kSmallProductElements)
      return rewriter.notifyMatchFailure(op, "the weight is not small");

    // [1, K] and [N, K] become [1, 1, K] and [1, N, K], whose product sums
    // over its last dim into [1, N]; a [K] row broadcasts against [N, K]
    // as it is.
    Location loc = op.getLoc();
    int64_t n = weightType.getDimSize(0), k = weightType.getDimSize(1);
    Type f32 = rewriter.getF32Type();
    bool matrix = rowType.getRank() == 2;
    if (matrix) {
      row = rewriter.create<UnsqueezeOp>(
          loc, RankedTensorType::get({1, 1, k}, f32), row, 1);
      weight = rewriter.create<UnsqueezeOp>(
          loc, RankedTensorType::get({1, n, k}, f32), weight, 0);
    }
    SmallVector<int64_t> productShape =
        matrix ? SmallVector<int64_t>{1, n, k} : SmallVector<int64_t>{n, k};
    Value product = rewriter.create<MulOp>(
        loc, RankedTensorType::get(productShape, f32), row, weight);
    rewriter.replaceOpWithNewOp<SumOp>(
        op, op.getResult().getType(), product,
        ArrayRef<int64_t>{static_cast<int64_t>(productShape.size()) - 1},
        false);
    return success();
  }
};

struct SmallProductsPass
    : kiln::impl::SmallProductsBase<SmallProductsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SmallProduct>(&getContext());
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createSmallProductsPass() {
  return std::make_unique<SmallProductsPass>();
}
