//===- LowerNNSupport.h - Helpers of the nn lowering files ------*- C++ -*-===//
//
// Private to frontend/: the nn building blocks (LowerNNFunctional.cpp) and
// the op table's builders share these. The builders create kiln ops whose
// operand types the caller has already checked, so they compute the result
// type with ir/ShapeInference and assert that it exists.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_LOWERNNSUPPORT_H
#define KILN_FRONTEND_LOWERNNSUPPORT_H

#include "frontend/LoweringImpl.h"

namespace kiln::nn {

/// The ints of a tuple, list literal or single int value, if all are
/// compile-time constants.
std::optional<std::vector<int64_t>> constIntsOf(FunctionLowering &fl,
                                                const PyValue &v);

/// Builders for operands the caller has checked.
mlir::Value unary(FunctionLowering &fl, llvm::StringRef opName, mlir::Value x,
                  SourceRange where);
mlir::Value binary(FunctionLowering &fl, llvm::StringRef opName,
                   mlir::Value lhs, mlir::Value rhs, SourceRange where);
/// kiln.sum / kiln.mean / kiln.amax over sorted, normalized `dims`.
mlir::Value reduce(FunctionLowering &fl, llvm::StringRef opName, mlir::Value x,
                   llvm::ArrayRef<int64_t> dims, bool keepdim,
                   SourceRange where);
/// `x` reshaped to `sizes`, with static dims where the sizes are constants.
mlir::Value reshape(FunctionLowering &fl, mlir::Value x,
                    llvm::ArrayRef<mlir::Value> sizes, SourceRange where);

} // namespace kiln::nn

#endif // KILN_FRONTEND_LOWERNNSUPPORT_H
