//===- ArgSpec.cpp - Tensor argument specs --------------------------------===//
#include "frontend/ArgSpec.h"

#include "ir/Limits.h"

#include <set>

namespace kiln {

const char *spell(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F64:
    return "f64";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::Bool:
    return "bool";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view text) {
  static const std::pair<const char *, DType> names[] = {
      {"f32", DType::F32},   {"float32", DType::F32},
      {"f16", DType::F16},   {"float16", DType::F16},
      {"bf16", DType::BF16}, {"bfloat16", DType::BF16},
      {"f64", DType::F64},   {"float64", DType::F64},
      {"i32", DType::I32},   {"int32", DType::I32},
      {"i64", DType::I64},   {"int64", DType::I64},
      {"bool", DType::Bool}};
  for (const auto &[name, dtype] : names)
    if (text == name)
      return dtype;
  return std::nullopt;
}

static std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

static bool isIdentifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9'))
    return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

SpecResult<ArgSpec> parseArgSpec(std::string_view input) {
  SpecResult<ArgSpec> result;
  std::string_view text = trim(input);
  std::string quoted = "'" + std::string(text) + "'";
  auto fail = [&](std::string msg) {
    result.error = std::move(msg);
    return result;
  };
  if (text.empty())
    return fail("empty argument spec");
  size_t eq = text.find('=');
  if (eq == std::string_view::npos)
    return fail("expected '=' in argument spec " + quoted);
  std::string_view name = trim(text.substr(0, eq));
  if (!isIdentifier(name))
    return fail("invalid argument name '" + std::string(name) +
                "' in argument spec " + quoted);
  std::string_view rest = trim(text.substr(eq + 1));
  if (rest.substr(0, 4) == "str:") {
    result.value.name = std::string(name);
    result.value.str = std::string(rest.substr(4));
    return result;
  }
  size_t open = rest.find('[');
  std::string_view dtypeText = trim(rest.substr(0, open));
  std::optional<DType> dtype = parseDType(dtypeText);
  if (!dtype)
    return fail("unknown dtype '" + std::string(dtypeText) +
                "' in argument spec " + quoted +
                " (expected one of f32, f16, bf16, f64, i32, i64, bool)");
  if (open == std::string_view::npos)
    return fail("expected '[' after the dtype in argument spec " + quoted);
  size_t close = rest.find(']', open);
  if (close == std::string_view::npos)
    return fail("expected ']' in argument spec " + quoted);
  std::string_view after = trim(rest.substr(close + 1));
  result.value.optional = after == "?";
  if (!after.empty() && after != "?")
    return fail("unexpected text after ']' in argument spec " + quoted +
                " (only '?', for an Optional[Tensor] input, may follow)");
  result.value.name = std::string(name);
  result.value.dtype = *dtype;
  std::string_view dims = trim(rest.substr(open + 1, close - open - 1));
  if (dims.empty())
    return result;
  while (true) {
    size_t comma = dims.find(',');
    std::string_view dim = trim(dims.substr(0, comma));
    if (dim.empty())
      return fail("empty dimension in argument spec " + quoted);
    SpecDim d;
    if (dim[0] >= '0' && dim[0] <= '9') {
      int64_t v = 0;
      for (char c : dim) {
        if (c < '0' || c > '9' || v > (INT64_MAX - 9) / 10)
          return fail("dimension '" + std::string(dim) + "' in argument spec " +
                      quoted + " is not a valid size");
        v = v * 10 + (c - '0');
      }
      d.size = v;
    } else if (isIdentifier(dim)) {
      d.symbol = std::string(dim);
    } else {
      return fail("dimension '" + std::string(dim) + "' in argument spec " +
                  quoted +
                  " must be a non-negative integer or a symbolic name");
    }
    if (result.value.dims.size() == kMaxRank)
      return fail("argument spec " + quoted + " has more than " +
                  std::to_string(kMaxRank) + " dims, more than kiln supports");
    result.value.dims.push_back(std::move(d));
    if (comma == std::string_view::npos)
      break;
    dims = dims.substr(comma + 1);
  }
  return result;
}

SpecResult<std::vector<ArgSpec>> parseArgSpecList(std::string_view text) {
  SpecResult<std::vector<ArgSpec>> result;
  std::set<std::string> seen;
  int nesting = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (c == '[')
      ++nesting;
    else if (c == ']' && nesting > 0)
      --nesting;
    if (c != ',' || (nesting > 0 && i < text.size()))
      continue;
    std::string_view piece = trim(text.substr(start, i - start));
    start = i + 1;
    if (piece.empty() && i == text.size() && !result.value.empty())
      break; // a trailing comma
    SpecResult<ArgSpec> one = parseArgSpec(piece);
    if (!one.ok()) {
      result.error = std::move(one.error);
      return result;
    }
    if (!seen.insert(one.value.name).second) {
      result.error = "argument '" + one.value.name + "' is specified twice";
      return result;
    }
    result.value.push_back(std::move(one.value));
  }
  return result;
}

std::string printArgSpec(const ArgSpec &spec) {
  if (spec.str)
    return spec.name + "=str:" + *spec.str;
  std::string s = spec.name + "=" + spell(spec.dtype) + "[";
  for (size_t i = 0; i < spec.dims.size(); ++i) {
    if (i)
      s += ",";
    const SpecDim &d = spec.dims[i];
    s += d.isSymbolic() ? d.symbol : std::to_string(d.size);
  }
  return s + (spec.optional ? "]?" : "]");
}

std::string printArgSpecList(const std::vector<ArgSpec> &specs) {
  std::string s;
  for (size_t i = 0; i < specs.size(); ++i)
    s += (i ? ", " : "") + printArgSpec(specs[i]);
  return s;
}

} // namespace kiln
