//===- PoolingOps.cpp - max_pool2d and avg_pool2d -------------------------===//
//
// Both pools work on a padded input, so that every window lies fully inside
// the (padded) tensor and the loops need no bounds tests:
// - max_pool2d pads with -inf, which never wins over an input element (a
//   dilated window that holds none gives -inf, as in PyTorch). A float
//   window of up to kMaxUnrolledWindow elements (LeNet's and ResNet's 2x2
//   and 3x3) becomes one elementwise loop over the output that reads the
//   window's elements as operands, through strided maps, and takes their
//   maximum in registers (floatExtremum: NaN wins, as in PyTorch). A larger
//   window, or an integer one, uses linalg.pooling_nchw_max, whose running
//   maximum is a load and a store of the output per window element; in
//   LeNet at batch 64 that loop was 53% of the call.
// - avg_pool2d pads with 0, sums with linalg.pooling_nchw_sum (f16 and bf16
//   in f32, as PyTorch's CPU kernel accumulates) and divides by PyTorch's
//   divisor: the window clipped to the padded input, or with
//   count_include_pad false to the input itself. That divisor is the same
//   for every window unless padding is excluded or ceil_mode lets the last
//   window hang over, and then it is computed per output element.
//
// ceil_mode's extra windows overhang the bottom and right; the input gets
// extra high padding there, which neither pool counts.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/ReductionSupport.h"
#include "codegen/lowering/WindowSupport.h"
#include "codegen/strategy/Tiling.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

namespace kiln::codegen {
namespace {

using Pred = arith::CmpIPredicate;

/// The padded input and the output sizes of a pool.
struct PooledShape {
  Value padded;
  SmallVector<Value> outSizes; // N, C, OH, OW as index values
  Value inH, inW;              // i64
};

/// Pads `input` for `windows` (height, width) with `padValue` and computes
/// the output sizes, raising where a run-time H or W is too small.
PooledShape padForWindows(OpBuilder &b, Location loc, LoweringState &state,
                          Value input, ArrayRef<WindowDim> windows,
                          Value padValue) {
  IntMath m{b, loc};
  SmallVector<Value> inSizes = tensorSizes(b, loc, input);
  PooledShape shape;
  shape.outSizes = {inSizes[0], inSizes[1]};
  SmallVector<int64_t> low;
  SmallVector<Value> high;
  bool anyPadding = false;
  for (int i = 0; i < 2; ++i) {
    const WindowDim &w = windows[i];
    Value size = m.toI64(inSizes[2 + i]);
    Value out = w.outputSize(m, size);
    MessageArgs args;
    std::string sizeText = args(size), outText = args(out);
    check(b, loc, state, m.cmp(Pred::slt, out, m.i64(1)),
          "output size is too small: input size " + sizeText +
              " gives output size " + outText + " in dimension " +
              std::to_string(2 + i),
          args.values);
    Value highPad = w.highPadding(m, size, out);
    low.push_back(w.padding);
    high.push_back(m.toIndex(highPad));
    anyPadding |= w.padding != 0 || constantInt(highPad) != 0;
    shape.outSizes.push_back(m.toIndex(out));
    (i == 0 ? shape.inH : shape.inW) = size;
  }
  shape.padded =
      anyPadding ? padSpatial(b, loc, input, low, high, padValue) : input;
  return shape;
}

SmallVector<WindowDim, 2> windowsOf(ArrayRef<int64_t> kernel,
                                    ArrayRef<int64_t> stride,
                                    ArrayRef<int64_t> padding,
                                    ArrayRef<int64_t> dilation, bool ceilMode) {
  SmallVector<WindowDim, 2> windows;
  for (int i = 0; i < 2; ++i)
    windows.push_back(
        {kernel[i], stride[i], padding[i], dilation[i], ceilMode});
  return windows;
}

/// tensor.empty of the window's shape: linalg's pooling ops read only its
/// sizes.
Value windowTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> kernel,
                   Type element) {
  return b.create<tensor::EmptyOp>(loc, kernel, element);
}

/// Windows of at most this many elements take the unrolled max_pool2d.
constexpr int64_t kMaxUnrolledWindow = 16;

/// max_pool2d of `padded` as one elementwise linalg.generic over the
/// output (`type`, `outSizes`), with one operand per window element: the
/// strided slice of `padded` that holds that element of every window. The
/// maps are identities, so that the generic tiles like any elementwise op
/// (MLIR 19's tiling counts a constant term of an indexing map, such as
/// `ow * 2 + 1`, twice: once in the slice's offset and again in the map).
Value unrolledMaxPool(OpBuilder &b, Location loc, Value padded,
                      RankedTensorType type, ArrayRef<Value> outSizes,
                      ArrayRef<WindowDim> windows) {
  const WindowDim &h = windows[0], &w = windows[1];
  SmallVector<Value> inputs;
  SmallVector<OpFoldResult> sizes = getAsOpFoldResult(outSizes);
  SmallVector<OpFoldResult> strides = {b.getIndexAttr(1), b.getIndexAttr(1),
                                       b.getIndexAttr(h.stride),
                                       b.getIndexAttr(w.stride)};
  for (int64_t i = 0; i < h.kernel; ++i)
    for (int64_t j = 0; j < w.kernel; ++j) {
      SmallVector<OpFoldResult> offsets = {
          b.getIndexAttr(0), b.getIndexAttr(0),
          b.getIndexAttr(i * h.dilation), b.getIndexAttr(j * w.dilation)};
      inputs.push_back(b.create<tensor::ExtractSliceOp>(loc, padded, offsets,
                                                        sizes, strides));
    }
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(4));
  SmallVector<utils::IteratorType> parallel(4, utils::IteratorType::parallel);
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{type}, inputs,
          ValueRange{emptyTensor(b, loc, type, outSizes)}, maps, parallel,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value max = args[0];
            for (Value element : args.drop_front().drop_back())
              max = floatExtremum(nb, nl, max, element, /*max=*/true);
            nb.create<linalg::YieldOp>(nl, max);
          })
      .getResult(0);
}

struct MaxPool2dLowering : KilnLowering<MaxPool2dOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(MaxPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type element = cast<RankedTensorType>(input.getType()).getElementType();
    Value lowest = constantOf(rewriter, loc, element,
                              -std::numeric_limits<double>::infinity());
    SmallVector<WindowDim, 2> windows =
        windowsOf(op.getKernel(), op.getStride(), op.getPadding(),
                  op.getDilation(), op.getCeilMode());
    PooledShape shape =
        padForWindows(rewriter, loc, state, input, windows, lowest);
    RankedTensorType type = op.getResult().getType();
    if (isa<FloatType>(element) &&
        windows[0].kernel * windows[1].kernel <= kMaxUnrolledWindow) {
      Value pooled = unrolledMaxPool(rewriter, loc, shape.padded, type,
                                     shape.outSizes, windows);
      // A group of its own, which TileFusionGroups tiles so that the pool
      // runs on the call's threads (it is elementwise over its slices).
      pooled.getDefiningOp()->setAttr(
          kFusionGroupAttrName,
          rewriter.getI64IntegerAttr(state.nextLoneGroup--));
      rewriter.replaceOp(op, pooled);
      return success();
    }
    Value init = filled(rewriter, loc, type, shape.outSizes, lowest);
    Value pooled =
        rewriter
            .create<linalg::PoolingNchwMaxOp>(
                loc, TypeRange{type},
                ValueRange{shape.padded, windowTensor(rewriter, loc,
                                                      op.getKernel(), element)},
                ValueRange{init}, rewriter.getI64TensorAttr(op.getStride()),
                rewriter.getI64TensorAttr(op.getDilation()))
            .getResult(0);
    rewriter.replaceOp(op, pooled);
    return success();
  }
};

struct AvgPool2dLowering : KilnLowering<AvgPool2dOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(AvgPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType resultType = op.getResult().getType();
    Type element = resultType.getElementType();
    Type acc = accumulatorType(element);
    Value zero = constantOf(rewriter, loc, element, 0.0);
    SmallVector<WindowDim, 2> windows =
        windowsOf(op.getKernel(), op.getStride(), op.getPadding(), {1, 1},
                  op.getCeilMode());
    PooledShape shape =
        padForWindows(rewriter, loc, state, input, windows, zero);
    auto accType = RankedTensorType::get(resultType.getShape(), acc);
    Value init = filled(rewriter, loc, accType, shape.outSizes,
                        constantOf(rewriter, loc, acc, 0.0));
    Value sums =
        rewriter
            .create<linalg::PoolingNchwSumOp>(
                loc, TypeRange{accType},
                ValueRange{shape.padded, windowTensor(rewriter, loc,
                                                      op.getKernel(), element)},
                ValueRange{init}, rewriter.getI64TensorAttr(op.getStride()),
                rewriter.getI64TensorAttr({1, 1}))
            .getResult(0);
    rewriter.replaceOp(op, divide(rewriter, loc, op, sums, shape, windows));
    return success();
  }

  /// sums / divisor, converted to the result's element type.
  Value divide(OpBuilder &b, Location loc, AvgPool2dOp op, Value sums,
               const PooledShape &shape, ArrayRef<WindowDim> windows) const {
    RankedTensorType resultType = op.getResult().getType();
    Type element = resultType.getElementType();
    Type acc = cast<RankedTensorType>(sums.getType()).getElementType();
    bool countPad = op.getCountIncludePad();
    // Without ceil_mode every window ends inside the padded input, so
    // counting the padding gives the whole window; without padding there is
    // nothing to exclude.
    bool uniform = !op.getCeilMode() &&
                   (countPad || llvm::all_of(windows, [](const WindowDim &w) {
                      return w.padding == 0;
                    }));
    int64_t windowSize = windows[0].kernel * windows[1].kernel;
    Value inH = shape.inH, inW = shape.inW;
    // The divisor depends on the output position, which the body reads
    // with linalg.index.
    return mapElements(
        b, loc, sums, element,
        [&](OpBuilder &nb, Location nl, Value sum) -> Value {
          Value divisor;
          if (uniform) {
            divisor = constantOf(nb, nl, acc, static_cast<double>(windowSize));
          } else {
            IntMath m{nb, nl};
            Value count = m.i64(1);
            for (auto [i, w] : llvm::enumerate(windows)) {
              Value size = i == 0 ? inH : inW;
              Value o = m.toI64(nb.create<linalg::IndexOp>(nl, 2 + i));
              // PyTorch's avg_pool2d: the window clipped to the padded input
              // (not to ceil_mode's overhang), then to the input itself.
              // Operands in named locals: argument order is unspecified,
              // and the IR must not depend on the compiler.
              Value scaled = m.mul(o, m.i64(w.stride));
              Value start = m.sub(scaled, m.i64(w.padding));
              Value windowEnd = m.add(start, m.i64(w.kernel));
              Value paddedEnd = m.add(size, m.i64(w.padding));
              Value end = m.min(windowEnd, paddedEnd);
              if (!countPad) {
                start = m.max(start, m.i64(0));
                end = m.min(end, size);
              }
              count = m.mul(count, m.sub(end, start));
            }
            divisor = nb.create<arith::SIToFPOp>(nl, acc, count);
          }
          Value mean = nb.create<arith::DivFOp>(nl, sum, divisor);
          return convertScalar(nb, nl, mean, element);
        });
  }
};

} // namespace

void populatePoolingPatterns(RewritePatternSet &patterns,
                             TypeConverter &converter, LoweringState &state) {
  patterns.add<MaxPool2dLowering, AvgPool2dLowering>(
      converter, patterns.getContext(), state);
}

} // namespace kiln::codegen
