//===- OpSchema.cpp - PyTorch-style schema strings of the op table --------===//
//
// Rows declare their parameters the way native_functions.yaml does, so the
// table reads like PyTorch's and the documentation can print the schema
// verbatim. Parsing happens once, when a row's schema is first asked for.
//
//===----------------------------------------------------------------------===//
#include "frontend/OpTable.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <map>

using namespace llvm;

namespace kiln::ops {

static std::optional<ParamType> parseType(StringRef t) {
  return StringSwitch<std::optional<ParamType>>(t)
      .Case("Tensor", ParamType::Tensor)
      .Case("Tensor?", ParamType::OptTensor)
      .Case("Scalar", ParamType::Scalar)
      .Case("Scalar?", ParamType::OptScalar)
      .Case("int", ParamType::Int)
      .Case("int?", ParamType::OptInt)
      .Case("float", ParamType::Float)
      .Case("bool", ParamType::Bool)
      .Case("int[]", ParamType::IntList)
      .Case("int[]?", ParamType::OptIntList)
      .Case("ScalarType?", ParamType::OptDtype)
      .Case("str", ParamType::Str)
      .Case("str?", ParamType::OptStr)
      .Case("Tensor[]", ParamType::TensorList)
      .Case("Tensor?[]", ParamType::OptTensorList)
      .Case("int[2]", ParamType::IntPair)
      .Case("int[2]?", ParamType::OptIntPair)
      .Case("bool?", ParamType::OptBool)
      .Case("Device?", ParamType::OptDevice)
      .Case("Layout?", ParamType::OptLayout)
      .Default(std::nullopt);
}

static const char *typeName(ParamType t) {
  switch (t) {
  case ParamType::Tensor:
    return "Tensor";
  case ParamType::OptTensor:
    return "Tensor?";
  case ParamType::Scalar:
    return "Scalar";
  case ParamType::OptScalar:
    return "Scalar?";
  case ParamType::Int:
    return "int";
  case ParamType::OptInt:
    return "int?";
  case ParamType::Float:
    return "float";
  case ParamType::Bool:
    return "bool";
  case ParamType::IntList:
    return "int[]";
  case ParamType::OptIntList:
    return "int[]?";
  case ParamType::OptDtype:
    return "ScalarType?";
  case ParamType::Str:
    return "str";
  case ParamType::OptStr:
    return "str?";
  case ParamType::TensorList:
    return "Tensor[]";
  case ParamType::OptTensorList:
    return "Tensor?[]";
  case ParamType::IntPair:
    return "int[2]";
  case ParamType::OptIntPair:
    return "int[2]?";
  case ParamType::OptBool:
    return "bool?";
  case ParamType::OptDevice:
    return "Device?";
  case ParamType::OptLayout:
    return "Layout?";
  }
  llvm_unreachable("every parameter type has a name");
}

Schema parseSchema(StringRef text) {
  Schema s;
  // The result may be a tuple, "(Tensor, Tensor)": the parameters close at
  // the last ')' before the arrow.
  size_t arrow = text.find("->");
  size_t open = text.find('('),
         close = text.take_front(arrow).rfind(')');
  if (open == StringRef::npos || close == StringRef::npos || close < open)
    report_fatal_error(Twine("malformed op schema: ") + text);
  s.name = text.take_front(open).trim().str();
  StringRef rest = text.drop_front(close + 1).trim();
  if (!rest.consume_front("->"))
    report_fatal_error(Twine("op schema without a result: ") + text);
  s.returns = rest.trim().str();
  SmallVector<StringRef> parts;
  text.slice(open + 1, close).split(parts, ',', -1, false);
  bool keywordOnly = false;
  for (StringRef part : parts) {
    part = part.trim();
    if (part == "*") {
      keywordOnly = true;
      continue;
    }
    auto [decl, def] = part.split('=');
    auto [type, name] = decl.trim().rsplit(' ');
    std::optional<ParamType> t = parseType(type.trim());
    if (!t || name.trim().empty())
      report_fatal_error(Twine("bad parameter '") + part + "' in op schema " +
                         text);
    s.params.push_back({name.trim().str(), *t, def.trim().str(), keywordOnly});
  }
  return s;
}

std::string Schema::text() const {
  std::string out = name + "(";
  bool starred = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param &p = params[i];
    if (i)
      out += ", ";
    if (p.keywordOnly && !starred) {
      out += "*, ";
      starred = true;
    }
    out += std::string(typeName(p.type)) + " " + p.name;
    if (!p.defaultText.empty())
      out += "=" + p.defaultText;
  }
  return out + ") -> " + returns;
}

int Schema::find(StringRef n) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == n)
      return static_cast<int>(i);
  return -1;
}

const Row *lookup(Spelling s, StringRef name) {
  // name -> rows answering to it; a name can be a Tensor op and a math
  // function at once (math.exp and torch.exp are different rows).
  static const std::multimap<std::string, const Row *> byName = [] {
    std::multimap<std::string, const Row *> m;
    for (const Row &r : allRows()) {
      m.emplace(r.schema().name, &r);
      for (const char *a : r.aliases)
        m.emplace(a, &r);
    }
    return m;
  }();
  auto [first, last] = byName.equal_range(name.str());
  for (auto it = first; it != last; ++it)
    if (it->second->spellings & s)
      return it->second;
  return nullptr;
}

std::vector<const Row *> overloads(const Row &row, Spelling s) {
  std::vector<const Row *> out;
  for (const Row &r : allRows())
    if ((r.spellings & s) && r.schema().name == row.schema().name)
      out.push_back(&r);
  if (out.empty())
    out.push_back(&row);
  return out;
}

} // namespace kiln::ops
