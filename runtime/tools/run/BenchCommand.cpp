//===- BenchCommand.cpp - `kiln bench` and `kiln-run bench` ---------------===//
//
// Times an entry point as an app would call it: Model::load, then run() on
// the same inputs again and again. Each call is timed alone, so the minimum
// (the code's speed on a quiet machine), the median and the maximum (a
// page fault or a preempted thread) all show. The first call is reported
// apart, because a slow first call is exactly what an ahead-of-time
// compiler promises away.
//
//===----------------------------------------------------------------------===//
#include "RunCommand.h"
#include "RunInputs.h"

#include "kiln/Model.h"
#include "Untrusted.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>

namespace kiln {

void addBenchOptions(CLI::App &cmd, BenchOptions &o) {
  addInputOptions(cmd, o.run);
  cmd.add_option("--iterations", o.iterations,
                 "Timed calls after the warm-up (default 100)")
      ->type_name("K")
      ->check(CLI::Range(1u, 100000000u));
  cmd.add_option("--warmup", o.warmup,
                 "Untimed calls after the first one (default 3)")
      ->type_name("K")
      ->check(CLI::Range(0u, 100000000u));
  cmd.add_flag("--json", o.json,
               "Print one JSON object (times in microseconds) instead of "
               "text");
}

CLI::App *addBenchCommand(CLI::App &app, BenchOptions &o) {
  CLI::App *cmd = app.add_subcommand(
      "bench", "Time an entry point of a .kiln archive: load, first call, "
               "and min/median/max per call");
  addBenchOptions(*cmd, o);
  return cmd;
}

namespace {

using Clock = std::chrono::steady_clock;

double microseconds(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

/// "812 ns", "41.3 µs", "2.15 ms", "1.20 s": three significant digits.
std::string humanTime(double us) {
  if (us < 1)
    return fmt::format("{:.0f} ns", us * 1e3);
  if (us < 1e3)
    return fmt::format("{:.3g} µs", us);
  if (us < 1e6)
    return fmt::format("{:.3g} ms", us / 1e3);
  return fmt::format("{:.3g} s", us / 1e6);
}

/// `text` as a JSON string: names come from the archive, which may hold
/// anything.
std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text)
    out += std::isalnum(c) || c == '_' || c == '.' || c == '-'
               ? std::string(1, static_cast<char>(c))
               : fmt::format("\\u{:04x}", c);
  return out + "\"";
}

/// One call; false after printing the error it returned.
bool call(const Model &model, const EntryInfo &entry,
          const std::vector<Tensor> &inputs) {
  Result<std::vector<Tensor>> outputs = model.run(entry.name, inputs);
  if (outputs)
    return true;
  fmt::print(stderr, "kiln: error: {}\n", outputs.error().message);
  return false;
}

} // namespace

int runBench(const BenchOptions &o) {
  Clock::time_point start = Clock::now();
  Result<Model> model = Model::load(o.run.archive);
  double loadUs = microseconds(Clock::now() - start);
  if (!model) {
    fmt::print(stderr, "kiln: error: {}\n", model.error().message);
    return 1;
  }
  const EntryInfo *entry = chooseEntry(*model, o.run);
  if (!entry)
    return 2;
  std::vector<Tensor> inputs;
  if (int status = gatherInputs(o.run, *entry, inputs))
    return status;

  start = Clock::now();
  if (!call(*model, *entry, inputs))
    return 1;
  double firstUs = microseconds(Clock::now() - start);
  for (unsigned i = 0; i < o.warmup; ++i)
    if (!call(*model, *entry, inputs))
      return 1;
  std::vector<double> times;
  times.reserve(o.iterations);
  for (unsigned i = 0; i < o.iterations; ++i) {
    start = Clock::now();
    if (!call(*model, *entry, inputs))
      return 1;
    times.push_back(microseconds(Clock::now() - start));
  }
  std::sort(times.begin(), times.end());
  double median = times[times.size() / 2];
  if (o.json) {
    fmt::print("{{\"entry\": {}, \"cpu_target\": {}, \"load_us\": "
               "{:.3f}, \"first_us\": {:.3f}, \"iterations\": {}, \"min_us\": "
               "{:.4f}, \"median_us\": {:.4f}, \"max_us\": {:.4f}}}\n",
               jsonString(entry->name), jsonString(model->cpuTarget()), loadUs, firstUs,
               times.size(), times.front(), median, times.back());
    return 0;
  }
  fmt::print("{} ({}), entry {}\n", o.run.archive, model->cpuTarget(),
             escaped(entry->name));
  fmt::print("load:       {}\n", humanTime(loadUs));
  fmt::print("first call: {}\n", humanTime(firstUs));
  fmt::print("per call:   min {}, median {}, max {} ({} calls after {} "
             "warm-up)\n",
             humanTime(times.front()), humanTime(median),
             humanTime(times.back()), times.size(), o.warmup);
  return 0;
}

} // namespace kiln
