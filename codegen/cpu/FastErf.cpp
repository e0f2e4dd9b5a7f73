//===- FastErf.cpp - erf as one rational function -------------------------===//
//
// MLIR's erf approximation evaluates one of three rational functions per
// element, picked by interval: thirty selects of coefficients and a
// division per vector, which made gelu compute-bound at four times the
// time of a copy of its data. Here erf(x) is one rational function on
// [-4, 4], the input clamped to it (erf(4) rounds to 1 in f32):
//
//   erf(x) ~= x * P(x^2) / Q(x^2),  P of degree 6, Q of degree 4, Q(0) = 1
//
// The coefficients are kiln's own fit (iteratively reweighted least
// squares for relative error against mpmath's erf on 20,000 points); in
// f32 the result is within 4.3e-7 of erf, relative, over [-5, 5]
// (docs/codegen.md), and never outside [-1, 1]. The clamps propagate NaN,
// as erf does.
//
//===----------------------------------------------------------------------===//

#include "codegen/cpu/F32Expansion.h"
#include "codegen/cpu/FastMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <iterator>

using namespace mlir;
using kiln::F32Expansion;

namespace {

constexpr double kP[] = {1.1283791152787488,     0.20004290921695986,
                         0.05057500277114855,    0.0036998131235796714,
                         0.00014126456403996436, -1.9421838025161786e-06,
                         1.9671925449715744e-08};
constexpr double kQ[] = {1.0, 0.5106152096293716, 0.11503433214457513,
                         0.014354012690336728, 0.000953915593731056};

/// k * erf(c * x) for x already clamped to [-4 / c, 4 / c]: with u = c * x,
/// u * P(u^2) / Q(u^2) is x * P'(x^2) / Q'(x^2), where P' and Q' have c
/// (and k) folded into their coefficients. For c = k = 1 these are P and Q.
Value scaledErf(F32Expansion &f32, Value x, double c, double k) {
  PatternRewriter &b = f32.builder();
  Location loc = f32.location();
  SmallVector<double> p, q;
  double power = 1.0; // c^(2i)
  for (size_t i = 0; i < std::size(kP); ++i, power *= c * c) {
    p.push_back(k * c * kP[i] * power);
    if (i < std::size(kQ))
      q.push_back(kQ[i] * power);
  }
  Value z = b.create<arith::MulFOp>(loc, x, x);
  Value ratio = b.create<arith::DivFOp>(loc, f32.horner(p, z), f32.horner(q, z));
  return b.create<arith::MulFOp>(loc, x, ratio);
}

Value expandErf(F32Expansion &f32, Value input) {
  Value x = f32.clampKeepingNaN(input, -4.0, 4.0);
  Value erf = scaledErf(f32, x, 1.0, 1.0);
  // Near the clamp the fit may round a little past 1; erf never does.
  return f32.clampKeepingNaN(erf, -1.0, 1.0);
}

constexpr double kSqrtHalf = 0.7071067811865476;

/// GELU, x * (0.5 + 0.5 * erf(x / sqrt 2)), with 1 / sqrt 2 and the halving
/// folded into the rational function's coefficients, and the normal CDF
/// clamped to [0, 1] in place of erf's clamp to [-1, 1]: the multiplies by
/// 1 / sqrt 2 and 0.5 are gone from what is GELU's compute-bound inner
/// loop (23 vector operations where the prelude's chain with erf expanded
/// alone takes 25).
Value expandGelu(F32Expansion &f32, Value x) {
  Value t = f32.clampKeepingNaN(x, -4.0 / kSqrtHalf, 4.0 / kSqrtHalf);
  Value halfErf = scaledErf(f32, t, kSqrtHalf, 0.5);
  Value cdf = f32.builder().create<arith::AddFOp>(f32.location(), halfErf,
                                                  f32.constant(0.5));
  cdf = f32.clampKeepingNaN(cdf, 0.0, 1.0);
  return f32.builder().create<arith::MulFOp>(f32.location(), x, cdf);
}

/// Whether `value` is an f32 constant (scalar or splat) equal to `expected`
/// rounded to f32.
bool isF32Constant(Value value, double expected) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  auto f = dyn_cast<FloatAttr>(attr);
  return f && f.getType().isF32() &&
         f.getValueAsDouble() == double(float(expected));
}

/// The operand of the commutative `op` that is not the f32 constant
/// `expected`, or null.
Value otherThanConstant(Operation *op, double expected) {
  if (!op || op->getNumOperands() != 2)
    return {};
  if (isF32Constant(op->getOperand(1), expected))
    return op->getOperand(0);
  if (isF32Constant(op->getOperand(0), expected))
    return op->getOperand(1);
  return {};
}

/// The prelude's exact GELU (frontend/prelude/activations.py),
///   (x * 0.5) * (erf(x * 0.70710678) + 1.0),
/// operands of each multiply and add in either order, rooted at the outer
/// multiply, as one expandGelu.
struct GeluPattern : public OpRewritePattern<arith::MulFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::MulFOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    for (int half = 0; half < 2; ++half) {
      Value x = otherThanConstant(op->getOperand(half).getDefiningOp<arith::MulFOp>(), 0.5);
      Value erf = otherThanConstant(
          op->getOperand(1 - half).getDefiningOp<arith::AddFOp>(), 1.0);
      auto erfOp = erf ? erf.getDefiningOp<math::ErfOp>() : nullptr;
      if (!x || !erfOp ||
          otherThanConstant(erfOp.getOperand().getDefiningOp<arith::MulFOp>(),
                            kSqrtHalf) != x)
        continue;
      F32Expansion f32(rewriter, op.getLoc(), op.getType());
      rewriter.replaceOp(op, expandGelu(f32, x));
      return success();
    }
    return failure();
  }
};

} // namespace

void kiln::populateFastErfPatterns(RewritePatternSet &patterns) {
  patterns.add<F32ExpansionPattern<math::ErfOp, expandErf>>(
      patterns.getContext());
}

void kiln::populateFastGeluPatterns(RewritePatternSet &patterns) {
  patterns.add<GeluPattern>(patterns.getContext());
}
