//===- ShapeRefinementRules.h - Refined result types of one op --*- C++ -*-===//
//
// Private to the shape refinement pass: ShapeRefinement.cpp walks regions
// and loops, ShapeRefinementRules.cpp knows each kiln op.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_SHAPEREFINEMENTRULES_H
#define KILN_PASSES_SHAPEREFINEMENTRULES_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace kiln {

/// The refined type of a value, as the analysis currently sees it.
using RefinedTypeFn = llvm::function_ref<mlir::Type(mlir::Value)>;

/// `declared` with its ? dims filled in from `inferred` (when both are
/// ranked tensors of the same rank and element type; else `declared`).
mlir::Type meetTypes(mlir::Type declared, mlir::Type inferred);

/// `floor` with its ? dims filled in where `a` and `b` hold the same number.
mlir::Type agreeTypes(mlir::Type a, mlir::Type b, mlir::Type floor);

/// Fills `types` with one type per result of `op` (a kiln op or a
/// tensor.cast), inferred from its operands' refined types; a result keeps
/// its declared type where nothing more is known. Failure means the op
/// cannot take those operand types: it needs its declared ones.
mlir::LogicalResult inferRefinedTypes(mlir::Operation *op, RefinedTypeFn typeOf,
                                      llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace kiln

#endif // KILN_PASSES_SHAPEREFINEMENTRULES_H
