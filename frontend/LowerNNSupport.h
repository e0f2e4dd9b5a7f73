//===- LowerNNSupport.h - Helpers of the nn lowering files ------*- C++ -*-===//
//
// Private to LowerNNFunctional.cpp and LowerNNTensorOps.cpp. The arguments
// that shape an nn op (kernel sizes, dims, eps, ceil_mode) must be known at
// compile time; these readers report a clear error when one is not. The
// builders create kiln ops whose operand types the caller has already
// checked, so they compute the result type with ir/ShapeInference and
// assert that it exists.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_LOWERNNSUPPORT_H
#define KILN_FRONTEND_LOWERNNSUPPORT_H

#include "frontend/LoweringImpl.h"

namespace kiln::nn {

/// A compile-time bool: a True/False literal or a folded i1 such as
/// `self.training`.
std::optional<bool> lowerConstBool(FunctionLowering &fl, const ast::Expr &e,
                                   const std::string &what);
/// A compile-time float (an int literal is accepted, as Python does).
std::optional<double> lowerConstFloat(FunctionLowering &fl, const ast::Expr &e,
                                      const std::string &what);
/// An optional tensor argument: a null Value when it is absent or None.
std::optional<mlir::Value> lowerOptionalTensor(FunctionLowering &fl,
                                               const ast::Expr *e,
                                               const std::string &what);
/// The element type named by an optional `dtype=`: null when absent or None.
std::optional<mlir::Type> lowerOptionalDtype(FunctionLowering &fl,
                                             const ast::Expr *e);
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

/// softmax / log_softmax over the normalized `dim`, first converting to
/// `dtype` when it is not null; stable because it subtracts the max.
std::optional<mlir::Value> emitSoftmax(FunctionLowering &fl, mlir::Value x,
                                       int64_t dim, mlir::Type dtype, bool log,
                                       SourceRange where);

} // namespace kiln::nn

#endif // KILN_FRONTEND_LOWERNNSUPPORT_H
