//===- ElementwiseOps.cpp - kiln arithmetic, comparisons and casts --------===//
//
// Python semantics that differ from C are spelled out here: `//` and `%`
// round toward negative infinity, integer division by zero raises (instead
// of trapping the process), and float `//` follows PyTorch's
// div_floor_floating so results match it bit for bit.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/Elementwise.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace kiln::codegen {
namespace {

Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  return b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, value));
}
Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(type, value));
}

/// Returns a divisor for `dividend // divisor` or `dividend % divisor`
/// that cannot trap the hardware divide. A zero divisor raises
/// ZeroDivisionError, as Python does. MIN // -1 does not fit the type and
/// raises an overflow error (C leaves it undefined and x86 traps). MIN % -1
/// is 0, like every x % -1, so for `%` a -1 divisor becomes 1.
Value checkedDivisor(OpBuilder &b, Location loc, LoweringState &state,
                     Value dividend, Value divisor, bool isFloorDiv) {
  Type type = divisor.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  auto eq = [&](Value x, Value y) {
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, x, y);
  };
  Value isZero = eq(divisor, intConstant(b, loc, type, 0));
  int64_t site = state.tables.addSite(
      loc, "ZeroDivisionError: integer division or modulo by zero");
  emitCheck(b, loc, isZero, site);
  if (width == 1) // bool // bool: only 1 divides
    return divisor;
  Value unsafe = eq(divisor, intConstant(b, loc, type, -1));
  if (isFloorDiv) {
    Value min = b.create<arith::ConstantOp>(
        loc, b.getIntegerAttr(type, APInt::getSignedMinValue(width)));
    unsafe = b.create<arith::AndIOp>(loc, unsafe, eq(dividend, min));
    int64_t overflow = state.tables.addSite(
        loc, "OverflowError: {0} // -1 does not fit in a " +
                 std::to_string(width) + "-bit integer");
    emitCheck(b, loc, unsafe, overflow, {dividend});
  }
  unsafe = b.create<arith::OrIOp>(loc, unsafe, isZero);
  return b.create<arith::SelectOp>(loc, unsafe, intConstant(b, loc, type, 1),
                                   divisor);
}

/// Python's float `%`: fmod, then moved into the divisor's sign.
Value floatMod(OpBuilder &b, Location loc, Value a, Value d) {
  Type type = a.getType();
  Value zero = floatConstant(b, loc, type, 0.0);
  Value mod = b.create<arith::RemFOp>(loc, a, d);
  Value nonzero =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, mod, zero);
  Value modNeg =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, mod, zero);
  Value dNeg = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, d, zero);
  Value signsDiffer = b.create<arith::XOrIOp>(loc, modNeg, dNeg);
  Value adjust = b.create<arith::AndIOp>(loc, nonzero, signsDiffer);
  Value moved = b.create<arith::AddFOp>(loc, mod, d);
  Value result = b.create<arith::SelectOp>(loc, adjust, moved, mod);
  // A zero remainder takes the divisor's sign, as in Python.
  Value signedZero = b.create<math::CopySignOp>(loc, zero, d);
  return b.create<arith::SelectOp>(loc, nonzero, result, signedZero);
}

/// PyTorch's div_floor_floating (aten/src/ATen/native/BinaryOps.h).
Value floatFloorDiv(OpBuilder &b, Location loc, Value a, Value d) {
  Type type = a.getType();
  Value zero = floatConstant(b, loc, type, 0.0);
  Value dIsZero =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ, d, zero);
  Value plain = b.create<arith::DivFOp>(loc, a, d);
  Value mod = b.create<arith::RemFOp>(loc, a, d);
  Value div = b.create<arith::DivFOp>(
      loc, b.create<arith::SubFOp>(loc, a, mod), d);
  Value modNonzero =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, mod, zero);
  // Operands in named locals: C++ leaves the order of evaluating arguments
  // unspecified, and the IR must not depend on it.
  Value dNegative =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, d, zero);
  Value modNegative =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, mod, zero);
  Value signsDiffer = b.create<arith::XOrIOp>(loc, dNegative, modNegative);
  Value one = floatConstant(b, loc, type, 1.0);
  Value adjust = b.create<arith::AndIOp>(loc, modNonzero, signsDiffer);
  Value lower = b.create<arith::SubFOp>(loc, div, one);
  div = b.create<arith::SelectOp>(loc, adjust, lower, div);
  Value floored = b.create<math::FloorOp>(loc, div);
  Value fraction = b.create<arith::SubFOp>(loc, div, floored);
  Value half = floatConstant(b, loc, type, 0.5);
  Value roundUp = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT,
                                          fraction, half);
  floored = b.create<arith::SelectOp>(
      loc, roundUp, b.create<arith::AddFOp>(loc, floored, one), floored);
  Value divIsZero =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ, div, zero);
  Value signedZero = b.create<math::CopySignOp>(loc, zero, plain);
  Value result =
      b.create<arith::SelectOp>(loc, divIsZero, signedZero, floored);
  return b.create<arith::SelectOp>(loc, dIsZero, plain, result);
}

/// The scalar computation of each binary op, on operands of type `type`.
template <typename Op>
Value binaryBody(OpBuilder &b, Location loc, LoweringState &state, Value x,
                 Value y) {
  Type type = x.getType();
  bool isFloat = isa<FloatType>(type);
  bool isBool = type.isInteger(1);
  if constexpr (std::is_same_v<Op, AddOp>)
    return isFloat ? b.create<arith::AddFOp>(loc, x, y).getResult()
                   : b.create<arith::AddIOp>(loc, x, y).getResult();
  if constexpr (std::is_same_v<Op, SubOp>)
    return isFloat ? b.create<arith::SubFOp>(loc, x, y).getResult()
                   : b.create<arith::SubIOp>(loc, x, y).getResult();
  if constexpr (std::is_same_v<Op, MulOp>)
    return isFloat ? b.create<arith::MulFOp>(loc, x, y).getResult()
                   : b.create<arith::MulIOp>(loc, x, y).getResult();
  if constexpr (std::is_same_v<Op, DivOp>)
    return b.create<arith::DivFOp>(loc, x, y);
  if constexpr (std::is_same_v<Op, FloorDivOp>) {
    if (isFloat)
      return floatFloorDiv(b, loc, x, y);
    return b.create<arith::FloorDivSIOp>(
        loc, x, checkedDivisor(b, loc, state, x, y, /*isFloorDiv=*/true));
  }
  if constexpr (std::is_same_v<Op, RemOp>) {
    if (isFloat)
      return floatMod(b, loc, x, y);
    Value d = checkedDivisor(b, loc, state, x, y, /*isFloorDiv=*/false);
    Value rem = b.create<arith::RemSIOp>(loc, x, d);
    Value zero = intConstant(b, loc, type, 0);
    Value nonzero =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, rem, zero);
    Value remNegative =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, rem, zero);
    Value dNegative =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, d, zero);
    Value signsDiffer = b.create<arith::XOrIOp>(loc, remNegative, dNegative);
    Value adjust = b.create<arith::AndIOp>(loc, nonzero, signsDiffer);
    Value shifted = b.create<arith::AddIOp>(loc, rem, d);
    return b.create<arith::SelectOp>(loc, adjust, shifted, rem);
  }
  if constexpr (std::is_same_v<Op, PowOp>)
    return isFloat ? b.create<math::PowFOp>(loc, x, y).getResult()
                   : b.create<math::IPowIOp>(loc, x, y).getResult();
  if constexpr (std::is_same_v<Op, MaximumOp>) {
    if (isFloat)
      return floatExtremum(b, loc, x, y, /*max=*/true);
    return isBool ? b.create<arith::OrIOp>(loc, x, y).getResult()
                  : b.create<arith::MaxSIOp>(loc, x, y).getResult();
  }
  if constexpr (std::is_same_v<Op, MinimumOp>) {
    if (isFloat)
      return floatExtremum(b, loc, x, y, /*max=*/false);
    return isBool ? b.create<arith::AndIOp>(loc, x, y).getResult()
                  : b.create<arith::MinSIOp>(loc, x, y).getResult();
  }
  if constexpr (std::is_same_v<Op, BitAndOp>)
    return b.create<arith::AndIOp>(loc, x, y);
  if constexpr (std::is_same_v<Op, BitOrOp>)
    return b.create<arith::OrIOp>(loc, x, y);
  if constexpr (std::is_same_v<Op, BitXorOp>)
    return b.create<arith::XOrIOp>(loc, x, y);
  llvm_unreachable("binaryBody: unhandled op");
}

template <typename Op> struct BinaryLowering : KilnLowering<Op> {
  using KilnLowering<Op>::KilnLowering;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = op.getResult().getType();
    // The result's element type is the compute type, except that true
    // division computes in the (float) result type too.
    Type computeType = kiln::getElementTypeOrSelf(resultType);
    LoweringState &state = this->state;
    Value result = buildElementwise(
        rewriter, op.getLoc(), state, resultType,
        {adaptor.getLhs(), adaptor.getRhs()}, computeType,
        [&](OpBuilder &b, Location loc, ValueRange v) {
          return binaryBody<Op>(b, loc, state, v[0], v[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CmpLowering : KilnLowering<CmpOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(CmpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type promoted = inferElementwiseType(ElementwiseKind::Arith,
                                         op.getLhs().getType(),
                                         op.getRhs().getType(), nullptr);
    assert(promoted && "verified cmp has a promoted type");
    CmpPredicate predicate = op.getPredicate();
    Value result = buildElementwise(
        rewriter, op.getLoc(), state, op.getResult().getType(),
        {adaptor.getLhs(), adaptor.getRhs()}, kiln::getElementTypeOrSelf(promoted),
        [&](OpBuilder &b, Location loc, ValueRange v) -> Value {
          if (isa<FloatType>(v[0].getType())) {
            // Ordered predicates except !=, so NaN compares as in Python.
            arith::CmpFPredicate p[] = {
                arith::CmpFPredicate::OEQ, arith::CmpFPredicate::UNE,
                arith::CmpFPredicate::OLT, arith::CmpFPredicate::OLE,
                arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE};
            return b.create<arith::CmpFOp>(
                loc, p[static_cast<int>(predicate)], v[0], v[1]);
          }
          bool isBool = v[0].getType().isInteger(1);
          arith::CmpIPredicate p[] = {
              arith::CmpIPredicate::eq, arith::CmpIPredicate::ne,
              isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt,
              isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle,
              isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt,
              isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge};
          return b.create<arith::CmpIOp>(loc, p[static_cast<int>(predicate)],
                                         v[0], v[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

template <typename Op>
Value unaryBody(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  bool isFloat = isa<FloatType>(type);
  if constexpr (std::is_same_v<Op, NegOp>)
    return isFloat ? b.create<arith::NegFOp>(loc, x).getResult()
                   : b.create<arith::SubIOp>(loc, intConstant(b, loc, type, 0),
                                             x)
                         .getResult();
  if constexpr (std::is_same_v<Op, AbsOp>)
    return isFloat ? b.create<math::AbsFOp>(loc, x).getResult()
                   : b.create<math::AbsIOp>(loc, x).getResult();
  if constexpr (std::is_same_v<Op, ExpOp>)
    return b.create<math::ExpOp>(loc, x);
  if constexpr (std::is_same_v<Op, LogOp>)
    return b.create<math::LogOp>(loc, x);
  if constexpr (std::is_same_v<Op, TanhOp>)
    return b.create<math::TanhOp>(loc, x);
  if constexpr (std::is_same_v<Op, ErfOp>)
    return b.create<math::ErfOp>(loc, x);
  if constexpr (std::is_same_v<Op, SigmoidOp>) {
    Value one = floatConstant(b, loc, type, 1.0);
    Value e = b.create<math::ExpOp>(loc, b.create<arith::NegFOp>(loc, x));
    return b.create<arith::DivFOp>(loc, one,
                                   b.create<arith::AddFOp>(loc, one, e));
  }
  if constexpr (std::is_same_v<Op, ReluOp>) {
    if (isFloat)
      return floatExtremum(b, loc, x, floatConstant(b, loc, type, 0.0),
                           /*max=*/true);
    if (type.isInteger(1))
      return x;
    return b.create<arith::MaxSIOp>(loc, x, intConstant(b, loc, type, 0));
  }
  if constexpr (std::is_same_v<Op, SqrtOp>)
    return b.create<math::SqrtOp>(loc, x);
  if constexpr (std::is_same_v<Op, RsqrtOp>)
    return b.create<math::RsqrtOp>(loc, x);
  if constexpr (std::is_same_v<Op, SinOp>)
    return b.create<math::SinOp>(loc, x);
  if constexpr (std::is_same_v<Op, CosOp>)
    return b.create<math::CosOp>(loc, x);
  if constexpr (std::is_same_v<Op, FloorOp>)
    return isFloat ? b.create<math::FloorOp>(loc, x).getResult() : x;
  if constexpr (std::is_same_v<Op, CeilOp>)
    return isFloat ? b.create<math::CeilOp>(loc, x).getResult() : x;
  if constexpr (std::is_same_v<Op, NotOp>)
    return b.create<arith::XOrIOp>(loc, x, intConstant(b, loc, type, 1));
  llvm_unreachable("unaryBody: unhandled op");
}

template <typename Op> struct UnaryLowering : KilnLowering<Op> {
  using KilnLowering<Op>::KilnLowering;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = op.getResult().getType();
    Value result = buildElementwise(
        rewriter, op.getLoc(), this->state, resultType, {adaptor.getInput()},
        kiln::getElementTypeOrSelf(resultType),
        [&](OpBuilder &b, Location loc, ValueRange v) {
          return unaryBody<Op>(b, loc, v[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// torch.where: the values convert to the result's (promoted) element type,
/// the condition stays bool, and the three broadcast together.
struct WhereLowering : KilnLowering<WhereOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(WhereOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getResult().getType();
    Type element = resultType.getElementType();
    Type computeTypes[] = {rewriter.getI1Type(), element, element};
    Value result = buildElementwise(
        rewriter, op.getLoc(), state, resultType,
        {adaptor.getCondition(), adaptor.getLhs(), adaptor.getRhs()},
        computeTypes, [](OpBuilder &b, Location loc, ValueRange v) -> Value {
          return b.create<arith::SelectOp>(loc, v[0], v[1], v[2]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CastLowering : KilnLowering<CastOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = op.getResult().getType();
    // Compute in the source type; buildElementwise converts to the result.
    Value result = buildElementwise(
        rewriter, op.getLoc(), state, resultType, {adaptor.getInput()},
        kiln::getElementTypeOrSelf(op.getInput().getType()),
        [](OpBuilder &, Location, ValueRange v) { return v[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct FromScalarLowering : KilnLowering<FromScalarOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(FromScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResult().getType();
    Value element = convertScalar(rewriter, op.getLoc(), adaptor.getInput(),
                                  type.getElementType());
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, type, element);
    return success();
  }
};

struct ItemLowering : KilnLowering<ItemOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(ItemOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<Value> sizes = tensorSizes(rewriter, loc, input);
    Value numel = indexValue(rewriter, loc, 1);
    for (Value size : sizes)
      numel = rewriter.create<arith::MulIOp>(loc, numel, size);
    if (!type.hasStaticShape()) {
      int64_t site = state.tables.addSite(
          loc, "a Tensor with {0} elements cannot be converted to Scalar");
      Value bad = rewriter.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ne, numel, indexValue(rewriter, loc, 1));
      emitCheck(rewriter, loc, bad, site, {numel});
    }
    SmallVector<Value> zeros(type.getRank(), indexValue(rewriter, loc, 0));
    Value element = rewriter.create<tensor::ExtractOp>(loc, input, zeros);
    rewriter.replaceOp(op, convertScalar(rewriter, loc, element,
                                         op.getResult().getType()));
    return success();
  }
};

struct FullLowering : KilnLowering<FullOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(FullOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getResult().getType();
    int64_t site = state.tables.addSite(
        loc, "trying to create tensor with negative dimension {0}: {1}");
    SmallVector<Value> sizes;
    for (auto [i, size] : llvm::enumerate(adaptor.getSizes())) {
      Value negative = rewriter.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::slt, size,
          intConstant(rewriter, loc, rewriter.getI64Type(), 0));
      emitCheck(rewriter, loc, negative, site,
                {size, intConstant(rewriter, loc, rewriter.getI64Type(),
                                   static_cast<int64_t>(i))});
      sizes.push_back(toIndex(rewriter, loc, size));
    }
    Value init = emptyTensor(rewriter, loc, type, sizes);
    Value value = convertScalar(rewriter, loc, adaptor.getValue(),
                                type.getElementType());
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, value, init);
    return success();
  }
};

struct ConstantLowering : KilnLowering<ConstantOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, cast<TypedAttr>(op.getValue()));
    return success();
  }
};

/// kiln.undef is never read, so any value of its type will do; zeros keep
/// the generated code deterministic.
struct UndefLowering : KilnLowering<UndefOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(UndefOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getResult().getType());
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      SmallVector<Value> sizes(tensor.getRank(), indexValue(rewriter, loc, 0));
      rewriter.replaceOp(op, emptyTensor(rewriter, loc, tensor, sizes));
      return success();
    }
    if (isa<FloatType, IntegerType>(type)) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, rewriter.getZeroAttr(type));
      return success();
    }
    // A list: an empty one.
    rewriter.replaceOp(
        op, callRuntime(rewriter, loc, "kiln_rt_list_new", {type}, {})[0]);
    return success();
  }
};

} // namespace

void populateElementwisePatterns(RewritePatternSet &patterns,
                                 TypeConverter &converter,
                                 LoweringState &state) {
  MLIRContext *context = patterns.getContext();
  patterns.add<
      BinaryLowering<AddOp>, BinaryLowering<SubOp>, BinaryLowering<MulOp>,
      BinaryLowering<DivOp>, BinaryLowering<FloorDivOp>, BinaryLowering<RemOp>,
      BinaryLowering<PowOp>, BinaryLowering<MaximumOp>,
      BinaryLowering<MinimumOp>, BinaryLowering<BitAndOp>,
      BinaryLowering<BitOrOp>, BinaryLowering<BitXorOp>, CmpLowering,
      UnaryLowering<NegOp>, UnaryLowering<AbsOp>, UnaryLowering<ExpOp>,
      UnaryLowering<LogOp>, UnaryLowering<TanhOp>, UnaryLowering<ErfOp>,
      UnaryLowering<SigmoidOp>, UnaryLowering<ReluOp>, UnaryLowering<SqrtOp>,
      UnaryLowering<RsqrtOp>, UnaryLowering<SinOp>, UnaryLowering<CosOp>,
      UnaryLowering<FloorOp>, UnaryLowering<CeilOp>, UnaryLowering<NotOp>,
      WhereLowering, CastLowering, FromScalarLowering, ItemLowering,
      FullLowering, ConstantLowering, UndefLowering>(converter, context, state);
}

} // namespace kiln::codegen
