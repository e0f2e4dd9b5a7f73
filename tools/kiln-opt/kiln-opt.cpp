//===- kiln-opt.cpp - mlir-opt for the kiln dialect -----------------------===//
//
// Registers the dialects kiln IR and its lowering use, kiln's passes and
// pipelines, and only the MLIR passes those need, so the tool builds quickly
// (no InitAllDialects.h).
//
// `kiln compile`'s pass flags work here too: they are spelled as mlir-opt
// spells them before MlirOptMain parses the command line.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "ir/KilnDialect.h"
#include "passes/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

/// `--print-ir-after-all` and friends as mlir-opt names them; any other
/// argument is kept as it is.
static std::string toMlirOptSpelling(llvm::StringRef arg) {
  static const std::pair<llvm::StringRef, llvm::StringRef> renames[] = {
      {"--print-ir-after-all", "--mlir-print-ir-after-all"},
      {"--print-ir-before=", "--mlir-print-ir-before="},
      {"--print-ir-after=", "--mlir-print-ir-after="},
      {"--pass-timing", "--mlir-timing"},
  };
  for (auto [from, to] : renames)
    if (arg.starts_with(from) &&
        (from.ends_with("=") || arg.size() == from.size()))
      return (to + arg.drop_front(from.size())).str();
  if (arg.consume_front("--passes="))
    return ("--pass-pipeline=builtin.module(" + arg + ")").str();
  return arg.str();
}

int main(int argc, char **argv) {
  kiln::registerKilnPasses();
  kiln::registerCodegenPasses();

  std::vector<std::string> spelled;
  for (int i = 0; i < argc; ++i)
    spelled.push_back(toMlirOptSpelling(argv[i]));
  std::vector<char *> args;
  for (std::string &s : spelled)
    args.push_back(s.data());
  args.push_back(nullptr);

  mlir::DialectRegistry registry;
  kiln::registerCodegenDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, args.data(), "kiln optimizer driver\n", registry));
}
