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

#include "codegen/cpu/FastErf.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {

constexpr double kP[] = {1.1283791152787488,     0.20004290921695986,
                         0.05057500277114855,    0.0036998131235796714,
                         0.00014126456403996436, -1.9421838025161786e-06,
                         1.9671925449715744e-08};
constexpr double kQ[] = {1.0, 0.5106152096293716, 0.11503433214457513,
                         0.014354012690336728, 0.000953915593731056};

struct FastErfF32 : public OpRewritePattern<math::ErfOp> {
  // Above MLIR's own erf approximation, which matches the same op.
  FastErfF32(MLIRContext *context) : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    Location loc = op.getLoc();
    auto constant = [&](double value) -> Value {
      return rewriter.create<arith::ConstantOp>(
          loc, type,
          isa<ShapedType>(type)
              ? cast<TypedAttr>(SplatElementsAttr::get(
                    cast<ShapedType>(type), rewriter.getF32FloatAttr(value)))
              : cast<TypedAttr>(rewriter.getF32FloatAttr(value)));
    };
    auto horner = [&](ArrayRef<double> coefficients, Value z) {
      Value acc = constant(coefficients.back());
      for (double c : llvm::reverse(coefficients.drop_back()))
        acc = rewriter.create<math::FmaOp>(loc, acc, z, constant(c));
      return acc;
    };
    Value x = rewriter.create<arith::MaximumFOp>(
        loc, rewriter.create<arith::MinimumFOp>(loc, op.getOperand(),
                                                constant(4.0)),
        constant(-4.0));
    Value z = rewriter.create<arith::MulFOp>(loc, x, x);
    Value ratio = rewriter.create<arith::DivFOp>(loc, horner(kP, z),
                                                 horner(kQ, z));
    Value erf = rewriter.create<arith::MulFOp>(loc, x, ratio);
    // Near the clamp the fit may round a little past 1; erf never does.
    rewriter.replaceOpWithNewOp<arith::MaximumFOp>(
        op, rewriter.create<arith::MinimumFOp>(loc, erf, constant(1.0)),
        constant(-1.0));
    return success();
  }
};

} // namespace

void kiln::populateFastErfPatterns(RewritePatternSet &patterns) {
  patterns.add<FastErfF32>(patterns.getContext());
}
