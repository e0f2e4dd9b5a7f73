//===- kiln.cpp - The kiln command-line driver ----------------------------===//
//
// `kiln compile model.py -o model.kiln`, `kiln inspect`, `kiln run`,
// `kiln bench`. Each subcommand lives in its
// own file (`kiln run` in the runtime's tree, shared with kiln-run); this one
// only dispatches.
//
//===----------------------------------------------------------------------===//
#include "tools/kiln/Commands.h"

#include <optional>
#include <utility> // llvm/Support/thread.h uses std::exchange without it

#include "llvm/Support/thread.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
  CLI::App app{"kiln: an ahead-of-time compiler for TorchScript-style Python"};
  app.set_version_flag("--version", "kiln " KILN_VERSION_STRING);
  app.require_subcommand(1);
  kiln::CompileOptions compile;
  CLI::App *compileCmd = kiln::addCompileCommand(app, compile);
  kiln::InspectOptions inspect;
  CLI::App *inspectCmd = kiln::addInspectCommand(app, inspect);
  kiln::RunOptions run;
  CLI::App *runCmd = kiln::addRunCommand(app, run);
  kiln::BenchOptions bench;
  CLI::App *benchCmd = kiln::addBenchCommand(app, bench);
  kiln::OpsOptions ops;
  CLI::App *opsCmd = kiln::addOpsCommand(app, ops);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    // --help exits 0; every usage error exits 2, whatever CLI11's own code.
    return kiln::reportParseError(app, e);
  }
  if (compileCmd->parsed()) {
    // The frontend recurses once per nesting level of the source, up to
    // frontend's kMaxLoweringDepth; 1 GiB of stack (address space, touched
    // only as deep as a file nests) holds that bound even with a
    // sanitizer's larger frames, where the main thread's 8 MiB would not.
    int status = 1;
    llvm::thread compiler(std::optional<unsigned>(1u << 30),
                          [&] { status = kiln::runCompile(compile); });
    compiler.join();
    return status;
  }
  if (inspectCmd->parsed())
    return kiln::runInspect(inspect);
  if (runCmd->parsed())
    return kiln::runRun(run);
  if (benchCmd->parsed())
    return kiln::runBench(bench);
  if (opsCmd->parsed())
    return kiln::runOps(ops);
  return 2;
}
