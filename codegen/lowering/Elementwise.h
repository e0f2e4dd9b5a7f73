//===- Elementwise.h - Broadcasting elementwise maps over tensors ---------===//
//
// Private to codegen/lowering. Every elementwise kiln op (and a few others,
// such as cast and relu) lowers through buildElementwise: one
// linalg.generic over the broadcast result shape, with run-time checks for
// dynamic dims that must agree.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_LOWERING_ELEMENTWISE_H
#define KILN_CODEGEN_LOWERING_ELEMENTWISE_H

#include "codegen/lowering/LoweringSupport.h"

namespace kiln::codegen {

/// Computes one result element from operands already converted to the
/// compute type.
using ScalarBody = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// Applies `body` elementwise to `operands` (tensors and Python scalars, in
/// any mix) with PyTorch broadcasting, producing `resultType` (a tensor or,
/// when every operand is a scalar, a scalar). Operands are converted to
/// `computeType` first and the body's value to the result element type.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             LoweringState &state, mlir::Type resultType,
                             mlir::ValueRange operands, mlir::Type computeType,
                             ScalarBody body);
/// The same with one compute type per operand, used as given (f16 and bf16
/// are not widened), for ops whose operands play different roles, such as
/// where's bool condition.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             LoweringState &state, mlir::Type resultType,
                             mlir::ValueRange operands,
                             mlir::TypeRange computeTypes, ScalarBody body);

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_ELEMENTWISE_H
