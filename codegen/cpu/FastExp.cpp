//===- FastExp.cpp - exp as 2^n times a polynomial ------------------------===//
//
// exp is the inner loop of softmax, and MLIR's approximation spends 21
// vector instructions on it: NaN-propagating clamps of both the input and
// the exponent, a round, a conversion. Here, in 15:
//
//   x  = clamp(x, -87.5, 89)           (two vmaxps/vminps; NaN stays NaN)
//   j  = fma(x, log2(e), 1.5 * 2^23)   (n = round(x log2 e) in j's low bits)
//   n  = j - 1.5 * 2^23
//   r  = x - n ln2                      (two fmas; ln 2 split, n ln2_hi exact)
//   2^(n-1) = bits((bits(j) + 126) << 23)
//   exp(x) = 2^(n-1) * 2P(r)            (P of degree 6, doubled exactly)
//
// Scaling by 2^(n-1) and doubling P keeps n = 128 (x up to ln FLT_MAX) in
// range with one multiply; at x = 89, n = 128 and the product overflows
// to inf, as exp does. From x < -87 on, n = -126 and the scale's bits are
// zero: results under 2^-125 flush to 0 where PyTorch returns subnormals,
// an absolute error below 2.4e-38. NaN needs no test: j, n and r are NaN,
// and NaN times any scale is NaN; the shift reads j's bits, so no
// float-to-int conversion can be poison.
//
// P is kiln's own fit of e^r on [-ln2/2, ln2/2] (iteratively reweighted
// least squares for relative error, 20,001 Chebyshev points): within
// 2.0e-9 relative in exact arithmetic, so the f32 result is within about
// one ulp of exp (test/e2e/exp_accuracy.test measures it).
//
//===----------------------------------------------------------------------===//

#include "codegen/cpu/F32Expansion.h"
#include "codegen/cpu/FastMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using kiln::F32Expansion;

namespace {

constexpr double kP[] = {1.0,
                         1.0000000321652116,
                         0.49999994209018667,
                         0.16666431262003045,
                         0.04166800203918911,
                         0.008374155358215753,
                         0.0013843653464854387};
constexpr double kLog2E = 1.4426950408889634;
// ln 2 = kLn2Hi + kLn2Lo; kLn2Hi has 12 trailing zero bits, so n * kLn2Hi
// is exact for every n here.
constexpr double kLn2Hi = 0.693145751953125;
constexpr double kLn2Lo = 1.4286068202862268e-06;
// Adding 1.5 * 2^23 rounds to an integer and leaves it in the low bits.
constexpr double kRoundingShift = 12582912.0;

Value expandExp(F32Expansion &f32, Value input) {
  PatternRewriter &b = f32.builder();
  Location loc = f32.location();
  Value x = f32.clampKeepingNaN(input, -87.5, 89.0);
  Value shift = f32.constant(kRoundingShift);
  Value j = b.create<math::FmaOp>(loc, x, f32.constant(kLog2E), shift);
  Value n = b.create<arith::SubFOp>(loc, j, shift);
  Value r = b.create<math::FmaOp>(loc, n, f32.constant(-kLn2Hi), x);
  r = b.create<math::FmaOp>(loc, n, f32.constant(-kLn2Lo), r);
  SmallVector<double> doubled;
  for (double c : kP)
    doubled.push_back(2 * c);
  Value p = f32.horner(doubled, r);
  Value bits = b.create<arith::BitcastOp>(loc, f32.intType(), j);
  bits = b.create<arith::AddIOp>(loc, bits, f32.intConstant(126));
  bits = b.create<arith::ShLIOp>(loc, bits, f32.intConstant(23));
  Value scale = b.create<arith::BitcastOp>(loc, f32.valueType(), bits);
  return b.create<arith::MulFOp>(loc, p, scale);
}

} // namespace

void kiln::populateFastExpPatterns(RewritePatternSet &patterns) {
  patterns.add<F32ExpansionPattern<math::ExpOp, expandExp>>(
      patterns.getContext());
}
