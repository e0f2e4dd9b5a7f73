//===- EntryBoundary.h - Entry points take and return only tensors --------===//
#ifndef KILN_CODEGEN_LOWERING_ENTRYBOUNDARY_H
#define KILN_CODEGEN_LOWERING_ENTRYBOUNDARY_H

#include "mlir/IR/BuiltinOps.h"

namespace kiln::codegen {

/// Gives every `kiln.entry` function the ABI's all-tensor signature (Python
/// scalars become rank-0 tensors) and C interface, and makes every other
/// function private.
void rewriteEntryBoundaries(mlir::ModuleOp module);

/// Turns every kiln.param into a function argument. Each function that
/// reads weights, itself or through the functions it calls, takes them as
/// trailing arguments marked `kiln.weight = i`, where i indexes the module's
/// `kiln.params` in name order (the archive's weight table), and its
/// callers pass theirs on. An entry point's weight arguments are filled by
/// the ABI glue from the code object's weight slots, not by the runtime's
/// caller. Runs on kiln IR, before the conversion.
void passWeightsAsArguments(mlir::ModuleOp module);

/// After lowering: an entry point's tensor result that may be a view (a
/// slice, a reshape, an argument, a loop result) is copied into a fresh
/// dense buffer, because the ABI hands results to the runtime as dense,
/// separately owned buffers.
void copyViewResults(mlir::ModuleOp module);

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_ENTRYBOUNDARY_H
