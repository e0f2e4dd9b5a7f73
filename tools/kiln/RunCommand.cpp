//===- RunCommand.cpp - `kiln run` ----------------------------------------===//
//
// Loads an archive with the runtime (exactly as a C++ app would), feeds an
// entry point .npy files or seeded random tensors, prints a summary of each
// output and writes them as .npy files.
//
//===----------------------------------------------------------------------===//
#include "tools/kiln/Commands.h"

#include "kiln/Format.h"
#include "kiln/Model.h"
#include "kiln/Npy.h"
#include "runtime/src/Untrusted.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>
#include <random>

namespace kiln {

CLI::App *addRunCommand(CLI::App &app, RunOptions &o) {
  CLI::App *cmd =
      app.add_subcommand("run", "Run an entry point of a .kiln archive");
  cmd->add_option("archive", o.archive, "The .kiln archive")->required();
  cmd->add_option("--entry", o.entry,
                  "The entry point to run; may be omitted when the archive "
                  "has only one")
      ->type_name("NAME");
  cmd->add_option("--input", o.inputs,
                  "An input: a .npy file, or random values (normal for "
                  "floats, 0..9 for ints) from a seed")
      ->type_name("NAME=FILE.npy|random[:SEED]");
  cmd->add_option("--dim", o.dims,
                  "Size of a dim symbol for random inputs, e.g. N=8 "
                  "(default 4)")
      ->type_name("SYMBOL=SIZE");
  cmd->add_option("--output", o.outputDir,
                  "Write each output to DIR/<entry>.<result>.npy")
      ->type_name("DIR");
  return cmd;
}

namespace {

bool splitAssignment(const std::string &text, std::string &name,
                     std::string &value) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return false;
  name = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}

Tensor randomTensor(const ValueInfo &arg, const std::vector<int64_t> &shape,
                    uint64_t seed) {
  Tensor t = Tensor::zeros(arg.dtype, shape);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int64_t> digits(0, 9);
  for (int64_t i = 0; i < t.numel(); ++i) {
    switch (arg.dtype) {
    case DType::F32:
      t.data<float>()[i] = static_cast<float>(normal(rng));
      break;
    case DType::F64:
      t.data<double>()[i] = normal(rng);
      break;
    case DType::I32:
      t.data<int32_t>()[i] = static_cast<int32_t>(digits(rng));
      break;
    case DType::I64:
      t.data<int64_t>()[i] = digits(rng);
      break;
    case DType::Bool:
      t.data<uint8_t>()[i] = digits(rng) % 2;
      break;
    case DType::F16:
    case DType::BF16: {
      // Small integers are exact in both half formats.
      uint16_t bits = 0;
      float value = static_cast<float>(digits(rng) - 5);
      uint32_t f;
      std::memcpy(&f, &value, 4);
      if (arg.dtype == DType::BF16) {
        bits = static_cast<uint16_t>(f >> 16);
      } else if (value != 0) {
        uint32_t sign = (f >> 31) << 15;
        int32_t exponent = static_cast<int32_t>((f >> 23) & 0xff) - 127 + 15;
        uint32_t mantissa = (f >> 13) & 0x3ff;
        bits = static_cast<uint16_t>(sign | (exponent << 10) | mantissa);
      }
      t.data<uint16_t>()[i] = bits;
      break;
    }
    }
  }
  return t;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

/// The first few values, flattened, as PyTorch would print them.
std::string firstValues(const Tensor &t) {
  if (t.rank() == 0)
    return formatTensor(t);
  int64_t n = std::min<int64_t>(t.numel(), 8);
  Tensor head = Tensor::zeros(t.dtype(), {n});
  std::memcpy(head.data(), t.data(), static_cast<size_t>(n) * dtypeSize(t.dtype()));
  std::string text = formatTensor(head);
  return text + (t.numel() > n ? " ..." : "");
}

/// Whether `name`, read from the archive, may be part of an output file
/// name: a hostile manifest must not make `--output DIR` write elsewhere.
bool safeFileName(const std::string &name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

/// Random values for `arg`, or an error message: a shape too large for any
/// tensor is refused before anything is allocated.
std::string makeRandomInput(const ValueInfo &arg,
                            const std::vector<int64_t> &shape, uint64_t seed,
                            std::vector<Tensor> &inputs) {
  uint64_t bytes;
  if (!checkedByteSize(shape, dtypeSize(arg.dtype), bytes))
    return "a tensor of shape " + shapeText(shape) +
           " would need more than 2^47 bytes";
  try {
    inputs.push_back(randomTensor(arg, shape, seed));
  } catch (const std::bad_alloc &) {
    return "out of memory for " + std::to_string(bytes) + " bytes";
  }
  return "";
}

int run(const RunOptions &o);

} // namespace

int runRun(const RunOptions &o) {
  // Every allocation that can fail with the input's size is checked where
  // it is made; this catches the rest (a huge archive's manifest, say).
  try {
    return run(o);
  } catch (const std::bad_alloc &) {
    std::cerr << "kiln: error: out of memory\n";
    return 1;
  }
}

namespace {

int run(const RunOptions &o) {
  Result<Model> model = Model::load(o.archive);
  if (!model) {
    std::cerr << "kiln: error: " << model.error().message << "\n";
    return 1;
  }
  const EntryInfo *entry = nullptr;
  if (o.entry.empty()) {
    if (model->entries().size() != 1) {
      std::cerr << "kiln: error: the archive has "
                << model->entries().size()
                << " entry points; choose one with --entry:";
      for (const EntryInfo &e : model->entries())
        std::cerr << " " << escaped(e.name);
      std::cerr << "\n";
      return 2;
    }
    entry = &model->entries()[0];
  } else {
    entry = model->entry(o.entry);
    if (!entry) {
      std::cerr << "kiln: error: no entry point '" << o.entry
                << "' in the archive; it has:";
      for (const EntryInfo &e : model->entries())
        std::cerr << " " << escaped(e.name);
      std::cerr << "\n";
      return 2;
    }
  }

  std::map<std::string, int64_t> dims;
  for (const std::string &d : o.dims) {
    std::string name, value;
    char *end = nullptr;
    long long size = 0;
    errno = 0;
    if (splitAssignment(d, name, value))
      size = std::strtoll(value.c_str(), &end, 10);
    if (!end || end == value.c_str() || *end != '\0' || size < 0 ||
        errno == ERANGE) {
      std::cerr << "kiln: error: --dim " << d
                << ": expected SYMBOL=SIZE with a size >= 0, e.g. N=8\n";
      return 2;
    }
    dims[name] = size;
  }

  std::map<std::string, std::string> given;
  for (const std::string &input : o.inputs) {
    std::string name, source;
    if (!splitAssignment(input, name, source)) {
      std::cerr << "kiln: error: --input " << input
                << ": expected NAME=FILE.npy or NAME=random[:SEED]\n";
      return 2;
    }
    auto known = std::find_if(entry->args.begin(), entry->args.end(),
                              [&](const ValueInfo &a) { return a.name == name; });
    if (known == entry->args.end()) {
      std::cerr << "kiln: error: --input " << input << ": '" << entry->name
                << "' has no input named '" << name << "'\n";
      return 2;
    }
    given[name] = source;
  }

  std::vector<Tensor> inputs;
  for (size_t i = 0; i < entry->args.size(); ++i) {
    const ValueInfo &arg = entry->args[i];
    auto it = given.find(arg.name);
    if (it == given.end()) {
      std::cerr << "kiln: error: missing --input " << arg.name << "=...\n";
      return 2;
    }
    const std::string &source = it->second;
    if (source.rfind("random", 0) == 0) {
      uint64_t seed = 0;
      if (source.size() > 6) {
        char *end = nullptr;
        seed = std::strtoull(source.c_str() + 7, &end, 10);
        if (source[6] != ':' || *end != '\0') {
          std::cerr << "kiln: error: --input " << arg.name << "=" << source
                    << ": expected random or random:SEED\n";
          return 2;
        }
      }
      std::vector<int64_t> shape;
      for (const DimInfo &dim : arg.dims)
        shape.push_back(dim.symbol.empty() ? dim.size
                        : dims.count(dim.symbol) ? dims[dim.symbol]
                                                 : 4);
      std::string error = makeRandomInput(arg, shape, seed + i, inputs);
      if (!error.empty()) {
        std::cerr << "kiln: error: --input " << arg.name << "=" << source
                  << ": " << error << "\n";
        return 1;
      }
      continue;
    }
    Result<Tensor> tensor = readNpy(source);
    if (!tensor) {
      std::cerr << "kiln: error: --input " << arg.name << ": "
                << tensor.error().message << "\n";
      return 1;
    }
    inputs.push_back(*tensor);
  }

  Result<std::vector<Tensor>> outputs = model->run(entry->name, inputs);
  if (!outputs) {
    // Errors raised by compiled code already start with file:line:col.
    const std::string &message = outputs.error().message;
    bool located = message.substr(0, message.find('\n')).find(": error: ") !=
                   std::string::npos;
    std::cerr << (located ? "" : "kiln: error: ") << message << "\n";
    return 1;
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    const Tensor &out = (*outputs)[i];
    const std::string &name = entry->results[i].name;
    std::cout << escaped(name) << ": " << dtypeName(out.dtype()) << " "
              << shapeText(out.shape()) << " " << firstValues(out) << "\n";
    if (o.outputDir.empty())
      continue;
    if (!safeFileName(entry->name) || !safeFileName(name)) {
      std::cerr << "kiln: error: cannot write " << inQuotes(name) << " of "
                << inQuotes(entry->name)
                << ": the name cannot be part of a file name\n";
      return 1;
    }
    std::string path = o.outputDir + "/" + entry->name + "." + name + ".npy";
    if (Result<void> written = writeNpy(path, out); !written) {
      std::cerr << "kiln: error: " << written.error().message << "\n";
      return 1;
    }
  }
  return 0;
}

} // namespace
} // namespace kiln
