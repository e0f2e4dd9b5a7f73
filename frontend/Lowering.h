//===- Lowering.h - AST to kiln IR ----------------------------------------===//
//
// The public entry of the frontend's second half: it takes a parsed module
// and the argument specs, and builds an MLIR module holding one `func.func`
// per entry point plus private specializations of the helpers they call.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_LOWERING_H
#define KILN_FRONTEND_LOWERING_H

#include "frontend/AST.h"
#include "frontend/ArgSpec.h"
#include "frontend/Diagnostics.h"
#include "frontend/ModuleObject.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace kiln {

struct ModuleDescription;

struct LoweringOptions {
  /// Shapes given on the command line; they win over `# kiln:` comments.
  std::vector<ArgSpec> argSpecs;
  /// Functions to compile. Empty means every @torch.jit.script function.
  std::vector<std::string> entries;
  /// When set, the module class entry is built from this description
  /// (ModuleDescription.h) instead of running its __init__.
  const ModuleDescription *description = nullptr;
};

/// Loads the dialects the lowering produces into `context`.
void loadFrontendDialects(mlir::MLIRContext &context);

/// Lowers the entry points of `module`. On failure returns null and leaves
/// the reasons in `diags`. When an entry is an nn.Module class and
/// `weights` is given, it receives the weights the module declares, in
/// state_dict() order (the IR's `kiln.params` lists them by name).
mlir::OwningOpRef<mlir::ModuleOp>
lowerToIR(mlir::MLIRContext &context, const ast::Module &module,
          DiagnosticEngine &diags, const LoweringOptions &options,
          std::vector<DeclaredWeight> *weights = nullptr);

} // namespace kiln

#endif // KILN_FRONTEND_LOWERING_H
