//===- ModuleInstantiate.cpp - Building nn.Module instances at compile time ===//
//
// The user classes' half of the __init__ interpreter (ModuleEval.cpp): a
// class's bases are checked, its __init__ run on a fresh ModuleObject, and
// the finished tree walked once in state_dict() order to name every weight
// ("layers.0.weight") exactly as PyTorch does.
//
//===----------------------------------------------------------------------===//

#include "frontend/AstPrinter.h"
#include "frontend/ModuleEvalImpl.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::moduleeval {

//===----------------------------------------------------------------------===//
// User classes
//===----------------------------------------------------------------------===//

std::optional<const ast::ClassDef *>
InitEvaluator::checkBases(const ast::ClassDef &cls) {
  Frame empty;
  const ast::ClassDef *userBase = nullptr;
  for (const ast::ExprPtr &base : cls.bases) {
    std::string path = globalPath(*base, empty);
    if (path == "torch.nn.Module" || path == "torch.jit.ScriptModule")
      continue;
    llvm::StringRef p(path);
    if (p.consume_front("class.") && !userBase) {
      userBase = m.classes.at(p.str());
      continue;
    }
    error(base->range, "'" + cls.name +
                           "' must derive from nn.Module (or "
                           "torch.jit.ScriptModule), directly or through "
                           "one class of this file, to be compiled");
    return std::nullopt;
  }
  if (cls.bases.empty()) {
    error(cls.nameRange, "'" + cls.name + "' is not an nn.Module");
    return std::nullopt;
  }
  return userBase;
}

std::shared_ptr<ModuleObject>
InitEvaluator::instantiate(const ast::ClassDef &cls, const Args &args) {
  auto obj = std::make_shared<ModuleObject>();
  obj->typeName = cls.name;
  obj->userClass = &cls;
  obj->createdAt = args.range;
  return runInit(cls, obj, args) ? obj : nullptr;
}

bool InitEvaluator::runInit(const ast::ClassDef &cls,
                            const std::shared_ptr<ModuleObject> &obj,
                            const Args &args) {
  std::optional<const ast::ClassDef *> base = checkBases(cls);
  if (!base)
    return false;
  // A class that contains itself, or derives from itself, never ends.
  if (active.count(&cls))
    return error(args.range, "'" + cls.name + "' contains itself");
  const ast::FunctionDef *init = nullptr;
  for (const ast::StmtPtr &s : cls.body)
    if (auto *f = llvm::dyn_cast<ast::FunctionDef>(s.get()))
      if (f->name == "__init__")
        init = f;
  if (!init) {
    if (*base) { // Python inherits __init__
      active.insert(&cls);
      bool ok = runInit(**base, obj, args);
      active.erase(&cls);
      return ok;
    }
    if (!args.positional.empty() || !args.keywords.empty())
      return error(args.range, "'" + cls.name + "' takes no arguments");
    return true;
  }
  // The parser deferred what this interpreter cannot run (AST.h).
  if (init->unsupported) {
    m.diags.report(*init->unsupported);
    return false;
  }
  if (init->params.empty() || init->params[0].name != "self")
    return error(init->nameRange, "__init__ must take self first");
  // Bind the arguments; defaults are evaluated as Python does, once, in the
  // scope of the class (here: with no locals).
  Frame empty;
  std::vector<Param> params;
  for (size_t i = 1; i < init->params.size(); ++i) {
    const ast::Param &p = init->params[i];
    std::optional<CV> def;
    if (p.defaultValue) {
      def = eval(*p.defaultValue, empty);
      if (!def)
        return false;
    }
    params.push_back({p.name.c_str(), def});
  }
  if (args.positional.empty() && args.keywords.empty())
    for (size_t i = 1; i < init->params.size(); ++i)
      if (!init->params[i].defaultValue)
        return error(init->params[i].range,
                     "'" + cls.name +
                         "' is constructed with no arguments, so "
                         "parameter '" +
                         init->params[i].name +
                         "' of __init__ needs a default value");
  std::optional<std::vector<CV>> bound = bind(cls.name, params, args);
  if (!bound)
    return false;
  Frame frame;
  frame.self = obj;
  frame.cls = &cls;
  for (size_t i = 0; i < params.size(); ++i)
    frame.locals[params[i].name] = (*bound)[i];
  active.insert(&cls);
  bool ok = exec(init->body, frame);
  active.erase(&cls);
  return ok;
}

/// Names every weight below `obj` as state_dict() does: a module's own
/// parameters, then its buffers, then its children, depth first.
static bool nameWeights(InitEvaluator &eval, ModuleObject &obj,
                        const std::string &prefix,
                        std::map<const ModuleObject *, std::string> &seen,
                        std::vector<DeclaredWeight> &out) {
  auto [it, fresh] = seen.emplace(&obj, prefix);
  if (!fresh) {
    auto name = [](const std::string &p) { return p.substr(0, p.size() - 1); };
    return eval.error(obj.createdAt, "this module is both '" +
                                         name(it->second) + "' and '" +
                                         name(prefix) +
                                         "'; shared submodules are not "
                                         "supported");
  }
  obj.prefix = prefix;
  for (CV::TensorRole role :
       {CV::TensorRole::Parameter, CV::TensorRole::Buffer})
    for (auto &[name, value] : obj.attrs)
      if (value.kind == CV::Kind::Tensor && value.role == role) {
        value.weightName = prefix + name;
        out.push_back({value.weightName,
                       RankedTensorType::get(value.shape, value.elementType),
                       value.where});
      }
  for (auto &[name, value] : obj.attrs)
    if (value.kind == CV::Kind::Module &&
        !nameWeights(eval, *value.module, prefix + name + ".", seen, out))
      return false;
  return true;
}

} // namespace kiln::moduleeval

namespace kiln {
using namespace moduleeval;

std::shared_ptr<ModuleObject>
ModuleLowering::instantiateModule(const ast::ClassDef &cls, SourceRange where) {
  InitEvaluator eval(*this);
  Args none;
  none.range = where;
  std::shared_ptr<ModuleObject> root = eval.instantiate(cls, none);
  if (!root)
    return nullptr;
  std::map<const ModuleObject *, std::string> seen;
  std::vector<DeclaredWeight> declared;
  if (!nameWeights(eval, *root, "", seen, declared))
    return nullptr;
  for (DeclaredWeight &w : declared) {
    if (llvm::any_of(weights, [&](const DeclaredWeight &o) {
          return o.name == w.name;
        })) {
      diags.error(w.where, "weight '" + w.name +
                               "' is declared by two compiled modules");
      return nullptr;
    }
    weights.push_back(std::move(w));
  }
  return root;
}

} // namespace kiln
