//===- EntryBoundary.h - Entry points take and return only tensors --------===//
#ifndef KILN_CODEGEN_LOWERING_ENTRYBOUNDARY_H
#define KILN_CODEGEN_LOWERING_ENTRYBOUNDARY_H

#include "mlir/IR/BuiltinOps.h"

namespace kiln::codegen {

/// Gives every `kiln.entry` function the ABI's all-tensor signature (Python
/// scalars become rank-0 tensors) and C interface, and makes every other
/// function private.
void rewriteEntryBoundaries(mlir::ModuleOp module);

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_ENTRYBOUNDARY_H
