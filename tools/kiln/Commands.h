//===- Commands.h - The subcommands of the kiln driver --------------------===//
#ifndef KILN_TOOLS_KILN_COMMANDS_H
#define KILN_TOOLS_KILN_COMMANDS_H

#include "run/RunCommand.h"

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace kiln {

struct CompileOptions {
  std::string input;
  std::string emit; // empty: ir, or nothing when writing an archive
  std::vector<std::string> args;
  std::vector<std::string> entries;
  bool locations = false;
  std::string output;     // -o: the .kiln archive to write
  unsigned optLevel = 2;  // -O0 .. -O3
  std::string targetCpu = "host"; // --target-cpu: one name or a list
  std::string targetFeatures;     // --target-features: +avx2,-avx512f
  std::string target = "cpu";     // --target: cpu or cuda
  std::string cudaArchs;          // --cuda-arch: sm_80,sm_90 by default
  bool allowTf32 = false;         // --allow-tf32: TF32 in cuBLAS and cuDNN
  std::string convLayout = "auto"; // --conv-layout: auto, channels-last
                                   // or as-written
  // Watching and steering the kiln-level pass pipeline.
  std::string passes; // --passes: replaces the -O pipeline
  bool printIRAfterAll = false;
  std::vector<std::string> printIRBefore; // pass names
  std::vector<std::string> printIRAfter;
  bool passTiming = false;
  unsigned unrollFactor = 8;
  unsigned unrollMaxBody = 32;
  // Values for the weights an nn.Module declares.
  std::string weights;                   // --weights FILE.safetensors
  std::optional<uint64_t> randomWeights; // --random-weights=SEED
  // --module-description DESC.json: the instance, described by Python.
  std::string moduleDescription;
  // Building an --entry class in Python (InitInPython.h).
  std::vector<std::string> initArgs; // --init-arg NAME=VALUE
  unsigned initTimeout = 300;        // --init-timeout SECONDS
};

/// Registers `kiln compile` on `app`; the options are filled when parsed.
CLI::App *addCompileCommand(CLI::App &app, CompileOptions &options);
/// Runs `kiln compile`; returns the process exit code.
int runCompile(const CompileOptions &options);

// `kiln run` (RunOptions, addRunCommand, runRun) is the runtime's
// run/RunCommand.h, shared with kiln-run.

struct InspectOptions {
  std::string archive;
  bool ir = false;
};

CLI::App *addInspectCommand(CLI::App &app, InspectOptions &options);
int runInspect(const InspectOptions &options);

/// `kiln ops`, hidden: the op table for tests and docs (OpsCommand.cpp).
struct OpsOptions {
  bool json = false;
  bool markdown = false;
};

CLI::App *addOpsCommand(CLI::App &app, OpsOptions &options);
int runOps(const OpsOptions &options);

} // namespace kiln

#endif // KILN_TOOLS_KILN_COMMANDS_H
