//===- ScanOps.cpp - cumsum, cumprod, flip and sort -----------------------===//
//
// Ops whose result element depends on other positions along one dim. Each
// is written as linalg.generic ops with no side effects, so the rest of the
// pipeline (tiling, vectorization, bufferization) treats them like any
// other loop nest:
//
// - cumsum/cumprod: out[i] = sum over j of (j <= i ? x[j] : 0), a reduction
//   over an extra loop j. It is quadratic in the scanned size, but adds the
//   terms in the sequential order (the masked terms are exact zeros, or
//   ones for the product), so the result is the one a running sum gives.
//   Sums of f16/bf16 accumulate in f32 and f32 in f64, as PyTorch's CPU
//   kernel does (acc_type), then round once.
// - flip: one parallel loop that reads input[size - 1 - i] along the dims.
// - sort: rank[i] = the number of j that come before i (smaller, or equal
//   and earlier: a stable order); then indices[r] = the i whose rank is r,
//   and values[r] = x[indices[r]]. Quadratic too, which suits the short
//   rows of topk over logits or scores; NaN sorts above every number
//   (first when descending), as in PyTorch.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/CheckSupport.h"
#include "codegen/lowering/ReductionSupport.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace kiln::codegen {
namespace {

using Pred = arith::CmpIPredicate;
using FPred = arith::CmpFPredicate;

/// The maps of a loop nest over `rank` dims plus one extra dim (numbered
/// `rank`): `along` reads the operand with `dim` replaced by the extra
/// dim, `at` reads it at the point itself.
struct ExtraDimMaps {
  AffineMap along, at;
  SmallVector<utils::IteratorType> iterators;

  ExtraDimMaps(OpBuilder &b, int64_t rank, int64_t dim) {
    SmallVector<AffineExpr> alongExprs, atExprs;
    for (int64_t d = 0; d < rank; ++d) {
      alongExprs.push_back(b.getAffineDimExpr(d == dim ? rank : d));
      atExprs.push_back(b.getAffineDimExpr(d));
    }
    along = AffineMap::get(rank + 1, 0, alongExprs, b.getContext());
    at = AffineMap::get(rank + 1, 0, atExprs, b.getContext());
    iterators.assign(rank, utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
  }
};

template <typename ScanOp, bool Product>
struct ScanLowering : KilnLowering<ScanOp> {
  using KilnLowering<ScanOp>::KilnLowering;
  using OpAdaptor = typename ScanOp::Adaptor;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type element = resultType.getElementType();
    Type acc = accumulatorType(element);
    if (element.isF32())
      acc = rewriter.getF64Type();
    int64_t rank = resultType.getRank(), dim = op.getDim();
    // A 0-D scan is one element: the input, converted.
    if (rank == 0) {
      Value one = mapElements(rewriter, loc, input, element,
                              [&](OpBuilder &b, Location l, Value x) {
                                return convertScalar(b, l, x, element);
                              });
      rewriter.replaceOp(op, castTo(rewriter, loc, one, resultType));
      return success();
    }
    auto accType = RankedTensorType::get(
        cast<RankedTensorType>(input.getType()).getShape(), acc);
    SmallVector<Value> sizes = tensorSizes(rewriter, loc, input);
    Value init = filled(rewriter, loc, accType, sizes,
                        constantOf(rewriter, loc, acc, Product ? 1.0 : 0.0));
    ExtraDimMaps maps(rewriter, rank, dim);
    Value scanned =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{accType}, ValueRange{input}, ValueRange{init},
                ArrayRef<AffineMap>{maps.along, maps.at}, maps.iterators,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value i = b.create<linalg::IndexOp>(l, dim);
                  Value j = b.create<linalg::IndexOp>(l, rank);
                  Value inPrefix =
                      b.create<arith::CmpIOp>(l, Pred::ule, j, i);
                  Value x = convertScalar(b, l, args[0], element);
                  x = convertScalar(b, l, x, acc);
                  Value unit = constantOf(b, l, acc, Product ? 1.0 : 0.0);
                  Value term = b.create<arith::SelectOp>(l, inPrefix, x, unit);
                  Value next;
                  if (isa<FloatType>(acc))
                    next = Product ? b.create<arith::MulFOp>(l, args[1], term)
                                         .getResult()
                                   : b.create<arith::AddFOp>(l, args[1], term)
                                         .getResult();
                  else
                    next = Product ? b.create<arith::MulIOp>(l, args[1], term)
                                         .getResult()
                                   : b.create<arith::AddIOp>(l, args[1], term)
                                         .getResult();
                  b.create<linalg::YieldOp>(l, next);
                })
            .getResult(0);
    if (acc != element)
      scanned = mapElements(rewriter, loc, scanned, element,
                            [&](OpBuilder &b, Location l, Value x) {
                              return convertScalar(b, l, x, element);
                            });
    rewriter.replaceOp(op, castTo(rewriter, loc, scanned, resultType));
    return success();
  }
};

struct FlipLowering : KilnLowering<FlipOp> {
  using KilnLowering::KilnLowering;

  LogicalResult
  matchAndRewrite(FlipOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = op.getResult().getType();
    int64_t rank = type.getRank();
    SmallVector<bool> flipped(rank, false);
    for (int64_t d : op.getDims())
      flipped[d] = true;
    SmallVector<Value> sizes = tensorSizes(rewriter, loc, input);
    Value init = emptyTensor(rewriter, loc, type, sizes);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    Value one = indexValue(rewriter, loc, 1);
    auto flip = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)}, parallel,
        [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = b.create<linalg::IndexOp>(l, d);
            if (flipped[d]) {
              Value last = b.create<arith::SubIOp>(l, sizes[d], one);
              i = b.create<arith::SubIOp>(l, last, i);
            }
            at.push_back(i);
          }
          b.create<linalg::YieldOp>(
              l, b.create<tensor::ExtractOp>(l, input, at).getResult());
        });
    rewriter.replaceOp(op, flip.getResult(0));
    return success();
  }
};

struct SortLowering : KilnLowering<SortOp> {
  using KilnLowering::KilnLowering;

  /// Whether `a` (at position j) sorts before `b` (at position i).
  static Value before(OpBuilder &b, Location l, Value a, Value bv, Value j,
                      Value i, bool descending) {
    Value earlier = b.create<arith::CmpIOp>(l, Pred::ult, j, i);
    Value strictly, equal;
    if (isa<FloatType>(a.getType())) {
      // NaN is the largest value, and NaNs are equal to each other.
      Value aNaN = b.create<arith::CmpFOp>(l, FPred::UNO, a, a);
      Value bNaN = b.create<arith::CmpFOp>(l, FPred::UNO, bv, bv);
      Value bothNaN = b.create<arith::AndIOp>(l, aNaN, bNaN);
      equal = b.create<arith::OrIOp>(
          l, b.create<arith::CmpFOp>(l, FPred::OEQ, a, bv), bothNaN);
      if (descending) {
        Value greater = b.create<arith::CmpFOp>(l, FPred::OGT, a, bv);
        Value nanFirst = b.create<arith::XOrIOp>(
            l, aNaN, b.create<arith::AndIOp>(l, aNaN, bNaN));
        strictly = b.create<arith::OrIOp>(l, greater, nanFirst);
      } else {
        Value less = b.create<arith::CmpFOp>(l, FPred::OLT, a, bv);
        Value numberFirst = b.create<arith::XOrIOp>(
            l, bNaN, b.create<arith::AndIOp>(l, aNaN, bNaN));
        strictly = b.create<arith::OrIOp>(l, less, numberFirst);
      }
    } else {
      equal = b.create<arith::CmpIOp>(l, Pred::eq, a, bv);
      strictly = b.create<arith::CmpIOp>(
          l, descending ? Pred::sgt : Pred::slt, a, bv);
    }
    Value tieEarlier = b.create<arith::AndIOp>(l, equal, earlier);
    return b.create<arith::OrIOp>(l, strictly, tieEarlier);
  }

  LogicalResult
  matchAndRewrite(SortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    int64_t rank = valuesType.getRank();
    bool descending = op.getDescending();
    Type i64 = rewriter.getI64Type();
    // A 0-D input is a row of one.
    if (rank == 0) {
      Value zero = rewriter.create<arith::ConstantOp>(
          loc, rewriter.getI64IntegerAttr(0));
      Value indices = filled(rewriter, loc, indicesType, {}, zero);
      rewriter.replaceOp(op, {castTo(rewriter, loc, input, valuesType),
                              indices});
      return success();
    }
    int64_t dim = rank - 1;
    SmallVector<Value> sizes = tensorSizes(rewriter, loc, input);
    auto rankType = RankedTensorType::get(
        cast<RankedTensorType>(input.getType()).getShape(), i64);
    Value zero =
        rewriter.create<arith::ConstantOp>(loc, rewriter.getI64IntegerAttr(0));
    ExtraDimMaps maps(rewriter, rank, dim);

    // rank[i] = #{ j : x[j] sorts before x[i] }
    Value ranks =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{rankType}, ValueRange{input, input},
                ValueRange{filled(rewriter, loc, rankType, sizes, zero)},
                ArrayRef<AffineMap>{maps.along, maps.at, maps.at},
                maps.iterators,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value i = b.create<linalg::IndexOp>(l, dim);
                  Value j = b.create<linalg::IndexOp>(l, rank);
                  Value first = before(b, l, args[0], args[1], j, i, descending);
                  Value one = b.create<arith::ExtUIOp>(l, i64, first);
                  b.create<linalg::YieldOp>(
                      l, b.create<arith::AddIOp>(l, args[2], one).getResult());
                })
            .getResult(0);

    // indices[r] = the one i with rank[i] == r (ranks are a permutation).
    Value indices =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{rankType}, ValueRange{ranks},
                ValueRange{filled(rewriter, loc, rankType, sizes, zero)},
                ArrayRef<AffineMap>{maps.along, maps.at}, maps.iterators,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value r = toI64(b, l, b.create<linalg::IndexOp>(l, dim));
                  Value i = toI64(b, l, b.create<linalg::IndexOp>(l, rank));
                  Value hit = b.create<arith::CmpIOp>(l, Pred::eq, args[0], r);
                  Value found = b.create<arith::SelectOp>(l, hit, i, args[1]);
                  b.create<linalg::YieldOp>(l, found);
                })
            .getResult(0);

    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    Value values =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{input.getType()}, ValueRange{indices},
                ValueRange{emptyTensor(
                    rewriter, loc, cast<RankedTensorType>(input.getType()),
                    sizes)},
                ArrayRef<AffineMap>{identity, identity}, parallel,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  SmallVector<Value> at;
                  for (int64_t d = 0; d < dim; ++d)
                    at.push_back(b.create<linalg::IndexOp>(l, d));
                  at.push_back(toIndex(b, l, args[0]));
                  b.create<linalg::YieldOp>(
                      l, b.create<tensor::ExtractOp>(l, input, at).getResult());
                })
            .getResult(0);
    rewriter.replaceOp(op, {castTo(rewriter, loc, values, valuesType),
                            castTo(rewriter, loc, indices, indicesType)});
    return success();
  }
};

} // namespace

void populateScanPatterns(RewritePatternSet &patterns,
                          TypeConverter &converter, LoweringState &state) {
  patterns.add<ScanLowering<CumsumOp, false>, ScanLowering<CumprodOp, true>,
               FlipLowering, SortLowering>(converter, patterns.getContext(),
                                           state);
}

} // namespace kiln::codegen
