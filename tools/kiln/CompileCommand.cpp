//===- CompileCommand.cpp - `kiln compile` --------------------------------===//
//
// Reads a Python file, parses it, lowers its entry points to kiln IR and
// prints the requested stage. Every user error is rendered clang-style on
// stderr and the exit code is 1; a bad flag exits with 2, as CLI11 does.
//
//===----------------------------------------------------------------------===//
#include "tools/kiln/Commands.h"

#include "frontend/ArgSpec.h"
#include "frontend/AstPrinter.h"
#include "frontend/Lowering.h"
#include "frontend/Parser.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

namespace kiln {

CLI::App *addCompileCommand(CLI::App &app, CompileOptions &o) {
  CLI::App *cmd = app.add_subcommand(
      "compile", "Compile the @torch.jit.script functions of a Python file");
  cmd->add_option("file", o.input, "The Python source file")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--emit", o.emit,
                  "What to print: ast (the syntax tree) or ir (kiln IR as "
                  "lowered from the source)")
      ->check(CLI::IsMember({"ast", "ir"}));
  cmd->add_option("--arg", o.args,
                  "Shape of a tensor argument, e.g. x=f32[B,784]; overrides a "
                  "'# kiln:' comment in the script")
      ->type_name("NAME=DTYPE[DIMS]");
  cmd->add_option("--entry", o.entries,
                  "Compile this function (repeatable); default: every "
                  "@torch.jit.script function")
      ->type_name("NAME");
  cmd->add_flag("--locations", o.locations,
                "Print source locations (file:line:col) on every op");
  return cmd;
}

int runCompile(const CompileOptions &o) {
  std::ifstream in(o.input, std::ios::binary);
  if (!in) {
    std::cerr << "kiln: error: cannot read '" << o.input << "'\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  SourceFile file(o.input, text.str());
  DiagnosticEngine diags(file);

  LoweringOptions lowering;
  for (const std::string &a : o.args) {
    SpecResult<ArgSpec> spec = parseArgSpec(a);
    if (!spec.ok()) {
      std::cerr << "kiln: error: --arg " << a << ": " << spec.error << "\n";
      return 2;
    }
    lowering.argSpecs.push_back(spec.value);
  }
  lowering.entries = o.entries;

  ast::Module module = parseModule(file);
  if (o.emit == "ast") {
    std::cout << printAST(module);
    return 0;
  }

  mlir::MLIRContext context;
  // MLIR's own diagnostics only appear for internal errors (a verifier
  // failure after lowering); show them rather than lose them.
  mlir::ScopedDiagnosticHandler handler(&context, [](mlir::Diagnostic &d) {
    llvm::errs() << "kiln: internal: " << d << "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      lowerToIR(context, module, diags, lowering);
  if (!ir) {
    std::cerr << diags.renderAll();
    return 1;
  }
  mlir::OpPrintingFlags flags;
  if (o.locations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
        .useLocalScope();
  ir->print(llvm::outs(), flags);
  llvm::outs() << "\n";
  return 0;
}

} // namespace kiln
