//===- EntryBoundary.h - Entry points take and return only tensors --------===//
#ifndef KILN_CODEGEN_LOWERING_ENTRYBOUNDARY_H
#define KILN_CODEGEN_LOWERING_ENTRYBOUNDARY_H

#include "mlir/IR/BuiltinOps.h"

namespace kiln::codegen {

/// Gives every `kiln.entry` function the ABI's all-tensor signature (Python
/// scalars become rank-0 tensors) and C interface, and makes every other
/// function private.
void rewriteEntryBoundaries(mlir::ModuleOp module);

/// After lowering: an entry point's tensor result that may be a view (a
/// slice, a reshape, an argument, a loop result) is copied into a fresh
/// dense buffer, because the ABI hands results to the runtime as dense,
/// separately owned buffers.
void copyViewResults(mlir::ModuleOp module);

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_ENTRYBOUNDARY_H
