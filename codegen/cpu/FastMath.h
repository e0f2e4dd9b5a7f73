//===- FastMath.h - kiln's own f32 math expansions --------------*- C++ -*-===//
//
// The f32 math functions whose MLIR approximation costs more than it must,
// expanded by kiln's own formulas, each preferred over MLIR's pattern for
// the same op (benefit 2). f64 keeps MLIR's path.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_CPU_FASTMATH_H
#define KILN_CODEGEN_CPU_FASTMATH_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace kiln {

/// f32 math.erf as x * P(x^2) / Q(x^2) on [-4, 4] (FastErf.cpp).
void populateFastErfPatterns(mlir::RewritePatternSet &patterns);

/// The prelude's exact f32 GELU, x * 0.5 * (erf(x / sqrt 2) + 1), as one
/// expansion with the constants folded into erf's (FastErf.cpp). Applied
/// before the erf pattern, which would otherwise take its erf alone.
void populateFastGeluPatterns(mlir::RewritePatternSet &patterns);
/// f32 math.exp as 2^n * P(r), r = x - n ln 2, with the scale made from
/// the bits of a rounding addition (FastExp.cpp).
void populateFastExpPatterns(mlir::RewritePatternSet &patterns);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_FASTMATH_H
