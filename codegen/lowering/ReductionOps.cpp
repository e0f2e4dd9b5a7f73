//===- ReductionOps.cpp - kiln matmul, reductions and random tensors ------===//
//
// matmul becomes linalg's named contractions (dot, matvec, vecmat, matmul,
// batch_matmul) where the shapes allow, and one linalg.generic contraction
// where batch dims broadcast. A lhs with batch dims times a matrix or vector
// folds the batch into the rows, as PyTorch does, so it stays one matmul.
//
// Reductions are linalg.generic ops with reduction iterators over the
// reduced dims; keepdim reinserts them as size-1 dims (a view). Accumulation
// follows PyTorch: f16 and bf16 accumulate in f32 (matmul too), ints and
// bools sum in i64, f32 and f64 in their own type. var is two-pass (mean,
// then squared deviations) and divides by max(N - correction, 0), which
// gives inf or nan exactly where PyTorch does. max(x, dim) returns the first
// index of the maximum and propagates NaN; its combining step does not
// depend on the visiting order.
//
// rand and randn use Philox-4x32-10 (Salmon et al., SC'11), a counter-based
// generator: element i of a tensor is a pure function of (stream, i), with a
// fresh stream from the runtime per op, so the loop stays parallel. The
// values differ from PyTorch's CPU generator (an mt19937 stream, which
// kiln does not try to reproduce); the distributions are the same: uniform
// on [0, 1) with 24 random bits for f32 and 53 for f64, and standard normal
// by Box-Muller.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringSupport.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <optional>

using namespace mlir;

namespace kiln::codegen {
namespace {

using Pred = arith::CmpIPredicate;
using FPred = arith::CmpFPredicate;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::optional<int64_t> constantInt(Value value) {
  APInt bits;
  if (matchPattern(value, m_ConstantInt(&bits)))
    return bits.getSExtValue();
  return std::nullopt;
}

/// The text of a run-time check's message: a size known at compile time is
/// written in; the first three others become {0}, {1} and {2}, the integers
/// raise() reports, and any more print as "?".
struct MessageArgs {
  SmallVector<Value, 3> values;

  std::string operator()(Value value) {
    if (std::optional<int64_t> c = constantInt(value))
      return std::to_string(*c);
    for (auto [i, v] : llvm::enumerate(values))
      if (v == value)
        return "{" + std::to_string(i) + "}";
    if (values.size() == 3)
      return "?";
    values.push_back(value);
    return "{" + std::to_string(values.size() - 1) + "}";
  }
};

/// Emits `if (failed) raise(...)` unless `failed` folded to false.
void check(OpBuilder &b, Location loc, LoweringState &state, Value failed,
           const std::string &message, ValueRange operands = {}) {
  if (std::optional<int64_t> c = constantInt(failed); c && *c == 0)
    return;
  emitCheck(b, loc, failed, state.tables.addSite(loc, message), operands);
}

Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return b.create<tensor::CastOp>(loc, type, value);
}

bool isHalf(Type type) { return type.isF16() || type.isBF16(); }

/// Where PyTorch's CPU kernels accumulate: f32 for f16 and bf16.
Type accumulatorType(Type element) {
  return isHalf(element) ? Float32Type::get(element.getContext()) : element;
}

Value constantOf(OpBuilder &b, Location loc, Type type, double value) {
  if (isa<FloatType>(type))
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, value));
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

/// A tensor of `type` filled with `value` (sizes as for emptyTensor).
Value filled(OpBuilder &b, Location loc, RankedTensorType type,
             ValueRange sizes, Value value) {
  Value empty = emptyTensor(b, loc, type, sizes);
  return b.create<linalg::FillOp>(loc, value, empty).getResult(0);
}

/// Applies `fn` to every element of `input`, giving `elementType`.
Value mapElements(OpBuilder &b, Location loc, Value input, Type elementType,
                  function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto type = cast<RankedTensorType>(input.getType());
  auto resultType = RankedTensorType::get(type.getShape(), elementType);
  Value init = emptyTensor(b, loc, resultType, tensorSizes(b, loc, input));
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{resultType}, ValueRange{input}, ValueRange{init},
          ArrayRef<AffineMap>{identity, identity}, parallel,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            nb.create<linalg::YieldOp>(nl, fn(nb, nl, args[0]));
          })
      .getResult(0);
}

/// `value` with size-1 dims inserted where `unit` is true (a view).
Value insertUnitDims(OpBuilder &b, Location loc, Value value,
                     ArrayRef<bool> unit) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> inSizes = tensorSizes(b, loc, value);
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  int64_t next = 0;
  for (auto [i, isUnit] : llvm::enumerate(unit)) {
    pending.push_back(static_cast<int64_t>(i));
    if (isUnit) {
      shape.push_back(1);
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    int64_t size = type.getDimSize(next);
    shape.push_back(size);
    sizes.push_back(ShapedType::isDynamic(size) ? OpFoldResult(inSizes[next])
                                                : b.getIndexAttr(size));
    ++next;
    groups.push_back(pending);
    pending.clear();
  }
  // Trailing unit dims join the last group.
  if (!groups.empty())
    groups.back().append(pending.begin(), pending.end());
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return b.create<tensor::ExpandShapeOp>(loc, resultType, value, groups, sizes);
}

/// `src` reshaped to `type` (dims `sizes`, index values), each result dim in
/// one of `groups`: a tensor.expand_shape (a view) when no group has two `?`
/// dims, else tensor.reshape, as MLIR 19's bufferization of expand_shape
/// cannot infer such a group.
Value expandTo(OpBuilder &b, Location loc, Value src, RankedTensorType type,
               ArrayRef<ReassociationIndices> groups, ArrayRef<Value> sizes) {
  bool viewable = llvm::all_of(groups, [&](const ReassociationIndices &g) {
    return llvm::count_if(g, [&](int64_t i) { return type.isDynamicDim(i); }) <=
           1;
  });
  SmallVector<OpFoldResult> mixed;
  SmallVector<Value> dims;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    bool dynamic = type.isDynamicDim(i);
    mixed.push_back(dynamic ? OpFoldResult(sizes[i])
                            : b.getIndexAttr(type.getDimSize(i)));
    dims.push_back(dynamic ? sizes[i] : indexValue(b, loc, type.getDimSize(i)));
  }
  if (viewable)
    return b.create<tensor::ExpandShapeOp>(loc, type, src, groups, mixed);
  Value shape = b.create<tensor::FromElementsOp>(loc, dims);
  return b.create<tensor::ReshapeOp>(loc, type, src, shape);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Which dims a reduction over `dims` (empty = all) reduces.
SmallVector<bool> reducedDims(int64_t rank, ArrayRef<int64_t> dims) {
  SmallVector<bool> reduced(rank, dims.empty());
  for (int64_t d : dims)
    reduced[d] = true;
  return reduced;
}

/// The number of elements a reduction combines, as an index.
Value reducedCount(OpBuilder &b, Location loc, ArrayRef<Value> sizes,
                   ArrayRef<bool> reduced) {
  Value count = indexValue(b, loc, 1);
  for (auto [size, r] : llvm::zip(sizes, reduced))
    if (r)
      count = b.createOrFold<arith::MulIOp>(loc, size, count);
  return count;
}

using CombineFn =
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;

/// One linalg.generic that reduces `inputs` (all shaped as the first, except
/// those whose maps are given in `inputMaps`, which default to the
/// identity) over the `reduced` dims into tensors of `accTypes`, starting
/// from `inits`. `combine` gets the input elements and then the
/// accumulators, and yields the new accumulators.
SmallVector<Value> buildReduction(OpBuilder &b, Location loc, ValueRange inputs,
                                  ArrayRef<AffineMap> inputMaps,
                                  ArrayRef<bool> reduced, TypeRange accTypes,
                                  ValueRange inits, CombineFn combine) {
  Value first = inputs.front();
  auto type = cast<RankedTensorType>(first.getType());
  int64_t rank = type.getRank();
  SmallVector<Value> sizes = tensorSizes(b, loc, first);
  SmallVector<int64_t> keptShape;
  SmallVector<Value> keptSizes;
  SmallVector<AffineExpr> keptExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < rank; ++i) {
    iterators.push_back(reduced[i] ? utils::IteratorType::reduction
                                   : utils::IteratorType::parallel);
    if (reduced[i])
      continue;
    keptShape.push_back(type.getDimSize(i));
    keptSizes.push_back(sizes[i]);
    keptExprs.push_back(b.getAffineDimExpr(i));
  }
  AffineMap outMap = AffineMap::get(rank, 0, keptExprs, b.getContext());
  SmallVector<AffineMap> maps(inputMaps);
  while (maps.size() < inputs.size())
    maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<Value> outs;
  SmallVector<Type> outTypes;
  for (auto [accType, init] : llvm::zip(accTypes, inits)) {
    auto outType = RankedTensorType::get(keptShape, accType);
    outs.push_back(filled(b, loc, outType, keptSizes, init));
    outTypes.push_back(outType);
    maps.push_back(outMap);
  }
  auto generic = b.create<linalg::GenericOp>(
      loc, outTypes, inputs, outs, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        nb.create<linalg::YieldOp>(nl, combine(nb, nl, args));
      });
  return SmallVector<Value>(generic.getResults().begin(),
                            generic.getResults().end());
}

/// The result of a reduction in `value` (kept dims only): keepdim's size-1
/// dims put back, then the op's result type.
Value finishReduction(OpBuilder &b, Location loc, Value value,
                      ArrayRef<bool> reduced, bool keepdim, Type resultType) {
  if (keepdim)
    value = insertUnitDims(b, loc, value, reduced);
  return castTo(b, loc, value, resultType);
}

template <typename Op> struct ReduceLowering : KilnLowering<Op> {
  using KilnLowering<Op>::KilnLowering;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Type element = type.getElementType();
    SmallVector<bool> reduced = reducedDims(type.getRank(), op.getDims());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type resultElement = resultType.getElementType();
    constexpr bool isMax = std::is_same_v<Op, AMaxOp>;
    constexpr bool isExtremum = isMax || std::is_same_v<Op, AMinOp>;
    SmallVector<Value> sizes = tensorSizes(rewriter, loc, input);

    Type acc = isExtremum ? element : accumulatorType(resultElement);
    Value init;
    if constexpr (isExtremum) {
      // amax/amin of nothing has no value: PyTorch raises.
      std::string name = isMax ? "amax" : "amin";
      for (int64_t i = 0; i < type.getRank(); ++i) {
        if (!reduced[i] || type.getDimSize(i) > 0)
          continue;
        Value empty = rewriter.createOrFold<arith::CmpIOp>(
            loc, Pred::eq, sizes[i], indexValue(rewriter, loc, 0));
        check(rewriter, loc, this->state, empty,
              name + "(): expected reduction dim " + std::to_string(i) +
                  " to have non-zero size");
      }
      if (auto floatType = dyn_cast<FloatType>(element)) {
        init = rewriter.create<arith::ConstantOp>(
            loc, rewriter.getFloatAttr(
                     element, APFloat::getInf(floatType.getFloatSemantics(),
                                              /*Negative=*/isMax)));
      } else {
        unsigned width = element.getIntOrFloatBitWidth();
        APInt bound = width == 1 ? APInt(1, isMax ? 0 : 1)
                      : isMax    ? APInt::getSignedMinValue(width)
                                 : APInt::getSignedMaxValue(width);
        init = rewriter.create<arith::ConstantOp>(
            loc, rewriter.getIntegerAttr(element, bound));
      }
    } else {
      init = constantOf(rewriter, loc, acc, 0.0);
    }

    auto combine = [&](OpBuilder &b, Location l, Value item, Value a) -> Value {
      Value x = convertScalar(b, l, item, acc);
      bool isFloat = isa<FloatType>(acc);
      if constexpr (isExtremum) {
        if (isFloat)
          return isMax ? b.create<arith::MaximumFOp>(l, x, a).getResult()
                       : b.create<arith::MinimumFOp>(l, x, a).getResult();
        if (acc.isInteger(1))
          return isMax ? b.create<arith::OrIOp>(l, x, a).getResult()
                       : b.create<arith::AndIOp>(l, x, a).getResult();
        return isMax ? b.create<arith::MaxSIOp>(l, x, a).getResult()
                     : b.create<arith::MinSIOp>(l, x, a).getResult();
      }
      return isFloat ? b.create<arith::AddFOp>(l, x, a).getResult()
                     : b.create<arith::AddIOp>(l, x, a).getResult();
    };
    Value value =
        buildReduction(rewriter, loc, {input}, {}, reduced, {acc}, {init},
                       [&](OpBuilder &b, Location l, ValueRange args) {
                         return SmallVector<Value>{
                             combine(b, l, args[0], args[1])};
                       })
            .front();

    if constexpr (std::is_same_v<Op, MeanOp>) {
      // The mean of nothing is 0 / 0, nan, as in PyTorch.
      Value count = convertScalar(
          rewriter, loc,
          toI64(rewriter, loc, reducedCount(rewriter, loc, sizes, reduced)),
          acc);
      value = mapElements(rewriter, loc, value, resultElement,
                          [&](OpBuilder &b, Location l, Value sum) {
                            Value mean = b.create<arith::DivFOp>(l, sum, count);
                            return convertScalar(b, l, mean, resultElement);
                          });
    } else if (acc != resultElement) {
      value = mapElements(rewriter, loc, value, resultElement,
                          [&](OpBuilder &b, Location l, Value x) {
                            return convertScalar(b, l, x, resultElement);
                          });
    }
    rewriter.replaceOp(op, finishReduction(rewriter, loc, value, reduced,
                                           op.getKeepdim(), resultType));
    return success();
  }
};

/// Two passes, as PyTorch's result is a Welford update: the mean, then the
/// sum of squared deviations from it, divided by max(N - correction, 0).
struct VarLowering : KilnLowering<VarOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(VarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank();
    Type element = type.getElementType();
    Type acc = accumulatorType(element);
    SmallVector<bool> reduced = reducedDims(rank, op.getDims());
    SmallVector<Value> sizes = tensorSizes(rewriter, loc, input);
    Value zero = constantOf(rewriter, loc, acc, 0.0);

    Value count =
        toI64(rewriter, loc, reducedCount(rewriter, loc, sizes, reduced));
    Value countF = convertScalar(rewriter, loc, count, acc);
    Value sum =
        buildReduction(rewriter, loc, {input}, {}, reduced, {acc}, {zero},
                       [&](OpBuilder &b, Location l, ValueRange args) {
                         Value x = convertScalar(b, l, args[0], acc);
                         return SmallVector<Value>{
                             b.create<arith::AddFOp>(l, x, args[1])};
                       })
            .front();
    Value mean = mapElements(
        rewriter, loc, sum, acc, [&](OpBuilder &b, Location l, Value s) {
          return b.create<arith::DivFOp>(l, s, countF).getResult();
        });

    SmallVector<AffineExpr> keptExprs;
    for (int64_t i = 0; i < rank; ++i)
      if (!reduced[i])
        keptExprs.push_back(rewriter.getAffineDimExpr(i));
    AffineMap meanMap =
        AffineMap::get(rank, 0, keptExprs, rewriter.getContext());
    Value squares =
        buildReduction(rewriter, loc, {input, mean},
                       {rewriter.getMultiDimIdentityMap(rank), meanMap},
                       reduced, {acc}, {zero},
                       [&](OpBuilder &b, Location l, ValueRange args) {
                         Value x = convertScalar(b, l, args[0], acc);
                         Value d = b.create<arith::SubFOp>(l, x, args[1]);
                         Value d2 = b.create<arith::MulFOp>(l, d, d);
                         return SmallVector<Value>{
                             b.create<arith::AddFOp>(l, d2, args[2])};
                       })
            .front();

    Value dof = rewriter.create<arith::SubIOp>(
        loc, count,
        rewriter.create<arith::ConstantOp>(
            loc, rewriter.getI64IntegerAttr(op.getCorrection())));
    dof = rewriter.create<arith::MaxSIOp>(
        loc, dof,
        rewriter.create<arith::ConstantOp>(loc, rewriter.getI64IntegerAttr(0)));
    Value divisor = convertScalar(rewriter, loc, dof, acc);
    Value var = mapElements(rewriter, loc, squares, element,
                            [&](OpBuilder &b, Location l, Value s) {
                              Value v = b.create<arith::DivFOp>(l, s, divisor);
                              return convertScalar(b, l, v, element);
                            });
    rewriter.replaceOp(op, finishReduction(rewriter, loc, var, reduced,
                                           op.getKeepdim(),
                                           op.getResult().getType()));
    return success();
  }
};

/// torch.max(x, dim): the maximum and the first index where it occurs; a
/// NaN is the maximum, and the first NaN's index is returned.
struct MaxDimLowering : KilnLowering<MaxDimOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(MaxDimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Type element = type.getElementType();
    Type i64 = rewriter.getI64Type();
    int64_t dim = op.getDim();
    SmallVector<bool> reduced(type.getRank(), false);
    reduced[dim] = true;

    if (type.getDimSize(dim) <= 0) {
      Value size = rewriter.createOrFold<tensor::DimOp>(loc, input, dim);
      Value empty = rewriter.createOrFold<arith::CmpIOp>(
          loc, Pred::eq, size, indexValue(rewriter, loc, 0));
      check(rewriter, loc, state, empty,
            "max(): expected reduction dim " + std::to_string(dim) +
                " to have non-zero size");
    }

    Value lowest;
    if (auto floatType = dyn_cast<FloatType>(element))
      lowest = rewriter.create<arith::ConstantOp>(
          loc, rewriter.getFloatAttr(
                   element, APFloat::getInf(floatType.getFloatSemantics(),
                                            /*Negative=*/true)));
    else
      lowest = rewriter.create<arith::ConstantOp>(
          loc, rewriter.getIntegerAttr(
                   element,
                   APInt::getSignedMinValue(element.getIntOrFloatBitWidth())));
    Value zeroIndex =
        rewriter.create<arith::ConstantOp>(loc, rewriter.getI64IntegerAttr(0));

    SmallVector<Value> results = buildReduction(
        rewriter, loc, {input}, {}, reduced, {element, i64},
        {lowest, zeroIndex}, [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], best = args[1], bestIndex = args[2];
          Value index = b.create<arith::IndexCastOp>(
              l, i64, b.create<linalg::IndexOp>(l, dim));
          Value earlier =
              b.create<arith::CmpIOp>(l, Pred::slt, index, bestIndex);
          Value take;
          if (isa<FloatType>(element)) {
            Value xNaN = b.create<arith::CmpFOp>(l, FPred::UNO, x, x);
            Value bestNaN = b.create<arith::CmpFOp>(l, FPred::UNO, best, best);
            Value greater = b.create<arith::CmpFOp>(l, FPred::OGT, x, best);
            Value tie = b.create<arith::AndIOp>(
                l, b.create<arith::CmpFOp>(l, FPred::OEQ, x, best), earlier);
            // A NaN beats any number, and an earlier NaN beats a later one.
            Value nanWins = b.create<arith::AndIOp>(
                l, xNaN,
                b.create<arith::OrIOp>(
                    l,
                    b.create<arith::XOrIOp>(
                        l, bestNaN,
                        b.create<arith::ConstantOp>(l, b.getBoolAttr(true))),
                    earlier));
            Value numberWins = b.create<arith::AndIOp>(
                l, b.create<arith::OrIOp>(l, greater, tie),
                b.create<arith::XOrIOp>(
                    l, bestNaN,
                    b.create<arith::ConstantOp>(l, b.getBoolAttr(true))));
            take = b.create<arith::OrIOp>(l, nanWins, numberWins);
          } else {
            take = b.create<arith::OrIOp>(
                l, b.create<arith::CmpIOp>(l, Pred::sgt, x, best),
                b.create<arith::AndIOp>(
                    l, b.create<arith::CmpIOp>(l, Pred::eq, x, best), earlier));
          }
          return SmallVector<Value>{
              b.create<arith::SelectOp>(l, take, x, best),
              b.create<arith::SelectOp>(l, take, index, bestIndex)};
        });
    bool keepdim = op.getKeepdim();
    rewriter.replaceOp(op,
                       {finishReduction(rewriter, loc, results[0], reduced,
                                        keepdim, op.getValues().getType()),
                        finishReduction(rewriter, loc, results[1], reduced,
                                        keepdim, op.getIndices().getType())});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

/// The body of every contraction: acc + a * b, computed in acc's type.
Value multiplyAdd(OpBuilder &b, Location loc, ValueRange args) {
  Type acc = args[2].getType();
  Value x = convertScalar(b, loc, args[0], acc);
  Value y = convertScalar(b, loc, args[1], acc);
  if (isa<FloatType>(acc))
    return b.create<arith::AddFOp>(loc, args[2],
                                   b.create<arith::MulFOp>(loc, x, y));
  return b.create<arith::AddIOp>(loc, args[2],
                                 b.create<arith::MulIOp>(loc, x, y));
}

struct MatmulLowering : KilnLowering<MatmulOp> {
  using KilnLowering::KilnLowering;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
    Type element = lhsType.getElementType();
    Type acc = accumulatorType(element);
    SmallVector<Value> ls = tensorSizes(rewriter, loc, lhs);
    SmallVector<Value> rs = tensorSizes(rewriter, loc, rhs);
    Value k1 = ls.back();
    Value k2 = rhsRank == 1 ? rs[0] : rs[rhsRank - 2];
    Value n = rhsRank == 1 ? Value() : rs.back();

    Value result;
    if (rhsRank <= 2) {
      // A lhs with batch dims folds them into its rows, as PyTorch does.
      Value rows = lhsRank == 1 ? indexValue(rewriter, loc, 1) : ls[0];
      if (lhsRank > 2) {
        for (int64_t i = 1; i < lhsRank - 1; ++i)
          rows = rewriter.createOrFold<arith::MulIOp>(loc, rows, ls[i]);
        SmallVector<ReassociationIndices> groups{
            llvm::to_vector(llvm::seq<int64_t>(0, lhsRank - 1)), {lhsRank - 1}};
        int64_t folded = 1;
        for (int64_t i = 0; i < lhsRank - 1; ++i)
          folded = ShapedType::isDynamic(folded) || lhsType.isDynamicDim(i)
                       ? ShapedType::kDynamic
                       : folded * lhsType.getDimSize(i);
        lhs = rewriter.create<tensor::CollapseShapeOp>(
            loc,
            RankedTensorType::get({folded, lhsType.getShape().back()}, element),
            lhs, groups);
      }
      checkContraction(rewriter, loc, lhsRank, rhsRank, rows, k1, k2, n, {});
      result = smallMatmul(rewriter, loc, lhs, rhs, acc, rows, n);
      if (lhsRank > 2) {
        // Unfold the rows.
        SmallVector<int64_t> shape(lhsType.getShape().drop_back());
        SmallVector<Value> sizes(ArrayRef<Value>(ls).drop_back());
        ReassociationIndices rowGroup =
            llvm::to_vector(llvm::seq<int64_t>(0, lhsRank - 1));
        SmallVector<ReassociationIndices> groups{rowGroup};
        if (rhsRank == 2) {
          shape.push_back(rhsType.getShape().back());
          sizes.push_back(n);
          groups.push_back({lhsRank - 1});
        }
        result = expandTo(rewriter, loc, result,
                          RankedTensorType::get(shape, acc), groups, sizes);
      }
    } else {
      result = batchedMatmul(rewriter, loc, lhs, rhs, acc, ls, rs);
    }

    if (acc != element)
      result = mapElements(rewriter, loc, result, element,
                           [&](OpBuilder &b, Location l, Value x) {
                             return convertScalar(b, l, x, element);
                           });
    rewriter.replaceOp(op,
                       castTo(rewriter, loc, result, op.getResult().getType()));
    return success();
  }

  /// Raises PyTorch's message when the contracted sizes differ. `rows` is
  /// the lhs's (folded) rows, `n` the rhs's columns (null for a vector),
  /// `batch` the batch size (null without batch dims).
  void checkContraction(OpBuilder &b, Location loc, int64_t lhsRank,
                        int64_t rhsRank, Value rows, Value k1, Value k2,
                        Value n, Value batch) const {
    if (constantInt(k1) && constantInt(k2))
      return; // equal: the verifier saw both
    Value differs = b.create<arith::CmpIOp>(loc, Pred::ne, k1, k2);
    MessageArgs args;
    std::string a = args(k1), c = args(k2);
    std::string message;
    if (batch) {
      std::string s = args(batch);
      message = "expected size for first two dimensions of batch2 tensor to "
                "be: [" +
                s + ", " + a + "] but got: [" + s + ", " + c + "]";
    } else if (lhsRank == 1 && rhsRank == 1) {
      message = "inconsistent tensor size, expected tensor [" + a +
                "] and src [" + c +
                "] to have the same number of elements, but got " + a +
                " and " + c + " elements respectively";
    } else if (rhsRank == 1) {
      std::string r = args(rows);
      message = "size mismatch, got input (" + r + "), mat (" + r + "x" + a +
                "), vec (" + c + ")";
    } else {
      std::string r = args(rows), m = args(n);
      message = "mat1 and mat2 shapes cannot be multiplied (" + r + "x" + a +
                " and " + c + "x" + m + ")";
    }
    check(b, loc, state, differs, message, args.values);
  }

  /// 1-D and 2-D operands: dot, matvec, vecmat or matmul into a zeroed
  /// accumulator.
  static Value smallMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                           Type acc, Value rows, Value n) {
    int64_t lhsRank = cast<RankedTensorType>(lhs.getType()).getRank();
    int64_t rhsRank = cast<RankedTensorType>(rhs.getType()).getRank();
    auto lhsShape = cast<RankedTensorType>(lhs.getType()).getShape();
    auto rhsShape = cast<RankedTensorType>(rhs.getType()).getShape();
    SmallVector<int64_t> shape;
    SmallVector<Value> sizes;
    if (lhsRank == 2) {
      shape.push_back(lhsShape[0]);
      sizes.push_back(rows);
    }
    if (rhsRank == 2) {
      shape.push_back(rhsShape[1]);
      sizes.push_back(n);
    }
    Value zero = constantOf(b, loc, acc, 0.0);
    Value init = filled(b, loc, RankedTensorType::get(shape, acc), sizes, zero);
    SmallVector<Value, 2> ins{lhs, rhs};
    if (lhsRank == 1 && rhsRank == 1)
      return b.create<linalg::DotOp>(loc, ins, init).getResult(0);
    if (rhsRank == 1)
      return b.create<linalg::MatvecOp>(loc, ins, init).getResult(0);
    if (lhsRank == 1)
      return b.create<linalg::VecmatOp>(loc, ins, init).getResult(0);
    return b.create<linalg::MatmulOp>(loc, ins, init).getResult(0);
  }

  /// A rhs with batch dims. Equal batch dims fold into one for
  /// linalg.batch_matmul; otherwise (a lhs without batch dims, or batch dims
  /// that broadcast) one linalg.generic contraction reads a size-1 dim at
  /// index 0. A `?` batch dim is assumed not to broadcast, as in
  /// elementwise ops, and is checked.
  Value batchedMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                      Type acc, ArrayRef<Value> ls, ArrayRef<Value> rs) const {
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
    int64_t lhsBatch = std::max<int64_t>(lhsRank - 2, 0);
    int64_t rhsBatch = rhsRank - 2;
    int64_t batchRank = std::max(lhsBatch, rhsBatch);

    // The broadcast batch shape, with checks where `?` dims must agree.
    SmallVector<int64_t> shape;
    SmallVector<Value> sizes;
    bool plainBatch = lhsBatch == rhsBatch;
    Value batch = indexValue(b, loc, 1);
    for (int64_t i = 0; i < batchRank; ++i) {
      int64_t li = i - (batchRank - lhsBatch), ri = i - (batchRank - rhsBatch);
      int64_t ld = li >= 0 ? lhsType.getDimSize(li) : 1;
      int64_t rd = ri >= 0 ? rhsType.getDimSize(ri) : 1;
      bool lhsIn = li >= 0 && ld != 1, rhsIn = ri >= 0 && rd != 1;
      if (lhsIn != rhsIn)
        plainBatch = false;
      int64_t dim = ShapedType::kDynamic;
      Value size;
      if (!lhsIn && !rhsIn) {
        dim = 1;
        size = indexValue(b, loc, 1);
      } else if (lhsIn && (!rhsIn || !ShapedType::isDynamic(ld))) {
        dim = ld;
        size = ls[li];
      } else {
        dim = rd;
        size = rs[ri];
      }
      if (lhsIn && rhsIn &&
          (ShapedType::isDynamic(ld) || ShapedType::isDynamic(rd)))
        checkBatchDim(b, loc, ls[li], rs[ri], i);
      shape.push_back(dim);
      sizes.push_back(size);
      batch = b.createOrFold<arith::MulIOp>(loc, size, batch);
    }
    checkContraction(b, loc, lhsRank, rhsRank, Value(), ls.back(),
                     rs[rhsRank - 2], rs.back(), batch);
    if (lhsRank >= 2) {
      shape.push_back(lhsType.getDimSize(lhsRank - 2));
      sizes.push_back(ls[lhsRank - 2]);
    }
    shape.push_back(rhsType.getShape().back());
    sizes.push_back(rs.back());
    auto resultType = RankedTensorType::get(shape, acc);
    Value zero = constantOf(b, loc, acc, 0.0);

    if (plainBatch && lhsRank >= 3) {
      // Fold the batch dims into one and use batch_matmul.
      auto fold = [&](Value v, RankedTensorType t) -> Value {
        if (batchRank == 1)
          return v;
        int64_t folded = 1;
        for (int64_t i = 0; i < batchRank; ++i)
          folded = ShapedType::isDynamic(folded) || t.isDynamicDim(i)
                       ? ShapedType::kDynamic
                       : folded * t.getDimSize(i);
        auto type = RankedTensorType::get(
            {folded, t.getDimSize(batchRank), t.getDimSize(batchRank + 1)},
            t.getElementType());
        return b.create<tensor::CollapseShapeOp>(loc, type, v,
                                                 batchGroups(batchRank));
      };
      Value l = fold(lhs, lhsType), r = fold(rhs, rhsType);
      auto lt = cast<RankedTensorType>(l.getType());
      auto rt = cast<RankedTensorType>(r.getType());
      int64_t foldedBatch = ShapedType::isDynamic(lt.getDimSize(0))
                                ? rt.getDimSize(0)
                                : lt.getDimSize(0);
      // Both operands say what either knows of the batch (checked above).
      auto withBatch = [&](Value v, RankedTensorType t) {
        return castTo(b, loc, v,
                      RankedTensorType::get(
                          {foldedBatch, t.getDimSize(1), t.getDimSize(2)},
                          t.getElementType()));
      };
      l = withBatch(l, lt);
      r = withBatch(r, rt);
      auto foldedType = RankedTensorType::get(
          {foldedBatch, lt.getDimSize(1), rt.getDimSize(2)}, acc);
      Value init =
          filled(b, loc, foldedType,
                 {batch, sizes[batchRank], sizes[batchRank + 1]}, zero);
      Value product =
          b.create<linalg::BatchMatmulOp>(loc, ValueRange{l, r}, init)
              .getResult(0);
      if (batchRank == 1)
        return product;
      return expandTo(b, loc, product, resultType, batchGroups(batchRank),
                      sizes);
    }

    // One generic over (batch..., [m], n, k).
    bool hasM = lhsRank >= 2;
    int64_t mDim = batchRank, nDim = batchRank + (hasM ? 1 : 0);
    int64_t kDim = nDim + 1, loops = kDim + 1;
    auto batchExprs = [&](RankedTensorType t, int64_t count) {
      SmallVector<AffineExpr> exprs;
      for (int64_t j = 0; j < count; ++j) {
        int64_t i = j + batchRank - count;
        exprs.push_back(t.getDimSize(j) == 1 && shape[i] != 1
                            ? b.getAffineConstantExpr(0)
                            : b.getAffineDimExpr(i));
      }
      return exprs;
    };
    SmallVector<AffineExpr> lhsExprs = batchExprs(lhsType, lhsBatch);
    if (hasM)
      lhsExprs.push_back(b.getAffineDimExpr(mDim));
    lhsExprs.push_back(b.getAffineDimExpr(kDim));
    SmallVector<AffineExpr> rhsExprs = batchExprs(rhsType, rhsBatch);
    rhsExprs.push_back(b.getAffineDimExpr(kDim));
    rhsExprs.push_back(b.getAffineDimExpr(nDim));
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < kDim; ++i)
      outExprs.push_back(b.getAffineDimExpr(i));
    MLIRContext *context = b.getContext();
    SmallVector<AffineMap> maps{AffineMap::get(loops, 0, lhsExprs, context),
                                AffineMap::get(loops, 0, rhsExprs, context),
                                AffineMap::get(loops, 0, outExprs, context)};
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    Value init = filled(b, loc, resultType, sizes, zero);
    return b
        .create<linalg::GenericOp>(
            loc, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init},
            maps, iterators,
            [](OpBuilder &nb, Location nl, ValueRange args) {
              nb.create<linalg::YieldOp>(nl, multiplyAdd(nb, nl, args));
            })
        .getResult(0);
  }

  /// [[0 .. batchRank-1], [batchRank], [batchRank + 1]].
  static SmallVector<ReassociationIndices> batchGroups(int64_t batchRank) {
    return {llvm::to_vector(llvm::seq<int64_t>(0, batchRank)),
            {batchRank},
            {batchRank + 1}};
  }

  /// Batch dims of matmul broadcast as elementwise operands do; a `?` dim
  /// is assumed not to stretch, and saying so helps when it is 1.
  void checkBatchDim(OpBuilder &b, Location loc, Value lhsSize, Value rhsSize,
                     int64_t dim) const {
    std::string mismatch =
        "the size of tensor a ({0}) must match the size of tensor b ({1}) at "
        "non-singleton dimension " +
        std::to_string(dim);
    int64_t plain = state.tables.addSite(loc, mismatch);
    int64_t dynamicOne = state.tables.addSite(
        loc, mismatch + "; kiln broadcasts a dynamic dim only where its "
                        "shape spec declares it 1");
    Value one = indexValue(b, loc, 1);
    Value isOne = b.create<arith::OrIOp>(
        loc, b.create<arith::CmpIOp>(loc, Pred::eq, lhsSize, one),
        b.create<arith::CmpIOp>(loc, Pred::eq, rhsSize, one));
    Value site = b.create<arith::SelectOp>(
        loc, isOne,
        b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(dynamicOne)),
        b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(plain)));
    Value differs = b.create<arith::CmpIOp>(loc, Pred::ne, lhsSize, rhsSize);
    emitCheck(b, loc, differs, site, {lhsSize, rhsSize});
  }
};

//===----------------------------------------------------------------------===//
// rand and randn
//===----------------------------------------------------------------------===//

/// Philox-4x32-10 of `counter` under `key` (two i32 values per round,
/// precomputed outside the loop).
SmallVector<Value, 4> philox(OpBuilder &b, Location loc,
                             SmallVector<Value, 4> counter,
                             ArrayRef<std::pair<Value, Value>> roundKeys) {
  Type i32 = b.getI32Type();
  Value m0 = b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(i32, static_cast<int32_t>(0xD2511F53u)));
  Value m1 = b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(i32, static_cast<int32_t>(0xCD9E8D57u)));
  for (auto [k0, k1] : roundKeys) {
    auto p0 = b.create<arith::MulUIExtendedOp>(loc, m0, counter[0]);
    auto p1 = b.create<arith::MulUIExtendedOp>(loc, m1, counter[2]);
    Value c0 = b.create<arith::XOrIOp>(
        loc, b.create<arith::XOrIOp>(loc, p1.getHigh(), counter[1]), k0);
    Value c2 = b.create<arith::XOrIOp>(
        loc, b.create<arith::XOrIOp>(loc, p0.getHigh(), counter[3]), k1);
    counter = {c0, p1.getLow(), c2, p0.getLow()};
  }
  return counter;
}

/// A uniform float in [0, 1) of `type` from the top bits of `hi` (and
/// `lo` for f64): as many bits as the type's significand holds, so the
/// result is exact and never rounds up to 1.
Value uniform(OpBuilder &b, Location loc, Type type, Value hi, Value lo) {
  Type i64 = b.getI64Type();
  auto shiftRight = [&](Value v, int64_t bits) {
    return b.create<arith::ShRUIOp>(
        loc, v,
        b.create<arith::ConstantOp>(loc, b.getIntegerAttr(v.getType(), bits)));
  };
  if (type.isF64()) {
    Value top = b.create<arith::ShLIOp>(
        loc, b.create<arith::ExtUIOp>(loc, i64, hi),
        b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(21)));
    Value bottom = b.create<arith::ExtUIOp>(loc, i64, shiftRight(lo, 11));
    Value bits = b.create<arith::OrIOp>(loc, top, bottom);
    Value value = b.create<arith::UIToFPOp>(loc, type, bits);
    return b.create<arith::MulFOp>(
        loc, value,
        b.create<arith::ConstantOp>(
            loc, b.getFloatAttr(type, std::ldexp(1.0, -53))));
  }
  int64_t precision = type.isF16() ? 11 : type.isBF16() ? 8 : 24;
  Type f32 = b.getF32Type();
  Value value =
      b.create<arith::UIToFPOp>(loc, f32, shiftRight(hi, 32 - precision));
  value = b.create<arith::MulFOp>(
      loc, value,
      b.create<arith::ConstantOp>(
          loc, b.getFloatAttr(f32, std::ldexp(1.0, -precision))));
  return convertScalar(b, loc, value, type);
}

template <typename Op> struct RandomLowering : KilnLowering<Op> {
  using KilnLowering<Op>::KilnLowering;
  static constexpr bool isNormal = std::is_same_v<Op, RandnOp>;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getResult().getType();
    Type element = type.getElementType();
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    int64_t rank = type.getRank();
    ValueRange given = adaptor.getSizes();

    Value zero64 =
        rewriter.create<arith::ConstantOp>(loc, rewriter.getI64IntegerAttr(0));
    SmallVector<Value> sizes;
    for (Value size : given) {
      // PyTorch's check and message.
      MessageArgs args;
      std::string first = args(size);
      std::string shape = "[";
      for (auto [i, s] : llvm::enumerate(given))
        shape += (i ? ", " : "") + args(s);
      shape += "]";
      Value negative =
          rewriter.createOrFold<arith::CmpIOp>(loc, Pred::slt, size, zero64);
      check(rewriter, loc, this->state, negative,
            "trying to create tensor with negative dimension " + first + ": " +
                shape,
            args.values);
      sizes.push_back(toIndex(rewriter, loc, size));
    }
    // Sizes the type knows win over the operands (they agree).
    for (int64_t i = 0; i < rank; ++i)
      if (!type.isDynamicDim(i))
        sizes[i] = indexValue(rewriter, loc, type.getDimSize(i));

    // Row-major strides, so element i gets counter i.
    SmallVector<Value> strides(rank);
    Value stride = indexValue(rewriter, loc, 1);
    for (int64_t i = rank - 1; i >= 0; --i) {
      strides[i] = stride;
      stride = rewriter.createOrFold<arith::MulIOp>(loc, sizes[i], stride);
    }

    // The key of each round: the stream, bumped by Weyl constants.
    Value stream =
        callRuntime(rewriter, loc, "kiln_rt_random_stream", {i64}, {})[0];
    Value key0 = rewriter.create<arith::TruncIOp>(loc, i32, stream);
    Value key1 = rewriter.create<arith::TruncIOp>(
        loc, i32,
        rewriter.create<arith::ShRUIOp>(
            loc, stream,
            rewriter.create<arith::ConstantOp>(
                loc, rewriter.getI64IntegerAttr(32))));
    SmallVector<std::pair<Value, Value>> roundKeys;
    for (uint32_t round = 0; round < 10; ++round) {
      auto bump = [&](Value key, uint32_t weyl) -> Value {
        if (round == 0)
          return key;
        uint32_t add = weyl * round;
        return rewriter.create<arith::AddIOp>(
            loc, key,
            rewriter.create<arith::ConstantOp>(
                loc, rewriter.getIntegerAttr(i32, static_cast<int32_t>(add))));
      };
      roundKeys.push_back({bump(key0, 0x9E3779B9u), bump(key1, 0xBB67AE85u)});
    }

    Value init = emptyTensor(rewriter, loc, type, sizes);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{identity}, parallel,
        [&](OpBuilder &b, Location l, ValueRange) {
          Value linear;
          for (int64_t i = 0; i < rank; ++i) {
            Value term = b.create<linalg::IndexOp>(l, i);
            if (i + 1 < rank)
              term = b.create<arith::MulIOp>(l, term, strides[i]);
            linear = linear ? b.create<arith::AddIOp>(l, linear, term) : term;
          }
          if (!linear)
            linear = indexValue(b, l, 0);
          Value counter = b.create<arith::IndexCastOp>(l, i64, linear);
          Value lo = b.create<arith::TruncIOp>(l, i32, counter);
          Value hi = b.create<arith::TruncIOp>(
              l, i32,
              b.create<arith::ShRUIOp>(
                  l, counter,
                  b.create<arith::ConstantOp>(l, b.getI64IntegerAttr(32))));
          Value zero = b.create<arith::ConstantOp>(l, b.getIntegerAttr(i32, 0));
          SmallVector<Value, 4> words =
              philox(b, l, {lo, hi, zero, zero}, roundKeys);
          b.create<linalg::YieldOp>(l, sample(b, l, element, words));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }

  static Value sample(OpBuilder &b, Location loc, Type element,
                      ArrayRef<Value> words) {
    if constexpr (!isNormal) {
      return uniform(b, loc, element, words[0], words[1]);
    } else {
      // Box-Muller: sqrt(-2 ln u1) cos(2 pi u2), with u1 in (0, 1].
      Type work = accumulatorType(element);
      Value one = b.create<arith::ConstantOp>(loc, b.getFloatAttr(work, 1.0));
      Value u1 = b.create<arith::SubFOp>(
          loc, one, uniform(b, loc, work, words[0], words[1]));
      Value u2 = uniform(b, loc, work, words[2], words[3]);
      Value radius = b.create<math::SqrtOp>(
          loc, b.create<arith::MulFOp>(loc, b.create<math::LogOp>(loc, u1),
                                       b.create<arith::ConstantOp>(
                                           loc, b.getFloatAttr(work, -2.0))));
      Value angle = b.create<arith::MulFOp>(
          loc, u2,
          b.create<arith::ConstantOp>(loc, b.getFloatAttr(work, 2.0 * M_PI)));
      Value z = b.create<arith::MulFOp>(loc, radius,
                                        b.create<math::CosOp>(loc, angle));
      return convertScalar(b, loc, z, element);
    }
  }
};

} // namespace

void populateReductionPatterns(RewritePatternSet &patterns,
                               TypeConverter &converter, LoweringState &state) {
  MLIRContext *context = patterns.getContext();
  patterns.add<MatmulLowering, ReduceLowering<SumOp>, ReduceLowering<MeanOp>,
               ReduceLowering<AMaxOp>, ReduceLowering<AMinOp>, VarLowering,
               MaxDimLowering, RandomLowering<RandOp>, RandomLowering<RandnOp>>(
      converter, context, state);
}

} // namespace kiln::codegen
