//===- VerifierSupport.h - Helpers shared by the kiln op verifiers --------===//
//
// Private to ir/: the verifiers of KilnOps.cpp and KilnShapeOps.cpp check
// result types the same way, against ShapeInference.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_IR_VERIFIERSUPPORT_H
#define KILN_IR_VERIFIERSUPPORT_H

#include "mlir/IR/Operation.h"

#include <string>

namespace kiln {

/// Reports `why` when inference failed (`inferred` is null), else checks
/// that `actual` is compatible with `inferred`.
mlir::LogicalResult checkInferred(mlir::Operation *op, mlir::Type inferred,
                                  const std::string &why, mlir::Type actual);

} // namespace kiln

#endif // KILN_IR_VERIFIERSUPPORT_H
