//===- Weights.cpp - Trained weights for an archive -----------------------===//
//
// A safetensors file is an 8-byte little-endian header length N, N bytes of
// JSON that map each tensor's name to {"dtype", "shape", "data_offsets":
// [begin, end]} (offsets count from the start of the data, which follows
// the header), then the data. The file is untrusted input: the whole header
// is checked (sizes, offsets within the data, no overlaps) before any data
// is copied, and every problem becomes one message naming the file. The
// JSON library reports errors by throwing; nothing thrown leaves this file.
//
//===----------------------------------------------------------------------===//

#include "codegen/archive/Weights.h"

#include "kiln/HalfFloat.h"
#include "kiln/Tensor.h"
#include "runtime/src/Untrusted.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <system_error>

namespace kiln {
namespace {

using json = nlohmann::json;

struct DTypeInfo {
  const char *safetensors;
  const char *manifest;
  size_t size;
};

/// The dtypes kiln compiles, as safetensors and the manifest spell them.
constexpr DTypeInfo DTypes[] = {
    {"F32", "f32", 4},   {"F16", "f16", 2}, {"BF16", "bf16", 2},
    {"F64", "f64", 8},   {"I64", "i64", 8}, {"I32", "i32", 4},
    {"BOOL", "bool", 1},
};

/// The entry for a manifest spelling, or nullptr.
const DTypeInfo *dtypeInfo(const std::string &manifest) {
  for (const DTypeInfo &info : DTypes)
    if (manifest == info.manifest)
      return &info;
  return nullptr;
}

/// numel * elementSize, or false for a negative dim or a size over
/// KILN_MAX_TENSOR_BYTES, by the runtime's one rule.
bool byteSize(const std::vector<int64_t> &shape, size_t elementSize,
              uint64_t &bytes) {
  return checkedByteSize(shape, elementSize, bytes);
}

/// A tensor as the header describes it; offsets count from the data start.
struct StoredTensor {
  std::string dtype; // manifest spelling
  std::vector<int64_t> shape;
  uint64_t begin = 0;
  uint64_t end = 0;
};

/// A JSON non-negative integer that fits in int64_t.
bool asSize(const json &value, uint64_t &out) {
  if (!value.is_number_unsigned())
    return false; // negative numbers parse as number_integer
  out = value.get<uint64_t>();
  return out <= uint64_t(INT64_MAX);
}

/// Checks one tensor's description against a data section of `dataSize`
/// bytes. Returns an error message or "".
std::string parseTensor(const std::string &name, const json &value,
                        uint64_t dataSize, StoredTensor &tensor) {
  std::string what = "tensor " + inQuotes(name);
  if (!value.is_object())
    return "not a safetensors file: " + what + " is not a JSON object";
  auto dtype = value.find("dtype");
  auto shape = value.find("shape");
  auto offsets = value.find("data_offsets");
  if (dtype == value.end() || !dtype->is_string())
    return "not a safetensors file: " + what + " has no \"dtype\" string";
  if (shape == value.end() || !shape->is_array())
    return "not a safetensors file: " + what + " has no \"shape\" array";
  if (offsets == value.end() || !offsets->is_array() || offsets->size() != 2)
    return "not a safetensors file: " + what +
           " has no \"data_offsets\" pair [begin, end]";

  const std::string &spelling = dtype->get_ref<const std::string &>();
  const DTypeInfo *info = nullptr;
  for (const DTypeInfo &candidate : DTypes)
    if (spelling == candidate.safetensors)
      info = &candidate;
  if (!info) {
    std::string supported;
    for (const DTypeInfo &candidate : DTypes)
      supported +=
          (supported.empty() ? "" : ", ") + std::string(candidate.safetensors);
    return what + " has dtype " + escaped(spelling) +
           ", which kiln does not support (it supports " + supported + ")";
  }
  tensor.dtype = info->manifest;
  for (const json &dim : *shape) {
    uint64_t size;
    // Never dump the shape: printing JSON recurses, and it may nest
    // arrays 200,000 deep.
    if (!asSize(dim, size))
      return "not a safetensors file: " + what +
             " has a dim that is not a non-negative integer";
    tensor.shape.push_back(int64_t(size));
  }
  if (!asSize((*offsets)[0], tensor.begin) ||
      !asSize((*offsets)[1], tensor.end))
    return "not a safetensors file: " + what +
           " has data_offsets that are not non-negative integers";

  std::string range = "[" + std::to_string(tensor.begin) + ", " +
                      std::to_string(tensor.end) + "]";
  if (tensor.end < tensor.begin)
    return "not a safetensors file: " + what + " has data_offsets " + range +
           ", which end before they begin";
  if (tensor.end > dataSize)
    return "truncated or corrupt: " + what + " has data_offsets " + range +
           ", past the end of the data, which holds " +
           std::to_string(dataSize) + " bytes";
  uint64_t bytes;
  std::string type = weightTypeText(tensor.dtype, tensor.shape);
  if (!byteSize(tensor.shape, info->size, bytes))
    return "not a safetensors file: " + what + " is " + type +
           ", too large to address";
  if (tensor.end - tensor.begin != bytes)
    return "not a safetensors file: " + what + " is " + type + ", " +
           std::to_string(bytes) + " bytes, but its data_offsets " + range +
           " hold " + std::to_string(tensor.end - tensor.begin);
  return "";
}

/// The safetensors library's limit on the header, against memory bombs.
constexpr uint64_t kMaxHeaderSize = 100'000'000;

/// safetensors requires "__metadata__" to map strings to strings.
std::string checkMetadata(const json &metadata) {
  if (!metadata.is_object())
    return "not a safetensors file: \"__metadata__\" is not a JSON object";
  for (auto it = metadata.begin(); it != metadata.end(); ++it)
    if (!it.value().is_string())
      return "not a safetensors file: \"__metadata__\" maps " +
             inQuotes(it.key()) + " to a value that is not a string";
  return "";
}

/// Parses and checks the whole header. Returns an error message or "".
std::string parseHeader(const MappedFile &file,
                        std::map<std::string, StoredTensor> &tensors,
                        uint64_t &dataStart) {
  if (file.size < 8)
    return "truncated or not a safetensors file: it has " +
           std::to_string(file.size) +
           " bytes, fewer than the 8 of its header length";
  uint64_t headerSize = 0;
  for (int i = 7; i >= 0; --i)
    headerSize = headerSize << 8 | file.data[i];
  if (headerSize > kMaxHeaderSize)
    return "not a safetensors file: its header length is " +
           std::to_string(headerSize) + " bytes, more than the " +
           std::to_string(kMaxHeaderSize) + " safetensors reads";
  if (headerSize > file.size - 8)
    return "truncated or not a safetensors file: its header length is " +
           std::to_string(headerSize) + " bytes, but only " +
           std::to_string(file.size - 8) + " bytes follow it";
  dataStart = 8 + headerSize;
  uint64_t dataSize = file.size - dataStart;

  json header;
  try {
    header = json::parse(file.data + 8, file.data + dataStart);
  } catch (const json::exception &e) {
    // Drop the library's "[json.exception.parse_error.101] " tag.
    std::string detail = e.what();
    size_t tag = detail.find("] ");
    if (tag != std::string::npos)
      detail = detail.substr(tag + 2);
    return "not a safetensors file: its header is not valid JSON: " +
           escaped(detail);
  }
  if (!header.is_object())
    return "not a safetensors file: its header is not a JSON object";
  for (auto it = header.begin(); it != header.end(); ++it) {
    if (it.key() == "__metadata__") {
      std::string error = checkMetadata(it.value());
      if (!error.empty())
        return error;
      continue;
    }
    StoredTensor tensor;
    std::string error = parseTensor(it.key(), it.value(), dataSize, tensor);
    if (!error.empty())
      return error;
    tensors.emplace(it.key(), std::move(tensor));
  }

  // Overlapping tensors would alias, which safetensors forbids; empty
  // tensors occupy no bytes and overlap nothing.
  std::vector<std::pair<const std::string *, const StoredTensor *>> byOffset;
  for (const auto &[name, tensor] : tensors)
    if (tensor.end > tensor.begin)
      byOffset.push_back({&name, &tensor});
  std::stable_sort(byOffset.begin(), byOffset.end(),
                   [](const auto &a, const auto &b) {
                     return a.second->begin < b.second->begin;
                   });
  for (size_t i = 1, last = 0; i < byOffset.size(); ++i) {
    const StoredTensor &previous = *byOffset[last].second;
    const StoredTensor &current = *byOffset[i].second;
    if (current.begin < previous.end)
      return "not a safetensors file: tensors " + inQuotes(*byOffset[last].first) +
             " and " + inQuotes(*byOffset[i].first) + " overlap: they hold bytes [" +
             std::to_string(previous.begin) + ", " +
             std::to_string(previous.end) + ") and [" +
             std::to_string(current.begin) + ", " +
             std::to_string(current.end) + ") of the data";
    if (current.end > previous.end)
      last = i;
  }
  return "";
}

std::string declaredAt(const WeightSpec &spec) {
  return spec.origin.empty() ? "" : " (declared at " + spec.origin + ")";
}

} // namespace

std::string readSafetensors(const std::string &path,
                            const std::vector<WeightSpec> &expected,
                            std::vector<WeightData> &out) {
  out.clear();
  try {
    MappedFile file;
    std::string error = file.open(path);
    std::map<std::string, StoredTensor> stored;
    uint64_t dataStart = 0;
    if (error.empty())
      error = parseHeader(file, stored, dataStart);
    if (!error.empty())
      return path + ": " + error;

    // Every offending name, sorted by name, so that one run of the compiler
    // shows everything that needs fixing.
    std::vector<std::pair<std::string, std::string>> problems;
    std::map<std::string, const WeightSpec *> declared;
    // The stored name each spec's values come from: its own, else an alias.
    std::map<const WeightSpec *, std::string> source;
    for (const WeightSpec &spec : expected) {
      declared.emplace(spec.name, &spec);
      for (const std::string &alias : spec.aliases)
        declared.emplace(alias, &spec);
      std::string want = weightTypeText(spec.dtype, spec.shape);
      auto it = stored.find(spec.name);
      for (size_t i = 0; it == stored.end() && i < spec.aliases.size(); ++i)
        it = stored.find(spec.aliases[i]);
      if (it == stored.end()) {
        problems.push_back({spec.name, "missing " + spec.name + ": expected " +
                                           want + declaredAt(spec)});
        continue;
      }
      source[&spec] = it->first;
      const StoredTensor &found = it->second;
      bool dtypeDiffers = found.dtype != spec.dtype;
      bool shapeDiffers = found.shape != spec.shape;
      if (!dtypeDiffers && !shapeDiffers)
        continue;
      std::string kind = dtypeDiffers && shapeDiffers ? "dtype and shape"
                         : dtypeDiffers               ? "dtype"
                                                      : "shape";
      problems.push_back({spec.name, "wrong " + kind + " for " + spec.name +
                                         ": expected " + want + ", found " +
                                         weightTypeText(found.dtype, found.shape) +
                                         declaredAt(spec)});
    }
    for (const auto &[name, found] : stored) {
      auto it = declared.find(name);
      if (it == declared.end())
        problems.push_back({name, "unexpected " + escaped(name) + ": found " +
                                      weightTypeText(found.dtype, found.shape)});
      else if (name != it->second->name &&
               (found.dtype != it->second->dtype ||
                found.shape != it->second->shape))
        problems.push_back(
            {name, "wrong dtype or shape for " + name + ", the same tensor "
                       "as " + it->second->name + ": expected " +
                       weightTypeText(it->second->dtype, it->second->shape) +
                       ", found " + weightTypeText(found.dtype, found.shape)});
    }
    if (!problems.empty()) {
      std::stable_sort(
          problems.begin(), problems.end(),
          [](const auto &a, const auto &b) { return a.first < b.first; });
      std::string message = path + " does not match the weights of the model:";
      for (const auto &problem : problems)
        message += "\n  " + problem.second;
      return message;
    }

    const char *data = reinterpret_cast<const char *>(file.data) + dataStart;
    std::vector<WeightData> weights;
    for (const WeightSpec &spec : expected) {
      const StoredTensor &found = stored.at(source.at(&spec));
      std::string bytes(data + found.begin, found.end - found.begin);
      // Compiled code treats a bool as 0 or 1; any other byte would make
      // `not` and `where` disagree with PyTorch.
      if (spec.dtype == "bool") {
        size_t bad = bytes.find_first_not_of(std::string("\0\1", 2));
        if (bad != std::string::npos)
          return path + ": tensor '" + spec.name + "' is bool but holds " +
                 std::to_string((unsigned char)bytes[bad]) + " at element " +
                 std::to_string(bad) + "; bools must be 0 or 1";
      }
      weights.push_back({spec.name, spec.dtype, spec.shape, std::move(bytes)});
    }
    out = std::move(weights);
  } catch (const std::exception &e) {
    // Only running out of memory gets here.
    return path + ": cannot read: " + e.what();
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Random weights
//===----------------------------------------------------------------------===//

namespace {

/// splitmix64 (Steele, Lea and Flood): tiny, fast, and the same on every
/// machine, unlike std::uniform_real_distribution, whose algorithm each
/// standard library chooses for itself.
uint64_t nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// FNV-1a, to give each tensor a stream of its own: adding a parameter to a
/// model leaves the values of the others as they were.
uint64_t hashName(const std::string &name) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : name)
    hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

/// Uniform in [-1, 1), from the top 53 bits.
double symmetricUnit(uint64_t &state) {
  return double(nextRandom(state) >> 11) * 0x1.0p-52 - 1.0;
}

/// torch.nn.init's fan_in: size(1) times the receptive field for rank >= 2.
/// PyTorch has no fan_in for rank 0 or 1; their own size stands in.
uint64_t fanIn(const std::vector<int64_t> &shape) {
  uint64_t fan = 1;
  for (size_t i = shape.size() >= 2 ? 1 : 0; i < shape.size(); ++i)
    fan *= uint64_t(std::max<int64_t>(shape[i], 0));
  return std::max<uint64_t>(fan, 1);
}

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

template <typename T> void append(std::string &bytes, T value) {
  bytes.append(reinterpret_cast<const char *>(&value), sizeof value);
}

} // namespace

std::string weightTypeText(const std::string &dtype,
                           const std::vector<int64_t> &shape) {
  std::string out = dtype + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

std::string checkRandomWeightBudget(const std::vector<WeightSpec> &expected) {
  uint64_t total = 0, largest = 0;
  const WeightSpec *biggest = nullptr;
  for (const WeightSpec &spec : expected) {
    const DTypeInfo *info = dtypeInfo(spec.dtype);
    uint64_t bytes = 0;
    if (!info || !byteSize(spec.shape, info->size, bytes))
      bytes = UINT64_MAX;
    if (!biggest || bytes > largest) {
      largest = bytes;
      biggest = &spec;
    }
    total = bytes > UINT64_MAX - total ? UINT64_MAX : total + bytes;
  }
  if (total <= kMaxRandomWeightBytes)
    return "";
  return "--random-weights makes at most " +
         std::to_string(kMaxRandomWeightBytes >> 30) +
         " GiB of weights, and this model declares more; the largest is " +
         biggest->name + ": " + weightTypeText(biggest->dtype, biggest->shape) +
         " (declared at " + biggest->origin + ")";
}

std::vector<WeightData> randomWeights(const std::vector<WeightSpec> &expected,
                                      uint64_t seed) {
  std::map<std::string, const WeightSpec *> byName;
  for (const WeightSpec &spec : expected)
    byName.emplace(spec.name, &spec);

  std::vector<WeightData> out;
  for (const WeightSpec &spec : expected) {
    const DTypeInfo *info = dtypeInfo(spec.dtype);
    assert(info && "a weight's dtype is one the manifest knows");
    uint64_t bytes = 0;
    [[maybe_unused]] bool fits = byteSize(spec.shape, info->size, bytes);
    assert(fits && "a declared weight fits in memory");
    WeightData data{spec.name, spec.dtype, spec.shape, {}};
    bool isFloat = spec.dtype == "f32" || spec.dtype == "f64" ||
                   spec.dtype == "f16" || spec.dtype == "bf16";
    if (!isFloat) {
      // Integer and bool buffers are counters and masks, not weights.
      data.bytes.assign(bytes, '\0');
      out.push_back(std::move(data));
      continue;
    }

    // nn.Linear and nn.Conv* draw a bias from the same range as their
    // weight, whose fan_in the bias itself does not know.
    uint64_t fan = fanIn(spec.shape);
    if (endsWith(spec.name, "bias")) {
      std::string sibling =
          spec.name.substr(0, spec.name.size() - 4) + "weight";
      auto it = byName.find(sibling);
      if (it != byName.end() && it->second->shape.size() >= 2)
        fan = fanIn(it->second->shape);
    }
    double scale = 1.0 / std::sqrt(double(fan));
    // Norm scales and running variances near 1, not exactly 1, so that a
    // test still notices if compiled code ignores them.
    double center = 0.0;
    if (spec.shape.size() == 1 &&
        (endsWith(spec.name, "weight") || endsWith(spec.name, "running_var"))) {
      center = 1.0;
      scale = 0.1;
    }

    uint64_t state = seed ^ hashName(spec.name);
    uint64_t count = bytes / info->size;
    data.bytes.reserve(bytes);
    for (uint64_t i = 0; i < count; ++i) {
      double value = center + scale * symmetricUnit(state);
      // Half types round from the f32 value, as `.half()` would.
      if (spec.dtype == "f64")
        append(data.bytes, value);
      else if (spec.dtype == "f32")
        append(data.bytes, float(value));
      else if (spec.dtype == "f16")
        append(data.bytes, floatToHalf(float(value)));
      else
        append(data.bytes, floatToBFloat16(float(value)));
    }
    out.push_back(std::move(data));
  }
  return out;
}

} // namespace kiln
