//===- ParseErrors.cpp - CLI11's errors as `kiln: error:` lines -----------===//
//
// CLI11 words its errors for itself ("file: File does not exist: x.py",
// "A subcommand is required"); the tools print every error the same way,
// `kiln: error: ` and one line that says what to do.
//
//===----------------------------------------------------------------------===//
#include "RunCommand.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cctype>
#include <cstdio>

namespace kiln {
namespace {

std::string subcommandList(const CLI::App &app) {
  std::vector<std::string> names;
  for (const CLI::App *sub : app.get_subcommands({}))
    if (!sub->get_group().empty()) // an empty group hides a maintainer's one
      names.push_back(sub->get_name());
  return fmt::format("{}", fmt::join(names, ", "));
}

/// The message for `error`, with the subcommands named where the problem
/// is which one to run.
std::string describe(const CLI::App &app, const CLI::ParseError &error) {
  std::string what = error.what();
  bool hasSubcommands = !app.get_subcommands({}).empty();
  bool noneChosen = app.get_subcommands().empty();
  if (hasSubcommands && noneChosen &&
      (what == "A subcommand is required" ||
       error.get_name() == "ExtrasError")) {
    // The words CLI11 could not place: `kiln help`, `kiln bench`.
    std::vector<std::string> words = app.remaining();
    if (words.empty())
      return fmt::format("no subcommand given; the subcommands are: {} (see "
                         "kiln --help)",
                         subcommandList(app));
    return fmt::format("unknown {} '{}'; the subcommands are: {} (see kiln "
                       "--help)",
                       words.front()[0] == '-' ? "option" : "subcommand",
                       words.front(), subcommandList(app));
  }
  // CLI11's sentences start with a capital; kiln's messages do not.
  if (what.size() > 1 && std::isupper(static_cast<unsigned char>(what[0])) &&
      std::islower(static_cast<unsigned char>(what[1])))
    what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
  return what;
}

} // namespace

int reportParseError(const CLI::App &app, const CLI::ParseError &error) {
  std::string name = error.get_name();
  if (name == "CallForHelp" || name == "CallForAllHelp" ||
      name == "CallForVersion" || error.get_exit_code() == 0)
    return const_cast<CLI::App &>(app).exit(error) == 0 ? 0 : 2;
  std::fflush(stdout);
  fmt::print(stderr, "kiln: error: {}\n", describe(app, error));
  return 2;
}

} // namespace kiln
