//===- OpsCommand.cpp - `kiln ops`: the frontend's op table ---------------===//
//
// A maintainer's command, hidden from `kiln --help`: `kiln ops --json`
// prints every row of the op table (schema, spellings, lowering, sample
// inputs) for the generated differential test, and `kiln ops --markdown`
// the table that docs/python-subset.md embeds.
//
//===----------------------------------------------------------------------===//
#include "tools/kiln/Commands.h"

#include "frontend/OpTable.h"

#include <iostream>

#include <CLI/CLI.hpp>

namespace kiln {

CLI::App *addOpsCommand(CLI::App &app, OpsOptions &o) {
  // An empty group hides the subcommand from --help.
  CLI::App *cmd = app.add_subcommand("ops", "Print the torch op table");
  cmd->group("");
  auto *json = cmd->add_flag("--json", o.json, "Rows as JSON");
  cmd->add_flag("--markdown", o.markdown, "Rows as a Markdown table")
      ->excludes(json);
  return cmd;
}

int runOps(const OpsOptions &o) {
  std::cout << (o.markdown ? ops::catalogMarkdown() : ops::catalogJson());
  return 0;
}

} // namespace kiln
