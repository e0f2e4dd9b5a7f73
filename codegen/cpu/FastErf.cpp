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

using namespace mlir;
using kiln::F32Expansion;

namespace {

constexpr double kP[] = {1.1283791152787488,     0.20004290921695986,
                         0.05057500277114855,    0.0036998131235796714,
                         0.00014126456403996436, -1.9421838025161786e-06,
                         1.9671925449715744e-08};
constexpr double kQ[] = {1.0, 0.5106152096293716, 0.11503433214457513,
                         0.014354012690336728, 0.000953915593731056};

Value expandErf(F32Expansion &f32, Value input) {
  PatternRewriter &b = f32.builder();
  Location loc = f32.location();
  Value x = f32.clampKeepingNaN(input, -4.0, 4.0);
  Value z = b.create<arith::MulFOp>(loc, x, x);
  Value ratio =
      b.create<arith::DivFOp>(loc, f32.horner(kP, z), f32.horner(kQ, z));
  Value erf = b.create<arith::MulFOp>(loc, x, ratio);
  // Near the clamp the fit may round a little past 1; erf never does.
  return f32.clampKeepingNaN(erf, -1.0, 1.0);
}

} // namespace

void kiln::populateFastErfPatterns(RewritePatternSet &patterns) {
  patterns.add<F32ExpansionPattern<math::ErfOp, expandErf>>(
      patterns.getContext());
}
