//===- ExpandHalfFloats.cpp - f16 and bf16 conversions without libgcc -----===//
//
// Why: LLVM lowers a conversion between f32 and f16 or bf16 to a call into
// libgcc (__extendhfsf2, __truncsfhf2, __truncsfbf2) unless the target has
// F16C or AVX512-BF16, and f64 <-> f16 always; and AVX512-BF16 rounds
// subnormals differently from PyTorch. A code object must import
// nothing but libc and libm, and Debian 12's libgcc lacks __truncsfbf2, so
// such archives failed to load. By this point arithmetic on f16 and bf16
// has been widened to f32 (math-legalize-to-f32 and
// arith-emulate-unsupported-floats run first), so conversions are all that
// is left, and this pass writes them as integer arithmetic on the bits.
//
// How:
// - f64 <-> f16/bf16 goes through f32, as PyTorch's c10::Half and
//   c10::BFloat16 convert (from a double they round twice, and so does
//   kiln, for the same bits).
// - Without F16C, f16 -> f32 moves the fields (an f16 subnormal is its
//   integer mantissa times 2^-24, exact in f32), and f32 -> f16 rounds to
//   nearest even: a normal result adds half an ulp (plus one when the kept
//   bits are odd) before dropping 13 bits; a subnormal one lets the FPU
//   round by adding 0.5, whose ulp is exactly the f16 subnormal step;
//   overflow gives infinity and a NaN stays a (quiet) NaN.
// - bf16 always uses MLIR's own bf16 expansion, which rounds the same way:
//   AVX512-BF16's instruction flushes subnormals to zero, and PyTorch's
//   conversion does not (checked bit for bit in half-conversions.test).
// All of it is selects and shifts, so loops over it still vectorize.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

bool isHalf(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

/// `type` (a scalar or a vector) with its element type replaced.
Type withElement(Type type, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

/// An integer constant of `type` (i32 or i16, scalar or vector).
Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  Type element = getElementTypeOrSelf(type);
  auto attr = b.getIntegerAttr(element, value);
  if (auto vector = dyn_cast<VectorType>(type))
    return b.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(vector, attr.getValue()));
  return b.create<arith::ConstantOp>(loc, attr);
}

Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  auto attr = b.getFloatAttr(getElementTypeOrSelf(type), value);
  if (auto vector = dyn_cast<VectorType>(type))
    return b.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(vector, attr.getValue()));
  return b.create<arith::ConstantOp>(loc, attr);
}

/// f64 <-> f16/bf16 as two steps through f32 (ConvertOp is arith.extf or
/// arith.truncf).
template <typename ConvertOp>
struct ConvertThroughF32 : OpRewritePattern<ConvertOp> {
  using OpRewritePattern<ConvertOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    Type to = getElementTypeOrSelf(op.getType());
    if (!(isHalf(from) && to.isF64()) && !(from.isF64() && isHalf(to)))
      return failure();
    Type f32 = withElement(op.getType(), rewriter.getF32Type());
    Value single = rewriter.create<ConvertOp>(op.getLoc(), f32, op.getIn());
    rewriter.replaceOpWithNewOp<ConvertOp>(op, op.getType(), single);
    return success();
  }
};

/// f16 -> f32 on the bits.
struct ExtendF16 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getIn().getType()).isF16() ||
        !getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    Location loc = op.getLoc();
    Type i16 = withElement(op.getType(), rewriter.getI16Type());
    Type i32 = withElement(op.getType(), rewriter.getI32Type());
    auto c = [&](int64_t v) { return intConstant(rewriter, loc, i32, v); };
    auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
      return rewriter.create<arith::CmpIOp>(loc, p, x, y);
    };
    Value bits = rewriter.create<arith::ExtUIOp>(
        loc, i32, rewriter.create<arith::BitcastOp>(loc, i16, op.getIn()));
    // One op per statement: C++ leaves the order of evaluating arguments
    // unspecified, and the IR must not depend on the compiler.
    Value signBit = rewriter.create<arith::AndIOp>(loc, bits, c(0x8000));
    Value sign = rewriter.create<arith::ShLIOp>(loc, signBit, c(16));
    Value magnitude = rewriter.create<arith::AndIOp>(loc, bits, c(0x7fff));
    // Exponent rebiased from 15 to 127: add (127 - 15) << 23. Infinity and
    // NaN (all ones) need it twice, to reach all ones again.
    Value widened = rewriter.create<arith::ShLIOp>(loc, magnitude, c(13));
    Value moved = rewriter.create<arith::AddIOp>(loc, widened, c(0x38000000));
    Value special = cmp(arith::CmpIPredicate::uge, magnitude, c(0x7c00));
    Value movedTwice =
        rewriter.create<arith::AddIOp>(loc, moved, c(0x38000000));
    moved = rewriter.create<arith::SelectOp>(loc, special, movedTwice, moved);
    // Zero and subnormals: the mantissa times 2^-24, exact in f32.
    Type f32 = op.getType();
    Value mantissa = rewriter.create<arith::UIToFPOp>(loc, f32, magnitude);
    Value step = floatConstant(rewriter, loc, f32, 0x1p-24);
    Value scaled = rewriter.create<arith::MulFOp>(loc, mantissa, step);
    Value tiny = cmp(arith::CmpIPredicate::ult, magnitude, c(0x0400));
    Value scaledBits = rewriter.create<arith::BitcastOp>(loc, i32, scaled);
    Value result =
        rewriter.create<arith::SelectOp>(loc, tiny, scaledBits, moved);
    result = rewriter.create<arith::OrIOp>(loc, result, sign);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, f32, result);
    return success();
  }
};

/// f32 -> f16 on the bits, rounding to nearest even.
struct TruncateToF16 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF16() ||
        !getElementTypeOrSelf(op.getIn().getType()).isF32())
      return failure();
    Location loc = op.getLoc();
    Type f32 = op.getIn().getType();
    Type i32 = withElement(f32, rewriter.getI32Type());
    Type i16 = withElement(f32, rewriter.getI16Type());
    auto c = [&](int64_t v) { return intConstant(rewriter, loc, i32, v); };
    auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
      return rewriter.create<arith::CmpIOp>(loc, p, x, y);
    };
    auto select = [&](Value cond, Value x, Value y) {
      return rewriter.create<arith::SelectOp>(loc, cond, x, y);
    };
    Value bits = rewriter.create<arith::BitcastOp>(loc, i32, op.getIn());
    // One op per statement: C++ leaves the order of evaluating arguments
    // unspecified, and the IR must not depend on the compiler.
    Value high = rewriter.create<arith::ShRUIOp>(loc, bits, c(16));
    Value sign = rewriter.create<arith::AndIOp>(loc, high, c(0x8000));
    Value magnitude = rewriter.create<arith::AndIOp>(loc, bits, c(0x7fffffff));

    // Normal results: rebias the exponent (-112 << 23), add 0xfff plus the
    // lowest kept bit (ties to even), and drop the 13 extra mantissa bits.
    // A carry out of the mantissa correctly bumps the exponent.
    Value kept = rewriter.create<arith::ShRUIOp>(loc, magnitude, c(13));
    Value odd = rewriter.create<arith::AndIOp>(loc, kept, c(1));
    Value rebiased =
        rewriter.create<arith::AddIOp>(loc, magnitude, c(int32_t(0xc8000fff)));
    Value rounded = rewriter.create<arith::AddIOp>(loc, rebiased, odd);
    Value normal = rewriter.create<arith::ShRUIOp>(loc, rounded, c(13));
    // Below 2^-14 the result is subnormal (or zero): adding 0.5f makes the
    // FPU round |x| to a multiple of 2^-24, f16's subnormal step, and the
    // multiple is what is left above 0.5f's bits.
    Value absolute = rewriter.create<arith::BitcastOp>(loc, f32, magnitude);
    Value half = floatConstant(rewriter, loc, f32, 0.5);
    Value shifted = rewriter.create<arith::AddFOp>(loc, absolute, half);
    Value shiftedBits = rewriter.create<arith::BitcastOp>(loc, i32, shifted);
    Value subnormal =
        rewriter.create<arith::SubIOp>(loc, shiftedBits, c(0x3f000000));
    Value isSubnormal =
        cmp(arith::CmpIPredicate::ult, magnitude, c(0x38800000));
    Value result = select(isSubnormal, subnormal, normal);
    // 65520 and above round to infinity; NaN keeps its top payload bits and
    // is made quiet.
    Value overflows = cmp(arith::CmpIPredicate::uge, magnitude, c(0x477ff000));
    Value infinity = c(0x7c00);
    result = select(overflows, infinity, result);
    Value payloadBits = rewriter.create<arith::ShRUIOp>(loc, magnitude, c(13));
    Value payload = rewriter.create<arith::AndIOp>(loc, payloadBits, c(0x3ff));
    Value nan = rewriter.create<arith::OrIOp>(loc, payload, c(0x7e00));
    Value isNaN = cmp(arith::CmpIPredicate::ugt, magnitude, c(0x7f800000));
    result = select(isNaN, nan, result);
    result = rewriter.create<arith::OrIOp>(loc, result, sign);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(
        op, op.getType(), rewriter.create<arith::TruncIOp>(loc, i16, result));
    return success();
  }
};

struct ExpandHalfFloatsPass
    : public PassWrapper<ExpandHalfFloatsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExpandHalfFloatsPass)

  ExpandHalfFloatsPass() = default;
  ExpandHalfFloatsPass(const ExpandHalfFloatsPass &other)
      : PassWrapper(other) {}
  explicit ExpandHalfFloatsPass(bool nativeF16) { this->nativeF16 = nativeF16; }

  StringRef getArgument() const final { return "kiln-expand-half-floats"; }
  StringRef getDescription() const final {
    return "Write f16 and bf16 conversions as integer arithmetic, so that no "
           "libgcc helper is called";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect>();
  }

  Option<bool> nativeF16{*this, "native-f16",
                         llvm::cl::desc("The target converts f16 in hardware "
                                        "(F16C): keep f32 <-> f16"),
                         llvm::cl::init(false)};

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvertThroughF32<arith::ExtFOp>,
                 ConvertThroughF32<arith::TruncFOp>>(&getContext());
    if (!nativeF16)
      patterns.add<ExtendF16, TruncateToF16>(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createExpandHalfFloatsPass() {
  return std::make_unique<ExpandHalfFloatsPass>();
}

std::unique_ptr<Pass>
kiln::createExpandHalfFloatsPass(HalfFloatSupport native) {
  return std::make_unique<ExpandHalfFloatsPass>(native.f16);
}
