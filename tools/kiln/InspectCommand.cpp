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

#include <algorithm>
#include <iomanip>
#include <iostream>

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

std::string describeValue(const nlohmann::json &value) {
  std::string text = escaped(value.value("name", "?")) + ": ";
  if (value.value("scalar", false))
    return text + value.value("dtype", "?") + " (Python scalar)";
  text += value.value("dtype", "?") + "[";
  bool first = true;
  for (const auto &dim : value.at("dims")) {
    text += first ? "" : ", ";
    text += scalarText(dim);
    first = false;
  }
  return text + "]";
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
  std::string text;
  for (const std::string &symbol : names)
    text += (text.empty() ? "" : " ") + symbol;
  return text.empty() ? "(nothing)" : text;
}

/// One line per code object, best first: "target: cpu x86-64-v3
/// (x86_64-unknown-linux-gnu, tuned for generic, -O2), features: avx ...".
/// Format 1 archives hold a single object rather than a list.
void printCpuTargets(const nlohmann::json &cpu) {
  nlohmann::json variants = cpu.is_array() ? cpu : nlohmann::json::array({cpu});
  for (const nlohmann::json &variant : variants) {
    std::cout << "target: cpu " << escaped(variant.value("name", "code"))
              << " (" << escaped(variant.value("triple", "?"))
              << ", tuned for " << escaped(variant.value("cpu", "?"))
              << ", -O"
              << scalarText(variant.value("opt_level", nlohmann::json(0)))
              << "), " << escaped(variant.value("object", "?"))
              << ", features:";
    for (const auto &feature : variant.at("features"))
      std::cout << " " << escaped(feature.get<std::string>());
    std::cout << "\n";
  }
}

} // namespace

int runInspect(const InspectOptions &o) {
  std::string bytes;
  std::string error = readRegularFile(o.archive, bytes);
  if (!error.empty()) {
    std::cerr << "kiln: error: " << o.archive << ": " << error << "\n";
    return 1;
  }
  std::vector<ZipEntry> entries;
  // Every zip starts with "PK"; a source file given by mistake is named
  // as what it is, with the command that takes it.
  llvm::StringRef name(o.archive);
  if (!llvm::StringRef(bytes).starts_with("PK") &&
      (name.ends_with(".py") || name.ends_with(".mlir"))) {
    bool python = name.ends_with(".py");
    std::cerr << "kiln: error: " << inQuotes(o.archive) << ": this is "
              << (python ? "Python source" : "MLIR")
              << ", not a .kiln archive; "
              << (python ? "compile it with kiln compile " + o.archive +
                               " -o OUT.kiln, then inspect OUT.kiln"
                         : "kiln inspect reads archives only")
              << "\n";
    return 1;
  }
  if (!readZipDirectory(reinterpret_cast<const uint8_t *>(bytes.data()),
                        bytes.size(), entries, error)) {
    std::cerr << "kiln: error: " << o.archive << ": " << error << "\n";
    return 1;
  }
  auto contents = [&](const std::string &name) -> std::string {
    for (const ZipEntry &entry : entries)
      if (entry.name == name)
        return bytes.substr(entry.offset, entry.size);
    return "";
  };

  if (o.ir) {
    std::cout << "// ir/input.mlir\n"
              << contents("ir/input.mlir") << "\n// ir/optimized.mlir\n"
              << contents("ir/optimized.mlir");
    return 0;
  }

  nlohmann::json manifest =
      nlohmann::json::parse(contents("manifest.json"), nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) {
    std::cerr << "kiln: error: " << o.archive
              << ": manifest.json is missing or not valid JSON\n";
    return 1;
  }
  try {
    const auto &version = manifest.at("format_version");
    std::cout << o.archive << ": kiln archive, format "
              << scalarText(version.at(0)) << "." << scalarText(version.at(1))
              << ", made by " << escaped(manifest.value("producer", "?"))
              << "\n";
    std::cout << "source: "
              << escaped(manifest.at("source").value("path", "?")) << "\n";
    printCpuTargets(manifest.at("targets").at("cpu"));
    std::cout << "\nentry points:\n";
    for (const auto &entry : manifest.at("entries")) {
      std::cout << "  " << escaped(entry.value("name", "?")) << "(";
      bool first = true;
      for (const auto &arg : entry.at("args")) {
        std::cout << (first ? "" : ", ") << describeValue(arg);
        first = false;
      }
      std::cout << ") -> (";
      first = true;
      for (const auto &result : entry.at("results")) {
        std::cout << (first ? "" : ", ") << describeValue(result);
        first = false;
      }
      std::cout << ")\n";
    }
    std::cout << "\n" << manifest.at("sites").size()
              << " run-time check sites, " << manifest.at("strings").size()
              << " print formats\n";
  } catch (const std::exception &e) {
    std::cerr << "kiln: error: " << o.archive << ": corrupt manifest: "
              << e.what() << "\n";
    return 1;
  }

  std::cout << "\ncontents:\n";
  for (const ZipEntry &entry : entries)
    std::cout << "  " << std::setw(10) << entry.size << "  @" << std::setw(8)
              << entry.offset << "  " << escaped(entry.name) << "\n";
  for (const ZipEntry &entry : entries)
    if (llvm::StringRef(entry.name).starts_with("cpu/"))
      std::cout << "\n" << escaped(entry.name) << " imports: "
                << importsOf(entry.name, contents(entry.name)) << "\n";
  Result<Model> model = Model::load(o.archive);
  std::cout << "\nruntime check: "
            << (model ? "ok, loads " + escaped(model->cpuTarget()) +
                            " on this machine"
                      : model.error().message)
            << "\n";
  return model ? 0 : 1;
}

} // namespace kiln
