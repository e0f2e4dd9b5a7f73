//===- RandomOps.cpp - torch.rand and torch.randn ---------------------------===//
//
// See ReductionOps.cpp for how PyTorch's accumulation rules are followed.
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
    // Operands in named locals, here and below: C++ leaves the order of
    // evaluating arguments unspecified, and the IR must not depend on it.
    Value wideHi = b.create<arith::ExtUIOp>(loc, i64, hi);
    Value shift = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(21));
    Value top = b.create<arith::ShLIOp>(loc, wideHi, shift);
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
      Value logU1 = b.create<math::LogOp>(loc, u1);
      Value minusTwo =
          b.create<arith::ConstantOp>(loc, b.getFloatAttr(work, -2.0));
      Value radius = b.create<math::SqrtOp>(
          loc, b.create<arith::MulFOp>(loc, logU1, minusTwo));
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

void populateRandomPatterns(RewritePatternSet &patterns, TypeConverter &converter,
                            LoweringState &state) {
  patterns.add<RandomLowering<RandOp>, RandomLowering<RandnOp>>(converter, patterns.getContext(), state);
}

} // namespace kiln::codegen
