//===- Elementwise.h - ops that compute each element on its own -*- C++ -*-===//
//
// Shared by the passes that move or group such ops (Fusion.cpp,
// ChannelsLast.cpp), so that both agree on what elementwise means.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PASSES_ELEMENTWISE_H
#define KILN_PASSES_ELEMENTWISE_H

namespace mlir {
class Operation;
} // namespace mlir

namespace kiln {

/// Ops whose result element depends only on the operand elements at the
/// same (broadcast) position: each lowers to one all-parallel loop nest.
bool isElementwise(mlir::Operation *op);

} // namespace kiln

#endif // KILN_PASSES_ELEMENTWISE_H
