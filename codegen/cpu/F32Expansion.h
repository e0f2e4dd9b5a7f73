//===- F32Expansion.h - Building blocks of f32 math expansions --*- C++ -*-===//
//
// What FastErf.cpp and FastExp.cpp build: splat constants of the op's
// type (scalar or vector), Horner evaluation with fma (exp's polynomial;
// erf's is factored instead, FastErf.cpp says why), and clamps that keep
// NaN. The clamps are compare-and-select, not arith.minimumf and
// maximumf: LLVM lowers those NaN-propagating ops to five or six x86
// instructions each, while `x < lo ? lo : x` is one vmaxps that already
// returns x when x is NaN.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_CPU_F32EXPANSION_H
#define KILN_CODEGEN_CPU_F32EXPANSION_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

namespace kiln {

class F32Expansion {
public:
  F32Expansion(mlir::PatternRewriter &rewriter, mlir::Location loc,
               mlir::Type type)
      : b(rewriter), loc(loc), type(type) {}

  mlir::PatternRewriter &builder() { return b; }
  mlir::Location location() const { return loc; }
  mlir::Type valueType() const { return type; }

  /// `value` in the op's type: a scalar, or a splat of the vector type.
  mlir::Value constant(double value) {
    return splat(b.getF32FloatAttr(static_cast<float>(value)), type);
  }
  /// The i32 constant of the same shape.
  mlir::Value intConstant(int32_t value) {
    return splat(b.getI32IntegerAttr(value), intType());
  }
  mlir::Type intType() {
    if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(type))
      return shaped.clone(b.getI32Type());
    return b.getI32Type();
  }

  /// c0 + z * (c1 + z * (c2 + ...)), one fma per coefficient after the last.
  mlir::Value horner(llvm::ArrayRef<double> coefficients, mlir::Value z) {
    mlir::Value acc = constant(coefficients.back());
    for (double c : llvm::reverse(coefficients.drop_back()))
      acc = b.create<mlir::math::FmaOp>(loc, acc, z, constant(c));
    return acc;
  }

  /// `x` clamped to [lo, hi]; NaN stays NaN (an ordered compare is false
  /// for it, so the select keeps x).
  mlir::Value clampKeepingNaN(mlir::Value x, double lo, double hi) {
    x = atLeastKeepingNaN(x, lo);
    mlir::Value high = constant(hi);
    mlir::Value above = b.create<mlir::arith::CmpFOp>(
        loc, mlir::arith::CmpFPredicate::OGT, x, high);
    return b.create<mlir::arith::SelectOp>(loc, above, high, x);
  }
  /// `x` raised to at least `lo`; NaN stays NaN, as above.
  mlir::Value atLeastKeepingNaN(mlir::Value x, double lo) {
    mlir::Value low = constant(lo);
    mlir::Value below = b.create<mlir::arith::CmpFOp>(
        loc, mlir::arith::CmpFPredicate::OLT, x, low);
    return b.create<mlir::arith::SelectOp>(loc, below, low, x);
  }

private:
  mlir::Value splat(mlir::TypedAttr scalar, mlir::Type of) {
    mlir::TypedAttr attr = scalar;
    if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(of))
      attr = mlir::SplatElementsAttr::get(shaped, mlir::Attribute(scalar));
    return b.create<mlir::arith::ConstantOp>(loc, of, attr);
  }

  mlir::PatternRewriter &b;
  mlir::Location loc;
  mlir::Type type;
};

/// Rewrites an f32 (scalar or vector) `Op` with its one operand into what
/// `expand` builds, ahead of MLIR's own approximation of the same op
/// (benefit 2); other element types are left to MLIR.
template <typename Op, mlir::Value (*expand)(F32Expansion &, mlir::Value)>
struct F32ExpansionPattern : public mlir::OpRewritePattern<Op> {
  F32ExpansionPattern(mlir::MLIRContext *context)
      : mlir::OpRewritePattern<Op>(context, /*benefit=*/2) {}

  mlir::LogicalResult
  matchAndRewrite(Op op, mlir::PatternRewriter &rewriter) const override {
    mlir::Type type = op.getType();
    if (!mlir::getElementTypeOrSelf(type).isF32())
      return mlir::failure();
    F32Expansion f32(rewriter, op.getLoc(), type);
    rewriter.replaceOp(op, expand(f32, op.getOperand()));
    return mlir::success();
  }
};

} // namespace kiln

#endif // KILN_CODEGEN_CPU_F32EXPANSION_H
