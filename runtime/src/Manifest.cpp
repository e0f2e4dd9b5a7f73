//===- Manifest.cpp - Read manifest.json (docs/archive.md) ----------------===//
//
// The manifest is untrusted input: every field is checked for presence and
// type, every integer for its range (integerField), and any problem becomes
// one "corrupt manifest: ..." message rather than an exception leaving the
// runtime. No part of the manifest is ever dumped into a message: printing
// JSON recurses, and a manifest may nest arrays 100,000 deep.
//
//===----------------------------------------------------------------------===//

#include "ModelImpl.h"
#include "kiln/abi.h"
#include "Untrusted.h"

#include <nlohmann/json.hpp>

#include <algorithm>

using json = nlohmann::json;

namespace kiln {
namespace {

/// Bounds of the manifest's integers (docs/archive.md). A source line or
/// column, an ABI or format version, needs far less than 2^31; a size or
/// offset is an int64_t.
constexpr int64_t kMaxSmallInt = (int64_t(1) << 31) - 1;
constexpr int64_t kMaxCrc32 = 0xffffffff;

/// The integer `value`, which `what` names, checked to lie in [low, high].
/// nlohmann's get<int64_t>() would convert a float (1e300) or wrap a large
/// unsigned number instead of refusing it.
int64_t integerValue(const json &value, const std::string &what, int64_t low,
                     int64_t high) {
  bool fits = value.is_number_integer() &&
              !(value.is_number_unsigned() &&
                value.get<uint64_t>() > uint64_t(INT64_MAX));
  int64_t number = fits ? value.get<int64_t>() : 0;
  if (!fits || number < low || number > high)
    throw std::runtime_error(what + " must be an integer from " +
                             std::to_string(low) + " to " +
                             std::to_string(high));
  return number;
}

int64_t integerField(const json &object, const char *key, int64_t low,
                     int64_t high) {
  return integerValue(object.at(key), "\"" + std::string(key) + "\"", low,
                      high);
}

/// A dim of a signature or weight: a static size, or (where `symbols`) a
/// symbol.
DimInfo parseDim(const json &dim, const std::string &what, bool symbols) {
  DimInfo d;
  if (symbols && dim.is_string())
    d.symbol = dim.get<std::string>();
  else
    d.size = integerValue(dim, what, 0, INT64_MAX);
  return d;
}

/// The default of scalar input `info`, of its dtype: a JSON bool for
/// bool, an integer for i64, a number for f64.
Tensor parseDefault(const json &given, const ValueInfo &info) {
  std::string what = "the default of " + inQuotes(info.name);
  if (!info.scalar)
    throw std::runtime_error(what + ": only a scalar input has one");
  Tensor value = Tensor::zeros(info.dtype, {});
  if (info.dtype == DType::Bool && given.is_boolean())
    *value.data<uint8_t>() = given.get<bool>();
  else if (info.dtype == DType::I64)
    *value.data<int64_t>() = integerValue(given, what, INT64_MIN, INT64_MAX);
  else if (info.dtype == DType::F64 && given.is_number())
    *value.data<double>() = given.get<double>();
  else
    throw std::runtime_error(what + " is not a " +
                             std::string(dtypeName(info.dtype)));
  return value;
}

ValueInfo parseValue(const json &value) {
  ValueInfo info;
  info.name = value.at("name").get<std::string>();
  std::string dtype = value.at("dtype").get<std::string>();
  if (!parseDType(dtype, info.dtype))
    throw std::runtime_error("unknown dtype '" + dtype + "'");
  info.scalar = value.at("scalar").get<bool>();
  // Format 3: an Optional[Tensor] input (absent: a required input);
  // format 4 also an optional scalar.
  if (auto optional = value.find("optional"); optional != value.end())
    info.optional = optional->get<bool>();
  // Format 2.1: a scalar input's Python default.
  if (auto given = value.find("default"); given != value.end())
    info.defaultValue = parseDefault(*given, info);
  // Format 2.3: a str chosen at run time, passed as its value's index.
  if (auto choices = value.find("str_choices"); choices != value.end()) {
    info.strChoices = choices->get<std::vector<std::string>>();
    if (!info.scalar || info.dtype != DType::I64 || info.strChoices.empty())
      throw std::runtime_error(
          "the str_choices of " + inQuotes(info.name) +
          ": only an i64 scalar input has them, and at least one");
    if (info.hasDefault() &&
        (*info.defaultValue.data<int64_t>() < 0 ||
         *info.defaultValue.data<int64_t>() >=
             static_cast<int64_t>(info.strChoices.size())))
      throw std::runtime_error("the default of " + inQuotes(info.name) +
                               " indexes none of its str_choices");
  }
  std::string what = "a dim of " + inQuotes(info.name);
  const json &dims = value.at("dims");
  if (dims.size() > KILN_MAX_RANK)
    throw std::runtime_error(inQuotes(info.name) + " has " +
                             std::to_string(dims.size()) +
                             " dims; kiln supports at most " +
                             std::to_string(KILN_MAX_RANK));
  for (const json &dim : dims)
    info.dims.push_back(parseDim(dim, what, /*symbols=*/true));
  return info;
}

/// A row of "files". "xxh3" is optional: archives written before it have
/// only "crc32".
ListedFile parseListedFile(const json &row) {
  ListedFile file;
  file.name = row.at("name").get<std::string>();
  file.size = uint64_t(integerField(row, "size", 0, INT64_MAX));
  file.crc32 = uint32_t(integerField(row, "crc32", 0, kMaxCrc32));
  if (row.contains("xxh3")) {
    const json &hash = row.at("xxh3");
    file.xxh3 = hash.is_string() ? parseXxh3(hash.get<std::string>())
                                 : std::nullopt;
    if (!file.xxh3)
      throw std::runtime_error("the xxh3 of " + inQuotes(file.name) +
                               " must be a string of 16 lowercase hex digits");
  }
  return file;
}

/// The optional "weights" table: archives of plain functions, and those
/// written before modules were compiled, have none. Each weight's entry must
/// be in "files", so that its checksum is checked like every other entry's.
void parseWeights(const json &manifest, Model::Impl &impl,
                  const std::vector<ListedFile> &files) {
  auto table = manifest.find("weights");
  if (table == manifest.end())
    return;
  if (!table->is_array())
    throw std::runtime_error("\"weights\" is not an array");
  for (const json &weight : *table) {
    WeightInfo info;
    info.name = weight.at("name").get<std::string>();
    std::string what = "weight " + inQuotes(info.name);
    std::string dtype = weight.at("dtype").get<std::string>();
    if (!parseDType(dtype, info.dtype))
      throw std::runtime_error(what + " has unknown dtype '" + dtype + "'");
    for (const json &dim : weight.at("dims"))
      info.shape.push_back(parseDim(dim, "a dim of " + what, false).size);
    std::string file = weight.at("file").get<std::string>();
    if (!isListed(files, file))
      throw std::runtime_error(what + " is stored in " + inQuotes(file) +
                               ", which \"files\" does not list");
    impl.weights.push_back(std::move(info));
    impl.weightFiles.push_back(std::move(file));
  }
}

/// An operand of a library call. A weight's view must lie inside the
/// weight, since preparing the call reads it: the last element it reaches,
/// offset + sum((size - 1) * stride), is checked without wrapping.
LibraryCall::Operand parseOperand(const json &row, const std::string &what,
                                  const Model::Impl &impl) {
  LibraryCall::Operand operand;
  const json &sizes = row.at("sizes"), &strides = row.at("strides");
  if (!sizes.is_array() || sizes.empty() || sizes.size() > KILN_MAX_RANK ||
      !strides.is_array() || strides.size() != sizes.size())
    throw std::runtime_error(what + " needs 1 to " +
                             std::to_string(KILN_MAX_RANK) +
                             " sizes and as many strides");
  for (const json &size : sizes)
    operand.sizes.push_back(integerValue(size, what + "'s size", 0, INT64_MAX));
  for (const json &stride : strides)
    operand.strides.push_back(
        integerValue(stride, what + "'s stride", 0, INT64_MAX));
  if (!row.contains("weight"))
    return operand;
  int64_t rows = static_cast<int64_t>(impl.weights.size());
  operand.weight = integerField(row, "weight", 0, rows - 1);
  operand.offset = integerField(row, "offset", 0, INT64_MAX);
  const WeightInfo &weight = impl.weights[size_t(operand.weight)];
  if (weight.dtype != DType::F32)
    throw std::runtime_error(what + " reads weight " + inQuotes(weight.name) +
                             ", which is not f32");
  int64_t last = operand.offset;
  bool wraps = false;
  for (size_t d = 0; d < operand.sizes.size(); ++d) {
    int64_t step;
    if (operand.sizes[d] == 0)
      return operand; // reads nothing
    wraps = wraps ||
            __builtin_mul_overflow(operand.sizes[d] - 1, operand.strides[d],
                                   &step) ||
            __builtin_add_overflow(last, step, &last);
  }
  uint64_t bytes;
  if (wraps || !checkedByteSize(weight.shape, sizeof(float), bytes) ||
      uint64_t(last) >= bytes / sizeof(float))
    throw std::runtime_error(what + " reaches past the end of weight " +
                             inQuotes(weight.name));
  return operand;
}

/// A code object's optional "blocks", [bytes, count] each: the requests
/// of static size one call makes (codegen/cpu/StaticBlockRecords.cpp). A
/// request is one that compiled code could make. What loading stocks is
/// bounded by the block cache itself (stockBlocks), whatever the counts.
std::vector<BlockStock> staticBlocks(const json &variant,
                                     const std::string &where) {
  std::vector<BlockStock> blocks;
  auto table = variant.find("blocks");
  if (table == variant.end())
    return blocks;
  if (!table->is_array())
    throw std::runtime_error(where + "'s \"blocks\" is not an array");
  for (const json &row : *table) {
    std::string what =
        where + "'s blocks[" + std::to_string(blocks.size()) + "]";
    if (!row.is_array() || row.size() != 2)
      throw std::runtime_error(what + " is not a pair [bytes, count]");
    blocks.push_back(
        {uint64_t(integerValue(row[0], what + "'s bytes", 1,
                               int64_t(KILN_MAX_TENSOR_BYTES + 64))),
         uint64_t(integerValue(row[1], what + "'s count", 1,
                               INT64_MAX))});
  }
  return blocks;
}

/// The optional "library_calls": archives without a product or convolution
/// of static shapes, and those written before it, have none. Their shapes
/// and parameters are otherwise checked where every call's are, in the
/// kernel library.
void parseLibraryCalls(const json &manifest, Model::Impl &impl) {
  auto table = manifest.find("library_calls");
  if (table == manifest.end())
    return;
  if (!table->is_array())
    throw std::runtime_error("\"library_calls\" is not an array");
  for (const json &row : *table) {
    std::string what =
        "library_calls[" + std::to_string(impl.libraryCalls.size()) + "]";
    LibraryCall call;
    std::string op = row.at("op").get<std::string>();
    if (op != "matmul" && op != "conv2d")
      throw std::runtime_error(what + " has unknown op " + inQuotes(op));
    call.op = op == "matmul" ? LibraryCall::Op::Matmul : LibraryCall::Op::Conv2d;
    const json &operands = row.at("operands"), &params = row.at("params");
    // matmul: a, b, out; with a bias, a, b, bias, out and an activation.
    // conv2d: input, weight, out and seven parameters.
    size_t count = operands.is_array() ? operands.size() : 0;
    bool shaped = params.is_array() &&
                  (call.op == LibraryCall::Op::Matmul
                       ? (count == 3 || count == 4) && params.size() == count - 3
                       : count == 3 && params.size() == 7);
    if (!shaped)
      throw std::runtime_error(what + " has the wrong number of operands or "
                                      "parameters for " + op);
    for (const json &operand : operands)
      call.operands.push_back(parseOperand(
          operand,
          what + "'s operand " + std::to_string(call.operands.size()), impl));
    for (const json &param : params)
      call.params.push_back(
          integerValue(param, what + "'s parameter", 0, kMaxSmallInt));
    impl.libraryCalls.push_back(std::move(call));
  }
}

} // namespace

std::string parseManifest(const std::string &text, Model::Impl &impl,
                          std::vector<ListedFile> &files, ErrorKind &kind) {
  try {
    json manifest = json::parse(text);
    if (manifest.value("format", "") != "kiln")
      return "not a kiln archive: manifest.json has no \"format\": \"kiln\"";
    const json &version = manifest.at("format_version");
    int64_t major = integerValue(version.at(0), "the major format version",
                                 0, kMaxSmallInt);
    int64_t minor = integerValue(version.at(1), "the minor format version",
                                 0, kMaxSmallInt);
    if (major < 1 || major > 4) {
      kind = ErrorKind::Unsupported;
      return "archive format version " + std::to_string(major) + "." +
             std::to_string(minor) +
             " is not supported: this runtime (kiln " KILN_VERSION_STRING
             ") reads format versions 1.x to 4.x";
    }
    int64_t abi = integerField(manifest, "abi_version", 0, kMaxSmallInt);
    if (!abiSupported(abi)) {
      kind = ErrorKind::Unsupported;
      return "the archive's code uses ABI version " + std::to_string(abi) +
             "; " + abiVersionsText();
    }

    impl.sourcePath = manifest.at("source").at("path").get<std::string>();
    impl.sourceEntry = manifest.at("source").at("entry").get<std::string>();
    // Format 1 has one code object; format 2 a list of them, best first.
    // A --target=cuda archive has no CPU code (and its host code in
    // targets.cuda.host).
    const json &targets = manifest.at("targets");
    json cpu = targets.contains("cpu") ? targets.at("cpu") : json::array();
    if (major == 1)
      cpu = json::array({cpu});
    auto variants = [&](const json &list, const std::string &where,
                        std::vector<CpuVariant> &out) {
      for (const json &variant : list)
        out.push_back(
            {major == 1 ? "code" : variant.at("name").get<std::string>(),
             variant.at("features").get<std::vector<std::string>>(),
             variant.at("object").get<std::string>(),
             staticBlocks(variant,
                          where + "[" + std::to_string(out.size()) + "]")});
    };
    variants(cpu, "targets.cpu", impl.cpuVariants);
    if (targets.contains("cpu") && impl.cpuVariants.empty())
      return "corrupt manifest: targets.cpu lists no code object";
    if (targets.contains("cuda")) {
      const json &cuda = targets.at("cuda");
      CudaTarget target;
      variants(cuda.at("host"), "targets.cuda.host", target.host);
      if (target.host.empty())
        return "corrupt manifest: targets.cuda.host lists no code object";
      target.kernels = cuda.at("kernels").get<std::vector<std::string>>();
      target.ptxArch = cuda.at("ptx").at("arch").get<std::string>();
      target.ptxFile = cuda.at("ptx").at("file").get<std::string>();
      if (cuda.contains("libraries"))
        target.libraries =
            cuda.at("libraries").get<std::vector<std::string>>();
      if (cuda.contains("allow_tf32")) {
        if (!cuda.at("allow_tf32").is_boolean())
          return "corrupt manifest: targets.cuda.allow_tf32 is not a boolean";
        target.allowTf32 = cuda.at("allow_tf32").get<bool>();
      }
      for (const json &cubin : cuda.at("cubins"))
        target.cubins.push_back({cubin.at("arch").get<std::string>(),
                                 cubin.at("file").get<std::string>()});
      if (target.ptxArch.rfind("sm_", 0) != 0)
        return "corrupt manifest: targets.cuda.ptx.arch is not sm_NN";
      impl.cudaTarget = std::move(target);
    }
    if (impl.cpuVariants.empty() && !impl.cudaTarget)
      return "corrupt manifest: targets has neither cpu nor cuda code";

    for (const json &entry : manifest.at("entries")) {
      EntryInfo info;
      info.name = entry.at("name").get<std::string>();
      for (const json &arg : entry.at("args"))
        info.args.push_back(parseValue(arg));
      for (const json &result : entry.at("results")) {
        info.results.push_back(parseValue(result));
        if (info.results.back().hasDefault())
          throw std::runtime_error("result " +
                                   inQuotes(info.results.back().name) +
                                   " has a default");
        if (info.results.back().optional)
          throw std::runtime_error("result " +
                                   inQuotes(info.results.back().name) +
                                   " is marked optional");
      }
      // Before format 3 an optional input would have taken no presence
      // flag, so no such archive has one.
      for (const ValueInfo &arg : info.args) {
        if (arg.optional && major < 3)
          throw std::runtime_error(
              "input " + inQuotes(arg.name) +
              " is optional, which needs format version 3");
        // Format 4: Optional[int], Optional[float], Optional[bool].
        if (arg.optional && arg.scalar && major < 4)
          throw std::runtime_error(
              "input " + inQuotes(arg.name) +
              " is an optional scalar, which needs format version 4");
      }
      impl.entries.push_back(std::move(info));
    }
    // The CUDA host code may have tables of its own (its lowering adds
    // other checks than the CPU's); Model::load takes those when it runs it.
    auto tables = [&](const json &from, std::vector<std::string> &strings,
                      std::vector<Site> &sites) {
      strings = from.at("strings").get<std::vector<std::string>>();
      for (const json &site : from.at("sites"))
        sites.push_back({site.at("file").get<std::string>(),
                         integerField(site, "line", 0, kMaxSmallInt),
                         integerField(site, "col", 0, kMaxSmallInt),
                         site.at("message").get<std::string>()});
    };
    tables(manifest, impl.strings, impl.sites);
    if (impl.cudaTarget) {
      const json &cuda = manifest.at("targets").at("cuda");
      if (cuda.contains("sites"))
        tables(cuda, impl.cudaTarget->strings, impl.cudaTarget->sites);
      else {
        impl.cudaTarget->strings = impl.strings;
        impl.cudaTarget->sites = impl.sites;
      }
    }
    for (const json &file : manifest.at("files"))
      files.push_back(parseListedFile(file));
    parseWeights(manifest, impl, files);
    parseLibraryCalls(manifest, impl);
  } catch (const std::exception &e) {
    return std::string("corrupt manifest: ") + e.what();
  }
  return "";
}

} // namespace kiln
