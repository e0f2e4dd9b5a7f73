//===- InspectCommand.cpp - `kiln inspect` --------------------------------===//
//
// Shows what an archive holds without running it: the manifest's
// signatures and target, every entry with its size, the symbols each code
// object imports from the process, and whether the runtime would accept it
// (the same checks Model::load makes).
//
//===----------------------------------------------------------------------===//
#include "tools/kiln/Commands.h"

#include "kiln/Model.h"
#include "runtime/src/Untrusted.h"
#include "runtime/src/ZipReader.h"

#include "llvm/Object/ELFObjectFile.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace kiln {

CLI::App *addInspectCommand(CLI::App &app, InspectOptions &o) {
  CLI::App *cmd = app.add_subcommand(
      "inspect", "Show the manifest, entry points and contents of a .kiln "
                 "archive");
  cmd->add_option("archive", o.archive, "The .kiln archive")->required();
  cmd->add_flag("--ir", o.ir,
                "Print the kiln IR stored in the archive (as lowered from the "
                "source, then after optimization)");
  return cmd;
}

namespace {

/// A scalar of the manifest as text, escaped. Anything else is "?": the
/// manifest is untrusted, and dumping JSON recurses as deep as it nests.
std::string scalarText(const nlohmann::json &value) {
  if (value.is_string())
    return escaped(value.get<std::string>());
  if (value.is_number_integer() || value.is_boolean())
    return value.dump();
  return "?";
}

/// A default as Python writes it: 2, 1e-05, False. Anything else is "?".
std::string defaultText(const nlohmann::json &value) {
  if (value.is_boolean())
    return value.get<bool>() ? "True" : "False";
  if (value.is_number())
    return value.dump();
  return "?";
}

/// "x: f32[N, 3]", "mask: f32[T, T]?" (Optional[Tensor], may be None), or
/// "k: i64 (Python scalar)", "k: i64 (Python scalar) = 2" with a default,
/// "k: i64? (Python scalar)" for Optional[int].
std::string describeValue(const nlohmann::json &value) {
  std::string name = escaped(value.value("name", "?"));
  std::string dtype = escaped(value.value("dtype", "?"));
  auto optional = value.find("optional");
  bool mayBeNone = optional != value.end() && optional->is_boolean() &&
                   optional->get<bool>();
  // "mode: str in {'relu', 'gelu'} = 'relu'": a str chosen at run time,
  // whose default is an index.
  auto choices = value.find("str_choices");
  if (choices != value.end() && choices->is_array()) {
    std::vector<std::string> listed;
    for (const auto &c : *choices)
      listed.push_back("'" + scalarText(c) + "'");
    auto given = value.find("default");
    std::string chosen;
    if (given != value.end() && given->is_number_unsigned() &&
        given->get<uint64_t>() < choices->size())
      chosen = " = '" + scalarText((*choices)[given->get<uint64_t>()]) + "'";
    return fmt::format("{}: str in {{{}}}{}", name, fmt::join(listed, ", "),
                       chosen);
  }
  if (value.value("scalar", false)) {
    auto given = value.find("default");
    return fmt::format("{}: {}{} (Python scalar){}", name, dtype,
                       mayBeNone ? "?" : "",
                       given == value.end() ? ""
                                            : " = " + defaultText(*given));
  }
  std::vector<std::string> dims;
  for (const auto &dim : value.at("dims"))
    dims.push_back(scalarText(dim));
  return fmt::format("{}: {}[{}]{}", name, dtype, fmt::join(dims, ", "),
                     mayBeNone ? "?" : "");
}

/// "  f(x: f32[N], k: i64 (Python scalar)) -> (result0: f32[?])".
std::string describeEntry(const nlohmann::json &entry) {
  std::vector<std::string> args, results;
  for (const auto &arg : entry.at("args"))
    args.push_back(describeValue(arg));
  for (const auto &result : entry.at("results"))
    results.push_back(describeValue(result));
  std::string text =
      fmt::format("  {}({}) -> ({})", escaped(entry.value("name", "?")),
                  fmt::join(args, ", "), fmt::join(results, ", "));
  // "    xs: List[Tensor] is xs.0, xs.1": a List or Tuple parameter, whose
  // elements are inputs of their own.
  auto containers = entry.find("containers");
  if (containers != entry.end() && containers->is_array())
    for (const auto &c : *containers) {
      if (!c.is_object())
        continue;
      std::vector<std::string> leaves;
      auto args = c.find("args");
      if (args != c.end() && args->is_array())
        for (const auto &leaf : *args)
          leaves.push_back(scalarText(leaf));
      text += fmt::format("\n    {}: {} is {}", escaped(c.value("name", "?")),
                          escaped(c.value("type", "?")),
                          leaves.empty() ? std::string("empty")
                                         : fmt::format("{}", fmt::join(leaves, ", ")));
    }
  // "    compiled for mode = 'relu'": the str parameters, fixed at compile
  // time.
  auto strings = entry.find("str_args");
  if (strings != entry.end() && strings->is_array()) {
    std::vector<std::string> fixed;
    for (const auto &s : *strings)
      if (s.is_object())
        fixed.push_back(fmt::format("{} = '{}'", escaped(s.value("name", "?")),
                                    escaped(s.value("value", "?"))));
    text += fmt::format("\n    compiled for {}", fmt::join(fixed, ", "));
  }
  return text;
}

/// "[256, 784]", then "(fc.weight)" for an operand the manifest ties to a
/// weight, "(table, from element 576)" for one that starts inside it.
std::string describeOperand(const nlohmann::json &operand,
                            const nlohmann::json &weights) {
  std::vector<std::string> sizes;
  for (const auto &size : operand.at("sizes"))
    sizes.push_back(scalarText(size));
  std::string text = fmt::format("[{}]", fmt::join(sizes, ", "));
  auto weight = operand.find("weight");
  if (weight != operand.end()) {
    const nlohmann::json *row = nullptr;
    if (weight->is_number_unsigned() && weights.is_array() &&
        weight->get<uint64_t>() < weights.size())
      row = &weights[weight->get<uint64_t>()];
    auto offset = operand.find("offset");
    std::string from = offset != operand.end() && *offset != 0
                           ? ", from element " + scalarText(*offset)
                           : "";
    text += fmt::format(" ({}{})",
                        row && row->is_object()
                            ? escaped(row->value("name", "?"))
                            : "weight ?",
                        from);
  }
  return text;
}

/// " channels last" for an N x C x H x W operand whose channels are its
/// innermost dim (kiln-channels-last, docs/passes.md), else "".
std::string layoutOf(const nlohmann::json &operand) {
  auto sizes = operand.find("sizes"), strides = operand.find("strides");
  if (sizes == operand.end() || strides == operand.end() ||
      !sizes->is_array() || !strides->is_array() || sizes->size() != 4 ||
      strides->size() != 4)
    return "";
  bool last = (*strides)[1] == 1 && (*sizes)[1] != 1 && (*strides)[3] != 1;
  return last ? " channels last" : "";
}

/// "  matmul [256, 784] x [784, 1024] (fc.weight) + [1024] (fc.bias) ->
/// [256, 1024]", or conv2d's with its parameters: one of the kernel
/// library calls the runtime prepares at load.
std::string describeLibraryCall(const nlohmann::json &call,
                                const nlohmann::json &weights) {
  const nlohmann::json &operands = call.at("operands");
  std::vector<std::string> parts;
  for (const auto &operand : operands)
    parts.push_back(describeOperand(operand, weights));
  std::string op = scalarText(call.at("op"));
  std::vector<std::string> params;
  for (const auto &param : call.at("params"))
    params.push_back(scalarText(param));
  if (op == "conv2d" && parts.size() == 3 && params.size() == 7)
    return fmt::format("  conv2d {}{} * {} -> {}{}, stride {}x{}, padding "
                       "{}x{}, dilation {}x{}, groups {}",
                       parts[0], layoutOf(operands[0]), parts[1], parts[2],
                       layoutOf(operands[2]), params[0], params[1], params[2],
                       params[3], params[4], params[5], params[6]);
  if (op == "matmul" && parts.size() == 3)
    return fmt::format("  matmul {} x {} -> {}", parts[0], parts[1], parts[2]);
  if (op == "matmul" && parts.size() == 4 && params.size() == 1)
    return fmt::format("  matmul {} x {} + {} -> {}, activation {}", parts[0],
                       parts[1], parts[2], parts[3], params[0]);
  return fmt::format("  {} ?", op);
}

/// The undefined dynamic symbols of an ELF code object, sorted: what it
/// needs from the process that loads it. A kiln code object must need
/// nothing but named libc and libm functions (test/codegen/
/// self-contained.test); the runtime reaches it only through kiln_module.
std::string importsOf(llvm::StringRef name, llvm::StringRef bytes) {
  auto object = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(bytes, name));
  if (!object) {
    llvm::consumeError(object.takeError());
    return "(not an ELF object)";
  }
  auto *elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(object->get());
  if (!elf)
    return "(not an ELF object)";
  std::vector<std::string> names;
  for (const llvm::object::SymbolRef &symbol :
       elf->getDynamicSymbolIterators()) {
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    llvm::Expected<llvm::StringRef> symbolName = symbol.getName();
    if (!flags || !symbolName) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(symbolName.takeError());
      continue;
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) &&
        !symbolName->empty())
      names.push_back(escaped(*symbolName));
  }
  std::sort(names.begin(), names.end());
  return names.empty() ? "(nothing)" : fmt::format("{}", fmt::join(names, " "));
}

/// One line per code object, best first: "target: cpu x86-64-v3
/// (x86_64-unknown-linux-gnu, tuned for generic, -O2), features: avx ...".
/// Format 1 archives hold a single object rather than a list.
/// "  3 blocks of static size faulted in at load, 32 bytes": a code
/// object's "blocks". The runtime checks each row's range and stocks at
/// most what its cache keeps; here a row only has to be a pair of counts,
/// and totals past 2^64 are said to be.
void printStaticBlocks(const nlohmann::json &rows) {
  uint64_t blocks = 0, bytes = 0;
  bool wraps = false;
  for (const nlohmann::json &row : rows) {
    if (!row.is_array() || row.size() != 2 || !row[0].is_number_unsigned() ||
        !row[1].is_number_unsigned())
      throw std::runtime_error(
          "a row of \"blocks\" is not a pair [bytes, count]");
    uint64_t size = row[0].get<uint64_t>(), count = row[1].get<uint64_t>();
    uint64_t product;
    wraps = wraps || __builtin_mul_overflow(size, count, &product) ||
            __builtin_add_overflow(bytes, product, &bytes) ||
            __builtin_add_overflow(blocks, count, &blocks);
  }
  if (wraps)
    fmt::print("  blocks of static size faulted in at load: more than 2^64 "
               "bytes asked for\n");
  else
    fmt::print("  {} block{} of static size faulted in at load, {} bytes\n",
               blocks, blocks == 1 ? "" : "s", bytes);
}

void printCpuTargets(const nlohmann::json &cpu,
                     const char *label = "target: cpu") {
  nlohmann::json variants = cpu.is_array() ? cpu : nlohmann::json::array({cpu});
  for (const nlohmann::json &variant : variants) {
    std::string features;
    for (const auto &feature : variant.at("features"))
      features += " " + escaped(feature.get<std::string>());
    std::string edits = variant.value("target_features", "");
    fmt::print("{} {}{} ({}, tuned for {}, -O{}), {}, features:{}\n", label,
               escaped(variant.value("name", "code")),
               edits.empty() ? "" : " --target-features=" + escaped(edits),
               escaped(variant.value("triple", "?")),
               escaped(variant.value("cpu", "?")),
               scalarText(variant.value("opt_level", nlohmann::json(0))),
               escaped(variant.value("object", "?")), features);
    if (variant.contains("blocks"))
      printStaticBlocks(variant.at("blocks"));
  }
}

/// "target: cuda, cubins sm_80 sm_90, PTX sm_80, 3 kernels: a b c": the
/// GPU kernels of a --target=cuda archive, whose code objects are then the
/// host code that launches them, and the GPU libraries that code calls.
void printCudaTarget(const nlohmann::json &cuda) {
  std::string archs, kernels;
  for (const auto &cubin : cuda.at("cubins"))
    archs += " " + escaped(cubin.at("arch").get<std::string>());
  for (const auto &kernel : cuda.at("kernels"))
    kernels += " " + escaped(kernel.get<std::string>());
  bool tf32 = cuda.contains("allow_tf32") && cuda.at("allow_tf32") == true;
  fmt::print("target: cuda, cubins{}, PTX {}{}, {} kernels:{}\n", archs,
             escaped(cuda.at("ptx").at("arch").get<std::string>()),
             tf32 ? ", TF32 allowed" : "", cuda.at("kernels").size(),
             kernels);
  printCpuTargets(cuda.at("host"), "  host code:");
  if (cuda.contains("libraries") && !cuda.at("libraries").empty()) {
    std::string libraries;
    for (const auto &library : cuda.at("libraries"))
      libraries += " " + scalarText(library);
    fmt::print("  libraries:{}\n", libraries);
  }
}

} // namespace

int runInspect(const InspectOptions &o) {
  std::string bytes;
  std::string error = readRegularFile(o.archive, bytes);
  if (!error.empty()) {
    fmt::print(stderr, "kiln: error: {}: {}\n", o.archive, error);
    return 1;
  }
  std::vector<ZipEntry> entries;
  // Every zip starts with "PK"; a source file given by mistake is named
  // as what it is, with the command that takes it.
  llvm::StringRef name(o.archive);
  if (!llvm::StringRef(bytes).starts_with("PK") &&
      (name.ends_with(".py") || name.ends_with(".mlir"))) {
    if (name.ends_with(".py"))
      fmt::print(stderr,
                 "kiln: error: {}: this is Python source, not a .kiln "
                 "archive; compile it with kiln compile {} -o OUT.kiln, then "
                 "inspect OUT.kiln\n",
                 inQuotes(o.archive), o.archive);
    else
      fmt::print(stderr,
                 "kiln: error: {}: this is MLIR, not a .kiln archive; kiln "
                 "inspect reads archives only\n",
                 inQuotes(o.archive));
    return 1;
  }
  if (!readZipDirectory(reinterpret_cast<const uint8_t *>(bytes.data()),
                        bytes.size(), entries, error)) {
    fmt::print(stderr, "kiln: error: {}: {}\n", o.archive, error);
    return 1;
  }
  auto contents = [&](const std::string &name) -> std::string {
    for (const ZipEntry &entry : entries)
      if (entry.name == name)
        return bytes.substr(entry.offset, entry.size);
    return "";
  };

  if (o.ir) {
    fmt::print("// ir/input.mlir\n{}\n// ir/optimized.mlir\n{}",
               contents("ir/input.mlir"), contents("ir/optimized.mlir"));
    return 0;
  }

  nlohmann::json manifest =
      nlohmann::json::parse(contents("manifest.json"), nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) {
    fmt::print(stderr,
               "kiln: error: {}: manifest.json is missing or not valid JSON\n",
               o.archive);
    return 1;
  }
  try {
    const auto &version = manifest.at("format_version");
    fmt::print("{}: kiln archive, format {}.{}, made by {}\n", o.archive,
               scalarText(version.at(0)), scalarText(version.at(1)),
               escaped(manifest.value("producer", "?")));
    fmt::print("source: {}\n",
               escaped(manifest.at("source").value("path", "?")));
    if (manifest.at("targets").contains("cpu"))
      printCpuTargets(manifest.at("targets").at("cpu"));
    if (manifest.at("targets").contains("cuda"))
      printCudaTarget(manifest.at("targets").at("cuda"));
    fmt::print("\nentry points:\n");
    for (const auto &entry : manifest.at("entries"))
      fmt::print("{}\n", describeEntry(entry));
    fmt::print("\n{} run-time check sites, {} print formats\n",
               manifest.at("sites").size(), manifest.at("strings").size());
    if (manifest.contains("library_calls")) {
      const auto &calls = manifest.at("library_calls");
      fmt::print("\n{} kernel library calls prepared at load:\n",
                 calls.size());
      for (const auto &call : calls)
        fmt::print("{}\n", describeLibraryCall(
                               call, manifest.value("weights",
                                                    nlohmann::json::array())));
    }
  } catch (const std::exception &e) {
    fmt::print(stderr, "kiln: error: {}: corrupt manifest: {}\n", o.archive,
               e.what());
    return 1;
  }

  fmt::print("\ncontents:\n");
  for (const ZipEntry &entry : entries)
    fmt::print("  {:>10}  @{:>8}  {}\n", entry.size, entry.offset,
               escaped(entry.name));
  for (const ZipEntry &entry : entries)
    if (llvm::StringRef(entry.name).starts_with("cpu/") ||
        llvm::StringRef(entry.name).starts_with("cuda/host-"))
      fmt::print("\n{} imports: {}\n", escaped(entry.name),
                 importsOf(entry.name, contents(entry.name)));
  Result<Model> model = Model::load(o.archive);
  if (model)
    fmt::print("\nruntime check: ok, loads {} on this machine\n",
               escaped(model->cpuTarget()));
  else
    fmt::print("\nruntime check: {}\n", model.error().message);
  return model ? 0 : 1;
}

} // namespace kiln
