//===- MaxPoolFirst.cpp - pool before a bias and a relu ---------------------===//
//
// A convolution's bias and relu, then a max pool (LeNet, VGG), make two
// passes over the convolution's output: one for the bias and relu, one for
// the pool, which keeps a quarter of it. Both commute with the pool, exactly:
// max is taken over a window of one channel, the bias is the same within
// it, and rounding, like relu, never reverses an order, so
//
//   max_w(relu(x_i + b)) == relu(max_w(x_i) + b)
//
// for every x, NaN included (a NaN in the window makes both NaN) and with
// padding (-inf + b is -inf). This pass rewrites the left side into the
// right one, so that the bias and relu read the pooled tensor, a quarter of
// the other, and fuse with what follows it.
//
// Only where that leaves nothing before the pool: the chain starts at a
// value no elementwise op computes (a convolution's or product's result, an
// argument), so that the pass never trades one group's pass for another.
// Each op of the chain has no other use, the bias add promotes no type and
// broadcasts nothing into the pooled input, and its other operand is a
// Python number or a tensor of size 1 along height and width.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_MAXPOOLFIRST
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// Whether `value` is the same within every pooling window of a 4-D
/// tensor it is added to: a number, or a tensor with size 1 (or no dim)
/// where height and width align.
bool constantPerWindow(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor)
    return !isa<ShapedType>(value.getType());
  ArrayRef<int64_t> shape = tensor.getShape();
  int64_t rank = shape.size();
  return rank <= 4 && (rank < 1 || shape[rank - 1] == 1) &&
         (rank < 2 || shape[rank - 2] == 1);
}

/// Whether the chain may start at `value`: nothing elementwise computes it,
/// so no group is left before the pool.
bool chainStart(Value value) {
  Operation *op = value.getDefiningOp();
  return !op || isa<Conv2dOp, MatmulOp>(op);
}

struct MaxPoolFirst : OpRewritePattern<MaxPool2dOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MaxPool2dOp pool,
                                PatternRewriter &rewriter) const override {
    Value input = pool.getInput();
    auto relu = input.getDefiningOp<ReluOp>();
    if (relu && relu->hasOneUse())
      input = relu.getInput();
    else
      relu = nullptr;
    auto add = input.getDefiningOp<AddOp>();
    Value bias;
    if (add && add->hasOneUse()) {
      bool lhsFull = add.getLhs().getType() == add.getResult().getType();
      Value full = lhsFull ? add.getLhs() : add.getRhs();
      bias = lhsFull ? add.getRhs() : add.getLhs();
      auto type = cast<RankedTensorType>(add.getResult().getType());
      if (full.getType() == type && isa<FloatType>(type.getElementType()) &&
          constantPerWindow(bias))
        input = full;
      else
        add = nullptr;
    } else {
      add = nullptr;
    }
    if ((!relu && !add) || !chainStart(input))
      return rewriter.notifyMatchFailure(pool, "no bias or relu to move");

    Type pooledType = pool.getResult().getType();
    if (add && inferElementwiseType(ElementwiseKind::Arith, pooledType,
                                    bias.getType(), nullptr) != pooledType)
      return rewriter.notifyMatchFailure(pool, "the bias changes the type");
    Value result = rewriter.create<MaxPool2dOp>(
        pool.getLoc(), pooledType, input, pool.getKernelAttr(),
        pool.getStrideAttr(), pool.getPaddingAttr(), pool.getCeilModeAttr(),
        pool.getDilationAttr());
    if (add)
      result = add.getLhs() == bias
                   ? rewriter.create<AddOp>(add.getLoc(), pooledType, bias,
                                            result)
                   : rewriter.create<AddOp>(add.getLoc(), pooledType, result,
                                            bias);
    if (relu)
      result = rewriter.create<ReluOp>(relu.getLoc(), pooledType, result);
    rewriter.replaceOp(pool, result);
    return success();
  }
};

struct MaxPoolFirstPass : kiln::impl::MaxPoolFirstBase<MaxPoolFirstPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MaxPoolFirst>(&getContext());
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createMaxPoolFirstPass() {
  return std::make_unique<MaxPoolFirstPass>();
}
