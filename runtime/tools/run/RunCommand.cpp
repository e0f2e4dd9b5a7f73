//===- RunCommand.cpp - `kiln run` and `kiln-run` -------------------------===//
//
// Loads an archive with the runtime (exactly as a C++ app would), feeds an
// entry point the inputs RunInputs.h describes, prints each output as
// PyTorch prints it and writes them as .npy files.
//
//===----------------------------------------------------------------------===//
#include "RunCommand.h"
#include "RunInputs.h"

#include "kiln/Format.h"
#include "kiln/Model.h"
#include "kiln/Npy.h"
#include "Untrusted.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

namespace kiln {

void addInputOptions(CLI::App &cmd, RunOptions &o) {
  cmd.add_option("archive", o.archive, "The .kiln archive")->required();
  cmd.add_option("--entry", o.entry,
                 "The entry point to run; may be omitted when the archive "
                 "has only one")
      ->type_name("NAME");
  // One value per occurrence, so that a repeated option never swallows the
  // archive that follows it.
  cmd.add_option("--input", o.inputs,
                 "An input (repeatable): a .npy file; a literal scalar such "
                 "as 1.5, 3 or true; a SHAPExDTYPE=VALUES literal such as "
                 "'2x2xf32=1 2 3 4' or 'f32=1.5'; random values (normal "
                 "for floats, 0..9 for ints) from a seed; or None for an "
                 "Optional input, which may also be left out")
      ->type_name(
          "NAME=FILE.npy|VALUE|SHAPExDTYPE=VALUES|random[:SEED]|None")
      ->allow_extra_args(false);
  cmd.add_option("--dim", o.dims,
                 "Size of a dim symbol for random inputs, e.g. N=8 (default "
                 "4); an input read from a file or literal must agree "
                 "(repeatable)")
      ->type_name("SYMBOL=SIZE")
      ->allow_extra_args(false);
  cmd.add_option("--device", o.device,
                 "Which of the archive's code runs: cuda (its GPU code, the "
                 "default when it has some) or cpu (its CPU code, the "
                 "default otherwise; the fallback of a --target=cpu,cuda "
                 "archive)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  cmd.add_option("--inputs-on", o.inputsOn,
                 "Where the inputs are placed before the call: cpu (the "
                 "default) or cuda (copied to the GPU first, as a CUDA "
                 "tensor an app passes; rank-0 inputs stay on the CPU)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  cmd.add_flag("--warm-at-load", o.warmAtLoad,
               "Call every entry point once at load, on zeros shaped by "
               "--dim (LoadOptions::warmup), so that the first call finds "
               "the GPU's memory and libraries and oneDNN's primitives "
               "ready");
  cmd.add_flag("--no-prepare", o.noPrepare,
               "Do not get the archive's static-shaped work ready at load "
               "(LoadOptions::prepare): the first call then builds oneDNN's "
               "primitives, packs their weights and faults in its memory");
}

void addRunOptions(CLI::App &cmd, RunOptions &o) {
  addInputOptions(cmd, o);
  cmd.add_option("--output", o.outputDir,
                 "Write each output to DIR/<entry>.<result>.npy, creating DIR "
                 "first")
      ->type_name("DIR");
}

CLI::App *addRunCommand(CLI::App &app, RunOptions &o) {
  CLI::App *cmd =
      app.add_subcommand("run", "Run an entry point of a .kiln archive");
  addRunOptions(*cmd, o);
  return cmd;
}

namespace {

template <typename... Args>
void error(fmt::format_string<Args...> format, Args &&...args) {
  fmt::print(stderr, "kiln: error: {}\n",
             fmt::format(format, std::forward<Args>(args)...));
}

bool splitAssignment(const std::string &text, std::string &name,
                     std::string &value) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return false;
  name = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}

/// Whether `name`, read from the archive, may be part of an output file
/// name: a hostile manifest must not make `--output DIR` write elsewhere.
bool safeFileName(const std::string &name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

/// Creates `dir` and its parents unless it is a folder already; an error
/// message otherwise. Done before the run, so that a long run never ends in
/// a path it cannot write.
std::string makeFolder(const std::string &dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(dir, error) && !fs::is_directory(dir, error))
    return "it exists and is not a folder";
  if (!fs::create_directories(dir, error) && error)
    return "cannot create " + inQuotes(dir) + ": " +
           systemError(error.value());
  return "";
}

} // namespace

const EntryInfo *chooseEntry(const Model &model, const RunOptions &o) {
  std::vector<std::string> names;
  for (const EntryInfo &e : model.entries())
    names.push_back(escaped(e.name));
  if (o.entry.empty()) {
    if (model.entries().size() == 1)
      return &model.entries()[0];
    error("the archive has {} entry points; choose one with --entry: {}",
          model.entries().size(), fmt::join(names, " "));
    return nullptr;
  }
  if (const EntryInfo *entry = model.entry(o.entry))
    return entry;
  error("no entry point '{}' in the archive; it has: {}", o.entry,
        fmt::join(names, " "));
  return nullptr;
}

namespace {

/// One --dim flag, SYMBOL=SIZE; false after printing why it is malformed.
bool parseDim(const std::string &flag, std::string &name, int64_t &size) {
  std::string value;
  char *end = nullptr;
  long long parsed = 0;
  errno = 0;
  if (splitAssignment(flag, name, value))
    parsed = std::strtoll(value.c_str(), &end, 10);
  if (!end || end == value.c_str() || *end != '\0' || parsed < 0 ||
      errno == ERANGE) {
    error("--dim {}: expected SYMBOL=SIZE with a size >= 0, e.g. N=8", flag);
    return false;
  }
  size = parsed;
  return true;
}

/// Parses --dim; every symbol must be one of the entry's.
bool parseDims(const RunOptions &o, const EntryInfo &entry,
               std::map<std::string, int64_t> &dims) {
  std::set<std::string> symbols;
  for (const ValueInfo &arg : entry.args)
    for (const DimInfo &dim : arg.dims)
      if (!dim.symbol.empty())
        symbols.insert(escaped(dim.symbol));
  for (const std::string &d : o.dims) {
    std::string name;
    int64_t size;
    if (!parseDim(d, name, size))
      return false;
    if (!symbols.count(escaped(name))) {
      error("--dim {}: no input of '{}' has a dim named '{}'; {}", d,
            escaped(entry.name), name,
            symbols.empty() ? std::string("its inputs have no dim symbols")
                            : fmt::format("its dim symbols are: {}",
                                          fmt::join(symbols, " ")));
      return false;
    }
    dims[name] = size;
  }
  return true;
}

/// An input whose shape came from data must agree with every --dim given
/// for its symbols; the mismatch is an error rather than a silent choice.
bool checkDimsAgree(const ValueInfo &arg, const std::string &source,
                    const Tensor &tensor,
                    const std::map<std::string, int64_t> &dims) {
  if (tensor.rank() != static_cast<int64_t>(arg.dims.size()))
    return true; // Model::run reports the rank
  for (size_t i = 0; i < arg.dims.size(); ++i) {
    auto given = dims.find(arg.dims[i].symbol);
    if (arg.dims[i].symbol.empty() || given == dims.end() ||
        given->second == tensor.shape()[i])
      continue;
    error("--dim {}={} disagrees with --input {}={}, which has {} = {} in "
          "dim {}",
          given->first, given->second, arg.name, source, given->first,
          tensor.shape()[i], i);
    return false;
  }
  return true;
}

} // namespace

bool applyLoadOptions(const RunOptions &o, LoadOptions &load) {
  if (!o.device.empty())
    load.device = o.device == "cuda" ? Device::CUDA : Device::CPU;
  load.warmup = o.warmAtLoad;
  load.prepare = !o.noPrepare;
  if (o.warmAtLoad)
    for (const std::string &d : o.dims) {
      std::string name;
      int64_t size;
      if (!parseDim(d, name, size))
        return false;
      load.warmupDims[name] = size;
    }
  return true;
}

int gatherInputs(const RunOptions &o, const EntryInfo &entry,
                 std::vector<Tensor> &inputs) {
  std::map<std::string, int64_t> dims;
  if (!parseDims(o, entry, dims))
    return 2;
  std::map<std::string, std::string> given;
  for (const std::string &input : o.inputs) {
    std::string name, source;
    if (!splitAssignment(input, name, source)) {
      error("--input {}: expected NAME=FILE.npy, NAME=VALUE, "
            "NAME=SHAPExDTYPE=VALUES or NAME=random[:SEED]",
            input);
      return 2;
    }
    if (std::none_of(entry.args.begin(), entry.args.end(),
                     [&](const ValueInfo &a) { return a.name == name; })) {
      // A List or Tuple parameter's elements are inputs "xs.0", "xs.1",
      // ...; no Python name has a dot, so the prefix is only theirs.
      std::vector<std::string> elements;
      for (const ValueInfo &a : entry.args)
        if (a.name.rfind(name + ".", 0) == 0)
          elements.push_back(escaped(a.name) + "=...");
      if (!elements.empty())
        error("--input {}: '{}' is a list or tuple, whose elements are "
              "inputs of their own: give --input {}",
              input, name, fmt::join(elements, " --input "));
      else
        error("--input {}: '{}' has no input named '{}'", input, entry.name,
              name);
      return 2;
    }
    given[name] = source;
  }
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const ValueInfo &arg = entry.args[i];
    auto it = given.find(arg.name);
    // None, written or left out, for an Optional input; a
    // required one refuses it here, as a usage error.
    // Left out, an input with a default takes it, as in Python.
    if (it == given.end() && arg.hasDefault()) {
      inputs.push_back(arg.defaultValue);
      continue;
    }
    if (it == given.end() && arg.optional) {
      inputs.push_back(Tensor::none());
      continue;
    }
    if (it == given.end()) {
      error("missing --input {}=...", arg.name);
      return 2;
    }
    // A str chosen at run time: the code takes its index among the values
    // it was compiled for. `str:` may prefix it, as in kiln compile's --arg.
    if (!arg.strChoices.empty()) {
      std::string text = it->second;
      if (text.rfind("str:", 0) == 0)
        text.erase(0, 4);
      int64_t index = arg.choiceIndex(text);
      if (index < 0) {
        std::vector<std::string> quoted;
        for (const std::string &c : arg.strChoices)
          quoted.push_back(inQuotes(c));
        error("--input {}={}: '{}' of '{}' was compiled for {}; recompile "
              "with the value among those of --arg {}=str:A|B|...",
              arg.name, it->second, arg.name, escaped(entry.name),
              fmt::join(quoted, ", "), arg.name);
        return 2;
      }
      Tensor chosen = Tensor::zeros(DType::I64, {});
      *chosen.data<int64_t>() = index;
      inputs.push_back(chosen);
      continue;
    }
    if (it->second == "None") {
      if (!arg.optional) {
        error("--input {}=None: input '{}' of '{}' is required; only an "
              "Optional input may be None",
              arg.name, arg.name, entry.name);
        return 2;
      }
      inputs.push_back(Tensor::none());
      continue;
    }
    Tensor tensor;
    bool fromData = false;
    if (InputError failed =
            makeInput(arg, i, it->second, dims, tensor, fromData)) {
      error("{}", failed.message);
      return failed.exitCode;
    }
    if (fromData && !checkDimsAgree(arg, it->second, tensor, dims))
      return 2;
    if (o.inputsOn == "cuda" && tensor.rank() > 0) {
      Result<Tensor> placed = copyTo(tensor, Device::CUDA);
      if (!placed) {
        error("--inputs-on cuda: {}", placed.error().message);
        return 1;
      }
      tensor = *placed;
    }
    inputs.push_back(tensor);
  }
  return 0;
}

namespace {

/// "name: dtype [shape] tensor(...)". A tensor that spans lines starts on
/// a line of its own, so that PyTorch's alignment of its rows holds.
void printOutput(const std::string &name, const Tensor &out) {
  std::string text = formatTensor(out);
  fmt::print("{}: {} [{}]{}{}\n", escaped(name), dtypeName(out.dtype()),
             fmt::join(out.shape(), ", "),
             text.find('\n') == std::string::npos ? " " : "\n", text);
}

int run(const RunOptions &o) {
  if (!o.outputDir.empty()) {
    std::string problem = makeFolder(o.outputDir);
    if (!problem.empty()) {
      error("--output {}: {}", inQuotes(o.outputDir), problem);
      return 2;
    }
  }
  LoadOptions options;
  if (!applyLoadOptions(o, options))
    return 2;
  Result<Model> model = Model::load(o.archive, options);
  if (!model) {
    error("{}", model.error().message);
    return 1;
  }
  const EntryInfo *entry = chooseEntry(*model, o);
  if (!entry)
    return 2;
  std::vector<Tensor> inputs;
  if (int status = gatherInputs(o, *entry, inputs))
    return status;

  Result<std::vector<Tensor>> outputs = model->run(entry->name, inputs);
  if (!outputs) {
    // Errors raised by compiled code already start with file:line:col.
    const std::string &message = outputs.error().message;
    bool located = message.substr(0, message.find('\n')).find(": error: ") !=
                   std::string::npos;
    fmt::print(stderr, "{}{}\n", located ? "" : "kiln: error: ", message);
    return 1;
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    Result<Tensor> host = copyTo((*outputs)[i], Device::CPU);
    if (!host) {
      error("{}", host.error().message);
      return 1;
    }
    const Tensor &out = *host;
    const std::string &name = entry->results[i].name;
    printOutput(name, out);
    std::fflush(stdout);
    if (o.outputDir.empty())
      continue;
    if (!safeFileName(entry->name) || !safeFileName(name)) {
      error("cannot write {} of {}: the name cannot be part of a file name",
            inQuotes(name), inQuotes(entry->name));
      return 1;
    }
    std::string path = o.outputDir + "/" + entry->name + "." + name + ".npy";
    if (Result<void> written = writeNpy(path, out); !written) {
      error("{}", written.error().message);
      return 1;
    }
  }
  return 0;
}

} // namespace

int runRun(const RunOptions &o) {
  // Every allocation that can fail with the input's size is checked where
  // it is made; this catches the rest (a huge archive's manifest, say).
  try {
    return run(o);
  } catch (const std::bad_alloc &) {
    error("out of memory");
    return 1;
  }
}

} // namespace kiln
