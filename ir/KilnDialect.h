//===- KilnDialect.h - the kiln dialect --------------------------*- C++ -*-===//
//
// The one header users include: the dialect, its list type, the CmpPredicate
// enum and every op. Result types for the ops come from ShapeInference.h.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IR_KILNDIALECT_H
#define KILN_IR_KILNDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln {

/// What print and assert write to: keeps CSE from merging them and DCE from
/// removing them.
struct OutputResource
    : public mlir::SideEffects::Resource::Base<OutputResource> {
  llvm::StringRef getName() final { return "kiln::Output"; }
};

/// The random generator's state, read and advanced by rand and randn.
struct RNGStateResource
    : public mlir::SideEffects::Resource::Base<RNGStateResource> {
  llvm::StringRef getName() final { return "kiln::RNGState"; }
};

/// The module attribute that declares every kiln.param: a dictionary from
/// state_dict() name to tensor type.
inline constexpr llvm::StringLiteral kParamsAttrName = "kiln.params";

/// Registers the kiln dialect and those kiln IR uses (arith, func, scf,
/// tensor), plus func's inliner extension, so --inline can inline calls.
void registerDialects(mlir::DialectRegistry &registry);

} // namespace kiln

#include "ir/KilnDialect.h.inc"
#include "ir/KilnEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ir/KilnTypes.h.inc"

#define GET_OP_CLASSES
#include "ir/KilnOps.h.inc"

#endif // KILN_IR_KILNDIALECT_H
