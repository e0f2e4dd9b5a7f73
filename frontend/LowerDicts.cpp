//===- LowerDicts.cpp - Dict[str, T] and NamedTuple values ----------------===//
//
// A dict with string keys is a compile-time value, as a tuple is: its keys
// are known while compiling and each value keeps its own type and shape, so
// `{"logits": x, "hidden": h}` costs nothing at run time, `d["logits"]` is
// the value itself, and `.items()` is a tuple walked by the unrolled loop.
// Hugging Face models build and return such dicts; a key that is only known
// at run time is refused, since the values may differ in type.
//
// A NamedTuple is a tuple whose fields have names: everything a tuple does
// (indexing, unpacking, returning) works unchanged, and `.name` reads a
// field.
//
//===----------------------------------------------------------------------===//

#include "frontend/AstPrinter.h"
#include "frontend/LoweringImpl.h"
#include "frontend/Suggest.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace kiln {

namespace {

constexpr llvm::StringLiteral kNamedTuplePrefix = "$namedtuple.";

std::string quoted(const std::string &k) { return "'" + k + "'"; }

std::string keyList(const PyValue &d) {
  if (d.keys.empty())
    return "it is empty";
  std::string s = "its keys are ";
  for (size_t i = 0; i < d.keys.size(); ++i)
    s += (i ? ", " : "") + quoted(d.keys[i]);
  return s;
}

/// Sets `key` to `value`, keeping the first insertion's position.
void setItem(PyValue &d, const std::string &key, PyValue value) {
  for (size_t i = 0; i < d.keys.size(); ++i)
    if (d.keys[i] == key) {
      d.elems[i] = std::move(value);
      return;
    }
  d.keys.push_back(key);
  d.elems.push_back(std::move(value));
}

std::optional<size_t> findKey(const PyValue &d, const std::string &key) {
  for (size_t i = 0; i < d.keys.size(); ++i)
    if (d.keys[i] == key)
      return i;
  return std::nullopt;
}

/// The compile-time string key `e` evaluates to.
std::optional<std::string> constantKey(FunctionLowering &fl,
                                       const ast::Expr &e) {
  MaybeValue k = fl.lowerExpr(e);
  if (!k)
    return std::nullopt;
  if (k->kind != PyValue::Kind::Str) {
    if (k->isValue() && !matchPattern(k->value, m_Constant()))
      fl.error(e.range, "a dict key must be known while compiling, not " +
                            fl.describe(*k) +
                            " computed while running: kiln's dicts are "
                            "compile-time values whose values keep their "
                            "own types and shapes, so a key must name one "
                            "of them while compiling");
    else
      fl.error(e.range, "a dict key must be a string (kiln's dicts are "
                        "Dict[str, T]), not " +
                            fl.describe(*k));
    return std::nullopt;
  }
  return k->str;
}

/// Python's KeyError for `key`, at `where`, while compiling.
void missingKey(FunctionLowering &fl, SourceRange where, const PyValue &d,
                const std::string &key) {
  fl.error(where, "the dict has no key " + quoted(key) + "; " + keyList(d) +
                      didYouMean(key, d.keys));
}

/// The dict a subscript or `len` reads, found without lowering `e` twice:
/// a local name bound to a dict.
std::optional<PyValue> peekModuleDict(FunctionLowering &fl,
                                      const ast::Expr &e);

std::optional<PyValue> peekDict(FunctionLowering &fl, const ast::Expr &e) {
  auto *n = llvm::dyn_cast<ast::NameExpr>(&e);
  if (!n)
    return peekModuleDict(fl, e);
  auto it = fl.env.find(n->id);
  if (it == fl.env.end() || !it->second.value.isDict())
    return std::nullopt;
  return it->second.value;
}

/// `self.layers` for an nn.ModuleDict attribute or a dict __init__ built,
/// read without lowering it twice.
std::optional<PyValue> peekModuleDict(FunctionLowering &fl,
                                      const ast::Expr &e) {
  auto *a = llvm::dyn_cast<ast::AttributeExpr>(&e);
  auto *n = a ? llvm::dyn_cast<ast::NameExpr>(a->value.get()) : nullptr;
  if (!n)
    return std::nullopt;
  auto it = fl.env.find(n->id);
  if (it == fl.env.end() || it->second.value.kind != PyValue::Kind::Object)
    return std::nullopt;
  const ConstValue *v = it->second.value.object->lookup(a->attr);
  bool isDict = v && ((v->kind == ConstValue::Kind::Module &&
                        v->module->typeName == "ModuleDict") ||
                       (v->kind == ConstValue::Kind::List &&
                        v->str == kDictMarker));
  if (!isDict)
    return std::nullopt;
  return toPyValue(fl, *v, e.range);
}

/// The fields of a NamedTuple class, in order, with their defaults.
struct Field {
  std::string name;
  const ast::Expr *defaultValue;
};

std::vector<Field> namedTupleFields(const ast::ClassDef &c) {
  std::vector<Field> fields;
  for (const ast::StmtPtr &s : c.body)
    if (auto *a = llvm::dyn_cast<ast::AnnAssignStmt>(s.get()))
      if (auto *n = llvm::dyn_cast<ast::NameExpr>(a->target.get()))
        fields.push_back({n->id, a->value.get()});
  return fields;
}

/// `Out(a, b)` or `Out(logits=a, hidden=b)`.
MaybeValue constructNamedTuple(FunctionLowering &fl, const ast::ClassDef &c,
                               const ast::CallExpr &call) {
  std::vector<Field> fields = namedTupleFields(c);
  std::vector<std::optional<PyValue>> values(fields.size());
  if (call.args.size() > fields.size()) {
    fl.error(call.range, "'" + c.name + "' takes " +
                             std::to_string(fields.size()) +
                             " fields, but " + std::to_string(call.args.size()) +
                             " were given");
    return std::nullopt;
  }
  for (size_t i = 0; i < call.args.size(); ++i) {
    MaybeValue v = fl.lowerExpr(*call.args[i]);
    if (!v)
      return std::nullopt;
    values[i] = *v;
  }
  for (const ast::Keyword &k : call.keywords) {
    auto it = llvm::find_if(fields, [&](const Field &f) { return f.name == k.name; });
    if (it == fields.end()) {
      std::vector<std::string> names;
      for (const Field &f : fields)
        names.push_back(f.name);
      fl.error(k.range, "'" + c.name + "' has no field '" + k.name + "'" +
                            didYouMean(k.name, names));
      return std::nullopt;
    }
    size_t i = it - fields.begin();
    if (values[i]) {
      fl.error(k.range, "field '" + k.name + "' of '" + c.name +
                            "' is given twice");
      return std::nullopt;
    }
    MaybeValue v = fl.lowerExpr(*k.value);
    if (!v)
      return std::nullopt;
    values[i] = *v;
  }
  std::vector<std::string> names;
  std::vector<PyValue> elems;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!values[i]) {
      if (!fields[i].defaultValue) {
        fl.error(call.range, "'" + c.name + "' is missing field '" +
                                 fields[i].name + "'");
        return std::nullopt;
      }
      MaybeValue v = fl.lowerExpr(*fields[i].defaultValue);
      if (!v)
        return std::nullopt;
      values[i] = *v;
    }
    names.push_back(fields[i].name);
    elems.push_back(*values[i]);
  }
  return PyValue::namedTuple(c.name, std::move(names), std::move(elems));
}

/// `dict(a=x, b=y)`, `dict()` and `dict(d)`.
MaybeValue lowerDictBuiltin(FunctionLowering &fl, const ast::CallExpr &call) {
  PyValue d = PyValue::dict({}, {});
  if (call.args.size() > 1) {
    fl.error(call.range, "dict() takes at most one positional argument");
    return std::nullopt;
  }
  if (call.args.size() == 1) {
    MaybeValue from = fl.lowerExpr(*call.args[0]);
    if (!from)
      return std::nullopt;
    if (!from->isDict()) {
      fl.error(call.args[0]->range,
               "dict() copies a dict or takes keywords, not " +
                   fl.describe(*from));
      return std::nullopt;
    }
    d = *from;
  }
  for (const ast::Keyword &k : call.keywords) {
    MaybeValue v = fl.lowerExpr(*k.value);
    if (!v)
      return std::nullopt;
    setItem(d, k.name, *v);
  }
  return d;
}

/// d.update(other, k=v), d.pop(k[, default]), d.setdefault(k[, default]):
/// the methods that change a dict, which rebind the local name that holds
/// it (a dict is a compile-time value, as `d[k] = v` treats it). Arguments
/// are lowered before the call, as Python evaluates them.
MaybeValue mutateDict(FunctionLowering &fl, PyValue d, const std::string &name,
                      const ast::CallExpr &call) {
  auto *attr = llvm::dyn_cast<ast::AttributeExpr>(call.func.get());
  auto *holder =
      attr ? llvm::dyn_cast<ast::NameExpr>(attr->value.get()) : nullptr;
  if (!holder || !fl.env.count(holder->id)) {
    fl.error(call.func->range, name + "() changes the dict, so it must be "
                                      "called on a local variable");
    return std::nullopt;
  }
  bool update = name == "update";
  size_t minArgs = update ? 0 : 1, maxArgs = update ? 1 : 2;
  if (call.args.size() < minArgs || call.args.size() > maxArgs ||
      (!update && !call.keywords.empty())) {
    fl.error(call.range, update ? "update() takes one dict and keywords"
                                : name + "() takes a key and an optional "
                                         "default");
    return std::nullopt;
  }
  PyValue result = PyValue::none();
  if (update) {
    std::optional<PyValue> from;
    if (!call.args.empty()) {
      from = fl.lowerExpr(*call.args[0]);
      if (!from)
        return std::nullopt;
      if (!from->isDict()) {
        fl.error(call.args[0]->range,
                 "update() takes a dict, not " + fl.describe(*from));
        return std::nullopt;
      }
    }
    std::vector<std::pair<std::string, PyValue>> items;
    for (size_t i = 0; from && i < from->keys.size(); ++i)
      items.push_back({from->keys[i], from->elems[i]});
    for (const ast::Keyword &k : call.keywords) {
      MaybeValue v = fl.lowerExpr(*k.value);
      if (!v)
        return std::nullopt;
      items.push_back({k.name, *v});
    }
    for (auto &[k, v] : items)
      setItem(d, k, std::move(v));
  } else {
    std::optional<std::string> k = constantKey(fl, *call.args[0]);
    if (!k)
      return std::nullopt;
    std::optional<PyValue> fallback;
    if (call.args.size() == 2)
      if (!(fallback = fl.lowerExpr(*call.args[1])))
        return std::nullopt;
    std::optional<size_t> i = findKey(d, *k);
    if (i) {
      result = d.elems[*i];
      if (name == "pop") {
        d.keys.erase(d.keys.begin() + *i);
        d.elems.erase(d.elems.begin() + *i);
      }
    } else if (name == "pop" && !fallback) {
      // Python raises KeyError here; the key is known, so it would always.
      missingKey(fl, call.args[0]->range, d, *k);
      return std::nullopt;
    } else {
      result = fallback ? *fallback : PyValue::none();
      if (name == "setdefault")
        setItem(d, *k, result);
    }
  }
  fl.env[holder->id] = Binding{std::move(d), call.range};
  return result;
}

} // namespace

MaybeValue lowerDictDisplay(FunctionLowering &fl, const ast::DictExpr &e) {
  PyValue d = PyValue::dict({}, {});
  for (size_t i = 0; i < e.keys.size(); ++i) {
    std::optional<std::string> k = constantKey(fl, *e.keys[i]);
    if (!k)
      return std::nullopt;
    MaybeValue v = fl.lowerExpr(*e.values[i]);
    if (!v)
      return std::nullopt;
    setItem(d, *k, *v);
  }
  return d;
}

PyValue moduleDictValue(const ModuleObject &m) {
  PyValue d = PyValue::dict({}, {});
  for (const auto &[name, child] : m.attrs)
    setItem(d, name, PyValue::ofObject(child.module.get()));
  return d;
}

PyValue dictKeys(const PyValue &d) {
  std::vector<PyValue> keys;
  for (const std::string &k : d.keys)
    keys.push_back(PyValue::ofStr(k));
  return PyValue::tuple(std::move(keys));
}

std::optional<PyValue> namedTupleClass(FunctionLowering &fl,
                                       const std::string &name) {
  auto it = fl.module.classes.find(name);
  if (it == fl.module.classes.end())
    return std::nullopt;
  for (const ast::ExprPtr &base : it->second->bases) {
    std::string b = resolveGlobalName(fl.module, *base);
    if (b == "typing.NamedTuple" || b == "NamedTuple")
      return PyValue::global((kNamedTuplePrefix + name).str());
  }
  return std::nullopt;
}

bool lowerDictCall(FunctionLowering &fl, const std::string &path,
                   const ast::CallExpr &call, MaybeValue &out) {
  llvm::StringRef p(path);
  if (p.starts_with(kNamedTuplePrefix)) {
    out = constructNamedTuple(
        fl, *fl.module.classes.at(p.drop_front(kNamedTuplePrefix.size()).str()),
        call);
    return true;
  }
  if (path == "builtins.dict") {
    out = lowerDictBuiltin(fl, call);
    return true;
  }
  if (path == "builtins.len" && call.args.size() == 1 &&
      call.keywords.empty())
    if (std::optional<PyValue> d = peekDict(fl, *call.args[0])) {
      out = PyValue::ofValue(
          fl.constInt(static_cast<int64_t>(d->keys.size()), call.range));
      return true;
    }
  return false;
}

bool lowerDictAttribute(FunctionLowering &fl, const PyValue &base,
                        const ast::AttributeExpr &e, MaybeValue &out) {
  if (base.isNamedTuple()) {
    for (size_t i = 0; i < base.keys.size(); ++i)
      if (base.keys[i] == e.attr) {
        out = base.elems[i];
        return true;
      }
    fl.error(e.attrRange, "'" + base.str + "' has no field '" + e.attr +
                              "'" + didYouMean(e.attr, base.keys));
    out = std::nullopt;
    return true;
  }
  if (!base.isDict())
    return false;
  static const char *const methods[] = {"items", "keys",   "values",
                                        "get",   "update", "pop",
                                        "setdefault"};
  if (!llvm::is_contained(methods, llvm::StringRef(e.attr))) {
    fl.error(e.attrRange, "dict method '" + e.attr +
                              "' is not supported; kiln's dicts have items, "
                              "keys, values, get, update, pop and "
                              "setdefault");
    out = std::nullopt;
    return true;
  }
  out = PyValue::method(base, e.attr);
  return true;
}

bool lowerDictMethod(FunctionLowering &fl, const PyValue &self,
                     const std::string &name, const ast::CallExpr &call,
                     MaybeValue &out) {
  if (!self.isDict())
    return false;
  out = std::nullopt;
  if (name == "update" || name == "pop" || name == "setdefault") {
    out = mutateDict(fl, self, name, call);
    return true;
  }
  size_t maxArgs = name == "get" ? 2 : 0;
  if (call.args.size() > maxArgs || !call.keywords.empty() ||
      (name == "get" && call.args.empty())) {
    fl.error(call.range, name == "get"
                             ? "get() takes a key and an optional default"
                             : name + "() takes no arguments");
    return true;
  }
  if (name == "keys") {
    out = dictKeys(self);
  } else if (name == "values") {
    out = PyValue::tuple(self.elems);
  } else if (name == "items") {
    std::vector<PyValue> items;
    for (size_t i = 0; i < self.keys.size(); ++i)
      items.push_back(
          PyValue::tuple({PyValue::ofStr(self.keys[i]), self.elems[i]}));
    out = PyValue::tuple(std::move(items));
  } else {
    std::optional<std::string> k = constantKey(fl, *call.args[0]);
    if (!k)
      return true;
    if (std::optional<size_t> i = findKey(self, *k))
      out = self.elems[*i];
    else if (call.args.size() == 2)
      out = fl.lowerExpr(*call.args[1]);
    else
      out = PyValue::none();
  }
  return true;
}

bool lowerDictSubscript(FunctionLowering &fl, const ast::SubscriptExpr &e,
                        MaybeValue &out) {
  std::optional<PyValue> d = peekDict(fl, *e.value);
  if (!d)
    return false;
  out = std::nullopt;
  if (e.indices.size() != 1 || llvm::isa<ast::SliceExpr>(*e.indices[0])) {
    fl.error(e.range, "a dict takes a single string key");
    return true;
  }
  PyValue dict = *d;
  std::optional<std::string> k = constantKey(fl, *e.indices[0]);
  if (!k)
    return true;
  std::optional<size_t> i = findKey(dict, *k);
  if (!i) {
    missingKey(fl, e.indices[0]->range, dict, *k);
    return true;
  }
  out = dict.elems[*i];
  return true;
}

bool storeDictItem(FunctionLowering &fl, const std::string &name,
                   PyValue dict, const ast::SubscriptExpr &target,
                   PyValue value) {
  if (target.indices.size() != 1 ||
      llvm::isa<ast::SliceExpr>(*target.indices[0]))
    return fl.error(target.range, "a dict takes a single string key");
  std::optional<std::string> k = constantKey(fl, *target.indices[0]);
  if (!k)
    return false;
  setItem(dict, *k, std::move(value));
  fl.env[name] = Binding{std::move(dict), target.range};
  return true;
}

bool sameKeys(const PyValue &a, const PyValue &b) {
  if (a.kind != b.kind || a.keys != b.keys || a.str != b.str)
    return a.kind == b.kind && a.kind == PyValue::Kind::Value;
  if (a.kind != PyValue::Kind::Tuple && !a.isDict())
    return true;
  for (size_t i = 0; i < a.elems.size() && i < b.elems.size(); ++i)
    if (!sameKeys(a.elems[i], b.elems[i]))
      return false;
  return true;
}

std::optional<Value> lowerDictMembership(FunctionLowering &fl,
                                         const PyValue &needle,
                                         const PyValue &dict,
                                         SourceRange where) {
  if (needle.kind != PyValue::Kind::Str) {
    fl.error(where, "'in' on a dict needs a string known while compiling, "
                    "not " +
                        fl.describe(needle));
    return std::nullopt;
  }
  return fl.constBool(findKey(dict, needle.str).has_value(), where);
}

} // namespace kiln
