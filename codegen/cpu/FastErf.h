//===- FastErf.h - erf as one rational function ----------------*- C++ -*-===//
#ifndef KILN_CODEGEN_CPU_FASTERF_H
#define KILN_CODEGEN_CPU_FASTERF_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace kiln {

/// f32 math.erf as x * P(x^2) / Q(x^2) on [-4, 4] (FastErf.cpp), preferred
/// over MLIR's piecewise approximation.
void populateFastErfPatterns(mlir::RewritePatternSet &patterns);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_FASTERF_H
