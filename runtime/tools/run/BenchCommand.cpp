//===- BenchCommand.cpp - `kiln bench` and `kiln-run bench` ---------------===//
//
// Times an entry point as an app would call it: Model::load, then run() on
// the same inputs again and again, then the same through Function::run,
// which writes into outputs made once and allocates nothing. Each call is
// timed alone, so the minimum (the code's speed on a quiet machine), the
// median and the maximum (a page fault or a preempted thread) all show.
// The first call is reported apart, because a slow first call is exactly
// what an ahead-of-time compiler promises away. It comes after the inputs
// are made, an idle gap the JSON reports, and an idle processor or GPU is
// slower to start (clocks, caches): --pause-ms times warm calls after
// the same idle, so that a first call is compared with its like.
//
//===----------------------------------------------------------------------===//
#include "RunCommand.h"
#include "RunInputs.h"

#include "Untrusted.h"
#include "kiln/Model.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <thread>

namespace kiln {

void addBenchOptions(CLI::App &cmd, BenchOptions &o) {
  addInputOptions(cmd, o.run);
  cmd.add_option("--threads", o.threads,
                 "Threads per call (LoadOptions::numThreads); default "
                 "KILN_NUM_THREADS, else the cores")
      ->type_name("N")
      ->check(CLI::Range(1u, 256u));
  cmd.add_option("--iterations", o.iterations,
                 "Timed calls after the warm-up (default 100)")
      ->type_name("K")
      ->check(CLI::Range(1u, 100000000u));
  cmd.add_option("--warmup", o.warmup,
                 "Untimed calls after the first one (default 3)")
      ->type_name("K")
      ->check(CLI::Range(0u, 100000000u));
  cmd.add_option("--pause-ms", o.pauseMs,
                 "Idle this long before each timed call (untimed), to time "
                 "calls that find the machine idle as a first call does "
                 "(default 0: back to back)")
      ->type_name("MS")
      ->check(CLI::Range(0u, 10000u));
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

template <typename T> bool reported(const Result<T> &result) {
  if (result)
    return true;
  fmt::print(stderr, "kiln: error: {}\n", result.error().message);
  return false;
}

/// Min, median and max of `calls` timed calls of `call` (which returns
/// false after printing an error), each after `pauseMs` idle, after
/// `warmup` untimed ones; empty on an error.
template <typename Call>
std::vector<double> timeCalls(unsigned warmup, unsigned calls, unsigned pauseMs,
                              Call call) {
  for (unsigned i = 0; i < warmup; ++i)
    if (!call())
      return {};
  std::vector<double> times;
  times.reserve(calls);
  for (unsigned i = 0; i < calls; ++i) {
    if (pauseMs > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(pauseMs));
    Clock::time_point start = Clock::now();
    if (!call())
      return {};
    times.push_back(microseconds(Clock::now() - start));
  }
  std::sort(times.begin(), times.end());
  return {times.front(), times[times.size() / 2], times.back()};
}

} // namespace

int runBench(const BenchOptions &o) {
  Clock::time_point start = Clock::now();
  LoadOptions options;
  if (!applyLoadOptions(o.run, options))
    return 2;
  options.numThreads = static_cast<int>(o.threads);
  Result<Model> model = Model::load(o.run.archive, options);
  Clock::time_point loaded = Clock::now();
  double loadUs = microseconds(loaded - start);
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
  double idleUs = microseconds(start - loaded);
  Result<std::vector<Tensor>> first = model->run(entry->name, inputs);
  double firstUs = microseconds(Clock::now() - start);
  if (!reported(first))
    return 1;
  std::vector<double> run = timeCalls(o.warmup, o.iterations, o.pauseMs, [&] {
    return reported(model->run(entry->name, inputs));
  });
  Result<Function> function = model->function(entry->name);
  if (run.empty() || !reported(function))
    return 1;
  // Outputs shaped as the first call's results, which these inputs give.
  // On the model's device, so that a CUDA archive's results stay there.
  std::vector<Tensor> outputs;
  for (const Tensor &result : *first) {
    Result<Tensor> output =
        copyTo(Tensor::zeros(result.dtype(), result.shape()), model->device());
    if (!reported(output))
      return 1;
    outputs.push_back(*output);
  }
  std::vector<double> into = timeCalls(o.warmup, o.iterations, o.pauseMs, [&] {
    return reported(function->run(inputs, outputs));
  });
  if (into.empty())
    return 1;
  if (o.json) {
    fmt::print("{{\"entry\": {}, \"device\": \"{}\", \"inputs_on\": \"{}\", "
               "\"cpu_target\": {}, \"threads\": {}, \"warm_at_load\": {}, "
               "\"load_us\": {:.3f}, \"first_us\": {:.3f}, "
               "\"idle_before_first_us\": {:.3f}, \"pause_ms\": {}, "
               "\"iterations\": {}, \"min_us\": {:.4f}, \"median_us\": {:.4f}, "
               "\"max_us\": "
               "{:.4f}, \"function_min_us\": {:.4f}, \"function_median_us\": "
               "{:.4f}, \"function_max_us\": {:.4f}}}\n",
               jsonString(entry->name), deviceName(model->device()),
               o.run.inputsOn, jsonString(model->cpuTarget()),
               model->numThreads(), o.run.warmAtLoad, loadUs, firstUs, idleUs,
               o.pauseMs, o.iterations, run[0], run[1], run[2], into[0],
               into[1], into[2]);
    return 0;
  }
  fmt::print("{} ({}{}, {} thread{}), entry {}, inputs on {}\n", o.run.archive,
             model->device() == Device::CUDA ? "cuda, host code " : "",
             model->cpuTarget(), model->numThreads(),
             model->numThreads() == 1 ? "" : "s", escaped(entry->name),
             o.run.inputsOn);
  fmt::print("load:       {}{}\n", humanTime(loadUs),
             o.run.warmAtLoad ? " (with a warm-up call of each entry)" : "");
  fmt::print("first call: {} ({} after the load)\n", humanTime(firstUs),
             humanTime(idleUs));
  fmt::print("per call:   min {}, median {}, max {} ({} calls after {} "
             "warm-up{})\n",
             humanTime(run[0]), humanTime(run[1]), humanTime(run[2]),
             o.iterations, o.warmup,
             o.pauseMs > 0 ? fmt::format(", each after {} ms idle", o.pauseMs)
                           : "");
  fmt::print("Function:   min {}, median {}, max {} (Function::run into "
             "outputs made once)\n",
             humanTime(into[0]), humanTime(into[1]), humanTime(into[2]));
  return 0;
}

} // namespace kiln
