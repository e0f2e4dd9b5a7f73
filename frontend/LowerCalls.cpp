//===- LowerCalls.cpp - What a call resolves to ---------------------------===//
//
// A call's callee is lowered like any expression, and its PyValue decides
// what the call is: a torch/builtin global (LowerBuiltins.cpp), a method of
// a tensor or list (LowerTensorMethods.cpp), a module object or one of its
// methods (LowerModules.cpp), or a function of the file, compiled as a
// helper specialized for the argument types.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/Prelude.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "frontend/LowerConstructs.h"

#include "ir/KilnDialect.h"

#include "frontend/AstPrinter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace kiln {

/// Whether `v` is of the static type `type` names (a class such as `int`,
/// `Tensor`, `List[int]`, or `type(None)`), as TorchScript decides
/// isinstance at compile time. nullopt after an error.
static std::optional<bool> isInstanceOf(FunctionLowering &fl, const PyValue &v,
                                        const ast::Expr &type) {
  if (auto *t = llvm::dyn_cast<ast::TupleExpr>(&type)) {
    for (const ast::ExprPtr &e : t->elts) {
      std::optional<bool> r = isInstanceOf(fl, v, *e);
      if (!r || *r)
        return r;
    }
    return false;
  }
  if (auto *c = llvm::dyn_cast<ast::CallExpr>(&type))
    if (exprToString(*c->func) == "type" && c->args.size() == 1 &&
        llvm::isa<ast::NoneLitExpr>(*c->args[0]))
      return v.isNone();
  const ast::Expr *base = &type;
  if (auto *sub = llvm::dyn_cast<ast::SubscriptExpr>(&type))
    base = sub->value.get(); // List[int]: the element type is static too
  std::string name = resolveGlobalName(fl.module, *base);
  Type t = v.isValue() ? v.value.getType() : Type();
  if (name == "Tensor" || name == "torch.Tensor")
    return t && llvm::isa<RankedTensorType>(t);
  // TorchScript's bool is not an int, unlike Python's.
  if (name == "int")
    return t && t.isInteger(64);
  if (name == "float")
    return t && t.isF64();
  if (name == "bool")
    return t && t.isInteger(1);
  if (name == "list" || name == "List" || name == "typing.List")
    return t && llvm::isa<ListType>(t);
  if (name == "tuple" || name == "Tuple" || name == "typing.Tuple")
    return v.kind == PyValue::Kind::Tuple;
  if (name == "str")
    return v.kind == PyValue::Kind::Str;
  if (name == "torch.nn.Module")
    return v.kind == PyValue::Kind::Object;
  fl.error(type.range, "isinstance() with '" + exprToString(type) +
                           "' is not supported; kiln decides Tensor, int, "
                           "float, bool, list, tuple, str, nn.Module and "
                           "type(None) at compile time");
  return std::nullopt;
}

/// isinstance(x, T) and torch.jit.annotate(T, v): both are decided at
/// compile time, before the builtins are consulted. Returns false when the
/// call is neither; `out` is the result (nullopt after an error) otherwise.
static bool lowerStaticTypeCall(FunctionLowering &fl, const std::string &path,
                                const ast::CallExpr &call, MaybeValue &out) {
  bool isInstance = path == "builtins.isinstance";
  if (!isInstance && path != "torch.jit.annotate")
    return false;
  out = std::nullopt;
  if (call.args.size() != 2 || !call.keywords.empty()) {
    fl.error(call.range, std::string(isInstance ? "isinstance" : "annotate") +
                             "() takes exactly two positional arguments");
    return true;
  }
  if (!isInstance) {
    // The type only guides TorchScript's inference; kiln infers the value's
    // type itself.
    out = fl.lowerExpr(*call.args[1]);
    // annotate(List[int], []) fixes an empty list's element type, as
    // `xs: List[int] = []` does.
    auto *sub = llvm::dyn_cast<ast::SubscriptExpr>(call.args[0].get());
    if (out && out->isValue() && sub && sub->indices.size() == 1)
      if (auto ctor = out->value.getDefiningOp<ListConstructOp>();
          ctor && ctor->getNumOperands() == 0) {
        std::string elem = exprToString(*sub->indices[0]);
        Type et = elem == "int"     ? Type(fl.b.getI64Type())
                  : elem == "float" ? Type(fl.b.getF64Type())
                  : elem == "bool"  ? Type(fl.b.getI1Type())
                                    : Type();
        if (et)
          out = PyValue::ofValue(fl.b.create<ListConstructOp>(
              fl.loc(call.range), ListType::get(et), ValueRange{}));
      }
    return true;
  }
  MaybeValue v = fl.lowerExpr(*call.args[0]);
  if (!v)
    return true;
  if (v->isOptional()) {
    // Its type is decided at run time, which isinstance() is not.
    fl.error(call.range, "isinstance() cannot test an Optional[Tensor], "
                         "whose presence is known only at run time; use "
                         "'is None' or 'is not None'");
    return true;
  }
  std::optional<bool> r = isInstanceOf(fl, *v, *call.args[1]);
  if (r)
    out = PyValue::ofValue(fl.constBool(*r, call.range));
  return true;
}

static bool lowerSuperCall(FunctionLowering &fl, const ast::CallExpr &call,
                           MaybeValue &out);

MaybeValue FunctionLowering::lowerCall(const ast::CallExpr &call) {
  // `y.append(v)` rebinds y: lists are values in the IR.
  if (auto *attr = llvm::dyn_cast<ast::AttributeExpr>(call.func.get()))
    if (auto *name = llvm::dyn_cast<ast::NameExpr>(attr->value.get()))
      if (attr->attr == "append") {
        MaybeValue list = lowerName(*name);
        if (!list)
          return std::nullopt;
        // A comprehension unrolled while compiling grows as a tuple does.
        if (list->kind == PyValue::Kind::Tuple && call.args.size() == 1 &&
            call.keywords.empty()) {
          MaybeValue v = lowerExpr(*call.args[0]);
          if (!v)
            return std::nullopt;
          list->elems.push_back(*v);
          env[name->id] = Binding{*list, call.range};
          return PyValue::none();
        }
        if (list->isValue() && llvm::isa<ListType>(list->value.getType())) {
          if (call.args.size() != 1 || !call.keywords.empty()) {
            error(call.range, "append() takes exactly one argument");
            return std::nullopt;
          }
          std::optional<Value> v = lowerValue(*call.args[0]);
          if (!v)
            return std::nullopt;
          Value one = b.create<ListConstructOp>(
              loc(call.args[0]->range), ListType::get(v->getType()), *v);
          MaybeValue r =
              applyBinOp(ast::BinOpKind::Add, *list, PyValue::ofValue(one),
                         call.range, name->range, call.args[0]->range);
          if (!r)
            return std::nullopt;
          env[name->id] = Binding{*r, call.range};
          return PyValue::none();
        }
      }

  // `x.add_(y)` rebinds x, as append does.
  if (MaybeValue r; callInPlace(call, r))
    return r;

  if (MaybeValue r; lowerSuperCall(*this, call, r))
    return r;

  MaybeValue callee = lowerExpr(*call.func);
  if (!callee)
    return std::nullopt;
  switch (callee->kind) {
  case PyValue::Kind::Global:
    if (MaybeValue r; lowerDictCall(*this, callee->str, call, r) ||
                      lowerStaticTypeCall(*this, callee->str, call, r) ||
                      lowerStaticGlobalCall(*this, callee->str, call, r) ||
                      lowerContainerCall(*this, callee->str, call, r))
      return r;
    return callGlobal(callee->str, call);
  case PyValue::Kind::Function:
    return callUserFunction(*callee->func, call);
  case PyValue::Kind::Method:
    if (callee->elems[0].kind == PyValue::Kind::Object &&
        callee->elems[0].object->userClass) {
      const ModuleObject &obj = *callee->elems[0].object;
      if (const ast::FunctionDef *f =
              findMethodIn(module, obj.userClass, callee->str))
        return callObjectMethod(obj, *f, CallArgs::of(call));
    }
    if (MaybeValue r;
        lowerDictMethod(*this, callee->elems[0], callee->str, call, r) ||
        lowerMetadataMethod(*this, callee->elems[0], callee->str, call, r) ||
        lowerStrFormat(*this, callee->elems[0], callee->str, call, r))
      return r;
    return callMethod(callee->elems[0], callee->str, CallArgs::of(call));
  case PyValue::Kind::Object:
    return callObject(*callee->object, call);
  default:
    error(call.func->range, describe(*callee) + " is not callable");
    return std::nullopt;
  }
}

/// Appends a description of `v`'s compile-time part to `key`: None, a str,
/// a global (a dtype), and the types of its SSA leaves. Returns whether `v`
/// has a compile-time leaf, which getOrLowerHelper cannot pass.
static bool describeForKey(const PyValue &v, std::string &key) {
  llvm::raw_string_ostream os(key);
  switch (v.kind) {
  case PyValue::Kind::Value:
    // A number known while compiling (a module attribute passed on, as
    // torchvision's stochastic_depth(x, self.p, self.mode, self.training)
    // does) folds inside the helper too.
    if (keyOfScalarConstant(v.value, os)) {
      os << ":" << v.value.getType() << ",";
      return true;
    }
    os << v.value.getType() << ",";
    return false;
  case PyValue::Kind::None:
    os << "None,";
    return true;
  case PyValue::Kind::Optional:
    // Decided at run time: the helper takes the flag and the tensor.
    os << "Optional " << v.payload().getType() << ",";
    return false;
  case PyValue::Kind::Str:
    os << "str'" << v.str << "',";
    return true;
  case PyValue::Kind::Global:
    os << "global " << v.str << ",";
    return true;
  case PyValue::Kind::Tuple:
  case PyValue::Kind::Dict: {
    bool any = false;
    os << v.str << "(";
    for (size_t i = 0; i < v.elems.size(); ++i) {
      if (i < v.keys.size())
        os << v.keys[i] << ":";
      any |= describeForKey(v.elems[i], key);
    }
    os << "),";
    return any;
  }
  default:
    os << "?,";
    return true;
  }
}

/// Lowers `def` for `args` (and `self`, for a method) as a private
/// func.func named after `symbol`, or returns the one `key` names already.
/// Compile-time leaves of `args` (None, a str, a dtype) are bound in the
/// body; only the SSA leaves become func arguments.
static std::optional<func::FuncOp>
lowerSpecialization(FunctionLowering &fl, const ast::FunctionDef &def,
                    llvm::ArrayRef<PyValue> args, SourceRange callSite,
                    const ModuleObject *self, const std::string &key,
                    const std::string &symbol) {
  ModuleLowering &m = fl.module;
  for (const PyValue &a : args)
    if (a.kind == PyValue::Kind::Object || a.kind == PyValue::Kind::Function ||
        a.kind == PyValue::Kind::Method || a.kind == PyValue::Kind::Undefined) {
      fl.error(callSite, "cannot pass " + fl.describe(a) + " to '" + def.name +
                             "'; helpers take tensors, scalars, lists, None, "
                             "strings and tuples of them");
      return std::nullopt;
    }
  if (auto it = m.specializations.find(key); it != m.specializations.end())
    return it->second;
  if (m.inProgress.count({&def, self})) {
    fl.error(callSite, "recursive call to '" + def.name + "' is not supported");
    return std::nullopt;
  }
  DepthGuard guard(m, callSite);
  if (!guard.ok())
    return std::nullopt;
  // From here on, names and errors are those of the file defining `def`.
  FileSwap inFile(m, &def);
  if (!self)
    for (const ast::ExprPtr &d : def.decorators)
      if (resolveGlobalName(m, *d) != "torch.jit.script") {
        fl.error(d->range, "decorator '@" + exprToString(*d) +
                               "' is not supported; only @torch.jit.script is");
        return std::nullopt;
      }
  SmallVector<Value> leaves;
  for (const PyValue &a : args)
    flattenValues(a, leaves);
  SmallVector<Type> types;
  for (Value v : leaves)
    types.push_back(v.getType());
  std::string name = symbol;
  for (int i = 1; m.module.lookupSymbol(name); ++i)
    name = symbol + "_" + std::to_string(i);
  OpBuilder b(&m.context);
  b.setInsertionPointToEnd(m.module.getBody());
  auto func = b.create<func::FuncOp>(
      FileLineColLoc::get(m.fileName, def.range.begin.line,
                          def.range.begin.col),
      name, b.getFunctionType(types, {}));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  SmallVector<Value> blockArgs(entry->getArguments().begin(),
                               entry->getArguments().end());
  ArrayRef<Value> rest(blockArgs);
  std::vector<PyValue> params;
  if (self)
    params.push_back(PyValue::ofObject(self));
  OpBuilder fb(&m.context);
  fb.setInsertionPointToStart(entry);
  for (const PyValue &a : args)
    params.push_back(bindParam(fb, func.getLoc(), a, rest,
                               /*listsAsTuples=*/false));
  FunctionLowering inner(m, fb);
  m.inProgress.insert({&def, self});
  std::optional<PyValue> result = inner.lowerBody(def, std::move(params));
  m.inProgress.erase({&def, self});
  if (!result)
    return std::nullopt;
  m.resultShapes[name] = *result;
  m.specializations[key] = func;
  return func;
}

/// A helper called with a compile-time argument (None for an
/// Optional[Tensor], a str, a dtype) is specialized on that value, as
/// TorchScript's `is None` refinement requires. `handled` is false when no
/// argument is compile-time, so that the ordinary specialization applies.
static std::optional<func::FuncOp>
specializeOnConstants(FunctionLowering &fl, const ast::FunctionDef &def,
                      llvm::ArrayRef<PyValue> args, SourceRange callSite,
                      bool &handled) {
  FileScope *file = fl.module.fileOf(&def);
  std::string key = "const " + (file ? file->source->path() + ":" : "") +
                    def.name + "(";
  bool any = false;
  for (const PyValue &a : args)
    any |= describeForKey(a, key);
  handled = any;
  if (!any)
    return std::nullopt;
  return lowerSpecialization(fl, def, args, callSite, nullptr, key, def.name);
}

/// The class whose body defines `def`: where a zero-argument super() starts
/// looking, as Python's __class__ cell does.
static const ast::ClassDef *definingClass(ModuleLowering &m,
                                          const ast::FunctionDef *def) {
  for (const auto &[name, cls] : m.classes)
    for (const ast::StmtPtr &s : cls->body)
      if (s.get() == def)
        return cls;
  return nullptr;
}

/// `super().name(...)` or `super(Class, self).name(...)` in a method: the
/// method of the base class, run on the same module instance. Returns false
/// when the call is not one; `out` is the result (nullopt after an error).
static bool lowerSuperCall(FunctionLowering &fl, const ast::CallExpr &call,
                           MaybeValue &out) {
  auto *attr = llvm::dyn_cast<ast::AttributeExpr>(call.func.get());
  auto *inner = attr ? llvm::dyn_cast<ast::CallExpr>(attr->value.get())
                     : nullptr;
  auto *fn = inner ? llvm::dyn_cast<ast::NameExpr>(inner->func.get()) : nullptr;
  if (!fn || fn->id != "super")
    return false;
  out = std::nullopt;
  ModuleLowering &m = fl.module;
  auto self = fl.env.find("self");
  if (self == fl.env.end() || self->second.value.kind != PyValue::Kind::Object) {
    fl.error(inner->range, "super() is supported in methods of nn.Module "
                           "classes only");
    return true;
  }
  const ast::ClassDef *cls = definingClass(m, fl.def);
  if (inner->args.size() == 2) {
    auto *c = llvm::dyn_cast<ast::NameExpr>(inner->args[0].get());
    auto it = c ? m.classes.find(c->id) : m.classes.end();
    if (it == m.classes.end()) {
      fl.error(inner->args[0]->range, "super()'s first argument must be a "
                                      "class of this file");
      return true;
    }
    cls = it->second;
  } else if (!inner->args.empty()) {
    fl.error(inner->range, "super() takes no arguments or (Class, self)");
    return true;
  }
  const ModuleObject &obj = *self->second.value.object;
  const ast::ClassDef *base = cls ? userBaseClass(m, *cls) : nullptr;
  const ast::FunctionDef *def =
      base ? findMethodIn(m, base, attr->attr) : nullptr;
  if (!def) {
    fl.error(attr->attrRange,
             "the base class of '" + (cls ? cls->name : obj.typeName) +
                 "' has no method '" + attr->attr + "' that kiln compiles" +
                 (base ? "" : "; its base is nn.Module"));
    return true;
  }
  for (const ast::ExprPtr &d : def->decorators) {
    std::string name = resolveGlobalName(m, *d);
    if (name == "torch.jit.unused" || name == "torch.jit.ignore") {
      fl.error(call.range,
               "'" + def->name + "' is decorated @" + name +
                   ", so it is not compiled, and kiln has no Python to run "
                   "it at run time",
               {{d->range, "decorated here"}});
      return true;
    }
  }
  std::vector<BuiltinParam> params = {{"self"}};
  for (size_t i = 1; i < def->params.size(); ++i)
    params.push_back(
        {def->params[i].name.c_str(), def->params[i].defaultValue == nullptr});
  auto bound = fl.bindArgs(CallArgs::of(call), base->name + "." + def->name,
                           params, true);
  if (!bound)
    return true;
  std::vector<PyValue> args;
  for (size_t i = 1; i < params.size(); ++i) {
    const ast::Expr *e =
        (*bound)[i] ? (*bound)[i] : def->params[i].defaultValue.get();
    MaybeValue v = fl.lowerExpr(*e);
    if (!v)
      return true;
    args.push_back(*v);
  }
  // Named after the class that defines it, so that Derived.forward and
  // Base.forward of one instance are two functions.
  std::string symbol = obj.prefix + base->name + "." + def->name;
  std::string key = "super " + symbol + "(";
  for (const PyValue &a : args)
    describeForKey(a, key);
  std::optional<func::FuncOp> callee =
      lowerSpecialization(fl, *def, args, call.range, &obj, key, symbol);
  if (callee)
    out = fl.emitHelperCall(*callee, args, call.range);
  return true;
}

MaybeValue FunctionLowering::callUserFunction(const ast::FunctionDef &fn,
                                              const ast::CallExpr &call) {
  // TorchScript leaves @torch.jit.unused and @torch.jit.ignore functions to
  // Python; kiln has no Python at run time, so calling one is an error (its
  // presence is not).
  for (const ast::ExprPtr &d : fn.decorators) {
    std::string name = resolveGlobalName(module, *d);
    if (name == "torch.jit.unused" || name == "torch.jit.ignore") {
      error(call.range,
            "'" + fn.name + "' is decorated @" + name +
                ", so it is not compiled, and kiln has no Python to run it "
                "at run time",
            {{d->range, "decorated here"}});
      return std::nullopt;
    }
  }
  std::vector<BuiltinParam> params;
  for (const ast::Param &p : fn.params)
    params.push_back({p.name.c_str(), p.defaultValue == nullptr});
  auto bound = bindArgs(CallArgs::of(call), fn.name, params, false);
  if (!bound)
    return std::nullopt;
  std::vector<PyValue> args;
  for (size_t i = 0; i < params.size(); ++i) {
    const ast::Expr *e =
        (*bound)[i] ? (*bound)[i] : fn.params[i].defaultValue.get();
    MaybeValue v = lowerExpr(*e);
    if (!v)
      return std::nullopt;
    args.push_back(*v);
  }
  // As in TorchScript, None fits a parameter typed Optional[...] (by its
  // annotation, or by a default of None) and nothing else.
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].isNone() && !acceptsNone(module, fn.params[i])) {
      error(call.range, "cannot pass None to '" + fn.name +
                            "'; helpers take tensors, scalars, lists and "
                            "tuples of them");
      return std::nullopt;
    } else if (args[i].isOptional() && !acceptsNone(module, fn.params[i])) {
      error(call.range,
            "cannot pass " + describe(args[i]) + " to parameter '" +
                fn.params[i].name + "' of '" + fn.name +
                "', which is not Optional; annotate it Optional[Tensor], or "
                "pass it where 'is not None' has refined it");
      return std::nullopt;
    }
  // Prelude code calling its own helpers specializes on every constant
  // (getOrLowerPrelude), not only on None, strings and dtypes.
  bool constant = false;
  std::optional<func::FuncOp> callee;
  if (!isPreludeFunction(fn))
    callee = specializeOnConstants(*this, fn, args, call.range, constant);
  if (!constant)
    callee = module.getOrLowerHelper(fn, args, call.range);
  if (!callee)
    return std::nullopt;
  return emitHelperCall(*callee, args, call.range);
}

PyValue FunctionLowering::emitHelperCall(func::FuncOp callee,
                                         ArrayRef<PyValue> args,
                                         SourceRange where) {
  // A result the callee always returns as the same number is that number
  // here too, so that a helper computing a dim or a size keeps it static.
  // (The callee is lowered before its first call, so its body is known.)
  SmallVector<Attribute> constants(callee.getNumResults());
  bool pure = !callee.getBody().empty();
  if (pure) {
    Block &body = callee.getBody().back();
    for (auto [i, v] : llvm::enumerate(body.getTerminator()->getOperands()))
      if (auto c = v.getDefiningOp<arith::ConstantOp>();
          c && c.getType().isIntOrFloat())
        constants[i] = c.getValue();
    pure = llvm::all_of(body.without_terminator(), [](Operation &op) {
      return isMemoryEffectFree(&op);
    });
  }
  // A helper that only checked its arguments or computed numbers while
  // compiling (the prelude's checks, its _pair()) leaves nothing to call.
  bool needed = !pure || llvm::any_of(constants, [](Attribute a) {
    return !a;
  });
  SmallVector<Value> results;
  if (needed) {
    SmallVector<Value> operands;
    for (const PyValue &a : args)
      flattenValues(a, operands);
    auto op = b.create<func::CallOp>(loc(where), callee, operands);
    results.assign(op.getResults().begin(), op.getResults().end());
  } else {
    results.resize(constants.size());
  }
  for (auto [i, c] : llvm::enumerate(constants))
    if (c)
      results[i] =
          b.create<arith::ConstantOp>(loc(where), llvm::cast<TypedAttr>(c));
  ArrayRef<Value> rest(results);
  return unflattenValues(module.resultShapes[callee.getSymName().str()], rest);
}

} // namespace kiln
