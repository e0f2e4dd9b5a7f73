//===- ReductionOps.cpp - kiln reductions
//------------------------------------===//
//
// Reductions are linalg.generic ops with reduction iterators over the
// reduced dims; keepdim reinserts them as size-1 dims (a view). Accumulation
// follows PyTorch: f16 and bf16 accumulate in f32, ints and bools sum in
// i64, f32 and f64 in their own type. var is two-pass (mean,
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

#include "codegen/lowering/ReductionSupport.h"

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
          return floatExtremum(b, l, x, a, isMax);
        if (acc.isInteger(1))
          return isMax ? b.create<arith::OrIOp>(l, x, a).getResult()
                       : b.create<arith::AndIOp>(l, x, a).getResult();
        return isMax ? b.create<arith::MaxSIOp>(l, x, a).getResult()
                     : b.create<arith::MinSIOp>(l, x, a).getResult();
      }
      return isFloat ? sumStep(b, l, x, a)
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
                         return SmallVector<Value>{sumStep(b, l, x, args[1])};
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
                             sumStep(b, l, d2, args[2])};
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
            Value bestIsNumber =
                b.create<arith::CmpFOp>(l, FPred::ORD, best, best);
            Value greater = b.create<arith::CmpFOp>(l, FPred::OGT, x, best);
            Value tie = b.create<arith::AndIOp>(
                l, b.create<arith::CmpFOp>(l, FPred::OEQ, x, best), earlier);
            // A NaN beats any number, and an earlier NaN beats a later one;
            // ordered comparisons are false for a NaN x.
            Value nanWins = b.create<arith::AndIOp>(
                l, xNaN, b.create<arith::OrIOp>(l, bestIsNumber, earlier));
            Value numberWins = b.create<arith::AndIOp>(
                l, b.create<arith::OrIOp>(l, greater, tie), bestIsNumber);
            take = b.create<arith::OrIOp>(l, nanWins, numberWins);
          } else {
            // Named operands: argument order is unspecified, and the IR
            // must not depend on the compiler.
            Value greater = b.create<arith::CmpIOp>(l, Pred::sgt, x, best);
            Value tie = b.create<arith::CmpIOp>(l, Pred::eq, x, best);
            Value earlierTie = b.create<arith::AndIOp>(l, tie, earlier);
            take = b.create<arith::OrIOp>(l, greater, earlierTie);
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

} // namespace

void populateReductionPatterns(RewritePatternSet &patterns,
                               TypeConverter &converter, LoweringState &state) {
  patterns.add<ReduceLowering<SumOp>, ReduceLowering<MeanOp>,
               ReduceLowering<AMaxOp>, ReduceLowering<AMinOp>, VarLowering,
               MaxDimLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::codegen
