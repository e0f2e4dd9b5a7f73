//===- FuzzParser.cpp - libFuzzer target: Python source to kiln IR -------===//
//
// Source text in, diagnostics or verified IR out: the lexer, parser and
// lowering on any bytes. (A class's instance comes from Python, so classes
// are not entries here; test/description fuzzes the descriptions.)
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
#include <memory>
#include <string>

using namespace kiln;

namespace {

/// The frontend's dialects, with a handler that turns an MLIR error (the
/// verifier's, after lowering) into a finding: the frontend reports user
/// errors through its DiagnosticEngine, so an MLIR error is an internal one,
/// as `kiln compile` reports it.
std::unique_ptr<mlir::MLIRContext> makeContext() {
  auto c = std::make_unique<mlir::MLIRContext>();
  loadFrontendDialects(*c);
  c->getDiagEngine().registerHandler([](mlir::Diagnostic &d) {
    llvm::errs() << "mlir diagnostic: " << d << "\n";
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error)
      std::abort();
    return mlir::success();
  });
  return c;
}

/// A context per input would dominate the time; one for the whole run
/// grows without bound, since every input's names and locations stay
/// uniqued in it. So a fresh one every few hundred inputs.
mlir::MLIRContext &context() {
  static std::unique_ptr<mlir::MLIRContext> ctx;
  static unsigned uses = 0;
  if (!ctx || ++uses % 500 == 0)
    ctx = makeContext();
  return *ctx;
}

void lowerAndVerify(mlir::MLIRContext &context, const ast::Module &module,
                    const SourceFile &file, const LoweringOptions &options) {
  DiagnosticEngine diags(file);
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      lowerToIR(context, module, diags, options);
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
  // Every @torch.jit.script function, as `kiln compile` does by default.
  lowerAndVerify(context(), module, file, LoweringOptions());
  return 0;
}
