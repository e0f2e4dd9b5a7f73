//===- kiln-run.cpp - Run a .kiln archive, without the compiler -----------===//
//
// `kiln run` and `kiln bench` for deployment machines: built with the
// runtime alone (no LLVM, no MLIR), from the same library as the compiler's
// `kiln run` and `kiln bench`. `kiln-run ARCHIVE ...` runs;
// `kiln-run bench ARCHIVE ...` times.
//
//===----------------------------------------------------------------------===//
#include "run/RunCommand.h"

#include <CLI/CLI.hpp>

#include <cstring>

namespace {

int bench(int argc, char **argv) {
  CLI::App app{"kiln-run bench: time an entry point of a .kiln archive (the "
               "runtime-only `kiln bench`)",
               "kiln-run bench"};
  kiln::BenchOptions options;
  kiln::addBenchOptions(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return kiln::reportParseError(app, e);
  }
  return kiln::runBench(options);
}

} // namespace

int main(int argc, char **argv) {
  // A subcommand word first, so that `kiln-run ARCHIVE` keeps meaning run
  // (an archive called "bench" is still reachable as ./bench).
  if (argc > 1 && std::strcmp(argv[1], "bench") == 0)
    return bench(argc - 1, argv + 1);
  CLI::App app{"kiln-run: run an entry point of a .kiln archive (the "
               "runtime-only `kiln run`); `kiln-run bench --help` tells how "
               "to time one"};
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
