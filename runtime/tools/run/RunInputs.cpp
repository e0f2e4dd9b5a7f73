//===- RunInputs.cpp - The tensors `--input NAME=SOURCE` names ------------===//
//
// A source that parses as a literal is a literal; only what does not is a
// path, so a file named like a number is written ./3 instead. Literal
// values are parsed in the dtype they are for, so "1.5" for an int input is
// refused here rather than truncated.
//
//===----------------------------------------------------------------------===//
#include "RunInputs.h"

#include "kiln/HalfFloat.h"
#include "kiln/Npy.h"
#include "Untrusted.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace kiln {
namespace {

bool isFloating(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F64 || dtype == DType::F16 ||
         dtype == DType::BF16;
}

bool parseWhole(const std::string &text, double &value) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    return false;
  char *end = nullptr;
  errno = 0;
  value = std::strtod(text.c_str(), &end);
  return *end == '\0' && errno != ERANGE;
}

bool parseWhole(const std::string &text, int64_t &value) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    return false;
  char *end = nullptr;
  errno = 0;
  value = std::strtoll(text.c_str(), &end, 10);
  return *end == '\0' && errno != ERANGE;
}

bool parseBool(const std::string &text, bool &value) {
  if (text == "true" || text == "True" || text == "1")
    value = true;
  else if (text == "false" || text == "False" || text == "0")
    value = false;
  else
    return false;
  return true;
}

/// Whether `text` reads as a scalar of some dtype: what makes a source a
/// literal rather than a path.
bool looksScalar(const std::string &text) {
  double number;
  bool flag;
  return parseWhole(text, number) || parseBool(text, flag);
}

/// Stores `text`, parsed as `dtype`, as element `i` of `t`; false when it
/// is not a value of that dtype (or an int out of its range).
bool storeElement(Tensor &t, int64_t i, const std::string &text) {
  DType dtype = t.dtype();
  if (isFloating(dtype)) {
    double value;
    if (!parseWhole(text, value))
      return false;
    if (dtype == DType::F64)
      t.data<double>()[i] = value;
    else if (dtype == DType::F32)
      t.data<float>()[i] = static_cast<float>(value);
    else if (dtype == DType::F16)
      t.data<uint16_t>()[i] = floatToHalf(static_cast<float>(value));
    else
      t.data<uint16_t>()[i] = floatToBFloat16(static_cast<float>(value));
    return true;
  }
  if (dtype == DType::Bool) {
    bool value;
    if (!parseBool(text, value))
      return false;
    t.data<uint8_t>()[i] = value;
    return true;
  }
  int64_t value;
  if (!parseWhole(text, value))
    return false;
  if (dtype == DType::I64) {
    t.data<int64_t>()[i] = value;
    return true;
  }
  if (value < INT32_MIN || value > INT32_MAX)
    return false;
  t.data<int32_t>()[i] = static_cast<int32_t>(value);
  return true;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

/// Splits "2x3xf32" into its shape and dtype; false if it is not one.
bool parseShapeType(const std::string &text, std::vector<int64_t> &shape,
                    DType &dtype) {
  size_t start = 0;
  for (size_t x; (x = text.find('x', start)) != std::string::npos;
       start = x + 1) {
    int64_t size;
    std::string dim = text.substr(start, x - start);
    if (dim.empty() || dim[0] == '-' || dim[0] == '+' || !parseWhole(dim, size))
      return false;
    shape.push_back(size);
  }
  std::string type = text.substr(start);
  return parseDType(type == "i1" ? "bool" : type, dtype);
}

InputError literalTensor(const std::string &flag, const std::string &type,
                         std::vector<int64_t> shape, DType dtype,
                         const std::string &values, Tensor &out) {
  std::vector<std::string> tokens;
  std::string token;
  for (char c : values + " ") {
    if (c == ' ' || c == ',' || c == '\t') {
      if (!token.empty())
        tokens.push_back(token);
      token.clear();
    } else {
      token += c;
    }
  }
  uint64_t bytes;
  if (!checkedByteSize(shape, dtypeSize(dtype), bytes))
    return {fmt::format("{}: the shape {} is larger than any tensor", flag,
                        shapeText(shape)),
            2};
  uint64_t count = bytes / dtypeSize(dtype);
  if (tokens.size() != count)
    return {fmt::format("{}: {} takes {} value{}, got {}", flag, type, count,
                        count == 1 ? "" : "s", tokens.size()),
            2};
  out = Tensor::zeros(dtype, std::move(shape));
  for (size_t i = 0; i < tokens.size(); ++i)
    if (!storeElement(out, static_cast<int64_t>(i), tokens[i]))
      return {fmt::format("{}: {} is not a valid {} value", flag,
                          inQuotes(tokens[i]), dtypeName(dtype)),
              2};
  return {};
}

Tensor randomTensor(DType dtype, const std::vector<int64_t> &shape,
                    uint64_t seed) {
  Tensor t = Tensor::zeros(dtype, shape);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int64_t> digits(0, 9);
  for (int64_t i = 0; i < t.numel(); ++i) {
    switch (dtype) {
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
      // Small integers, exact in both half formats.
      float value = static_cast<float>(digits(rng) - 5);
      t.data<uint16_t>()[i] =
          dtype == DType::F16 ? floatToHalf(value) : floatToBFloat16(value);
      break;
    }
    }
  }
  return t;
}

InputError randomInput(const std::string &flag, const ValueInfo &arg,
                       size_t index, const std::string &source,
                       const std::map<std::string, int64_t> &dims,
                       Tensor &out) {
  uint64_t seed = 0;
  if (source.size() > 6) {
    int64_t parsed = -1;
    if (source[6] != ':' || !parseWhole(source.substr(7), parsed) ||
        parsed < 0)
      return {flag + ": expected random or random:SEED", 2};
    seed = static_cast<uint64_t>(parsed);
  }
  std::vector<int64_t> shape;
  for (const DimInfo &dim : arg.dims) {
    auto it = dims.find(dim.symbol);
    shape.push_back(dim.symbol.empty() ? dim.size
                    : it != dims.end() ? it->second
                                       : 4);
  }
  // A shape too large for any tensor is refused before anything is
  // allocated.
  uint64_t bytes;
  if (!checkedByteSize(shape, dtypeSize(arg.dtype), bytes))
    return {fmt::format("{}: a tensor of shape {} would need more than 2^47 "
                        "bytes",
                        flag, shapeText(shape)),
            1};
  try {
    out = randomTensor(arg.dtype, shape, seed + index);
  } catch (const std::bad_alloc &) {
    return {fmt::format("{}: out of memory for {} bytes", flag, bytes), 1};
  }
  return {};
}

} // namespace

InputError makeInput(const ValueInfo &arg, size_t index,
                     const std::string &source,
                     const std::map<std::string, int64_t> &dims, Tensor &out,
                     bool &fromData) {
  std::string flag = "--input " + arg.name + "=" + source;
  fromData = false;
  if (source.rfind("random", 0) == 0)
    return randomInput(flag, arg, index, source, dims, out);
  fromData = true;
  std::vector<int64_t> shape;
  DType dtype;
  size_t eq = source.find('=');
  if (eq != std::string::npos &&
      parseShapeType(source.substr(0, eq), shape, dtype))
    return literalTensor(flag, source.substr(0, eq), std::move(shape), dtype,
                         source.substr(eq + 1), out);
  if (looksScalar(source)) {
    out = Tensor::zeros(arg.dtype, {});
    if (!storeElement(out, 0, source))
      return {fmt::format("{}: input '{}' is {}, and {} is not a valid {} "
                          "value",
                          flag, arg.name, dtypeName(arg.dtype),
                          inQuotes(source), dtypeName(arg.dtype)),
              2};
    return {};
  }
  Result<Tensor> tensor = readNpy(source);
  if (!tensor)
    return {"--input " + arg.name + ": " + tensor.error().message, 1};
  out = *tensor;
  return {};
}

} // namespace kiln
