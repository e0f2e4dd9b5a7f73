//===- kiln-run.cpp - Run a .kiln archive, without the compiler -----------===//
//
// `kiln run` for deployment machines: built with the runtime alone (no LLVM,
// no MLIR), from the same library as the compiler's `kiln run`.
//
//===----------------------------------------------------------------------===//
#include "run/RunCommand.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
  CLI::App app{"kiln-run: run an entry point of a .kiln archive (the "
               "runtime-only `kiln run`)"};
  app.set_version_flag("--version", "kiln-run " KILN_VERSION_STRING);
  kiln::RunOptions options;
  kiln::addRunOptions(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return kiln::reportParseError(app, e);
  }
  return kiln::runRun(options);
}
