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
// f32 the result is within 4.6e-7 of erf, relative, over [-5, 5]
// (docs/codegen.md), and never outside [-1, 1]. The clamps propagate NaN,
// as erf does.
//
// P and Q are stored factored, as a scale times monic quadratics
// z^2 + a z + b (all their roots are complex pairs), because a quadratic
// is one add and one fma: half of what Horner's rule puts on the CPU's
// multiply-add pipes moves to its add pipes, and GELU, which is bound by
// the multiply-add pipes, gets faster. erf_factors.py (beside this file)
// derives the factors from the fit's P and Q.
//
//===----------------------------------------------------------------------===//

#include "codegen/cpu/F32Expansion.h"
#include "codegen/cpu/FastMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using kiln::F32Expansion;

namespace {

struct Quadratic {
  double a, b; // z^2 + a z + b
};

// P(z) / Q(z) = kScale * (the product of kNumerator) / (that of
// kDenominator), for which erf_factors.py checks these digits.
constexpr double kScale = 2.0622291509852373e-05;
constexpr Quadratic kNumerator[] = {{-121.55593087758247, 9676.599623221977},
                                    {20.20322671768139, 195.94307887634127},
                                    {2.623995194391981, 30.25209596867387}};
constexpr Quadratic kDenominator[] = {{5.767573957468715, 42.26737627858894},
                                      {9.279892280286965, 24.801889120497677}};

/// The product of `factors` at z, each with its roots divided by `c2`,
/// times `scale` (folded into the first factor, whose add becomes an fma).
Value quadraticProduct(F32Expansion &f32, Value z, ArrayRef<Quadratic> factors,
                       double c2, double scale) {
  PatternRewriter &b = f32.builder();
  Location loc = f32.location();
  Value product;
  for (const Quadratic &q : factors) {
    double a = q.a / c2, constant = q.b / (c2 * c2);
    Value linear =
        scale == 1.0
            ? b.create<arith::AddFOp>(loc, z, f32.constant(a)).getResult()
            : b.create<math::FmaOp>(loc, z, f32.constant(scale),
                                    f32.constant(scale * a))
                  .getResult();
    Value value =
        b.create<math::FmaOp>(loc, linear, z, f32.constant(scale * constant));
    product = product ? b.create<arith::MulFOp>(loc, product, value) : value;
    scale = 1.0;
  }
  return product;
}

/// r(t) with t * r(t) ~= k * erf(c * t), for t already clamped to
/// [-4 / c, 4 / c]: with u = c * t, k * u * P(u^2) / Q(u^2) is
/// t * P'(t^2) / Q'(t^2), whose roots (in t^2) are P's and Q's over c^2,
/// with k, c and the leading coefficients' powers of c in the scale.
/// erf_factors.py emulates this evaluation op for op; keep the two alike.
Value erfRatio(F32Expansion &f32, Value t, double c, double k) {
  PatternRewriter &b = f32.builder();
  Location loc = f32.location();
  double c2 = c * c;
  Value z = b.create<arith::MulFOp>(loc, t, t);
  Value numerator =
      quadraticProduct(f32, z, kNumerator, c2, k * c * kScale * c2 * c2);
  Value denominator = quadraticProduct(f32, z, kDenominator, c2, 1.0);
  return b.create<arith::DivFOp>(loc, numerator, denominator);
}

Value expandErf(F32Expansion &f32, Value input) {
  Value t = f32.clampKeepingNaN(input, -4.0, 4.0);
  Value erf = f32.builder().create<arith::MulFOp>(f32.location(), t,
                                                  erfRatio(f32, t, 1.0, 1.0));
  // Near the clamp the fit may round a little past 1; erf never does.
  return f32.clampKeepingNaN(erf, -1.0, 1.0);
}

constexpr double kSqrtHalf = 0.7071067811865476; // as in erf_factors.py

/// GELU, x * (0.5 + 0.5 * erf(x / sqrt 2)), with 1 / sqrt 2 and the halving
/// folded into the rational function's scale and factors: the multiplies by
/// 1 / sqrt 2 and 0.5 are gone from what is GELU's compute-bound inner
/// loop, and the normal CDF, 0.5 + t * r, is one fma.
///
/// Beyond the clamp GELU must be exactly x or -0, as torch's is, so the CDF
/// must be exactly 1 at t = 4 sqrt 2 and 0 at its negation. In f32,
/// t * r(t) there is within [0.5, 0.5 + 2^-24] (erf_factors.py checks it
/// with exact arithmetic): 0.5 + t * r rounds to 1, and 0.5 - t * r is at
/// most 0, which the one clamp left, at 0, makes 0 exactly.
Value expandGelu(F32Expansion &f32, Value x) {
  PatternRewriter &b = f32.builder();
  Location loc = f32.location();
  Value t = f32.clampKeepingNaN(x, -4.0 / kSqrtHalf, 4.0 / kSqrtHalf);
  Value cdf = b.create<math::FmaOp>(loc, t, erfRatio(f32, t, kSqrtHalf, 0.5),
                                    f32.constant(0.5));
  return b.create<arith::MulFOp>(loc, x, f32.atLeastKeepingNaN(cdf, 0.0));
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
      Value x = otherThanConstant(
          op->getOperand(half).getDefiningOp<arith::MulFOp>(), 0.5);
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
