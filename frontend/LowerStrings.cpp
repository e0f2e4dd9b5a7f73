//===- LowerStrings.cpp - f-strings and str.format, built while compiling -===//
//
// kiln has no strings at run time: a message is text in the program. An
// f-string or `"...".format(...)` whose fields are all known while
// compiling (module options, static shapes and dtypes, literals) is built
// here into a str, which assert, raise and print then use as any literal.
// Formatting follows Python's format-spec mini-language for the types kiln
// has (int, float, bool, str, None, tuples, dtypes).
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/LowerConstructs.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <cstdio>

using namespace mlir;

namespace kiln {

namespace {

/// Python's repr() of a float: the shortest text that reads back the same,
/// with ".0" on an integral value.
std::string floatRepr(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos)
    s += ".0";
  return s;
}

std::string strRepr(const std::string &s) {
  char q = s.find('\'') != std::string::npos && s.find('"') == std::string::npos
               ? '"'
               : '\'';
  std::string out(1, q);
  for (char c : s) {
    if (c == '\\' || c == q)
      out += '\\';
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else
      out += c;
  }
  return out + q;
}

/// A value's constant, as the str() and format() of Python see it.
struct Const {
  enum { Int, Float, Bool, Text } kind;
  int64_t i = 0;
  double f = 0;
  std::string text; // str() of anything else
};

/// The compile-time value of `v`, or an error message saying why not.
std::optional<Const> constOf(FunctionLowering &fl, const PyValue &v,
                             bool repr, std::string &why) {
  switch (v.kind) {
  case PyValue::Kind::Str:
    return Const{Const::Text, 0, 0, repr ? strRepr(v.str) : v.str};
  case PyValue::Kind::None:
    return Const{Const::Text, 0, 0, "None"};
  case PyValue::Kind::Global:
    return Const{Const::Text, 0, 0, v.str};
  case PyValue::Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < v.elems.size(); ++i) {
      std::optional<Const> e = constOf(fl, v.elems[i], /*repr=*/true, why);
      if (!e)
        return std::nullopt;
      s += (i ? ", " : "") +
           (e->kind == Const::Int     ? std::to_string(e->i)
            : e->kind == Const::Float ? floatRepr(e->f)
            : e->kind == Const::Bool  ? std::string(e->i ? "True" : "False")
                                      : e->text);
    }
    return Const{Const::Text, 0, 0, s + (v.elems.size() == 1 ? ",)" : ")")};
  }
  case PyValue::Kind::Value:
    if (Attribute a = foldToConstant(v.value)) {
      if (auto i = llvm::dyn_cast<IntegerAttr>(a)) {
        if (v.value.getType().isInteger(1))
          return Const{Const::Bool, i.getValue().isZero() ? 0 : 1, 0, ""};
        return Const{Const::Int, i.getInt(), 0, ""};
      }
      if (auto f = llvm::dyn_cast<FloatAttr>(a))
        return Const{Const::Float, 0, f.getValueAsDouble(), ""};
    }
    why = fl.describe(v) + ", a value known only at run time";
    return std::nullopt;
  default:
    why = fl.describe(v);
    return std::nullopt;
  }
}

/// `c` formatted by the spec `[[fill]align][sign][0][width][,][.prec][type]`.
std::optional<std::string> applySpec(const Const &c, const std::string &spec,
                                     std::string &why) {
  size_t i = 0;
  char fill = ' ', align = 0, sign = '-', type = 0;
  auto isAlign = [](char a) { return a == '<' || a == '>' || a == '^' || a == '='; };
  if (spec.size() >= 2 && isAlign(spec[1]))
    fill = spec[0], align = spec[1], i = 2;
  else if (!spec.empty() && isAlign(spec[0]))
    align = spec[0], i = 1;
  if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' '))
    sign = spec[i++];
  if (i < spec.size() && spec[i] == '0' && !align)
    fill = '0', align = '=', ++i;
  int width = 0, prec = -1;
  while (i < spec.size() && isdigit(spec[i]))
    width = width * 10 + (spec[i++] - '0');
  bool comma = i < spec.size() && spec[i] == ',' && ++i;
  if (i < spec.size() && spec[i] == '.') {
    prec = 0, ++i;
    while (i < spec.size() && isdigit(spec[i]))
      prec = prec * 10 + (spec[i++] - '0');
  }
  if (i < spec.size())
    type = spec[i++];
  if (i != spec.size() || comma) {
    why = "the format spec '" + spec + "' is not supported";
    return std::nullopt;
  }
  std::string body;
  bool numeric = c.kind != Const::Text;
  bool negative = false;
  char buf[512];
  if (c.kind == Const::Text || (c.kind == Const::Bool && !type)) {
    body = c.kind == Const::Bool ? (c.i ? "True" : "False") : c.text;
    if (type && type != 's') {
      why = "the format spec '" + spec + "' needs a number";
      return std::nullopt;
    }
    if (prec >= 0 && size_t(prec) < body.size())
      body.resize(prec);
    numeric = false;
  } else if (c.kind != Const::Float && (!type || type == 'd' || type == 'x' ||
                                        type == 'o' || type == 'b')) {
    negative = c.i < 0;
    uint64_t m = negative ? 0 - uint64_t(c.i) : uint64_t(c.i);
    if (type == 'b') {
      do
        body.insert(body.begin(), char('0' + (m & 1)));
      while (m >>= 1);
    } else {
      std::snprintf(buf, sizeof buf, type == 'x' ? "%llx" : type == 'o' ? "%llo" : "%llu",
                    (unsigned long long)m);
      body = buf;
    }
  } else if (!type || type == 'f' || type == 'F' || type == 'e' ||
             type == 'E' || type == 'g' || type == 'G' || type == '%') {
    double v = c.kind == Const::Float ? c.f : double(c.i);
    if (type == '%')
      v *= 100;
    negative = std::signbit(v);
    v = std::fabs(v);
    if (!type && prec < 0) {
      body = c.kind == Const::Float ? floatRepr(v) : std::to_string(c.i < 0 ? -c.i : c.i);
    } else {
      char t = !type ? 'g' : type == '%' ? 'f' : type;
      std::string f = std::string("%.*") + t;
      std::snprintf(buf, sizeof buf, f.c_str(), prec < 0 ? 6 : prec, v);
      body = buf;
      if (type == '%')
        body += '%';
    }
  } else {
    why = "the format spec '" + spec + "' does not apply to " +
          (c.kind == Const::Float ? "a float" : "an int");
    return std::nullopt;
  }
  std::string signText =
      numeric ? (negative ? "-" : sign == '+' ? "+" : sign == ' ' ? " " : "")
              : "";
  size_t len = signText.size() + body.size();
  if (size_t(width) <= len)
    return signText + body;
  size_t pad = width - len;
  if (!align)
    align = numeric ? '>' : '<';
  switch (align) {
  case '<':
    return signText + body + std::string(pad, fill);
  case '^':
    return std::string(pad / 2, fill) + signText + body +
           std::string(pad - pad / 2, fill);
  case '=':
    return signText + std::string(pad, fill) + body;
  default:
    return std::string(pad, fill) + signText + body;
  }
}

/// One replacement field, `{v!conversion:spec}`, as text.
std::optional<std::string> formatField(FunctionLowering &fl, const PyValue &v,
                                       char conversion, const std::string &spec,
                                       SourceRange where) {
  std::string why;
  std::optional<Const> c = constOf(fl, v, conversion == 'r', why);
  std::optional<std::string> text;
  if (c) {
    // !r and !s make a str of the value first; the spec then applies to it.
    if (conversion && c->kind != Const::Text) {
      Const asText{Const::Text, 0, 0, ""};
      asText.text = c->kind == Const::Int     ? std::to_string(c->i)
                    : c->kind == Const::Float ? floatRepr(c->f)
                                              : (c->i ? "True" : "False");
      c = asText;
    }
    text = applySpec(*c, spec, why);
    if (!text)
      fl.error(where, why);
    return text;
  }
  fl.error(where, "cannot format " + why +
                      "; kiln builds f-strings and str.format() while "
                      "compiling, from values known then");
  return std::nullopt;
}

} // namespace

MaybeValue lowerFString(FunctionLowering &fl, const ast::FStringExpr &e) {
  std::string out;
  for (const ast::FStringExpr::Part &p : e.parts) {
    if (!p.expr) {
      out += p.text;
      continue;
    }
    MaybeValue v = fl.lowerExpr(*p.expr);
    if (!v)
      return std::nullopt;
    std::optional<std::string> s =
        formatField(fl, *v, p.conversion, p.spec, p.expr->range);
    if (!s)
      return std::nullopt;
    out += *s;
  }
  return PyValue::ofStr(std::move(out));
}

bool lowerStrFormat(FunctionLowering &fl, const PyValue &self,
                    const std::string &name, const ast::CallExpr &call,
                    MaybeValue &out) {
  if (self.kind != PyValue::Kind::Str || name != "format")
    return false;
  out = std::nullopt;
  if (!call.keywords.empty()) {
    fl.error(call.range, "str.format() with keyword fields is not supported");
    return true;
  }
  std::vector<PyValue> args;
  for (const ast::ExprPtr &a : call.args) {
    MaybeValue v = fl.lowerExpr(*a);
    if (!v)
      return true;
    args.push_back(*v);
  }
  // Fields are `{}`, `{N}`, with `!c` and `:spec`; braces double to escape.
  const std::string &f = self.str;
  std::string result;
  size_t next = 0;
  bool numbered = false;
  for (size_t i = 0; i < f.size(); ++i) {
    char c = f[i];
    if ((c == '{' || c == '}') && i + 1 < f.size() && f[i + 1] == c) {
      result += c;
      ++i;
      continue;
    }
    if (c != '{') {
      result += c;
      continue;
    }
    size_t close = f.find('}', i);
    if (close == std::string::npos) {
      fl.error(call.range, "str.format(): single '{' in the format string");
      return true;
    }
    std::string field = f.substr(i + 1, close - i - 1);
    std::string spec, index = field;
    char conversion = 0;
    if (size_t colon = field.find(':'); colon != std::string::npos)
      spec = field.substr(colon + 1), index = field.substr(0, colon);
    if (size_t bang = index.find('!'); bang != std::string::npos) {
      conversion = bang + 1 < index.size() ? index[bang + 1] : 0;
      index = index.substr(0, bang);
    }
    // Python refuses `{} {1}`: fields are all numbered or none is.
    bool manual = !index.empty();
    if (next > 0 && manual != numbered) {
      fl.error(call.range, "str.format(): cannot switch between automatic "
                           "field numbering and manual field specification");
      return true;
    }
    numbered = manual;
    size_t n = next++;
    if (manual) {
      if (index.find_first_not_of("0123456789") != std::string::npos) {
        fl.error(call.range, "str.format(): the field '{" + field +
                                 "}' is not supported; use {} or {N}");
        return true;
      }
      n = std::stoul(index);
    }
    if (n >= args.size()) {
      fl.error(call.range, "str.format(): replacement index " +
                               std::to_string(n) + " out of range for " +
                               std::to_string(args.size()) + " arguments");
      return true;
    }
    std::optional<std::string> s =
        formatField(fl, args[n], conversion, spec, call.args[n]->range);
    if (!s)
      return true;
    result += *s;
    i = close;
  }
  out = PyValue::ofStr(std::move(result));
  return true;
}

} // namespace kiln
