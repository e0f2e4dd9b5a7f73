//===- FuzzParser.cpp - libFuzzer target: Python source to kiln IR -------===//
//
// Source text in, diagnostics or verified IR out: the lexer, parser and
// lowering (including the compile-time __init__ interpreter) on any bytes.
// A finding is a crash, a sanitizer report, a hang, or lowered IR that the
// verifier rejects, since the frontend promises either diagnostics or valid
// IR. No code is generated: that is what the golden and e2e tests cover.
//
//===----------------------------------------------------------------------===//

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"
#include "frontend/Lowering.h"
#include "frontend/Parser.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace kiln;

namespace {

/// One context for the whole run: creating one per input would dominate the
/// time. Lowering leaves nothing in it but uniqued types and attributes.
mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    auto *c = new mlir::MLIRContext();
    loadFrontendDialects(*c);
    // The frontend reports user errors through its DiagnosticEngine; an
    // MLIR error (the verifier's, after lowering) is an internal error,
    // as `kiln compile` reports it, and so a finding.
    c->getDiagEngine().registerHandler([](mlir::Diagnostic &d) {
      llvm::errs() << "mlir diagnostic: " << d << "\n";
      if (d.getSeverity() == mlir::DiagnosticSeverity::Error)
        std::abort();
      return mlir::success();
    });
    return c;
  }();
  return *ctx;
}

void lowerAndVerify(const ast::Module &module, const SourceFile &file,
                    const LoweringOptions &options) {
  DiagnosticEngine diags(file);
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      lowerToIR(context(), module, diags, options);
  if (!ir) {
    (void)diags.renderAll(); // rendering escapes any bytes; exercise it
    return;
  }
  if (mlir::failed(mlir::verify(*ir)))
    std::abort(); // lowerToIR verifies; this would be a second bug
  std::string text;
  llvm::raw_string_ostream stream(text);
  ir->print(stream);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  SourceFile file("fuzz.py",
                  std::string(reinterpret_cast<const char *>(data), size));
  ast::Module module = parseModule(file);
  // Every @torch.jit.script function, as `kiln compile` does by default...
  lowerAndVerify(module, file, LoweringOptions());
  // ...and each class as an nn.Module entry, as `--entry Net` does, so that
  // the module interpreter is fuzzed too.
  for (const ast::StmtPtr &item : module.items) {
    auto *cls = llvm::dyn_cast<ast::ClassDef>(item.get());
    if (!cls)
      continue;
    LoweringOptions options;
    options.entries.push_back(cls->name);
    lowerAndVerify(module, file, options);
  }
  return 0;
}
