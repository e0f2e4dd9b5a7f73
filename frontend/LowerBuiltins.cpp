//===- LowerBuiltins.cpp - torch.*, Tensor methods and Python builtins ----===//
//
// `torch.sum(x, 1)`, `x.sum(1)` and `x.sum(dim=1)` are one operation, so
// functions and methods share one table keyed by the PyTorch name; a method
// call passes its receiver as the first parameter. Arguments are bound the
// way Python binds them (positional, then keywords by PyTorch's parameter
// names) before any IR is built, so a wrong call is reported against the
// call site, not deep inside the lowering.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace kiln {

static bool isTensorType(Type t) { return llvm::isa<RankedTensorType>(t); }

bool isKnownTensorMethod(llvm::StringRef name) {
  static const char *const methods[] = {
      "exp", "log", "tanh", "sigmoid", "relu", "sqrt", "rsqrt", "abs", "neg",
      "sin", "cos", "floor", "ceil", "add", "sub", "mul", "div", "pow",
      "matmul", "mm", "floor_divide", "remainder", "maximum", "minimum", "eq",
      "ne", "lt", "le", "gt", "ge", "sum", "mean", "var", "amax", "amin",
      "max", "min", "size", "dim", "numel", "item", "contiguous", "clone",
      "detach", "float", "double", "half", "bfloat16", "int", "long", "bool",
      "to", "view", "reshape", "expand", "flatten", "unsqueeze", "squeeze",
      "transpose", "t", "permute", "zeros_like", "ones_like", "rand_like",
      "randn_like", "full_like"};
  return llvm::is_contained(methods, name);
}

std::optional<std::vector<const ast::Expr *>>
FunctionLowering::bindArgs(const CallArgs &call, const std::string &fnName,
                           ArrayRef<BuiltinParam> params, bool hasSelf) {
  std::vector<const ast::Expr *> bound(params.size(), nullptr);
  size_t first = hasSelf ? 1 : 0;
  size_t maxPositional = params.size() - first;
  if (call.args.size() > maxPositional) {
    error(call.range, fnName + "() takes at most " +
                          std::to_string(maxPositional) + " arguments (" +
                          std::to_string(call.args.size()) + " given)");
    return std::nullopt;
  }
  for (size_t i = 0; i < call.args.size(); ++i)
    bound[first + i] = call.args[i];
  for (const ast::Keyword *k : call.keywords) {
    size_t i = first;
    while (i < params.size() && k->name != params[i].name)
      ++i;
    if (i == params.size()) {
      error(k->range,
            fnName + "() got an unexpected keyword argument '" + k->name + "'");
      return std::nullopt;
    }
    if (bound[i]) {
      error(k->range,
            fnName + "() got multiple values for argument '" + k->name + "'");
      return std::nullopt;
    }
    bound[i] = k->value.get();
  }
  for (size_t i = first; i < params.size(); ++i)
    if (params[i].required && !bound[i]) {
      error(call.range, fnName + "() is missing the argument '" +
                            std::string(params[i].name) + "'");
      return std::nullopt;
    }
  return bound;
}

std::optional<int64_t> FunctionLowering::lowerConstInt(const ast::Expr &expr,
                                                       const char *what) {
  MaybeValue v = lowerExpr(expr);
  if (!v)
    return std::nullopt;
  if (v->isValue())
    if (std::optional<int64_t> c = constIntValue(v->value))
      return c;
  error(expr.range,
        std::string(what) + " must be a constant int, got " + describe(*v));
  return std::nullopt;
}

std::optional<std::vector<int64_t>>
FunctionLowering::lowerConstInts(const ast::Expr &expr, const char *what) {
  MaybeValue v = lowerExpr(expr);
  if (!v)
    return std::nullopt;
  std::vector<PyValue> items;
  if (v->kind == PyValue::Kind::Tuple)
    items = v->elems;
  else if (v->isValue() && llvm::isa<ListType>(v->value.getType())) {
    auto ctor = v->value.getDefiningOp<ListConstructOp>();
    if (ctor)
      for (Value x : ctor->getOperands())
        items.push_back(PyValue::ofValue(x));
  } else
    items.push_back(*v);
  std::vector<int64_t> out;
  for (const PyValue &i : items) {
    std::optional<int64_t> c =
        i.isValue() ? constIntValue(i.value) : std::nullopt;
    if (!c) {
      error(expr.range,
            std::string(what) + " must be constant ints, got " + describe(*v));
      return std::nullopt;
    }
    out.push_back(*c);
  }
  return out;
}

std::optional<std::vector<Value>>
FunctionLowering::lowerSizes(ArrayRef<const ast::Expr *> args,
                             SourceRange where) {
  std::vector<PyValue> items;
  if (args.size() == 1) {
    MaybeValue v = lowerExpr(*args[0]);
    if (!v)
      return std::nullopt;
    if (v->kind == PyValue::Kind::Tuple)
      items = v->elems;
    else if (v->isValue() && llvm::isa<ListType>(v->value.getType())) {
      auto ctor = v->value.getDefiningOp<ListConstructOp>();
      if (!ctor) {
        error(args[0]->range, "sizes must be ints or a literal tuple of ints");
        return std::nullopt;
      }
      for (Value x : ctor->getOperands())
        items.push_back(PyValue::ofValue(x));
    } else
      items.push_back(*v);
  } else {
    for (const ast::Expr *a : args) {
      MaybeValue v = lowerExpr(*a);
      if (!v)
        return std::nullopt;
      items.push_back(*v);
    }
  }
  std::vector<Value> sizes;
  for (const PyValue &i : items) {
    if (!i.isValue() || !i.value.getType().isInteger(64)) {
      error(where, "sizes must be ints, got " + describe(i));
      return std::nullopt;
    }
    sizes.push_back(i.value);
  }
  return sizes;
}

std::optional<int64_t> FunctionLowering::normalizeDim(int64_t dim, int64_t rank,
                                                      SourceRange where) {
  int64_t n = rank == 0 ? 1 : rank;
  if (dim < -n || dim >= n) {
    error(where, "dimension " + std::to_string(dim) +
                     " is out of range for a tensor of rank " +
                     std::to_string(rank));
    return std::nullopt;
  }
  return dim < 0 ? dim + n : dim;
}

std::optional<Value> FunctionLowering::requireTensor(PyValue v,
                                                     SourceRange where,
                                                     const std::string &what) {
  if (v.isValue() && isTensorType(v.value.getType()))
    return v.value;
  error(where, what + " must be a Tensor, got " + describe(v));
  return std::nullopt;
}

std::vector<Value> FunctionLowering::dimValues(Value tensor,
                                               SourceRange where) {
  auto t = llvm::cast<RankedTensorType>(tensor.getType());
  std::vector<Value> dims;
  for (int64_t i = 0; i < t.getRank(); ++i)
    dims.push_back(t.isDynamicDim(i)
                       ? b.create<DimOp>(loc(where), b.getI64Type(), tensor,
                                         b.getI64IntegerAttr(i))
                             .getResult()
                       : constInt(t.getDimSize(i), where));
  return dims;
}

Value FunctionLowering::castScalar(Value v, Type to, SourceRange where) {
  if (v.getType() == to)
    return v;
  return b.create<CastOp>(loc(where), to, v);
}

/// The element type a `dtype=` global names, e.g. torch.float32.
static Type dtypeFromGlobal(OpBuilder &b, const PyValue &v) {
  if (v.kind != PyValue::Kind::Global)
    return {};
  return llvm::StringSwitch<Type>(v.str)
      .Cases("torch.float32", "torch.float", b.getF32Type())
      .Cases("torch.float64", "torch.double", b.getF64Type())
      .Cases("torch.float16", "torch.half", b.getF16Type())
      .Case("torch.bfloat16", b.getBF16Type())
      .Cases("torch.int32", "torch.int", b.getI32Type())
      .Cases("torch.int64", "torch.long", b.getI64Type())
      .Case("torch.bool", b.getI1Type())
      .Default(Type());
}

/// A static dim from an i64 size value, or dynamic.
static int64_t staticSize(FunctionLowering &fl, Value size) {
  std::optional<int64_t> c = fl.constIntValue(size);
  return c && *c >= 0 ? *c : ShapedType::kDynamic;
}

/// Appends a print format piece for `v`; `{}` marks a run-time argument.
static bool appendPrintPiece(FunctionLowering &fl, const PyValue &v,
                             std::string &format, SmallVectorImpl<Value> &args,
                             SourceRange where) {
  switch (v.kind) {
  case PyValue::Kind::Str:
    for (char c : v.str) {
      format += c;
      if (c == '{' || c == '}')
        format += c;
    }
    return true;
  case PyValue::Kind::None:
    format += "None";
    return true;
  case PyValue::Kind::Value:
    format += "{}";
    args.push_back(v.value);
    return true;
  case PyValue::Kind::Tuple:
    format += "(";
    for (size_t i = 0; i < v.elems.size(); ++i) {
      if (i)
        format += ", ";
      if (!appendPrintPiece(fl, v.elems[i], format, args, where))
        return false;
    }
    if (v.elems.size() == 1)
      format += ",";
    format += ")";
    return true;
  default:
    return fl.error(where, "cannot print " + fl.describe(v));
  }
}

/// Reads the tensors of `torch.stack`/`torch.cat`: a list or a tuple.
static std::optional<Value> lowerTensorList(FunctionLowering &fl,
                                            const ast::Expr &expr) {
  MaybeValue v = fl.lowerExpr(expr);
  if (!v)
    return std::nullopt;
  if (v->kind == PyValue::Kind::Tuple) {
    SmallVector<Value> elems;
    for (const PyValue &e : v->elems) {
      if (!e.isValue() || !isTensorType(e.value.getType())) {
        fl.error(expr.range,
                 "expected a list of tensors, got " + fl.describe(*v));
        return std::nullopt;
      }
      elems.push_back(e.value);
    }
    if (elems.empty()) {
      fl.error(expr.range, "expected a non-empty list of tensors");
      return std::nullopt;
    }
    Type t = elems[0].getType();
    for (Value e : elems)
      if (e.getType() != t) {
        fl.error(expr.range, "tensors in one list must have one type; got " +
                                 describeType(t) + " and " +
                                 describeType(e.getType()));
        return std::nullopt;
      }
    return fl.b
        .create<ListConstructOp>(fl.loc(expr.range), ListType::get(t), elems)
        .getResult();
  }
  if (v->isValue())
    if (auto l = llvm::dyn_cast<ListType>(v->value.getType())) {
      if (llvm::isa<NoneType>(l.getElementType())) {
        fl.error(expr.range, "cannot stack or concatenate an empty list");
        return std::nullopt;
      }
      if (isTensorType(l.getElementType()))
        return v->value;
    }
  fl.error(expr.range, "expected a list of tensors, got " + fl.describe(*v));
  return std::nullopt;
}

/// The number of elements a list value is known to hold, if static.
static std::optional<int64_t> staticListLength(Value list) {
  int64_t extra = 0;
  while (auto app = list.getDefiningOp<ListAppendOp>()) {
    ++extra;
    list = app->getOperand(0);
  }
  if (auto ctor = list.getDefiningOp<ListConstructOp>())
    return ctor->getNumOperands() + extra;
  return std::nullopt;
}

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

  MaybeValue callee = lowerExpr(*call.func);
  if (!callee)
    return std::nullopt;
  switch (callee->kind) {
  case PyValue::Kind::Global:
    return callGlobal(callee->str, call);
  case PyValue::Kind::Function:
    return callUserFunction(*callee->func, call);
  case PyValue::Kind::Method:
    return callMethod(callee->elems[0], callee->str, CallArgs::of(call));
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
  SmallVector<Value> operands;
  for (const PyValue &a : args)
    flattenValues(a, operands);
  auto op = b.create<func::CallOp>(loc(call.range), *callee, operands);
  SmallVector<Value> results(op.getResults().begin(), op.getResults().end());
  ArrayRef<Value> rest(results);
  return unflattenValues(module.resultShapes[callee->getSymName().str()], rest);
}

/// Float math that turns int tensors into float32, as PyTorch does.
static bool isFloatMath(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("exp", "log", "tanh", "sigmoid", "sqrt", "rsqrt", "sin", "cos",
             true)
      .Default(false);
}

static bool isUnary(llvm::StringRef name) {
  return isFloatMath(name) ||
         llvm::StringSwitch<bool>(name)
             .Cases("relu", "abs", "neg", "floor", "ceil", true)
             .Default(false);
}

MaybeValue FunctionLowering::callGlobal(const std::string &path,
                                        const ast::CallExpr &call) {
  llvm::StringRef p(path);
  // Python builtins.
  if (p.consume_front("builtins.")) {
    std::string name = p.str();
    if (name == "print") {
      std::string sep = " ";
      for (const ast::Keyword &k : call.keywords) {
        auto *s = llvm::dyn_cast<ast::StrLitExpr>(k.value.get());
        if (k.name == "sep" && s)
          sep = s->value;
        else {
          error(k.range, "print() supports only a constant sep= keyword");
          return std::nullopt;
        }
      }
      std::string format;
      SmallVector<Value> args;
      for (size_t i = 0; i < call.args.size(); ++i) {
        MaybeValue v = lowerExpr(*call.args[i]);
        if (!v)
          return std::nullopt;
        if (i)
          appendPrintPiece(*this, PyValue::ofStr(sep), format, args,
                           call.range);
        if (!appendPrintPiece(*this, *v, format, args, call.args[i]->range))
          return std::nullopt;
      }
      b.create<PrintOp>(loc(call.range), b.getStringAttr(format), args);
      return PyValue::none();
    }
    if (name == "range") {
      error(call.range,
            "range() is supported only as the iterable of a for loop");
      return std::nullopt;
    }
    if (name == "len") {
      auto bound = bindArgs(CallArgs::of(call), "len", {{"obj"}}, false);
      if (!bound)
        return std::nullopt;
      MaybeValue v = lowerExpr(*(*bound)[0]);
      if (!v)
        return std::nullopt;
      if (v->kind == PyValue::Kind::Tuple)
        return PyValue::ofValue(constInt(v->elems.size(), call.range));
      if (v->isValue() && llvm::isa<ListType>(v->value.getType()))
        return PyValue::ofValue(
            b.create<ListLenOp>(loc(call.range), b.getI64Type(), v->value));
      if (v->isValue() && isTensorType(v->value.getType())) {
        if (llvm::cast<RankedTensorType>(v->value.getType()).getRank() == 0) {
          error(call.range, "len() of a 0-d tensor");
          return std::nullopt;
        }
        return PyValue::ofValue(dimValues(v->value, call.range)[0]);
      }
      error(call.range, "len() of " + describe(*v) + " is not supported");
      return std::nullopt;
    }
    if (name == "float" || name == "int" || name == "bool") {
      auto bound = bindArgs(CallArgs::of(call), name, {{"x"}}, false);
      if (!bound)
        return std::nullopt;
      MaybeValue v = lowerExpr(*(*bound)[0]);
      if (!v)
        return std::nullopt;
      Type to = name == "float" ? Type(b.getF64Type())
                : name == "int" ? Type(b.getI64Type())
                                : Type(b.getI1Type());
      if (!v->isValue() || llvm::isa<ListType>(v->value.getType())) {
        error(call.range, name + "() of " + describe(*v) + " is not supported");
        return std::nullopt;
      }
      Value x = v->value;
      if (auto tt = llvm::dyn_cast<RankedTensorType>(x.getType())) {
        if (tt.hasStaticShape() && tt.getNumElements() != 1) {
          error(call.range, "only one-element tensors can be converted to "
                            "Python scalars; got " +
                                describeType(tt));
          return std::nullopt;
        }
        return PyValue::ofValue(b.create<ItemOp>(loc(call.range), to, x));
      }
      if (name == "bool")
        return PyValue::ofValue(*toCondition(*v, *call.args[0]));
      return PyValue::ofValue(castScalar(x, to, call.range));
    }
    if (name == "min" || name == "max") {
      if (call.args.size() < 2 || !call.keywords.empty()) {
        error(call.range, name + "() takes two or more arguments here");
        return std::nullopt;
      }
      MaybeValue acc = lowerExpr(*call.args[0]);
      if (!acc)
        return std::nullopt;
      for (size_t i = 1; i < call.args.size(); ++i) {
        MaybeValue v = lowerExpr(*call.args[i]);
        if (!v)
          return std::nullopt;
        if (!acc->isValue() || !v->isValue() ||
            !isScalarType(acc->value.getType()) ||
            !isScalarType(v->value.getType())) {
          error(call.range, name + "() takes numbers; use torch." +
                                (name == "min" ? "minimum" : "maximum") +
                                " for tensors");
          return std::nullopt;
        }
        std::optional<Value> r = emitElementwise(
            name == "min" ? "kiln.minimum" : "kiln.maximum", acc->value,
            v->value, call.range, call.args[0]->range, call.args[i]->range);
        if (!r)
          return std::nullopt;
        acc = PyValue::ofValue(*r);
      }
      return acc;
    }
    if (name == "abs") {
      auto bound = bindArgs(CallArgs::of(call), "abs", {{"x"}}, false);
      if (!bound)
        return std::nullopt;
      std::optional<Value> v = lowerValue(*(*bound)[0]);
      if (!v)
        return std::nullopt;
      return PyValue::ofValue(
          b.create<AbsOp>(loc(call.range), v->getType(), *v));
    }
    error(call.func->range, "the builtin '" + name + "' is not supported");
    return std::nullopt;
  }
  // torch.nn.functional.X behaves as torch.X for the ops we know.
  if (p.consume_front("torch.nn.functional.")) {
    if (p == "relu" || p == "sigmoid" || p == "tanh") {
      auto bound = bindArgs(CallArgs::of(call), "F." + p.str(),
                            {{"input"}, {"inplace", false}}, false);
      if (!bound)
        return std::nullopt;
      MaybeValue x = lowerExpr(*(*bound)[0]);
      if (!x)
        return std::nullopt;
      return callMethod(*x, p.str(), CallArgs{call.range, {}, {}});
    }
    error(call.func->range,
          "torch.nn.functional." + p.str() + " is not supported yet");
    return std::nullopt;
  }
  if (p.consume_front("torch.")) {
    std::string name = p.str();
    // Creation functions take no tensor receiver.
    static const char *const creators[] = {"zeros", "ones",  "empty", "full",
                                           "rand",  "randn", "tensor"};
    bool isCreator = llvm::is_contained(creators, name);
    if (!isCreator && name != "stack" && name != "cat" &&
        !isKnownTensorMethod(name)) {
      if (dtypeFromGlobal(b, PyValue::global(path)))
        error(call.func->range, "'" + path + "' is a dtype, not a function");
      else
        error(call.func->range, "'" + path + "' is not supported");
      return std::nullopt;
    }
    if (!isCreator) {
      // torch.X(input, ...) is input.X(...).
      if (call.args.empty()) {
        auto kw = llvm::find_if(call.keywords, [](const ast::Keyword &k) {
          return k.name == "input" || k.name == "tensors";
        });
        if (kw == call.keywords.end()) {
          error(call.range, "torch." + name + "() needs an input tensor");
          return std::nullopt;
        }
      }
      if (name == "stack" || name == "cat") {
        auto bound = bindArgs(CallArgs::of(call), "torch." + name,
                              {{"tensors"}, {"dim", false}}, false);
        if (!bound)
          return std::nullopt;
        std::optional<Value> list = lowerTensorList(*this, *(*bound)[0]);
        if (!list)
          return std::nullopt;
        int64_t dim = 0;
        if ((*bound)[1]) {
          std::optional<int64_t> d = lowerConstInt(*(*bound)[1], "dim");
          if (!d)
            return std::nullopt;
          dim = *d;
        }
        auto et = llvm::cast<RankedTensorType>(
            llvm::cast<ListType>(list->getType()).getElementType());
        std::optional<int64_t> count = staticListLength(*list);
        SmallVector<int64_t> shape(et.getShape());
        if (name == "stack") {
          std::optional<int64_t> d =
              normalizeDim(dim, et.getRank() + 1, call.range);
          if (!d)
            return std::nullopt;
          shape.insert(shape.begin() + *d,
                       count ? *count : ShapedType::kDynamic);
          return PyValue::ofValue(b.create<StackOp>(
              loc(call.range),
              RankedTensorType::get(shape, et.getElementType()), *list,
              b.getI64IntegerAttr(*d)));
        }
        if (et.getRank() == 0) {
          error(call.range, "torch.cat needs tensors of rank 1 or more");
          return std::nullopt;
        }
        std::optional<int64_t> d = normalizeDim(dim, et.getRank(), call.range);
        if (!d)
          return std::nullopt;
        shape[*d] = count && shape[*d] != ShapedType::kDynamic
                        ? shape[*d] * *count
                        : ShapedType::kDynamic;
        return PyValue::ofValue(b.create<CatOp>(
            loc(call.range), RankedTensorType::get(shape, et.getElementType()),
            *list, b.getI64IntegerAttr(*d)));
      }
      // Move the first argument (or input=) into the receiver slot.
      CallArgs rest = CallArgs::of(call);
      const ast::Expr *selfExpr = nullptr;
      if (!rest.args.empty()) {
        selfExpr = rest.args.front();
        rest.args.erase(rest.args.begin());
      } else {
        auto kw = llvm::find_if(rest.keywords, [](const ast::Keyword *k) {
          return k->name == "input";
        });
        selfExpr = (*kw)->value.get();
        rest.keywords.erase(kw);
      }
      rest.selfRange = selfExpr->range;
      MaybeValue self = lowerExpr(*selfExpr);
      if (!self)
        return std::nullopt;
      MaybeValue r = callMethod(*self, name, rest);
      return r;
    }

    // Creation: zeros/ones/empty/rand/randn(*size, dtype=), full(size, v).
    std::vector<const ast::Expr *> sizeArgs;
    Type dtype;
    const ast::Expr *fillExpr = nullptr;
    for (const ast::Keyword &k : call.keywords) {
      if (k.name == "dtype") {
        MaybeValue d = lowerExpr(*k.value);
        if (!d)
          return std::nullopt;
        dtype = dtypeFromGlobal(b, *d);
        if (!dtype) {
          error(k.value->range, "unknown dtype " + describe(*d));
          return std::nullopt;
        }
      } else if (k.name == "fill_value" && name == "full") {
        fillExpr = k.value.get();
      } else if (k.name == "size") {
        sizeArgs.push_back(k.value.get());
      } else if (k.name == "device" || k.name == "requires_grad") {
        continue; // no effect on compiled code
      } else {
        error(k.range, "torch." + name +
                           "() got an unexpected keyword "
                           "argument '" +
                           k.name + "'");
        return std::nullopt;
      }
    }
    if (name == "tensor") {
      if (call.args.size() != 1) {
        error(call.range, "torch.tensor() takes one argument");
        return std::nullopt;
      }
      std::optional<Value> v = lowerValue(*call.args[0]);
      if (!v)
        return std::nullopt;
      if (!isScalarType(v->getType())) {
        error(call.args[0]->range, "torch.tensor() of " +
                                       describe(PyValue::ofValue(*v)) +
                                       " is not supported; pass a number");
        return std::nullopt;
      }
      Type et = dtype                  ? dtype
                : v->getType().isF64() ? Type(b.getF32Type())
                                       : v->getType();
      return PyValue::ofValue(b.create<FromScalarOp>(
          loc(call.range), RankedTensorType::get({}, et), *v));
    }
    for (size_t i = 0; i < call.args.size(); ++i) {
      if (name == "full" && i == call.args.size() - 1 && !fillExpr)
        fillExpr = call.args[i].get();
      else
        sizeArgs.push_back(call.args[i].get());
    }
    if (name == "full" && !fillExpr) {
      error(call.range, "torch.full() is missing the argument 'fill_value'");
      return std::nullopt;
    }
    std::optional<std::vector<Value>> sizes = lowerSizes(sizeArgs, call.range);
    if (!sizes)
      return std::nullopt;
    SmallVector<int64_t> shape;
    for (Value s : *sizes)
      shape.push_back(staticSize(*this, s));
    Location l = loc(call.range);
    if (name == "rand" || name == "randn") {
      Type et = dtype ? dtype : b.getF32Type();
      if (!llvm::isa<FloatType>(et)) {
        error(call.range, "torch." + name + "() needs a floating dtype");
        return std::nullopt;
      }
      auto t = RankedTensorType::get(shape, et);
      if (name == "rand")
        return PyValue::ofValue(b.create<RandOp>(l, t, *sizes));
      return PyValue::ofValue(b.create<RandnOp>(l, t, *sizes));
    }
    Value fill;
    if (name == "full") {
      std::optional<Value> f = lowerValue(*fillExpr);
      if (!f)
        return std::nullopt;
      if (!isScalarType(f->getType())) {
        error(fillExpr->range, "fill_value must be a number");
        return std::nullopt;
      }
      fill = *f;
      if (!dtype)
        dtype = fill.getType().isF64() ? Type(b.getF32Type()) : fill.getType();
    } else {
      fill = name == "ones" ? constFloat(1, call.range)
                            : constFloat(0, call.range);
    }
    Type et = dtype ? dtype : b.getF32Type();
    return PyValue::ofValue(
        b.create<FullOp>(l, RankedTensorType::get(shape, et), fill, *sizes));
  }
  error(call.func->range, "'" + path + "' is not supported");
  return std::nullopt;
}

MaybeValue FunctionLowering::callMethod(PyValue self, const std::string &name,
                                        const CallArgs &call) {
  SourceRange where = call.range;
  Location l = loc(where);
  if (self.isValue() && llvm::isa<ListType>(self.value.getType())) {
    error(where, "the list method '" + name + "' is not supported");
    return std::nullopt;
  }
  std::optional<Value> xs =
      requireTensor(self, where, "the receiver of ." + name + "()");
  if (!xs)
    return std::nullopt;
  Value x = *xs;
  auto tt = llvm::cast<RankedTensorType>(x.getType());
  int64_t rank = tt.getRank();
  std::string fn = "Tensor." + name;

  auto arg = [&](const ast::Expr *e) -> MaybeValue {
    if (!e)
      return std::nullopt;
    return lowerExpr(*e);
  };

  if (isUnary(name)) {
    auto bound = bindArgs(call, fn, {{"self"}}, true);
    if (!bound)
      return std::nullopt;
    if (isFloatMath(name) && !llvm::isa<FloatType>(tt.getElementType())) {
      x = b.create<CastOp>(
          l, RankedTensorType::get(tt.getShape(), b.getF32Type()), x);
    }
    OperationState state(l, "kiln." + name);
    state.addOperands(x);
    state.addTypes(x.getType());
    return PyValue::ofValue(b.create(state)->getResult(0));
  }

  static const std::pair<const char *, ast::BinOpKind> binaries[] = {
      {"add", ast::BinOpKind::Add},
      {"sub", ast::BinOpKind::Sub},
      {"mul", ast::BinOpKind::Mul},
      {"div", ast::BinOpKind::Div},
      {"pow", ast::BinOpKind::Pow},
      {"matmul", ast::BinOpKind::MatMul},
      {"mm", ast::BinOpKind::MatMul},
      {"floor_divide", ast::BinOpKind::FloorDiv},
      {"remainder", ast::BinOpKind::Mod}};
  for (auto &[n, op] : binaries) {
    if (name != n)
      continue;
    auto bound = bindArgs(
        call, fn, {{"self"}, {name == "pow" ? "exponent" : "other"}}, true);
    if (!bound)
      return std::nullopt;
    MaybeValue other = arg((*bound)[1]);
    if (!other)
      return std::nullopt;
    if (name == "mm") {
      bool ok =
          rank == 2 && other->isValue() &&
          isTensorType(other->value.getType()) &&
          llvm::cast<RankedTensorType>(other->value.getType()).getRank() == 2;
      if (!ok) {
        error(where, "mm() multiplies two 2-D tensors; got " + describe(self) +
                         " and " + describe(*other));
        return std::nullopt;
      }
    }
    return applyBinOp(op, self, *other, where, call.selfRange,
                      (*bound)[1]->range);
  }
  if (name == "maximum" || name == "minimum") {
    auto bound = bindArgs(call, fn, {{"self"}, {"other"}}, true);
    if (!bound)
      return std::nullopt;
    std::optional<Value> o = lowerValue(*(*bound)[1]);
    if (!o)
      return std::nullopt;
    std::optional<Value> r = emitElementwise(
        "kiln." + name, x, *o, where, call.selfRange, (*bound)[1]->range);
    return r ? MaybeValue(PyValue::ofValue(*r)) : std::nullopt;
  }
  static const std::pair<const char *, CmpPredicate> compares[] = {
      {"eq", CmpPredicate::eq}, {"ne", CmpPredicate::ne},
      {"lt", CmpPredicate::lt}, {"le", CmpPredicate::le},
      {"gt", CmpPredicate::gt}, {"ge", CmpPredicate::ge}};
  for (auto &[n, pred] : compares) {
    if (name != n)
      continue;
    auto bound = bindArgs(call, fn, {{"self"}, {"other"}}, true);
    if (!bound)
      return std::nullopt;
    std::optional<Value> o = lowerValue(*(*bound)[1]);
    if (!o)
      return std::nullopt;
    std::string why;
    Type t = inferElementwiseType(ElementwiseKind::Compare, x.getType(),
                                  o->getType(), &why);
    if (!t) {
      error(where, userMessage(why));
      return std::nullopt;
    }
    return PyValue::ofValue(b.create<CmpOp>(l, t, pred, x, *o));
  }

  // Reductions.
  if (name == "sum" || name == "mean" || name == "amax" || name == "amin" ||
      name == "var" || name == "max" || name == "min") {
    bool isVar = name == "var";
    SmallVector<BuiltinParam> params = {{"self"}, {"dim", false}};
    if (isVar)
      params.push_back({"unbiased", false});
    params.push_back({"keepdim", false});
    if (name == "sum" || name == "mean")
      params.push_back({"dtype", false});
    if (name == "max" || name == "min") {
      params = {{"self"}, {"dim", false}, {"keepdim", false}};
    }
    auto bound = bindArgs(call, fn, params, true);
    if (!bound)
      return std::nullopt;
    bool keepdim = false;
    const ast::Expr *keepExpr = (*bound)[isVar ? 3 : 2];
    if (keepExpr) {
      auto *bl = llvm::dyn_cast<ast::BoolLitExpr>(keepExpr);
      if (!bl) {
        error(keepExpr->range, "keepdim must be True or False");
        return std::nullopt;
      }
      keepdim = bl->value;
    }
    int64_t correction = 1;
    if (isVar && (*bound)[2]) {
      auto *bl = llvm::dyn_cast<ast::BoolLitExpr>((*bound)[2]);
      if (!bl) {
        error((*bound)[2]->range, "unbiased must be True or False");
        return std::nullopt;
      }
      correction = bl->value ? 1 : 0;
    }
    if ((name == "sum" || name == "mean") && (*bound)[3]) {
      error((*bound)[3]->range, "dtype= on reductions is not supported yet");
      return std::nullopt;
    }
    if ((name == "max" || name == "min") && (*bound)[1]) {
      // x.max(other) is elementwise; x.max(dim) returns (values, indices).
      MaybeValue d = lowerExpr(*(*bound)[1]);
      if (!d)
        return std::nullopt;
      if (d->isValue() && isTensorType(d->value.getType())) {
        std::optional<Value> r =
            emitElementwise(name == "max" ? "kiln.maximum" : "kiln.minimum", x,
                            d->value, where, where, (*bound)[1]->range);
        return r ? MaybeValue(PyValue::ofValue(*r)) : std::nullopt;
      }
      if (name == "min") {
        error(where, "min(dim) is not supported yet; use amin(dim)");
        return std::nullopt;
      }
      std::optional<int64_t> dim = lowerConstInt(*(*bound)[1], "dim");
      if (!dim)
        return std::nullopt;
      std::optional<int64_t> nd = normalizeDim(*dim, rank, (*bound)[1]->range);
      if (!nd)
        return std::nullopt;
      std::string why;
      Type vt = inferReduceType(tt, {*nd}, keepdim, false, &why);
      if (!vt) {
        error(where, userMessage(why));
        return std::nullopt;
      }
      auto vtt = llvm::cast<RankedTensorType>(vt);
      Type it = RankedTensorType::get(vtt.getShape(), b.getI64Type());
      auto op = b.create<MaxDimOp>(l, vt, it, x, b.getI64IntegerAttr(*nd),
                                   b.getBoolAttr(keepdim));
      return PyValue::tuple({PyValue::ofValue(op->getResult(0)),
                             PyValue::ofValue(op->getResult(1))});
    }
    SmallVector<int64_t> dims;
    if ((*bound)[1]) {
      std::optional<std::vector<int64_t>> ds =
          lowerConstInts(*(*bound)[1], "dim");
      if (!ds)
        return std::nullopt;
      for (int64_t d : *ds) {
        std::optional<int64_t> nd = normalizeDim(d, rank, (*bound)[1]->range);
        if (!nd)
          return std::nullopt;
        if (!llvm::is_contained(dims, *nd))
          dims.push_back(*nd);
      }
      llvm::sort(dims);
    }
    if ((name == "mean" || isVar) &&
        !llvm::isa<FloatType>(tt.getElementType())) {
      error(where, name + "() needs a floating tensor, got " + describe(self));
      return std::nullopt;
    }
    std::string why;
    Type rt = inferReduceType(tt, dims, keepdim, name == "sum", &why);
    if (!rt) {
      error(where, userMessage(why));
      return std::nullopt;
    }
    auto dimsAttr = b.getDenseI64ArrayAttr(dims);
    auto keepAttr = b.getBoolAttr(keepdim);
    Value r;
    if (name == "sum")
      r = b.create<SumOp>(l, rt, x, dimsAttr, keepAttr);
    else if (name == "mean")
      r = b.create<MeanOp>(l, rt, x, dimsAttr, keepAttr);
    else if (name == "amax" || name == "max")
      r = b.create<AMaxOp>(l, rt, x, dimsAttr, keepAttr);
    else if (name == "amin" || name == "min")
      r = b.create<AMinOp>(l, rt, x, dimsAttr, keepAttr);
    else
      r = b.create<VarOp>(l, rt, x, dimsAttr, keepAttr,
                          b.getI64IntegerAttr(correction));
    return PyValue::ofValue(r);
  }

  // Shape queries.
  if (name == "size") {
    auto bound = bindArgs(call, fn, {{"self"}, {"dim", false}}, true);
    if (!bound)
      return std::nullopt;
    if (!(*bound)[1]) {
      std::vector<PyValue> items;
      for (Value d : dimValues(x, where))
        items.push_back(PyValue::ofValue(d));
      return PyValue::tuple(std::move(items));
    }
    std::optional<int64_t> d = lowerConstInt(*(*bound)[1], "dim");
    if (!d)
      return std::nullopt;
    if (rank == 0) {
      error(where, "size(dim) of a 0-d tensor");
      return std::nullopt;
    }
    std::optional<int64_t> nd = normalizeDim(*d, rank, (*bound)[1]->range);
    if (!nd)
      return std::nullopt;
    if (!tt.isDynamicDim(*nd))
      return PyValue::ofValue(constInt(tt.getDimSize(*nd), where));
    return PyValue::ofValue(
        b.create<DimOp>(l, b.getI64Type(), x, b.getI64IntegerAttr(*nd)));
  }
  if (name == "dim") {
    if (!bindArgs(call, fn, {{"self"}}, true))
      return std::nullopt;
    return PyValue::ofValue(constInt(rank, where));
  }
  if (name == "numel") {
    if (!bindArgs(call, fn, {{"self"}}, true))
      return std::nullopt;
    Value n = constInt(1, where);
    for (Value d : dimValues(x, where))
      n = b.create<MulOp>(l, b.getI64Type(), n, d);
    return PyValue::ofValue(n);
  }
  if (name == "item") {
    if (!bindArgs(call, fn, {{"self"}}, true))
      return std::nullopt;
    Type et = tt.getElementType();
    Type scalar = et.isInteger(1)            ? b.getI1Type()
                  : llvm::isa<FloatType>(et) ? Type(b.getF64Type())
                                             : Type(b.getI64Type());
    if (tt.hasStaticShape() && tt.getNumElements() != 1) {
      error(where, "item() needs a one-element tensor, got " + describe(self));
      return std::nullopt;
    }
    return PyValue::ofValue(b.create<ItemOp>(l, scalar, x));
  }
  if (name == "contiguous" || name == "clone" || name == "detach") {
    if (!bindArgs(call, fn, {{"self"}}, true))
      return std::nullopt;
    return self; // values are immutable in the IR
  }

  // Casts.
  Type castTo = llvm::StringSwitch<Type>(name)
                    .Case("float", b.getF32Type())
                    .Case("double", b.getF64Type())
                    .Case("half", b.getF16Type())
                    .Case("bfloat16", b.getBF16Type())
                    .Case("int", b.getI32Type())
                    .Case("long", b.getI64Type())
                    .Case("bool", b.getI1Type())
                    .Default(Type());
  if (name == "to") {
    auto bound = bindArgs(call, fn, {{"self"}, {"dtype"}}, true);
    if (!bound)
      return std::nullopt;
    MaybeValue d = lowerExpr(*(*bound)[1]);
    if (!d)
      return std::nullopt;
    castTo = dtypeFromGlobal(b, *d);
    if (!castTo) {
      error((*bound)[1]->range,
            "to() takes a dtype such as torch.float32, got " + describe(*d));
      return std::nullopt;
    }
  } else if (castTo && !bindArgs(call, fn, {{"self"}}, true)) {
    return std::nullopt;
  }
  if (castTo) {
    if (castTo == tt.getElementType())
      return self;
    return PyValue::ofValue(
        b.create<CastOp>(l, RankedTensorType::get(tt.getShape(), castTo), x));
  }

  // Reshapes.
  if (name == "view" || name == "reshape" || name == "expand") {
    std::vector<const ast::Expr *> sizeArgs;
    for (const ast::Expr *a : call.args)
      sizeArgs.push_back(a);
    for (const ast::Keyword *k : call.keywords) {
      if (k->name != "shape" && k->name != "size") {
        error(k->range,
              fn + "() got an unexpected keyword argument '" + k->name + "'");
        return std::nullopt;
      }
      sizeArgs.push_back(k->value.get());
    }
    if (sizeArgs.empty()) {
      error(where, fn + "() needs the new shape");
      return std::nullopt;
    }
    std::optional<std::vector<Value>> sizes = lowerSizes(sizeArgs, where);
    if (!sizes)
      return std::nullopt;
    SmallVector<int64_t> shape;
    int inferred = -1;
    for (size_t i = 0; i < sizes->size(); ++i) {
      std::optional<int64_t> c = constIntValue((*sizes)[i]);
      if (c && *c == -1) {
        if (name == "expand") {
          int64_t off = static_cast<int64_t>(i) -
                        (static_cast<int64_t>(sizes->size()) - rank);
          shape.push_back(off >= 0 ? tt.getDimSize(off) : ShapedType::kDynamic);
          continue;
        }
        if (inferred >= 0) {
          error(where, "only one dimension can be inferred (-1)");
          return std::nullopt;
        }
        inferred = i;
      }
      shape.push_back(c && *c >= 0 ? *c : ShapedType::kDynamic);
    }
    if (inferred >= 0 && tt.hasStaticShape()) {
      int64_t known = 1;
      bool allStatic = true;
      for (size_t i = 0; i < shape.size(); ++i)
        if (static_cast<int>(i) != inferred) {
          if (shape[i] == ShapedType::kDynamic)
            allStatic = false;
          else
            known *= shape[i];
        }
      if (allStatic && known > 0) {
        if (tt.getNumElements() % known != 0) {
          error(where, "shape is invalid for a tensor of " +
                           std::to_string(tt.getNumElements()) + " elements");
          return std::nullopt;
        }
        shape[inferred] = tt.getNumElements() / known;
      }
    }
    auto rt = RankedTensorType::get(shape, tt.getElementType());
    if (name == "expand")
      return PyValue::ofValue(b.create<ExpandOp>(l, rt, x, *sizes));
    if (rt.hasStaticShape() && tt.hasStaticShape() &&
        rt.getNumElements() != tt.getNumElements()) {
      error(where, "cannot reshape " + describe(self) + " to " +
                       describeType(rt) + ": the element counts differ");
      return std::nullopt;
    }
    return PyValue::ofValue(b.create<ReshapeOp>(l, rt, x, *sizes));
  }
  if (name == "flatten") {
    auto bound = bindArgs(
        call, fn, {{"self"}, {"start_dim", false}, {"end_dim", false}}, true);
    if (!bound)
      return std::nullopt;
    int64_t s = 0, e = -1;
    if ((*bound)[1]) {
      auto v = lowerConstInt(*(*bound)[1], "start_dim");
      if (!v)
        return std::nullopt;
      s = *v;
    }
    if ((*bound)[2]) {
      auto v = lowerConstInt(*(*bound)[2], "end_dim");
      if (!v)
        return std::nullopt;
      e = *v;
    }
    if (rank == 0)
      return PyValue::ofValue(b.create<ReshapeOp>(
          l, RankedTensorType::get({1}, tt.getElementType()), x,
          ValueRange{constInt(1, where)}));
    auto ns = normalizeDim(s, rank, where), ne = normalizeDim(e, rank, where);
    if (!ns || !ne)
      return std::nullopt;
    std::vector<Value> dims = dimValues(x, where);
    SmallVector<Value> sizes;
    SmallVector<int64_t> shape;
    for (int64_t i = 0; i < rank;) {
      if (i == *ns) {
        Value n = dims[i];
        int64_t sn = tt.getDimSize(i);
        for (int64_t j = i + 1; j <= *ne; ++j) {
          n = b.create<MulOp>(l, b.getI64Type(), n, dims[j]);
          sn = (sn == ShapedType::kDynamic || tt.isDynamicDim(j))
                   ? ShapedType::kDynamic
                   : sn * tt.getDimSize(j);
        }
        sizes.push_back(n);
        shape.push_back(sn);
        i = *ne + 1;
      } else {
        sizes.push_back(dims[i]);
        shape.push_back(tt.getDimSize(i));
        ++i;
      }
    }
    return PyValue::ofValue(b.create<ReshapeOp>(
        l, RankedTensorType::get(shape, tt.getElementType()), x, sizes));
  }
  if (name == "unsqueeze" || name == "squeeze") {
    auto bound = bindArgs(call, fn, {{"self"}, {"dim"}}, true);
    if (!bound)
      return std::nullopt;
    std::optional<int64_t> d = lowerConstInt(*(*bound)[1], "dim");
    if (!d)
      return std::nullopt;
    SmallVector<int64_t> shape(tt.getShape());
    if (name == "unsqueeze") {
      if (*d < -(rank + 1) || *d > rank) {
        error((*bound)[1]->range,
              "unsqueeze dimension " + std::to_string(*d) +
                  " is out of range for a tensor of rank " +
                  std::to_string(rank) + " (expected " +
                  std::to_string(-(rank + 1)) + " to " + std::to_string(rank) +
                  ")");
        return std::nullopt;
      }
      std::optional<int64_t> nd = *d < 0 ? *d + rank + 1 : *d;
      shape.insert(shape.begin() + *nd, 1);
      return PyValue::ofValue(b.create<UnsqueezeOp>(
          l, RankedTensorType::get(shape, tt.getElementType()), x,
          b.getI64IntegerAttr(*nd)));
    }
    std::optional<int64_t> nd = normalizeDim(*d, rank, (*bound)[1]->range);
    if (!nd)
      return std::nullopt;
    if (rank == 0 || (shape[*nd] != 1 && shape[*nd] != ShapedType::kDynamic))
      return self; // PyTorch leaves a dim that is not 1 alone
    shape.erase(shape.begin() + *nd);
    return PyValue::ofValue(b.create<SqueezeOp>(
        l, RankedTensorType::get(shape, tt.getElementType()), x,
        b.getI64IntegerAttr(*nd)));
  }
  if (name == "transpose" || name == "t") {
    int64_t d0 = 0, d1 = 1;
    if (name == "t") {
      if (!bindArgs(call, fn, {{"self"}}, true))
        return std::nullopt;
      if (rank < 2)
        return self;
      if (rank > 2) {
        error(where,
              "t() expects a tensor of rank 2 or less, got " + describe(self));
        return std::nullopt;
      }
    } else {
      auto bound = bindArgs(call, fn, {{"self"}, {"dim0"}, {"dim1"}}, true);
      if (!bound)
        return std::nullopt;
      auto a = lowerConstInt(*(*bound)[1], "dim0");
      auto c = lowerConstInt(*(*bound)[2], "dim1");
      if (!a || !c)
        return std::nullopt;
      auto na = normalizeDim(*a, rank, (*bound)[1]->range);
      auto nc = normalizeDim(*c, rank, (*bound)[2]->range);
      if (!na || !nc)
        return std::nullopt;
      d0 = *na;
      d1 = *nc;
    }
    SmallVector<int64_t> shape(tt.getShape());
    std::swap(shape[d0], shape[d1]);
    return PyValue::ofValue(b.create<TransposeOp>(
        l, RankedTensorType::get(shape, tt.getElementType()), x,
        b.getI64IntegerAttr(d0), b.getI64IntegerAttr(d1)));
  }
  if (name == "permute") {
    std::vector<int64_t> dims;
    if (call.args.size() == 1) {
      auto ds = lowerConstInts(*call.args[0], "dims");
      if (!ds)
        return std::nullopt;
      dims = *ds;
    } else {
      for (const ast::Expr *a : call.args) {
        auto d = lowerConstInt(*a, "dims");
        if (!d)
          return std::nullopt;
        dims.push_back(*d);
      }
    }
    if (static_cast<int64_t>(dims.size()) != rank) {
      error(where, "permute() needs " + std::to_string(rank) + " dims, got " +
                       std::to_string(dims.size()));
      return std::nullopt;
    }
    SmallVector<int64_t> perm, shape;
    for (int64_t d : dims) {
      auto nd = normalizeDim(d, rank, where);
      if (!nd)
        return std::nullopt;
      if (llvm::is_contained(perm, *nd)) {
        error(where, "permute() dims repeat dimension " + std::to_string(*nd));
        return std::nullopt;
      }
      perm.push_back(*nd);
      shape.push_back(tt.getDimSize(*nd));
    }
    return PyValue::ofValue(b.create<PermuteOp>(
        l, RankedTensorType::get(shape, tt.getElementType()), x,
        b.getDenseI64ArrayAttr(perm)));
  }
  // Creation from another tensor.
  if (name == "zeros_like" || name == "ones_like" || name == "rand_like" ||
      name == "randn_like" || name == "full_like") {
    SmallVector<BuiltinParam> params = {{"self"}};
    if (name == "full_like")
      params.push_back({"fill_value"});
    params.push_back({"dtype", false});
    auto bound = bindArgs(call, "torch." + name, params, true);
    if (!bound)
      return std::nullopt;
    Type et = tt.getElementType();
    if (const ast::Expr *d = bound->back()) {
      MaybeValue dv = lowerExpr(*d);
      if (!dv)
        return std::nullopt;
      et = dtypeFromGlobal(b, *dv);
      if (!et) {
        error(d->range, "unknown dtype " + describe(*dv));
        return std::nullopt;
      }
    }
    auto rt = RankedTensorType::get(tt.getShape(), et);
    std::vector<Value> sizes = dimValues(x, where);
    if (name == "rand_like")
      return PyValue::ofValue(b.create<RandOp>(l, rt, sizes));
    if (name == "randn_like")
      return PyValue::ofValue(b.create<RandnOp>(l, rt, sizes));
    Value fill;
    if (name == "full_like") {
      std::optional<Value> f = lowerValue(*(*bound)[1]);
      if (!f)
        return std::nullopt;
      fill = *f;
    } else {
      fill = constFloat(name == "ones_like" ? 1 : 0, where);
    }
    return PyValue::ofValue(b.create<FullOp>(l, rt, fill, sizes));
  }
  error(where, "the Tensor method '" + name + "' is not supported");
  return std::nullopt;
}

} // namespace kiln
