//===- IndexingOps.cpp - arange, embedding, gather and index_select ------===//
//
// The ops whose loops compute or gather indices.
//
// arange counts as PyTorch's arange_out does: an integer result converts
// the bounds to i64 (a float truncates toward zero) and counts exactly; a
// float result counts with ceil((end - start) / step) in f64. Element i is
// start + step * i, computed where PyTorch's CPU kernel computes it (i64
// for ints, f64 for f32 and f64, f32 for f16 and bf16), then converted.
//
// embedding is a gather: one linalg.generic over the indices' shape plus
// the row, whose body extracts weight[index, column]. Every index is checked
// before the gather, by a min/max reduction over the indices, so the gather
// itself has no side effects and reads only rows that exist. gather and
// index_select are lowered the same way: bounds first (with PyTorch's
// messages), then one parallel loop whose body extracts the element.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/CheckSupport.h"
#include "codegen/lowering/IntMath.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;

namespace kiln::codegen {
namespace {

using Pred = arith::CmpIPredicate;
using FPred = arith::CmpFPredicate;

//===----------------------------------------------------------------------===//
// arange
//===----------------------------------------------------------------------===//

struct ArangeLowering : KilnLowering<ArangeOp> {
  using KilnLowering::KilnLowering;

  LogicalResult
  matchAndRewrite(ArangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getResult().getType();
    Type element = resultType.getElementType();
    Value start = adaptor.getStart(), end = adaptor.getEnd(),
          step = adaptor.getStep();

    Value length;
    Type acc;
    if (isa<IntegerType>(element)) {
      acc = rewriter.getI64Type();
      start = convertScalar(rewriter, loc, start, acc);
      end = convertScalar(rewriter, loc, end, acc);
      step = convertScalar(rewriter, loc, step, acc);
      length = integerLength(rewriter, loc, start, end, step);
    } else {
      Type f64 = rewriter.getF64Type();
      start = convertScalar(rewriter, loc, start, f64);
      end = convertScalar(rewriter, loc, end, f64);
      step = convertScalar(rewriter, loc, step, f64);
      length = floatLength(rewriter, loc, start, end, step);
      acc = element.isF16() || element.isBF16() ? rewriter.getF32Type() : f64;
    }
    // Converted once, outside the loop.
    start = convertScalar(rewriter, loc, start, acc);
    step = convertScalar(rewriter, loc, step, acc);

    std::optional<int64_t> staticLength = constantInt(length);
    auto type = RankedTensorType::get(
        {staticLength ? *staticLength : ShapedType::kDynamic}, element);
    Value init =
        emptyTensor(rewriter, loc, type, {toIndex(rewriter, loc, length)});
    AffineMap identity = rewriter.getMultiDimIdentityMap(1);
    Value result =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{type}, ValueRange{}, ValueRange{init},
                ArrayRef<AffineMap>{identity},
                ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
                [&](OpBuilder &b, Location l, ValueRange) {
                  Value i = toI64(b, l, b.create<linalg::IndexOp>(l, 0));
                  Value value;
                  if (isa<IntegerType>(acc)) {
                    value = b.create<arith::AddIOp>(
                        l, start, b.create<arith::MulIOp>(l, step, i));
                  } else {
                    Value fi = b.create<arith::SIToFPOp>(l, acc, i);
                    value = b.create<arith::AddFOp>(
                        l, start, b.create<arith::MulFOp>(l, step, fi));
                  }
                  b.create<linalg::YieldOp>(
                      l, convertScalar(b, l, value, element));
                })
            .getResult(0);
    rewriter.replaceOp(op, castTo(rewriter, loc, result, resultType));
    return success();
  }

  /// ceil((end - start) / step) on i64s, exactly, after PyTorch's checks.
  Value integerLength(OpBuilder &b, Location loc, Value start, Value end,
                      Value step) const {
    IntMath m{b, loc};
    Value zero = m.i64(0);
    check(b, loc, state, m.cmp(Pred::eq, step, zero), "step must be nonzero");
    Value up = m.cmp(Pred::sgt, step, zero);
    // Operands in named locals, here and below: C++ leaves the order of
    // evaluating arguments unspecified, and the IR must not depend on it.
    Value upButBelow = m.both(up, m.cmp(Pred::slt, end, start));
    Value down = m.negate(up);
    Value downButAbove = m.both(down, m.cmp(Pred::sgt, end, start));
    Value inconsistent = m.either(upButBelow, downButAbove);
    check(b, loc, state, inconsistent,
          "upper bound and larger bound inconsistent with step sign");
    // Count along the direction of the step, so that the span and the
    // stride are both non-negative.
    Value forward = m.sub(end, start);
    Value backward = m.sub(start, end);
    Value span = m.select(up, forward, backward);
    Value stride = m.select(up, step, m.sub(zero, step));
    return m.ceilDiv(span, stride);
  }

  /// ceil((end - start) / step) in f64, after PyTorch's checks.
  Value floatLength(OpBuilder &b, Location loc, Value start, Value end,
                    Value step) const {
    auto f64 = [&](double v) {
      return b.createOrFold<arith::ConstantOp>(loc, b.getF64FloatAttr(v));
    };
    auto cmp = [&](FPred p, Value x, Value y) {
      return b.createOrFold<arith::CmpFOp>(loc, p, x, y);
    };
    Value zero = f64(0.0);
    // Unordered: a NaN step is not > 0 or < 0 either.
    check(b, loc, state, cmp(FPred::UEQ, step, zero), "step must be nonzero");
    Value inf = f64(std::numeric_limits<double>::infinity());
    Value startInfinite =
        cmp(FPred::UEQ, b.createOrFold<math::AbsFOp>(loc, start), inf);
    Value endInfinite =
        cmp(FPred::UEQ, b.createOrFold<math::AbsFOp>(loc, end), inf);
    Value infinite =
        b.createOrFold<arith::OrIOp>(loc, startInfinite, endInfinite);
    check(b, loc, state, infinite,
          "unsupported range: start and end must be finite");
    Value up = cmp(FPred::OGT, step, zero);
    Value below = cmp(FPred::OLT, end, start);
    Value above = cmp(FPred::OGT, end, start);
    Value inconsistent =
        b.createOrFold<arith::SelectOp>(loc, up, below, above);
    check(b, loc, state, inconsistent,
          "upper bound and larger bound inconsistent with step sign");
    Value size = b.createOrFold<math::CeilOp>(
        loc, b.createOrFold<arith::DivFOp>(
                 loc, b.createOrFold<arith::SubFOp>(loc, end, start), step));
    // 2^63 is the first double that does not fit in an i64.
    check(b, loc, state, cmp(FPred::UGE, size, f64(0x1p63)),
          "invalid size, possible overflow?");
    return b.createOrFold<arith::FPToSIOp>(loc, b.getI64Type(), size);
  }
};

//===----------------------------------------------------------------------===//
// embedding
//===----------------------------------------------------------------------===//

/// The smallest and the largest of the `indices` (as i64), with 0 and -1
/// for no indices, so that an empty tensor passes any check.
std::pair<Value, Value> indexBounds(OpBuilder &b, Location loc, Value indices) {
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  Type i64 = b.getI64Type();
  auto scalar = RankedTensorType::get({}, i64);
  auto filledWith = [&](int64_t v) {
    Value init = b.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{}, i64);
    Value value = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(v));
    return b.create<linalg::FillOp>(loc, value, init).getResult(0);
  };
  MLIRContext *context = b.getContext();
  AffineMap all = b.getMultiDimIdentityMap(rank);
  AffineMap none = AffineMap::get(rank, 0, context);
  SmallVector<utils::IteratorType> reduction(rank,
                                             utils::IteratorType::reduction);
  auto bounds = b.create<linalg::GenericOp>(
      loc, TypeRange{scalar, scalar}, ValueRange{indices},
      ValueRange{filledWith(0), filledWith(-1)},
      ArrayRef<AffineMap>{all, none, none}, reduction,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value index = convertScalar(nb, nl, args[0], i64);
        nb.create<linalg::YieldOp>(
            nl, ValueRange{nb.create<arith::MinSIOp>(nl, args[1], index),
                           nb.create<arith::MaxSIOp>(nl, args[2], index)});
      });
  return {b.create<tensor::ExtractOp>(loc, bounds.getResult(0), ValueRange{}),
          b.create<tensor::ExtractOp>(loc, bounds.getResult(1), ValueRange{})};
}

/// Where the indices an op reads are checked against `size` (an i64).
struct IndexCheck {
  int64_t site = -1; // a site: in the loop that reads them; -1: before it
  Value size;
};

/// Raises PyTorch's message (`prefix`, then the index, `dim` and the size)
/// unless every index of `indices` is in [0, size). On the CPU that is one
/// check before the loop that reads them, of their lowest and highest. The
/// host code of GPU kernels cannot read them, so there the check returned
/// is made by each point of the loop that reads one (checkIndex), and the
/// first to fail is reported.
IndexCheck checkIndices(OpBuilder &b, Location loc, LoweringState &state,
                        Value indices, Value size, int64_t dim,
                        const char *prefix) {
  std::optional<int64_t> constantSize = constantInt(size);
  int64_t site = state.tables.addSite(
      loc, std::string(prefix) + "index {0} is out of bounds for dimension " +
               std::to_string(dim) + " with size " +
               (constantSize ? std::to_string(*constantSize) : "{1}"));
  if (state.gpu)
    return {site, size};
  IntMath m{b, loc};
  auto [lowest, highest] = indexBounds(b, loc, indices);
  Value negative = m.cmp(Pred::slt, lowest, m.i64(0));
  Value bad = m.either(negative, m.cmp(Pred::sge, highest, size));
  emitCheck(b, loc, bad, site, {m.select(negative, lowest, highest), size});
  return {-1, size};
}

/// In the body of the loop that reads `index`: its check, if made there.
void checkIndex(OpBuilder &b, Location loc, const IndexCheck &check,
                Value index) {
  if (check.site < 0)
    return;
  IntMath m{b, loc};
  Value i = convertScalar(b, loc, index, b.getI64Type());
  Value bad = m.either(m.cmp(Pred::slt, i, m.i64(0)),
                       m.cmp(Pred::sge, i, check.size));
  emitCheck(b, loc, bad, check.site, {i, check.size});
}

struct EmbeddingLowering : KilnLowering<EmbeddingOp> {
  using KilnLowering::KilnLowering;

  LogicalResult
  matchAndRewrite(EmbeddingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value weight = adaptor.getWeight(), indices = adaptor.getIndices();
    RankedTensorType resultType = op.getResult().getType();
    int64_t rank = resultType.getRank();
    SmallVector<Value> weightSizes = tensorSizes(rewriter, loc, weight);

    // PyTorch's index_select message, plus the index and the row count.
    IndexCheck indexCheck =
        checkIndices(rewriter, loc, state, indices, m.toI64(weightSizes[0]),
                     0, "index out of range in self: ");

    SmallVector<Value> sizes = tensorSizes(rewriter, loc, indices);
    sizes.push_back(weightSizes[1]);
    Value init = emptyTensor(rewriter, loc, resultType, sizes);
    SmallVector<AffineExpr> indexExprs;
    for (int64_t i = 0; i + 1 < rank; ++i)
      indexExprs.push_back(rewriter.getAffineDimExpr(i));
    SmallVector<AffineMap> maps{
        AffineMap::get(rank, 0, indexExprs, rewriter.getContext()),
        rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    auto gather = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{indices}, ValueRange{init}, maps,
        parallel, [&](OpBuilder &b, Location l, ValueRange args) {
          checkIndex(b, l, indexCheck, args[0]);
          Value row =
              b.create<arith::IndexCastOp>(l, b.getIndexType(), args[0]);
          Value column = b.create<linalg::IndexOp>(l, rank - 1);
          Value element =
              b.create<tensor::ExtractOp>(l, weight, ValueRange{row, column});
          b.create<linalg::YieldOp>(l, element);
        });
    rewriter.replaceOp(op, gather.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// gather and index_select
//===----------------------------------------------------------------------===//

/// A parallel loop over `init`'s shape that reads `input` where the loop
/// is, except along `dim`, where it reads the position the index element
/// `indexMap` picks. gather and index_select differ only in that map (the
/// index's own position, or its entry for the loop's `dim`).
static Value readAlongDim(OpBuilder &builder, Location loc, Value input,
                          Value index, AffineMap indexMap, Value init,
                          int64_t dim, const IndexCheck &check) {
  auto resultType = cast<RankedTensorType>(init.getType());
  int64_t rank = resultType.getRank();
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  auto read = builder.create<linalg::GenericOp>(
      loc, TypeRange{resultType}, ValueRange{index}, ValueRange{init},
      ArrayRef<AffineMap>{indexMap, builder.getMultiDimIdentityMap(rank)},
      parallel, [&](OpBuilder &b, Location l, ValueRange args) {
        checkIndex(b, l, check, args[0]);
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(d == dim ? b.create<arith::IndexCastOp>(
                                       l, b.getIndexType(), args[0])
                                       .getResult()
                                : b.create<linalg::IndexOp>(l, d).getResult());
        b.create<linalg::YieldOp>(
            l, b.create<tensor::ExtractOp>(l, input, at).getResult());
      });
  return read.getResult(0);
}

struct GatherLowering : KilnLowering<GatherOp> {
  using KilnLowering::KilnLowering;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value input = adaptor.getInput(), index = adaptor.getIndex();
    RankedTensorType resultType = op.getResult().getType();
    int64_t rank = resultType.getRank(), dim = op.getDim();
    SmallVector<Value> inSizes = tensorSizes(rewriter, loc, input);
    SmallVector<Value> idxSizes = tensorSizes(rewriter, loc, index);
    // The other dims of the index must fit in the input's, or the loop
    // would read past it; PyTorch's message names both shapes.
    for (int64_t d = 0; d < rank; ++d) {
      if (d == dim)
        continue;
      Value n = m.toI64(idxSizes[d]), limit = m.toI64(inSizes[d]);
      // Named texts: the order of evaluating operands is unspecified, and
      // the placeholders' numbering must not depend on it.
      MessageArgs args;
      std::string nText = args(n);
      std::string limitText = args(limit);
      std::string text = "Size does not match at dimension " +
                         std::to_string(d) + " expected index of size " +
                         nText + " to be at most the size " + limitText +
                         " of self apart from dimension " + std::to_string(dim);
      check(rewriter, loc, state, m.cmp(Pred::sgt, n, limit), text,
            args.values);
    }
    IndexCheck check = checkIndices(rewriter, loc, state, index,
                                    m.toI64(inSizes[dim]), dim, "");

    Value init = emptyTensor(rewriter, loc, resultType, idxSizes);
    rewriter.replaceOp(
        op, readAlongDim(rewriter, loc, input, index,
                         rewriter.getMultiDimIdentityMap(rank), init, dim,
                         check));
    return success();
  }
};

struct IndexSelectLowering : KilnLowering<IndexSelectOp> {
  using KilnLowering::KilnLowering;

  LogicalResult
  matchAndRewrite(IndexSelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value input = adaptor.getInput(), index = adaptor.getIndex();
    RankedTensorType resultType = op.getResult().getType();
    int64_t rank = resultType.getRank(), dim = op.getDim();
    SmallVector<Value> sizes = tensorSizes(rewriter, loc, input);
    // PyTorch's index_select says "index out of range in self" only; the
    // index and the size follow, as embedding's message has them.
    IndexCheck check = checkIndices(rewriter, loc, state, index,
                                    m.toI64(sizes[dim]), dim,
                                    "index out of range in self: ");

    auto indexType = cast<RankedTensorType>(index.getType());
    sizes[dim] = indexType.getRank()
                     ? rewriter.createOrFold<tensor::DimOp>(loc, index, 0)
                     : indexValue(rewriter, loc, 1);
    Value init = emptyTensor(rewriter, loc, resultType, sizes);
    MLIRContext *context = rewriter.getContext();
    // A 0-D index is read at every point; a 1-D one along `dim`.
    AffineMap indexMap =
        indexType.getRank()
            ? AffineMap::get(rank, 0, rewriter.getAffineDimExpr(dim), context)
            : AffineMap::get(rank, 0, context);
    rewriter.replaceOp(
        op, readAlongDim(rewriter, loc, input, index, indexMap, init, dim,
                         check));
    return success();
  }
};

} // namespace

void populateIndexingPatterns(RewritePatternSet &patterns,
                              TypeConverter &converter, LoweringState &state) {
  patterns.add<ArangeLowering, EmbeddingLowering, GatherLowering,
               IndexSelectLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::codegen
