//===- ModuleDescription.cpp - Reading module descriptions -----------------===//
//
// The description is written by kiln's Python package, but it is a file a
// user can edit or damage, so every field is checked and an error names
// the field ("modules[2].parameters[0].shape"), never trusting a type or a
// reference. See docs/module-description.md for the format.
//
//===----------------------------------------------------------------------===//

#include "frontend/ModuleDescription.h"

#include "frontend/LoweringImpl.h"
#include "frontend/Prelude.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <set>

using json = nlohmann::ordered_json;

namespace kiln {
namespace {

/// Deeper nesting than any real attribute (a tuple of tuples) is refused,
/// so a hostile file cannot exhaust the stack.
constexpr int kMaxValueDepth = 32;
constexpr size_t kMaxRank = 16;
/// The dtypes a weight may have: those kiln's archives store.
const std::set<std::string> kWeightDtypes = {
    "float32", "float64", "float16", "bfloat16", "int32", "int64", "bool"};

/// A JSON value and where it is, for error messages.
struct Field {
  const json &value;
  std::string where;

  Field at(const std::string &key) const {
    return {value.at(key), where.empty() ? key : where + "." + key};
  }
  Field at(size_t i) const {
    return {value.at(i), where + "[" + std::to_string(i) + "]"};
  }
};

class Reader {
public:
  std::string error;

  bool fail(const Field &f, const std::string &message) {
    if (error.empty())
      error = (f.where.empty() ? "" : f.where + ": ") + message;
    return false;
  }
  /// An object whose keys are all in `allowed` and hold every `required`.
  bool object(const Field &f, std::initializer_list<const char *> required,
              std::initializer_list<const char *> optional) {
    if (!f.value.is_object())
      return fail(f, "expected an object");
    for (const char *key : required)
      if (!f.value.contains(key))
        return fail(f, std::string("missing \"") + key + "\"");
    for (const auto &item : f.value.items()) {
      // A structured binding cannot be captured before C++20.
      const std::string &key = item.key();
      auto is = [&](const char *k) { return key == k; };
      if (std::none_of(required.begin(), required.end(), is) &&
          std::none_of(optional.begin(), optional.end(), is))
        return fail(f, "unknown field \"" + key + "\"");
    }
    return true;
  }
  bool string(const Field &f, std::string &out) {
    if (!f.value.is_string())
      return fail(f, "expected a string");
    out = f.value.get<std::string>();
    return true;
  }
  bool boolean(const Field &f, bool &out) {
    if (!f.value.is_boolean())
      return fail(f, "expected true or false");
    out = f.value.get<bool>();
    return true;
  }
  bool array(const Field &f) {
    return f.value.is_array() || fail(f, "expected a list");
  }
  /// A name that state_dict() can join with dots: non-empty, no dot.
  bool name(const Field &f, std::string &out) {
    if (!string(f, out))
      return false;
    if (out.empty() || out.find('.') != std::string::npos)
      return fail(f, "'" + out + "' is not a valid name (empty or dotted)");
    return true;
  }
  bool value(const Field &f, ConstValue &out, int depth);
  /// A dict attribute with str keys, as [[key, value], ...] in insertion
  /// order (a JSON object would not keep it).
  bool dict(const Field &f, ConstValue &out, int depth);
  bool tensor(const Field &f, DescribedTensor &out, bool isBuffer);
  bool source(const Field &f, DescribedModule &out);
  bool module(const Field &f, DescribedModule &out);
};

bool Reader::value(const Field &f, ConstValue &out, int depth) {
  if (depth > kMaxValueDepth)
    return fail(f, "nested more than " + std::to_string(kMaxValueDepth) +
                       " deep");
  const json &v = f.value;
  switch (v.type()) {
  case json::value_t::null:
    out.kind = ConstValue::Kind::None;
    return true;
  case json::value_t::boolean:
    out.kind = ConstValue::Kind::Bool;
    out.i = v.get<bool>();
    return true;
  case json::value_t::number_integer:
    out.kind = ConstValue::Kind::Int;
    out.i = v.get<int64_t>();
    return true;
  case json::value_t::number_unsigned:
    if (v.get<uint64_t>() >
        static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return fail(f, "integer does not fit in 64 bits");
    out.kind = ConstValue::Kind::Int;
    out.i = static_cast<int64_t>(v.get<uint64_t>());
    return true;
  case json::value_t::number_float:
    out.kind = ConstValue::Kind::Float;
    out.f = v.get<double>();
    return true;
  case json::value_t::string:
    out.kind = ConstValue::Kind::Str;
    out.str = v.get<std::string>();
    return true;
  case json::value_t::array:
    out.kind = ConstValue::Kind::List;
    for (size_t i = 0; i < v.size(); ++i) {
      out.elems.emplace_back();
      if (!value(f.at(i), out.elems.back(), depth + 1))
        return false;
    }
    return true;
  case json::value_t::object: {
    if (v.size() != 1)
      return fail(f, "a value object has one key: \"tuple\", \"dict\", "
                     "\"float\" or \"dtype\"");
    if (v.contains("tuple")) {
      Field elems = f.at("tuple");
      if (!array(elems) || !value(elems, out, depth + 1))
        return false;
      out.kind = ConstValue::Kind::Tuple;
      return true;
    }
    if (v.contains("dict"))
      return dict(f.at("dict"), out, depth);
    std::string text;
    if (v.contains("float")) {
      if (!string(f.at("float"), text))
        return false;
      double inf = std::numeric_limits<double>::infinity();
      out.kind = ConstValue::Kind::Float;
      if (text == "inf" || text == "-inf" || text == "nan") {
        out.f = text == "nan" ? std::nan("") : text == "inf" ? inf : -inf;
        return true;
      }
      return fail(f.at("float"), "expected \"inf\", \"-inf\" or \"nan\"");
    }
    if (v.contains("dtype")) {
      if (!string(f.at("dtype"), text))
        return false;
      if (text.empty() ||
          text.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") !=
              std::string::npos)
        return fail(f.at("dtype"), "'" + text + "' is not a torch dtype name");
      out.kind = ConstValue::Kind::Global;
      out.str = "torch." + text;
      return true;
    }
    return fail(f, "unknown value object \"" + v.begin().key() +
                       "\"; expected \"tuple\", \"dict\", \"float\" or "
                       "\"dtype\"");
  }
  default:
    return fail(f, "not a value kiln can describe");
  }
}

bool Reader::dict(const Field &f, ConstValue &out, int depth) {
  if (!array(f))
    return false;
  out.kind = ConstValue::Kind::List;
  out.str = kDictMarker;
  for (size_t i = 0; i < f.value.size(); ++i) {
    Field pair = f.at(i);
    if (!pair.value.is_array() || pair.value.size() != 2 ||
        !pair.value[0].is_string())
      return fail(pair, "expected a [key, value] pair with a string key");
    ConstValue entry;
    entry.kind = ConstValue::Kind::Tuple;
    entry.elems.resize(2);
    entry.elems[0].kind = ConstValue::Kind::Str;
    entry.elems[0].str = pair.value[0].get<std::string>();
    if (llvm::any_of(out.elems, [&](const ConstValue &e) {
          return e.elems[0].str == entry.elems[0].str;
        }))
      return fail(pair, "the key '" + entry.elems[0].str + "' comes twice");
    if (!value(pair.at(1), entry.elems[1], depth + 1))
      return false;
    out.elems.push_back(std::move(entry));
  }
  return true;
}

bool Reader::tensor(const Field &f, DescribedTensor &out, bool isBuffer) {
  if (!f.value.is_object())
    return fail(f, "expected an object");
  if (f.value.contains("same_as")) {
    if (!object(f, {"name", "same_as"}, {}))
      return false;
    return name(f.at("name"), out.name) && string(f.at("same_as"), out.sameAs);
  }
  if (isBuffer ? !object(f, {"name", "dtype", "shape"}, {"persistent"})
               : !object(f, {"name", "dtype", "shape"}, {}))
    return false;
  if (!name(f.at("name"), out.name) || !string(f.at("dtype"), out.dtype))
    return false;
  if (!kWeightDtypes.count(out.dtype))
    return fail(f.at("dtype"),
                "'" + out.dtype +
                    "' is not a dtype kiln stores; weights are float32, "
                    "float64, float16, bfloat16, int32, int64 or bool");
  Field shape = f.at("shape");
  if (!array(shape))
    return false;
  if (shape.value.size() > kMaxRank)
    return fail(shape, "more than " + std::to_string(kMaxRank) + " dims");
  for (size_t i = 0; i < shape.value.size(); ++i) {
    const json &d = shape.value[i];
    if (!d.is_number_integer() || d.get<int64_t>() < 0 ||
        d.get<int64_t>() > (int64_t(1) << 40))
      return fail(shape.at(i), "expected a size from 0 to 2^40");
    out.shape.push_back(d.get<int64_t>());
  }
  if (isBuffer && f.value.contains("persistent"))
    return boolean(f.at("persistent"), out.persistent);
  return true;
}

bool Reader::source(const Field &f, DescribedModule &out) {
  if (!object(f, {"file", "line", "col", "end_col"}, {}) ||
      !string(f.at("file"), out.sourceFile))
    return false;
  uint32_t at[3];
  const char *keys[] = {"line", "col", "end_col"};
  for (int i = 0; i < 3; ++i) {
    const json &v = f.value.at(keys[i]);
    if (!v.is_number_integer() || v.get<int64_t>() < 1 ||
        v.get<int64_t>() > (int64_t(1) << 30))
      return fail(f.at(keys[i]), "expected a line or column from 1");
    at[i] = v.get<uint32_t>();
  }
  out.source = {{at[0], at[1]}, {at[0], std::max(at[2], at[1] + 1)}};
  return true;
}

bool Reader::module(const Field &f, DescribedModule &out) {
  if (!object(f, {"path", "class"},
              {"training", "attributes", "parameters", "buffers", "children",
               "opaque", "source"}))
    return false;
  if (!string(f.at("path"), out.path))
    return false;
  Field cls = f.at("class");
  if (cls.value.is_object() && cls.value.contains("torch")) {
    if (!object(cls, {"torch"}, {}) ||
        !name(cls.at("torch"), out.torchClass))
      return false;
  } else if (!object(cls, {"file", "qualname"}, {"torch_base"}) ||
             !string(cls.at("file"), out.file) ||
             !string(cls.at("qualname"), out.qualname) ||
             (cls.value.contains("torch_base") &&
              !name(cls.at("torch_base"), out.torchBase))) {
    return false;
  }
  if (f.value.contains("source") && !source(f.at("source"), out))
    return false;
  // Recorded for the reader; kiln compiles every module in eval mode.
  bool training = false;
  if (f.value.contains("training") && !boolean(f.at("training"), training))
    return false;
  (void)training;
  std::set<std::string> names;
  auto unique = [&](const Field &at, const std::string &n) {
    return names.insert(n).second ||
           fail(at, "'" + n + "' is described twice in this module");
  };
  if (f.value.contains("attributes")) {
    Field attrs = f.at("attributes");
    if (!attrs.value.is_object())
      return fail(attrs, "expected an object");
    for (const auto &[key, v] : attrs.value.items()) {
      Field one{v, attrs.where + "." + key};
      ConstValue c;
      if (key.empty())
        return fail(attrs, "an attribute has an empty name");
      if (!unique(one, key) || !value(one, c, 0))
        return false;
      out.attributes.emplace_back(key, std::move(c));
    }
  }
  for (const char *kind : {"parameters", "buffers"}) {
    if (!f.value.contains(kind))
      continue;
    Field list = f.at(kind);
    if (!array(list))
      return false;
    bool isBuffer = std::string(kind) == "buffers";
    auto &tensors = isBuffer ? out.buffers : out.parameters;
    for (size_t i = 0; i < list.value.size(); ++i) {
      tensors.emplace_back();
      if (!tensor(list.at(i), tensors.back(), isBuffer) ||
          !unique(list.at(i), tensors.back().name))
        return false;
    }
  }
  if (f.value.contains("children")) {
    Field list = f.at("children");
    if (!array(list))
      return false;
    for (size_t i = 0; i < list.value.size(); ++i) {
      Field child = list.at(i);
      std::string n, path;
      if (!object(child, {"name", "module"}, {}) ||
          !name(child.at("name"), n) || !string(child.at("module"), path) ||
          !unique(child, n))
        return false;
      out.children.emplace_back(n, path);
    }
  }
  if (f.value.contains("opaque")) {
    Field opaque = f.at("opaque");
    if (!opaque.value.is_object())
      return fail(opaque, "expected an object");
    for (const auto &[key, v] : opaque.value.items()) {
      std::string what;
      if (!string({v, opaque.where + "." + key}, what))
        return false;
      out.opaque.emplace_back(key, what);
    }
  }
  return true;
}

} // namespace

std::string parseModuleDescription(llvm::StringRef text,
                                   ModuleDescription &out) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception &e) {
    return std::string("not valid JSON: ") + e.what();
  }
  Reader r;
  Field top{doc, ""};
  if (!r.object(top, {"format", "version", "modules"}, {"weights"}))
    return r.error;
  std::string format;
  if (!r.string(top.at("format"), format))
    return r.error;
  if (format != "kiln-module-description")
    return "format: expected \"kiln-module-description\", not '" + format +
           "'";
  if (!doc["version"].is_number_integer() ||
      doc["version"].get<int64_t>() != kModuleDescriptionVersion)
    return "version: this kiln reads version " +
           std::to_string(kModuleDescriptionVersion) + ", not " +
           doc["version"].dump();
  out.version = kModuleDescriptionVersion;
  if (doc.contains("weights") && !r.string(top.at("weights"), out.weights))
    return r.error;
  Field modules = top.at("modules");
  if (!r.array(modules))
    return r.error;
  if (modules.value.empty())
    return "modules: expected the root module first, found none";
  std::set<std::string> paths;
  for (size_t i = 0; i < modules.value.size(); ++i) {
    out.modules.emplace_back();
    DescribedModule &d = out.modules.back();
    if (!r.module(modules.at(i), d))
      return r.error;
    if (!paths.insert(d.path).second)
      return modules.at(i).where + ".path: '" + d.path +
             "' is described twice";
  }
  if (!out.modules[0].path.empty())
    return "modules[0].path: the root comes first, with path \"\"";
  if (!out.modules[0].torchClass.empty())
    return "modules[0].class: the root must be a class of the source file, "
           "not torch.nn." + out.modules[0].torchClass;
  // Every child reference must name a described module.
  for (size_t i = 0; i < out.modules.size(); ++i)
    for (size_t c = 0; c < out.modules[i].children.size(); ++c)
      if (!paths.count(out.modules[i].children[c].second))
        return "modules[" + std::to_string(i) + "].children[" +
               std::to_string(c) + "].module: no module has path '" +
               out.modules[i].children[c].second + "'";
  return "";
}

//===----------------------------------------------------------------------===//
// Building the instance
//===----------------------------------------------------------------------===//

namespace {

/// Options of torch.nn modules that the prelude's forward ignores, with the
/// only value kiln computes correctly; anything else would be silently
/// wrong, so it is refused.
struct Unsupported {
  const char *type, *attr;
  bool (*ok)(const ConstValue &);
  const char *why;
};
bool tracksRunningStats(const ConstValue &v) {
  return v.kind == ConstValue::Kind::Bool && v.i;
}
bool notNone(const ConstValue &v) { return v.kind != ConstValue::Kind::None; }
bool oneNumber(const ConstValue &v) {
  return v.kind != ConstValue::Kind::Tuple && v.kind != ConstValue::Kind::List;
}
constexpr const char *kBatchStats =
    "track_running_stats=False normalizes with batch statistics even in "
    "eval mode, which is not supported";
constexpr const char *kImplicitDim =
    "dim=None leaves the dim to PyTorch's deprecated implicit choice, which "
    "kiln does not make; pass dim";
constexpr const char *kSizePerDim =
    "a size per spatial dim is not supported; kiln's F.interpolate takes "
    "one size for every spatial dim";
constexpr const char *kScalePerDim =
    "a scale_factor per spatial dim is not supported; kiln's F.interpolate "
    "takes one scale for every spatial dim";
const Unsupported kUnsupported[] = {
    {"Conv2d", "padding_mode",
     [](const ConstValue &v) {
       return v.kind == ConstValue::Kind::Str && v.str == "zeros";
     },
     "only padding_mode='zeros' is supported"},
    {"MaxPool2d", "return_indices",
     [](const ConstValue &v) {
       return v.kind == ConstValue::Kind::Bool && !v.i;
     },
     "return_indices=True is not supported"},
    {"BatchNorm2d", "track_running_stats",
     [](const ConstValue &v) {
       return v.kind == ConstValue::Kind::Bool && v.i;
     },
     "track_running_stats=False normalizes with batch statistics even in "
     "eval mode, which is not supported"},
    {"Embedding", "max_norm",
     [](const ConstValue &v) { return v.kind == ConstValue::Kind::None; },
     "max_norm is not supported"},
    {"BatchNorm1d", "track_running_stats", tracksRunningStats, kBatchStats},
    {"BatchNorm3d", "track_running_stats", tracksRunningStats, kBatchStats},
    {"Softmax", "dim", notNone, kImplicitDim},
    {"LogSoftmax", "dim", notNone, kImplicitDim},
    {"Softmin", "dim", notNone, kImplicitDim},
    {"Upsample", "size", oneNumber, kSizePerDim},
    {"Upsample", "scale_factor", oneNumber, kScalePerDim},
    {"UpsamplingNearest2d", "size", oneNumber, kSizePerDim},
    {"UpsamplingNearest2d", "scale_factor", oneNumber, kScalePerDim},
    {"UpsamplingBilinear2d", "size", oneNumber, kSizePerDim},
    {"UpsamplingBilinear2d", "scale_factor", oneNumber, kScalePerDim},
    {"Unflatten", "dim",
     [](const ConstValue &v) { return v.kind == ConstValue::Kind::Int; },
     "a named dim (a str) is not supported: kiln has no named tensors"},
};

class Builder {
public:
  Builder(ModuleLowering &m, const ModuleDescription &d,
          const ast::ClassDef &root)
      : m(m), d(d), root(root), b(&m.context) {
    for (size_t i = 0; i < d.modules.size(); ++i)
      byPath[d.modules[i].path] = i;
  }

  std::shared_ptr<ModuleObject> build() {
    std::shared_ptr<ModuleObject> obj = visit(0, "");
    return obj && declareAll() ? obj : nullptr;
  }

private:
  bool error(const std::string &message, SourceRange where = {}) {
    m.diags.error(where, "module description: " + message);
    return false;
  }
  static std::string shown(const std::string &path) {
    return path.empty() ? "the root module" : "module '" + path + "'";
  }
  std::shared_ptr<ModuleObject> visit(size_t index, const std::string &path);
  bool bindClass(const DescribedModule &dm, ModuleObject &obj);
  bool addTensor(const DescribedModule &dm, const DescribedTensor &t,
                 ModuleObject &obj);
  bool declareAll();

  ModuleLowering &m;
  const ModuleDescription &d;
  const ast::ClassDef &root;
  mlir::Builder b;
  std::map<std::string, size_t> byPath;
  std::map<size_t, std::shared_ptr<ModuleObject>> built;
  std::set<size_t> active;
  /// Weights in state_dict() order, and each one's value by name.
  std::vector<ConstValue> order;
  std::map<std::string, ConstValue> declared;
  /// The later names of tied weights, by the first.
  std::map<std::string, std::vector<std::string>> aliases;
};

bool Builder::bindClass(const DescribedModule &dm, ModuleObject &obj) {
  if (!dm.torchClass.empty()) {
    const std::string &t = dm.torchClass;
    bool container = t == "Sequential" || t == "ModuleList" || t == "ModuleDict";
    if (!container && !preludeMethod(t, "forward"))
      return error(shown(dm.path) + " is a torch.nn." + t +
                   ", which kiln does not compile yet");
    obj.typeName = t;
    for (const Unsupported &u : kUnsupported)
      if (t == u.type)
        if (const ConstValue *v = obj.lookup(u.attr); v && !u.ok(*v))
          return error(shown(dm.path) + " (torch.nn." + t + "): " + u.why);
    return true;
  }
  if (dm.qualname.find('.') != std::string::npos)
    return error(shown(dm.path) + " is a '" + dm.qualname + "' from " +
                 dm.file + ", a class defined inside another; kiln compiles "
                 "top-level classes");
  // The compiled file's classes, or those of the file it came from (a
  // relative path is relative to the compiled file's folder).
  llvm::SmallString<256> path(dm.file);
  if (llvm::sys::path::is_relative(path)) {
    path = llvm::sys::path::parent_path(m.diags.file().path());
    llvm::sys::path::append(path, dm.file);
  }
  bool here = llvm::sys::fs::equivalent(path, m.diags.file().path());
  FileScope *file = here ? nullptr : m.loadFile(path.str().str());
  if (!here && !file)
    return false;
  const auto &classes = file ? file->classes : m.classes;
  auto it = classes.find(dm.qualname);
  if (it == classes.end()) {
    const auto &skipped = file ? file->skipped : m.skipped;
    if (auto s = skipped.find(dm.qualname); s != skipped.end()) {
      ast::SkippedItem item = *s->second;
      item.error.file = file ? file->source : nullptr;
      m.diags.report(item.error);
      return false;
    }
    return error(shown(dm.path) + " is a '" + dm.qualname + "' from " +
                 dm.file + ", which is not a top-level class there");
  }
  obj.typeName = dm.qualname;
  obj.userClass = it->second;
  obj.torchBase = dm.torchBase;
  // Errors about its weights point at a line of the compiled file.
  if (here)
    obj.createdAt = it->second->nameRange;
  return true;
}

bool Builder::addTensor(const DescribedModule &dm, const DescribedTensor &t,
                        ModuleObject &obj) {
  std::string full = (dm.path.empty() ? "" : dm.path + ".") + t.name;
  if (!t.sameAs.empty()) {
    auto it = declared.find(t.sameAs);
    if (it == declared.end())
      return error("weight '" + full + "' is the same as '" + t.sameAs +
                   "', which is not a weight described before it");
    obj.attrs.emplace_back(t.name, it->second);
    aliases[t.sameAs].push_back(full);
    return true;
  }
  mlir::OpBuilder ob(&m.context);
  ConstValue v;
  v.kind = ConstValue::Kind::Tensor;
  v.elementType = dtypeFromGlobal(ob, PyValue::global("torch." + t.dtype));
  v.shape = t.shape;
  v.weightName = full;
  v.where = obj.createdAt;
  declared[full] = v;
  order.push_back(v);
  obj.attrs.emplace_back(t.name, std::move(v));
  return true;
}

std::shared_ptr<ModuleObject> Builder::visit(size_t index,
                                             const std::string &path) {
  const DescribedModule &dm = d.modules[index];
  if (auto it = built.find(index); it != built.end()) {
    if (active.count(index)) {
      error(shown(dm.path) + " contains itself (again as '" + path + "')");
      return nullptr;
    }
    return it->second; // a shared submodule: the same object
  }
  if (dm.path != path) {
    error("module '" + dm.path + "' is first reached as '" + path +
          "'; a module's path is where state_dict() first names it");
    return nullptr;
  }
  auto obj = std::make_shared<ModuleObject>();
  obj->prefix = path.empty() ? "" : path + ".";
  obj->createdAt = root.nameRange;
  built[index] = obj;
  active.insert(index);
  obj->attrs = dm.attributes;
  obj->opaque = dm.opaque;
  if (!bindClass(dm, *obj))
    return nullptr;
  if (!dm.sourceFile.empty() && llvm::sys::fs::equivalent(
                                    dm.sourceFile, m.diags.file().path()))
    obj->createdAt = dm.source;
  for (const DescribedTensor &t : dm.parameters)
    if (!addTensor(dm, t, *obj))
      return nullptr;
  // Non-persistent buffers are not in state_dict(); kiln needs their
  // values all the same, so the weights file holds them too, after.
  for (bool persistent : {true, false})
    for (const DescribedTensor &t : dm.buffers)
      if (t.persistent == persistent &&
          !addTensor(dm, t, *obj))
        return nullptr;
  for (const auto &[name, childPath] : dm.children) {
    std::string at = path.empty() ? name : path + "." + name;
    std::shared_ptr<ModuleObject> child = visit(byPath.at(childPath), at);
    if (!child)
      return nullptr;
    ConstValue c;
    c.kind = ConstValue::Kind::Module;
    c.module = child;
    obj->attrs.emplace_back(name, std::move(c));
  }
  active.erase(index);
  return obj;
}

bool Builder::declareAll() {
  for (size_t i = 0; i < d.modules.size(); ++i)
    if (!built.count(i))
      return error(shown(d.modules[i].path) +
                   " is not reached from the root's children");
  for (const ConstValue &w : order) {
    if (llvm::any_of(m.weights, [&](const DeclaredWeight &o) {
          return o.name == w.weightName;
        }))
      return error("weight '" + w.weightName +
                   "' is declared by two compiled modules");
    m.weights.push_back({w.weightName,
                         mlir::RankedTensorType::get(w.shape, w.elementType),
                         w.where, aliases[w.weightName]});
  }
  return true;
}

} // namespace

std::shared_ptr<ModuleObject>
buildDescribedModule(ModuleLowering &m, const ModuleDescription &description,
                     const ast::ClassDef &root) {
  const DescribedModule &top = description.modules.at(0);
  if (top.qualname != root.name) {
    m.diags.error(root.nameRange, "module description: its root is '" +
                                      top.qualname + "', not '" + root.name +
                                      "'");
    return nullptr;
  }
  return Builder(m, description, root).build();
}

} // namespace kiln
