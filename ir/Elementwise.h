//===- Elementwise.h - ops that compute each element on its own -*- C++ -*-===//
//
// What the passes that move or group such ops (passes/Fusion.cpp,
// passes/ChannelsLast.cpp) agree elementwise means.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_IR_ELEMENTWISE_H
#define KILN_IR_ELEMENTWISE_H

namespace mlir {
class Operation;
} // namespace mlir

namespace kiln {

/// Ops whose result element depends only on the operand elements at the
/// same (broadcast) position: each lowers to one all-parallel loop nest.
bool isElementwise(mlir::Operation *op);

} // namespace kiln

#endif // KILN_IR_ELEMENTWISE_H
