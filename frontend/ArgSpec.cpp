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

/// Splits `text` at the commas outside brackets and parentheses.
static std::vector<std::string_view> splitTopLevel(std::string_view text) {
  std::vector<std::string_view> pieces;
  int nesting = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (c == '[' || c == '(')
      ++nesting;
    else if ((c == ']' || c == ')') && nesting > 0)
      --nesting;
    if (c != ',' || (nesting > 0 && i < text.size()))
      continue;
    pieces.push_back(trim(text.substr(start, i - start)));
    start = i + 1;
  }
  return pieces;
}

static bool isScalarName(std::string_view s) {
  return s == "int" || s == "float" || s == "bool";
}

/// Parses the dims between '[' and ']' of a tensor spec into `spec`.
static std::string parseDims(std::string_view dims, const std::string &quoted,
                             ArgSpec &spec) {
  if (dims.empty())
    return "";
  for (std::string_view dim : splitTopLevel(dims)) {
    if (dim.empty())
      return "empty dimension in argument spec " + quoted;
    SpecDim d;
    if (dim[0] >= '0' && dim[0] <= '9') {
      int64_t v = 0;
      for (char c : dim) {
        if (c < '0' || c > '9' || v > (INT64_MAX - 9) / 10)
          return "dimension '" + std::string(dim) + "' in argument spec " +
                 quoted + " is not a valid size";
        v = v * 10 + (c - '0');
      }
      d.size = v;
    } else if (isIdentifier(dim)) {
      d.symbol = std::string(dim);
    } else {
      return "dimension '" + std::string(dim) + "' in argument spec " +
             quoted + " must be a non-negative integer or a symbolic name";
    }
    if (spec.dims.size() == kMaxRank)
      return "argument spec " + quoted + " has more than " +
             std::to_string(kMaxRank) + " dims, more than kiln supports";
    spec.dims.push_back(std::move(d));
  }
  return "";
}

/// Containers nest at most this deep, which keeps a hostile spec from
/// recursing without bound.
constexpr int kMaxSpecNesting = 8;

/// Parses what follows '=' in a spec (a tensor, a container of specs, a
/// scalar element or `int[3]`) into `spec`; an error message, or "".
static std::string parseValueSpec(std::string_view text,
                                  const std::string &quoted, ArgSpec &spec,
                                  int depth) {
  bool element = depth > 0;
  if (!text.empty() && (text.front() == '[' || text.front() == '(')) {
    char close = text.front() == '[' ? ']' : ')';
    if (text.back() != close)
      return std::string("expected '") + close + "' at the end of " +
             std::string(text) + " in argument spec " + quoted;
    if (depth == kMaxSpecNesting)
      return "argument spec " + quoted + " nests more than " +
             std::to_string(kMaxSpecNesting) + " deep";
    spec.isContainer = true;
    spec.parenthesized = close == ')';
    std::string_view inner = trim(text.substr(1, text.size() - 2));
    if (inner.empty())
      return "";
    std::vector<std::string_view> pieces = splitTopLevel(inner);
    if (pieces.size() > 1 && pieces.back().empty())
      pieces.pop_back(); // a trailing comma, as in `(f32[N],)`
    for (std::string_view piece : pieces) {
      if (piece.empty())
        return "empty element in argument spec " + quoted;
      ArgSpec elem;
      std::string error = parseValueSpec(piece, quoted, elem, depth + 1);
      if (!error.empty())
        return error;
      spec.elems.push_back(std::move(elem));
    }
    return "";
  }
  if (element && isScalarName(text)) {
    spec.scalar = std::string(text);
    return "";
  }
  size_t open = text.find('[');
  std::string_view dtypeText = trim(text.substr(0, open));
  if ((dtypeText == "int" || dtypeText == "float") &&
      open != std::string_view::npos) {
    // `int[3]`: a list of three run-time ints. (`bool[3]` is a tensor.)
    std::string_view count = trim(text.substr(open + 1));
    if (count.empty() || count.back() != ']')
      return "expected ']' in argument spec " + quoted;
    count = trim(count.substr(0, count.size() - 1));
    int64_t n = 0;
    for (char c : count) {
      if (c < '0' || c > '9' || n > 9999)
        return "'" + std::string(text) + "' in argument spec " + quoted +
               " must give the list's length as a number, as in " +
               std::string(dtypeText) + "[3]";
      n = n * 10 + (c - '0');
    }
    if (count.empty() || n > 9999)
      return "'" + std::string(text) + "' in argument spec " + quoted +
             " must give the list's length as a number, as in " +
             std::string(dtypeText) + "[3]";
    spec.isContainer = true;
    spec.elems.assign(n, ArgSpec());
    for (ArgSpec &e : spec.elems)
      e.scalar = std::string(dtypeText);
    return "";
  }
  std::optional<DType> dtype = parseDType(dtypeText);
  if (!dtype)
    return "unknown dtype '" + std::string(dtypeText) + "' in argument spec " +
           quoted + " (expected one of f32, f16, bf16, f64, i32, i64, bool" +
           (element ? ", or int, float, bool for a Python scalar)" : ")");
  if (open == std::string_view::npos)
    return "expected '[' after the dtype in argument spec " + quoted;
  size_t close = text.find(']', open);
  if (close == std::string_view::npos)
    return "expected ']' in argument spec " + quoted;
  std::string_view after = trim(text.substr(close + 1));
  spec.optional = after == "?";
  if (!after.empty() && after != "?")
    return "unexpected text after ']' in argument spec " + quoted +
           " (only '?', for an Optional[Tensor] input, may follow)";
  spec.dtype = *dtype;
  return parseDims(trim(text.substr(open + 1, close - open - 1)), quoted,
                   spec);
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
  result.value.name = std::string(name);
  if (rest.substr(0, 4) == "str:") {
    result.value.str = std::string(rest.substr(4));
    return result;
  }
  if (rest == "str") {
    result.value.runtimeStr = true;
    return result;
  }
  std::string error = parseValueSpec(rest, quoted, result.value, 0);
  if (!error.empty())
    return fail(error);
  return result;
}

SpecResult<std::vector<ArgSpec>> parseArgSpecList(std::string_view text) {
  SpecResult<std::vector<ArgSpec>> result;
  std::set<std::string> seen;
  std::vector<std::string_view> pieces = splitTopLevel(text);
  if (pieces.size() > 1 && pieces.back().empty())
    pieces.pop_back(); // a trailing comma
  for (std::string_view piece : pieces) {
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

/// What follows '=' in `spec`'s text.
static std::string printValueSpec(const ArgSpec &spec) {
  if (spec.str)
    return "str:" + *spec.str;
  if (spec.runtimeStr)
    return "str";
  if (!spec.scalar.empty())
    return spec.scalar;
  if (spec.isContainer) {
    std::string s = spec.parenthesized ? "(" : "[";
    for (size_t i = 0; i < spec.elems.size(); ++i)
      s += (i ? ", " : "") + printValueSpec(spec.elems[i]);
    if (spec.parenthesized && spec.elems.size() == 1)
      s += ",";
    return s + (spec.parenthesized ? ")" : "]");
  }
  std::string s = std::string(spell(spec.dtype)) + "[";
  for (size_t i = 0; i < spec.dims.size(); ++i) {
    if (i)
      s += ",";
    const SpecDim &d = spec.dims[i];
    s += d.isSymbolic() ? d.symbol : std::to_string(d.size);
  }
  return s + (spec.optional ? "]?" : "]");
}

std::string printArgSpec(const ArgSpec &spec) {
  return spec.name + "=" + printValueSpec(spec);
}

std::string printArgSpecList(const std::vector<ArgSpec> &specs) {
  std::string s;
  for (size_t i = 0; i < specs.size(); ++i)
    s += (i ? ", " : "") + printArgSpec(specs[i]);
  return s;
}

} // namespace kiln
