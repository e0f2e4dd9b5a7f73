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

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace kiln {

MaybeValue FunctionLowering::lowerCall(const ast::CallExpr &call) {
  // `y.append(v)` rebinds y: lists are values in the IR.
  if (auto *attr = llvm::dyn_cast<ast::AttributeExpr>(call.func.get()))
    if (auto *name = llvm::dyn_cast<ast::NameExpr>(attr->value.get()))
      if (attr->attr == "append") {
        MaybeValue list = lowerName(*name);
        if (!list)
          return std::nullopt;
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

  MaybeValue callee = lowerExpr(*call.func);
  if (!callee)
    return std::nullopt;
  switch (callee->kind) {
  case PyValue::Kind::Global:
    return callGlobal(callee->str, call);
  case PyValue::Kind::Function:
    return callUserFunction(*callee->func, call);
  case PyValue::Kind::Method:
    if (callee->elems[0].kind == PyValue::Kind::Object &&
        callee->elems[0].object->userClass) {
      const ModuleObject &obj = *callee->elems[0].object;
      for (const ast::StmtPtr &s : obj.userClass->body)
        if (auto *f = llvm::dyn_cast<ast::FunctionDef>(s.get()))
          if (f->name == callee->str)
            return callObjectMethod(obj, *f, CallArgs::of(call));
    }
    return callMethod(callee->elems[0], callee->str, CallArgs::of(call));
  case PyValue::Kind::Object:
    return callObject(*callee->object, call);
  default:
    error(call.func->range, describe(*callee) + " is not callable");
    return std::nullopt;
  }
}

MaybeValue FunctionLowering::callUserFunction(const ast::FunctionDef &fn,
                                              const ast::CallExpr &call) {
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
  std::optional<func::FuncOp> callee =
      module.getOrLowerHelper(fn, args, call.range);
  if (!callee)
    return std::nullopt;
  return emitHelperCall(*callee, args, call.range);
}

PyValue FunctionLowering::emitHelperCall(func::FuncOp callee,
                                         ArrayRef<PyValue> args,
                                         SourceRange where) {
  SmallVector<Value> operands;
  for (const PyValue &a : args)
    flattenValues(a, operands);
  auto op = b.create<func::CallOp>(loc(where), callee, operands);
  SmallVector<Value> results(op.getResults().begin(), op.getResults().end());
  ArrayRef<Value> rest(results);
  return unflattenValues(module.resultShapes[callee.getSymName().str()], rest);
}

} // namespace kiln
