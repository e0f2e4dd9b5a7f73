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
  // __init__ already refused a class that derives from itself, so the walk
  // ends; the bound is a second guard.
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
    if (v.module->typeName == "ModuleList") {
      std::vector<PyValue> elems;
      for (const auto &[name, child] : v.module->attrs)
        elems.push_back(PyValue::ofObject(child.module.get()));
      return PyValue::tuple(std::move(elems));
    }
    if (v.module->typeName == "ModuleDict")
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
    const ast::FunctionDef *forward = findMethod(module, obj, "forward");
    if (!forward) {
      error(call.func->range, "'" + obj.typeName + "' has no forward method");
      return std::nullopt;
    }
    return callObjectMethod(obj, *forward, args);
  }
  const std::string &type = obj.typeName;
  if (type == "ModuleList" || type == "ModuleDict") {
    error(call.func->range,
          "a " + type + " is not callable; loop over it or index it");
    return std::nullopt;
  }
  // Every torch.nn module we compile takes one input tensor.
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
  if (obj.userClass) {
    error(where, "a user module inside nn.Sequential is not supported; call "
                 "it from forward");
    return std::nullopt;
  }
  const std::string &type = obj.typeName;
  if (type == "Sequential") {
    for (const auto &[name, child] : obj.attrs) {
      MaybeValue y = applyObject(*child.module, input, where);
      if (!y)
        return std::nullopt;
      input = *y;
    }
    return input;
  }
  if (!requireTensor(input, where, "the input of nn." + type))
    return std::nullopt;
  // The forward is the prelude's (prelude/modules.py), run on this module.
  const ast::FunctionDef *forward = preludeMethod(type, "forward");
  assert(forward && "ModuleEval builds only the modules the prelude has");
  std::optional<func::FuncOp> callee =
      module.getOrLowerPrelude(*forward, {input}, where, &obj);
  if (!callee)
    return std::nullopt;
  return emitHelperCall(*callee, {input}, where);
}

} // namespace kiln
