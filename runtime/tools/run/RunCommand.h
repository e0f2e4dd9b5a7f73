//===- RunCommand.h - `kiln run` and `kiln-run` ---------------------------===//
//
// The one implementation of running an archive from the command line. It
// lives in the runtime's tree, so that `kiln-run` builds on a deployment
// machine without LLVM or MLIR, and `kiln run` (tools/kiln) links the same
// library.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_TOOLS_RUN_RUNCOMMAND_H
#define KILN_RUNTIME_TOOLS_RUN_RUNCOMMAND_H

#include <string>
#include <vector>

namespace CLI {
class App;
class ParseError;
} // namespace CLI

namespace kiln {

struct RunOptions {
  std::string archive;
  std::string entry;
  std::vector<std::string> inputs; // NAME=SOURCE, see RunInputs.h
  std::vector<std::string> dims;   // SYMBOL=SIZE
  std::string outputDir;
  std::string device;           // --device: whose code runs (cpu, cuda)
  std::string inputsOn = "cpu"; // --inputs-on: where the inputs are made
  bool warmAtLoad = false;      // --warm-at-load: LoadOptions::warmup
  bool noPrepare = false;       // --no-prepare: LoadOptions::prepare off
};

struct LoadOptions;
/// Sets `load` to what --device, --no-prepare and --warm-at-load (with
/// --dim) ask for; false after printing why a --dim is malformed.
bool applyLoadOptions(const RunOptions &options, LoadOptions &load);

/// Adds the archive positional, --entry, --input, --dim, --device,
/// --inputs-on, --warm-at-load and --no-prepare to `cmd`.
void addInputOptions(CLI::App &cmd, RunOptions &options);
/// Adds the run options (the above and --output) to `cmd`: the `kiln run`
/// subcommand, or kiln-run's top-level app.
void addRunOptions(CLI::App &cmd, RunOptions &options);
/// Registers `kiln run` on `app`; the options are filled when parsed.
CLI::App *addRunCommand(CLI::App &app, RunOptions &options);
/// Runs the entry point; returns the process exit code.
int runRun(const RunOptions &options);

/// `kiln bench` and `kiln-run bench`: the run options, plus how to time.
struct BenchOptions {
  RunOptions run;
  unsigned threads = 0; // LoadOptions::numThreads: 0 for the default
  unsigned iterations = 100;
  unsigned warmup = 3;
  unsigned pauseMs = 0; // idle time before each timed call, not timed
  bool json = false;
};

void addBenchOptions(CLI::App &cmd, BenchOptions &options);
CLI::App *addBenchCommand(CLI::App &app, BenchOptions &options);
/// Loads the archive, runs the entry once (the first call), `warmup` more
/// times, then `iterations` timed calls; prints the times. Returns the
/// process exit code.
int runBench(const BenchOptions &options);

/// Prints a command-line error of `app` as `kiln: error: ...` (help and
/// --version as CLI11 prints them) and returns the exit code: 0 for help,
/// 2 for every usage error.
int reportParseError(const CLI::App &app, const CLI::ParseError &error);

} // namespace kiln

#endif // KILN_RUNTIME_TOOLS_RUN_RUNCOMMAND_H
