//===- Manifest.cpp - Read manifest.json (docs/archive.md) ----------------===//
//
// The manifest is untrusted input: every field is checked for presence and
// type, and any problem becomes one "corrupt manifest: ..." message rather
// than an exception leaving the runtime.
//
//===----------------------------------------------------------------------===//

#include "ModelImpl.h"

#include <nlohmann/json.hpp>

#include <algorithm>

using json = nlohmann::json;

namespace kiln {
namespace {

ValueInfo parseValue(const json &value) {
  ValueInfo info;
  info.name = value.at("name").get<std::string>();
  std::string dtype = value.at("dtype").get<std::string>();
  if (!parseDType(dtype, info.dtype))
    throw std::runtime_error("unknown dtype '" + dtype + "'");
  info.scalar = value.at("scalar").get<bool>();
  for (const json &dim : value.at("dims")) {
    DimInfo d;
    if (dim.is_number_integer())
      d.size = dim.get<int64_t>();
    else
      d.symbol = dim.get<std::string>();
    info.dims.push_back(d);
  }
  return info;
}

/// The optional "weights" table: archives of plain functions, and those
/// written before modules were compiled, have none. Each weight's entry must
/// be in "files", so that its CRC-32 is checked like every other entry's.
void parseWeights(const json &manifest, Model::Impl &impl,
                  const std::vector<std::pair<std::string, uint32_t>> &files) {
  auto table = manifest.find("weights");
  if (table == manifest.end())
    return;
  if (!table->is_array())
    throw std::runtime_error("\"weights\" is not an array");
  for (const json &weight : *table) {
    WeightInfo info;
    info.name = weight.at("name").get<std::string>();
    std::string what = "weight '" + info.name + "'";
    std::string dtype = weight.at("dtype").get<std::string>();
    if (!parseDType(dtype, info.dtype))
      throw std::runtime_error(what + " has unknown dtype '" + dtype + "'");
    for (const json &dim : weight.at("dims")) {
      if (!dim.is_number_integer() || dim.get<int64_t>() < 0)
        throw std::runtime_error(what + " has dims " +
                                 weight.at("dims").dump() +
                                 "; sizes must be non-negative integers");
      info.shape.push_back(dim.get<int64_t>());
    }
    std::string file = weight.at("file").get<std::string>();
    if (std::none_of(files.begin(), files.end(),
                     [&](const auto &listed) { return listed.first == file; }))
      throw std::runtime_error(what + " is stored in '" + file +
                               "', which \"files\" does not list");
    impl.weights.push_back(std::move(info));
    impl.weightFiles.push_back(std::move(file));
  }
}

} // namespace

std::string parseManifest(const std::string &text, Model::Impl &impl,
                          std::vector<std::pair<std::string, uint32_t>> &files,
                          std::vector<uint64_t> &fileSizes) {
  try {
    json manifest = json::parse(text);
    if (manifest.value("format", "") != "kiln")
      return "not a kiln archive: manifest.json has no \"format\": \"kiln\"";
    const json &version = manifest.at("format_version");
    int64_t major = version.at(0).get<int64_t>();
    int64_t minor = version.at(1).get<int64_t>();
    if (major != 1)
      return "archive format version " + std::to_string(major) + "." +
             std::to_string(minor) +
             " is not supported: this runtime (kiln " KILN_VERSION_STRING
             ") reads format version 1.x";
    int64_t abi = manifest.at("abi_version").get<int64_t>();
    if (abi != KILN_ABI_VERSION)
      return "the archive's code uses ABI version " + std::to_string(abi) +
             "; this runtime implements version " +
             std::to_string(KILN_ABI_VERSION);

    impl.sourcePath = manifest.at("source").at("path").get<std::string>();
    impl.sourceEntry = manifest.at("source").at("entry").get<std::string>();
    const json &cpu = manifest.at("targets").at("cpu");
    impl.cpuFeatures = cpu.at("features").get<std::vector<std::string>>();
    impl.objectEntry = cpu.at("object").get<std::string>();

    for (const json &entry : manifest.at("entries")) {
      EntryInfo info;
      info.name = entry.at("name").get<std::string>();
      for (const json &arg : entry.at("args"))
        info.args.push_back(parseValue(arg));
      for (const json &result : entry.at("results"))
        info.results.push_back(parseValue(result));
      impl.entries.push_back(std::move(info));
    }
    impl.strings = manifest.at("strings").get<std::vector<std::string>>();
    for (const json &site : manifest.at("sites"))
      impl.sites.push_back({site.at("file").get<std::string>(),
                            site.at("line").get<int64_t>(),
                            site.at("col").get<int64_t>(),
                            site.at("message").get<std::string>()});
    for (const json &file : manifest.at("files")) {
      files.push_back({file.at("name").get<std::string>(),
                       file.at("crc32").get<uint32_t>()});
      fileSizes.push_back(file.at("size").get<uint64_t>());
    }
    parseWeights(manifest, impl, files);
  } catch (const std::exception &e) {
    return std::string("corrupt manifest: ") + e.what();
  }
  return "";
}

} // namespace kiln
