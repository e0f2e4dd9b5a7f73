//===- ConvolutionOps.cpp - conv2d ----------------------------------------===//
//
// f32, f16 and bf16 convolutions call the kernel library (LibraryCalls.h),
// which pads the input itself, except an f32 convolution with few output
// channels and taps (LeNet's first layer), which is generated as one
// elementwise op (TapConv2dLowering). f64 convolutions become linalg: the
// input is padded with zeros (padSpatial), then linalg.conv_2d_nchw_fchw
// computes them, or with groups linalg.conv_2d_ngchw_gfchw on views that
// split the channels into groups (the weight's O x C/groups is already
// groups x O/groups x C/groups in memory, so no operand is copied).
//
// Both check what only the run time knows with PyTorch's messages: a `?`
// channel count against the weight, and `?` spatial sizes against the
// dilated kernel.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LibraryCalls.h"
#include "codegen/lowering/ReductionSupport.h"
#include "codegen/lowering/WindowSupport.h"
#include "codegen/strategy/Tiling.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

namespace kiln::codegen {
namespace {

using Pred = arith::CmpIPredicate;

/// The (height, width) windows of `op`.
SmallVector<WindowDim, 2> windowsOf(Conv2dOp op) {
  auto weightType = cast<RankedTensorType>(op.getWeight().getType());
  SmallVector<WindowDim, 2> windows;
  for (int i = 0; i < 2; ++i)
    windows.push_back({weightType.getDimSize(2 + i), op.getStride()[i],
                       op.getPadding()[i], op.getDilation()[i],
                       /*ceilMode=*/false});
  return windows;
}

/// The result's sizes N x O x OH x OW (index values), after checking the
/// input's channels and spatial sizes where they are `?`. In that order
/// whatever the op's layout.
SmallVector<Value> convResultSizes(OpBuilder &b, Location loc,
                                   LoweringState &state, Conv2dOp op,
                                   Value input, Value weight) {
  IntMath m{b, loc};
  SmallVector<Value> in = tensorSizes(b, loc, input);
  if (op.getChannelsLast())
    applyPermutationToVector(in, kToChannelsFirst);
  SmallVector<Value> w = tensorSizes(b, loc, weight);
  Value channels = m.toI64(in[1]);
  // Named operands: argument order is unspecified; the IR must not be.
  Value perGroup = m.toI64(w[1]);
  Value expected = m.mul(perGroup, m.i64(op.getGroups()));
  MessageArgs args;
  // The channel counts take the first placeholders; the shapes get what
  // is left.
  std::string expectedText = args(expected), channelsText = args(channels);
  SmallVector<Value> inputShape(in);
  inputShape[1] = channels; // so that the message names it once
  std::string weightText = args.list(w), inputText = args.list(inputShape);
  check(b, loc, state, m.cmp(Pred::ne, channels, expected),
        "given groups=" + std::to_string(op.getGroups()) + ", weight of size " +
            weightText + ", expected input" + inputText + " to have " +
            expectedText + " channels, but got " + channelsText +
            " channels instead",
        args.values);

  SmallVector<WindowDim, 2> windows = windowsOf(op);
  SmallVector<Value> padded, outs;
  Value tooSmall = m.boolean(false);
  for (int i = 0; i < 2; ++i) {
    Value size = m.toI64(in[2 + i]);
    padded.push_back(m.add(size, m.i64(2 * windows[i].padding)));
    outs.push_back(windows[i].outputSize(m, size));
    tooSmall = m.either(tooSmall, m.cmp(Pred::slt, outs.back(), m.i64(1)));
  }
  MessageArgs sizeArgs;
  std::string heightText = sizeArgs(padded[0]);
  std::string widthText = sizeArgs(padded[1]);
  check(b, loc, state, tooSmall,
        "calculated padded input size per channel: (" + heightText + " x " +
            widthText + "). kernel size: (" +
            std::to_string(windows[0].span()) + " x " +
            std::to_string(windows[1].span()) +
            "). kernel size can't be greater than actual input size",
        sizeArgs.values);
  return {in[0], w[0], m.toIndex(outs[0]), m.toIndex(outs[1])};
}

/// Which convolutions are generated rather than called: oneDNN's kernels
/// spread 16 output channels over a vector's lanes (and its gemm
/// convolution pays an im2col), so below 16 output channels most lanes
/// idle, while generated code spreads the output's width over them. At
/// 1 thread on this machine, library against generated:
///
///   [64,1,32,32] * [6,1,3,3]   (LeNet's first layer)   191 us   82 us
///   [1,1,32,32] * [6,1,3,3]    (LeNet at batch 1)      4.5 us  1.4 us
///   [8,3,64,64] * [6,3,3,3], padding 1                 312 us  126 us
///   [8,3,64,64] * [16,3,3,3], padding 1                249 us  314 us
///   [64,1,28,28] * [32,1,3,3]                          275 us  369 us
///   [64,6,15,15] * [16,6,3,3]  (LeNet's second layer)  105 us  647 us
///   [8,3,64,64] * [16,3,3,3], stride 2, padding 1       67 us  237 us
///
/// So: fewer than 16 output channels (the runtime's kFewChannels, in
/// OneDnnConv.cpp, is the same block width), stride 1, and at most 27
/// taps (input channels x kernel height x width, the largest window
/// measured).
constexpr int64_t kMaxGeneratedChannels = 15;
constexpr int64_t kMaxGeneratedTaps = 27;

/// Whether `op` is generated as one elementwise op over its output
/// (TapConv2dLowering) instead of calling the kernel library: an f32 CPU
/// convolution without groups that the table above favours.
bool isTapConvolution(Conv2dOp op, const LoweringState &state) {
  auto weightType = cast<RankedTensorType>(op.getWeight().getType());
  if (state.gpu || op.getGroups() != 1 || op.getChannelsLast() ||
      !op.getResult().getType().getElementType().isF32() ||
      !weightType.hasStaticShape() || op.getStride()[0] != 1 ||
      op.getStride()[1] != 1)
    return false;
  ArrayRef<int64_t> w = weightType.getShape();
  return w[0] <= kMaxGeneratedChannels &&
         w[1] * w[2] * w[3] <= kMaxGeneratedTaps;
}

/// A convolution of few taps as one elementwise linalg.generic over the
/// N x O x OH x OW output: each tap (input channel c, kernel row i, column
/// j) is an operand twice, as the slice of the padded input that holds
/// that tap's element of every window (read across the output channels)
/// and as the weight's column of that tap (read across the batch and the
/// positions). The body multiply-adds them in tap order.
/// The vectorizer reads a window row as one vector and a weight as a
/// splat, and the op is a group of its own, so that TileFusionGroups
/// spreads it over the call's threads.
struct TapConv2dLowering : KilnLowering<Conv2dOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(Conv2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isTapConvolution(op, state))
      return rewriter.notifyMatchFailure(op, "not a tap convolution");
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    Type element = resultType.getElementType();
    Value input = adaptor.getInput(), weight = adaptor.getWeight();
    SmallVector<Value> sizes =
        convResultSizes(rewriter, loc, state, op, input, weight);
    ArrayRef<int64_t> padding = op.getPadding();
    if (padding[0] != 0 || padding[1] != 0)
      input = padSpatial(rewriter, loc, input, padding,
                         {indexValue(rewriter, loc, padding[0]),
                          indexValue(rewriter, loc, padding[1])},
                         constantOf(rewriter, loc, element, 0.0));

    ArrayRef<int64_t> w =
        cast<RankedTensorType>(weight.getType()).getShape();
    ArrayRef<int64_t> out = resultType.getShape();
    auto windowsType = RankedTensorType::get({out[0], out[2], out[3]}, element);
    auto tapType = RankedTensorType::get({w[0]}, element);
    SmallVector<OpFoldResult> windowSizes = {
        getAsOpFoldResult(sizes[0]), rewriter.getIndexAttr(1),
        getAsOpFoldResult(sizes[2]), getAsOpFoldResult(sizes[3])};
    SmallVector<OpFoldResult> windowStrides = {
        rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
        rewriter.getIndexAttr(op.getStride()[0]),
        rewriter.getIndexAttr(op.getStride()[1])};
    SmallVector<OpFoldResult> tapSizes = {
        rewriter.getIndexAttr(w[0]), rewriter.getIndexAttr(1),
        rewriter.getIndexAttr(1), rewriter.getIndexAttr(1)};
    SmallVector<OpFoldResult> ones(4, rewriter.getIndexAttr(1));
    SmallVector<Value> inputs;
    for (int64_t c = 0; c < w[1]; ++c)
      for (int64_t i = 0; i < w[2]; ++i)
        for (int64_t j = 0; j < w[3]; ++j) {
          SmallVector<OpFoldResult> windowOffsets = {
              rewriter.getIndexAttr(0), rewriter.getIndexAttr(c),
              rewriter.getIndexAttr(i * op.getDilation()[0]),
              rewriter.getIndexAttr(j * op.getDilation()[1])};
          inputs.push_back(rewriter.create<tensor::ExtractSliceOp>(
              loc, windowsType, input, windowOffsets, windowSizes,
              windowStrides));
          SmallVector<OpFoldResult> tapOffsets = {
              rewriter.getIndexAttr(0), rewriter.getIndexAttr(c),
              rewriter.getIndexAttr(i), rewriter.getIndexAttr(j)};
          inputs.push_back(rewriter.create<tensor::ExtractSliceOp>(
              loc, tapType, weight, tapOffsets, tapSizes, ones));
        }

    MLIRContext *context = rewriter.getContext();
    AffineExpr n, o, y, x;
    bindDims(context, n, o, y, x);
    AffineMap windowMap = AffineMap::get(4, 0, {n, y, x}, context);
    AffineMap tapMap = AffineMap::get(4, 0, {o}, context);
    SmallVector<AffineMap> maps;
    for (size_t t = 0; t < inputs.size() / 2; ++t)
      maps.append({windowMap, tapMap});
    maps.push_back(rewriter.getMultiDimIdentityMap(4));
    SmallVector<utils::IteratorType> parallel(4, utils::IteratorType::parallel);
    auto conv = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, inputs,
        ValueRange{emptyTensor(rewriter, loc, resultType, sizes)}, maps,
        parallel, [&](OpBuilder &b, Location l, ValueRange args) {
          Value sum = b.create<arith::MulFOp>(l, args[0], args[1]);
          for (size_t t = 2; t + 1 < args.size(); t += 2)
            sum = b.create<math::FmaOp>(l, args[t], args[t + 1], sum);
          b.create<linalg::YieldOp>(l, sum);
        });
    conv->setAttr(kFusionGroupAttrName,
                  rewriter.getI64IntegerAttr(state.nextLoneGroup--));
    rewriter.replaceOp(op, conv.getResult(0));
    return success();
  }
};

struct LibraryConv2dLowering : KilnLowering<Conv2dOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(Conv2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getResult().getType();
    Type element = resultType.getElementType();
    if (!usesKernelLibrary(element) || isTapConvolution(op, state))
      return rewriter.notifyMatchFailure(op, "not a library convolution");
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), weight = adaptor.getWeight();
    SmallVector<Value> sizes =
        convResultSizes(rewriter, loc, state, op, input, weight);
    // A channels-last input and result are N x H x W x C buffers that the
    // library sees as N x C x H x W views, strided: the layout its kernels
    // compute in, so that it reorders neither.
    ArrayRef<int64_t> toLibrary;
    if (op.getChannelsLast()) {
      toLibrary = kToChannelsFirst;
      applyPermutationToVector(sizes, kToChannelsLast);
    }
    SmallVector<Value> operands = {
        viewAsUnrankedMemref(rewriter, loc,
                             toLibraryElements(rewriter, loc, input),
                             toLibrary),
        viewAsUnrankedMemref(rewriter, loc,
                             toLibraryElements(rewriter, loc, weight))};
    IntMath m{rewriter, loc};
    SmallVector<Value> params;
    for (int64_t param :
         {op.getStride()[0], op.getStride()[1], op.getPadding()[0],
          op.getPadding()[1], op.getDilation()[0], op.getDilation()[1],
          op.getGroups()})
      params.push_back(m.i64(param));
    Value result = callKernelLibrary(rewriter, loc, state, "conv2d", operands,
                                     resultType.getShape(), sizes, params,
                                     toLibrary);
    rewriter.replaceOp(op, fromLibraryElements(rewriter, loc, result, element));
    return success();
  }
};

/// Splits dim `dim` of `value` into (groups, size / groups): a view.
Value splitGroups(OpBuilder &b, Location loc, Value value, int64_t dim,
                  int64_t groups) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> sizes = tensorSizes(b, loc, value);
  int64_t size = type.getDimSize(dim);
  Value perGroup = b.createOrFold<arith::DivSIOp>(loc, sizes[dim],
                                                  indexValue(b, loc, groups));
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = ShapedType::isDynamic(size) ? size : size / groups;
  shape.insert(shape.begin() + dim, groups);
  sizes[dim] = perGroup;
  sizes.insert(sizes.begin() + dim, indexValue(b, loc, groups));
  SmallVector<ReassociationIndices> regroup;
  for (int64_t i = 0; i < type.getRank(); ++i)
    regroup.push_back(i < dim    ? ReassociationIndices{i}
                      : i == dim ? ReassociationIndices{i, i + 1}
                                 : ReassociationIndices{i + 1});
  return expandTo(b, loc, value,
                  RankedTensorType::get(shape, type.getElementType()), regroup,
                  sizes);
}

struct Conv2dLowering : KilnLowering<Conv2dOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(Conv2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getResult().getType();
    Type element = resultType.getElementType();
    if (usesKernelLibrary(element))
      return rewriter.notifyMatchFailure(op, "calls the kernel library");
    if (op.getChannelsLast())
      return op.emitOpError("channels_last is for the kernel library's "
                            "f32, f16 and bf16 convolutions only");
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), weight = adaptor.getWeight();
    SmallVector<Value> sizes =
        convResultSizes(rewriter, loc, state, op, input, weight);
    Value zero = constantOf(rewriter, loc, element, 0.0);
    ArrayRef<int64_t> padding = op.getPadding();
    if (padding[0] != 0 || padding[1] != 0)
      input = padSpatial(rewriter, loc, input, padding,
                         {indexValue(rewriter, loc, padding[0]),
                          indexValue(rewriter, loc, padding[1])},
                         zero);
    auto strides = rewriter.getI64TensorAttr(op.getStride());
    auto dilations = rewriter.getI64TensorAttr(op.getDilation());
    int64_t groups = op.getGroups();
    if (groups == 1) {
      Value init = filled(rewriter, loc, resultType, sizes, zero);
      rewriter.replaceOpWithNewOp<linalg::Conv2DNchwFchwOp>(
          op, TypeRange{resultType}, ValueRange{input, weight},
          ValueRange{init}, strides, dilations);
      return success();
    }
    // N x (G x C/G) x H x W and (G x O/G) x C/G x KH x KW.
    Value groupedInput = splitGroups(rewriter, loc, input, 1, groups);
    Value groupedWeight = splitGroups(rewriter, loc, weight, 0, groups);
    Value init = filled(rewriter, loc, resultType, sizes, zero);
    Value groupedInit = splitGroups(rewriter, loc, init, 1, groups);
    Value grouped = rewriter
                        .create<linalg::Conv2DNgchwGfchwOp>(
                            loc, TypeRange{groupedInit.getType()},
                            ValueRange{groupedInput, groupedWeight},
                            ValueRange{groupedInit}, strides, dilations)
                        .getResult(0);
    SmallVector<ReassociationIndices> merge = {{0}, {1, 2}, {3}, {4}};
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, resultType,
                                                         grouped, merge);
    return success();
  }
};

} // namespace

void populateConvolutionPatterns(RewritePatternSet &patterns,
                                 TypeConverter &converter,
                                 LoweringState &state) {
  patterns.add<TapConv2dLowering, LibraryConv2dLowering, Conv2dLowering>(
      converter, patterns.getContext(), state);
}

} // namespace kiln::codegen
