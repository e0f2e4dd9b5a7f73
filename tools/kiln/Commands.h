//===- Commands.h - The subcommands of the kiln driver --------------------===//
#ifndef KILN_TOOLS_KILN_COMMANDS_H
#define KILN_TOOLS_KILN_COMMANDS_H

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
};

/// Registers `kiln compile` on `app`; the options are filled when parsed.
CLI::App *addCompileCommand(CLI::App &app, CompileOptions &options);
/// Runs `kiln compile`; returns the process exit code.
int runCompile(const CompileOptions &options);

} // namespace kiln

#endif // KILN_TOOLS_KILN_COMMANDS_H
