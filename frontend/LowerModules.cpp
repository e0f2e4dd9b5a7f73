//===- LowerModules.cpp - nn.Module instances in compiled code ------------===//
//
// `self` and its submodules are compile-time objects (ModuleObject.h), so
// `self.fc1(x)` resolves to the Linear it names while lowering, and a loop
// over a ModuleList unrolls. Attributes become IR as they are read: numbers
// become constants, and a parameter or buffer becomes a kiln.param op that
// reads the weight the archive carries. A user submodule's forward is
// lowered once per instance, like a helper function specialized for it; a
// torch.nn module's forward is the prelude's (prelude/modules.py), lowered
// the same way.
//
//===----------------------------------------------------------------------===//

#include "frontend/LoweringImpl.h"
#include "frontend/Suggest.h"
#include "frontend/LowerConstructs.h"
#include "frontend/Prelude.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {
namespace {

const ast::FunctionDef *findMethod(ModuleLowering &m, const ModuleObject &obj,
                                  const std::string &name) {
  return findMethodIn(m, obj.userClass, name);
}

} // namespace

const ast::ClassDef *userBaseClass(ModuleLowering &m,
                                   const ast::ClassDef &cls) {
  for (const ast::ExprPtr &base : cls.bases)
    if (auto *n = llvm::dyn_cast<ast::NameExpr>(base.get()))
      if (auto it = m.classes.find(n->id); it != m.classes.end())
        return it->second;
  return nullptr;
}

const ast::FunctionDef *findMethodIn(ModuleLowering &m,
                                     const ast::ClassDef *cls,
                                     const std::string &name) {
  // Python cannot make a class derive from itself, so the walk ends; the
  // bound is a second guard. Bases are names of the class's own file.
  FileSwap inFile(m, cls);
  for (int depth = 0; cls && depth < 100; ++depth) {
    for (const ast::StmtPtr &s : cls->body)
      if (auto *f = llvm::dyn_cast<ast::FunctionDef>(s.get()))
        if (f->name == name)
          return f;
    cls = userBaseClass(m, *cls);
  }
  return nullptr;
}

/// A compile-time value as the lowering sees it.
PyValue toPyValue(FunctionLowering &fl, const ConstValue &v,
                         SourceRange where) {
  switch (v.kind) {
  case ConstValue::Kind::None:
    return PyValue::none();
  case ConstValue::Kind::Int:
    return PyValue::ofValue(fl.constInt(v.i, where));
  case ConstValue::Kind::Float:
    return PyValue::ofValue(fl.constFloat(v.f, where));
  case ConstValue::Kind::Bool:
    return PyValue::ofValue(fl.constBool(v.i, where));
  case ConstValue::Kind::Str:
    return PyValue::ofStr(v.str);
  case ConstValue::Kind::Global:
    return PyValue::global(v.str);
  case ConstValue::Kind::Tuple:
  case ConstValue::Kind::List: {
    if (v.str == kDictMarker) {
      PyValue d = PyValue::dict({}, {});
      for (const ConstValue &pair : v.elems) {
        d.keys.push_back(pair.elems[0].str);
        d.elems.push_back(toPyValue(fl, pair.elems[1], where));
      }
      return d;
    }
    std::vector<PyValue> elems;
    for (const ConstValue &e : v.elems)
      elems.push_back(toPyValue(fl, e, where));
    return PyValue::tuple(std::move(elems));
  }
  case ConstValue::Kind::Module:
    // A ModuleList is only iterated, indexed and measured: a tuple of its
    // modules does all of that, unrolled.
    if (v.module->torchKind() == "ModuleList") {
      std::vector<PyValue> elems;
      for (const auto &[name, child] : v.module->attrs)
        elems.push_back(PyValue::ofObject(child.module.get()));
      return PyValue::tuple(std::move(elems));
    }
    if (v.module->torchKind() == "ModuleDict")
      return moduleDictValue(*v.module);
    return PyValue::ofObject(v.module.get());
  case ConstValue::Kind::Tensor: {
    assert(!v.weightName.empty() && "only weights are stored on modules");
    auto type = RankedTensorType::get(v.shape, v.elementType);
    return PyValue::ofValue(
        fl.b.create<ParamOp>(fl.loc(where), type, v.weightName));
  }
  }
  return PyValue::none();
}

std::optional<PyValue> childModules(const PyValue &v) {
  if (v.kind != PyValue::Kind::Object || (v.object->torchKind() != "Sequential" &&
                                          v.object->torchKind() != "ModuleList"))
    return std::nullopt;
  std::vector<PyValue> elems;
  for (const auto &[name, child] : v.object->attrs)
    if (child.kind == ConstValue::Kind::Module)
      elems.push_back(PyValue::ofObject(child.module.get()));
  return PyValue::tuple(std::move(elems));
}

MaybeValue FunctionLowering::lowerGetattr(const ast::CallExpr &call) {
  auto *name = call.args.size() == 2 && call.keywords.empty()
                   ? llvm::dyn_cast<ast::StrLitExpr>(call.args[1].get())
                   : nullptr;
  if (!name) {
    error(call.range, "getattr() takes an object and a constant string, as "
                      "TorchScript's does (no default)");
    return std::nullopt;
  }
  MaybeValue obj = lowerExpr(*call.args[0]);
  if (!obj)
    return std::nullopt;
  if (obj->kind != PyValue::Kind::Object) {
    error(call.args[0]->range, "getattr() is supported on modules only, got " +
                                   describe(*obj));
    return std::nullopt;
  }
  // lowerObjectAttribute reads the name and where to point, not the base.
  ast::AttributeExpr attr(call.range, nullptr, name->value, name->range);
  return lowerObjectAttribute(*obj->object, attr);
}

MaybeValue FunctionLowering::lowerObjectAttribute(const ModuleObject &obj,
                                                  const ast::AttributeExpr &e) {
  if (const ConstValue *v = obj.lookup(e.attr))
    return toPyValue(*this, *v, e.range);
  if (findMethod(module, obj, e.attr))
    return PyValue::method(PyValue::ofObject(&obj), e.attr);
  // Every nn.Module has the flag; kiln compiles the module in eval mode
  // (dropout is the identity, batch norm uses its running statistics), so
  // `if self.training:` is decided False and its branch is never lowered.
  if (e.attr == "training")
    return PyValue::ofValue(constBool(false, e.range));
  for (const auto &[name, what] : obj.opaque)
    if (name == e.attr) {
      error(e.attrRange,
            "'" + obj.typeName + "." + name + "' is " + what +
                "; forward can read constants (numbers, strings, dtypes, "
                "and tuples, lists and dicts of them), submodules and "
                "weights");
      return std::nullopt;
    }
  std::vector<std::string> known;
  for (const auto &[name, value] : obj.attrs)
    known.push_back(name);
  if (obj.userClass)
    for (const ast::StmtPtr &s : obj.userClass->body)
      if (auto *def = llvm::dyn_cast<ast::FunctionDef>(s.get()))
        known.push_back(def->name);
  error(e.attrRange, "'" + obj.typeName + "' has no attribute '" + e.attr +
                         "'" +
                         (obj.userClass ? "; __init__ does not set it" : "") +
                         didYouMean(e.attr, known));
  return std::nullopt;
}

MaybeValue FunctionLowering::callObjectMethod(const ModuleObject &obj,
                                              const ast::FunctionDef &def,
                                              const CallArgs &call) {
  for (const ast::ExprPtr &d : def.decorators) {
    std::string name = resolveGlobalName(module, *d);
    if (name == "torch.jit.unused" || name == "torch.jit.ignore") {
      error(call.range,
            "'" + def.name + "' is decorated @" + name +
                ", so it is not compiled, and kiln has no Python to run it "
                "at run time",
            {{d->range, "decorated here"}});
      return std::nullopt;
    }
    if (name != "torch.jit.export" && name != "torch.jit.script_method") {
      error(call.range, "cannot call '" + def.name + "', decorated with '@" +
                            name + "', from compiled code");
      return std::nullopt;
    }
  }
  // A signature kiln does not compile (`*args`) has no parameters to bind:
  // lowering the method reports why, in its file (lowerBody).
  if (def.unsupported) {
    module.getOrLowerHelper(def, {}, call.range, &obj);
    return std::nullopt;
  }
  if (def.params.empty() || def.params[0].name != "self") {
    error(def.nameRange, "method '" + def.name + "' must take self first");
    return std::nullopt;
  }
  std::vector<BuiltinParam> params = {{"self"}};
  for (size_t i = 1; i < def.params.size(); ++i)
    params.push_back(
        {def.params[i].name.c_str(), def.params[i].defaultValue == nullptr});
  auto bound = bindArgs(call, obj.typeName + "." + def.name, params, true);
  if (!bound)
    return std::nullopt;
  std::vector<PyValue> args;
  for (size_t i = 1; i < params.size(); ++i) {
    const ast::Expr *e =
        (*bound)[i] ? (*bound)[i] : def.params[i].defaultValue.get();
    MaybeValue v = lowerExpr(*e);
    if (!v)
      return std::nullopt;
    args.push_back(*v);
  }
  std::optional<func::FuncOp> callee =
      module.getOrLowerHelper(def, args, call.range, &obj);
  if (!callee)
    return std::nullopt;
  return emitHelperCall(*callee, args, call.range);
}

MaybeValue FunctionLowering::callObject(const ModuleObject &obj,
                                        const ast::CallExpr &call) {
  CallArgs args = CallArgs::of(call);
  if (obj.userClass) {
    if (const ast::FunctionDef *forward = findMethod(module, obj, "forward"))
      return callObjectMethod(obj, *forward, args);
    if (obj.torchBase.empty()) {
      error(call.func->range, "'" + obj.typeName + "' has no forward method");
      return std::nullopt;
    }
  }
  const std::string &type = obj.torchKind();
  if (type == "ModuleList" || type == "ModuleDict") {
    error(call.func->range,
          "a " + type + " is not callable; loop over it or index it");
    return std::nullopt;
  }
  // A torch.nn module's forward takes the tensors its prelude forward
  // declares: one input (applyObject, which nn.Sequential shares), or more
  // (CosineSimilarity(x1, x2)).
  const ast::FunctionDef *forward =
      type.empty() ? nullptr : preludeMethod(type, "forward");
  if (forward && forward->params.size() > 2) {
    std::vector<BuiltinParam> params;
    for (const ast::Param &p : forward->params)
      params.push_back({p.name.c_str()});
    auto bound = bindArgs(args, "nn." + type + ".forward", params, true);
    if (!bound)
      return std::nullopt;
    std::vector<PyValue> inputs;
    for (size_t i = 1; i < params.size(); ++i) {
      MaybeValue v = lowerExpr(*(*bound)[i]);
      if (!v || !requireTensor(*v, (*bound)[i]->range,
                               std::string("the ") + params[i].name +
                                   " of nn." + type))
        return std::nullopt;
      inputs.push_back(*v);
    }
    std::optional<func::FuncOp> callee =
        module.getOrLowerPrelude(*forward, inputs, call.range, &obj);
    if (!callee)
      return std::nullopt;
    return emitHelperCall(*callee, inputs, call.range);
  }
  auto bound =
      bindArgs(args, "nn." + type + ".forward", {{"self"}, {"input"}}, true);
  if (!bound)
    return std::nullopt;
  const ast::Expr &inputExpr = *(*bound)[1];
  MaybeValue input = lowerExpr(inputExpr);
  if (!input)
    return std::nullopt;
  return applyObject(obj, *input, call.range);
}

MaybeValue FunctionLowering::applyObject(const ModuleObject &obj, PyValue input,
                                         SourceRange where) {
  if (obj.userClass)
    if (const ast::FunctionDef *forward = findMethod(module, obj, "forward"))
      return applyUserForward(obj, *forward, input, where);
  const std::string &type = obj.torchKind();
  if (type == "Sequential") {
    for (const auto &[name, child] : obj.attrs) {
      if (child.kind != ConstValue::Kind::Module)
        continue;
      MaybeValue y = applyObject(*child.module, input, where);
      if (!y)
        return std::nullopt;
      input = *y;
    }
    return input;
  }
  // The forward is the prelude's (prelude/modules.py), run on this module.
  const ast::FunctionDef *forward =
      type.empty() ? nullptr : preludeMethod(type, "forward");
  if (!forward) {
    error(where, "'" + obj.typeName + "' has no forward method" +
                     (type.empty() || type == obj.typeName
                          ? std::string()
                          : "; it derives from torch.nn." + type +
                                ", whose forward kiln does not compile"));
    return std::nullopt;
  }
  if (forward->params.size() != 2) {
    error(where, "nn.Sequential calls nn." + type + " with one input, and " +
                     "its forward takes " +
                     std::to_string(forward->params.size() - 1));
    return std::nullopt;
  }
  if (!requireTensor(input, where, "the input of nn." + type))
    return std::nullopt;
  std::optional<func::FuncOp> callee =
      module.getOrLowerPrelude(*forward, {input}, where, &obj);
  if (!callee)
    return std::nullopt;
  return emitHelperCall(*callee, {input}, where);
}

/// A user module run by an nn.Sequential: its forward gets the one input,
/// and any other parameter must have a default, as when PyTorch calls it.
MaybeValue FunctionLowering::applyUserForward(const ModuleObject &obj,
                                              const ast::FunctionDef &def,
                                              PyValue input,
                                              SourceRange where) {
  if (def.params.size() < 2 || def.params[0].name != "self" ||
      llvm::any_of(llvm::drop_begin(def.params, 2), [](const ast::Param &p) {
        return p.defaultValue == nullptr;
      })) {
    error(where, "nn.Sequential calls '" + obj.typeName +
                     ".forward' with one input, and it takes " +
                     std::to_string(def.params.size() - 1));
    return std::nullopt;
  }
  std::vector<PyValue> args = {input};
  for (size_t i = 2; i < def.params.size(); ++i) {
    MaybeValue v = lowerExpr(*def.params[i].defaultValue);
    if (!v)
      return std::nullopt;
    args.push_back(*v);
  }
  std::optional<func::FuncOp> callee =
      module.getOrLowerHelper(def, args, where, &obj);
  if (!callee)
    return std::nullopt;
  return emitHelperCall(*callee, args, where);
}

} // namespace kiln
