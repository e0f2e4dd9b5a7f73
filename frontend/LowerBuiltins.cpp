//===- LowerBuiltins.cpp - torch.* and Python builtins ------------------===//
//
// `torch.sum(x, 1)`, `x.sum(1)` and `x.sum(dim=1)` are one operation, so
// functions and methods share one table keyed by the PyTorch name; a method
// call passes its receiver as the first parameter. Arguments are bound the
// way Python binds them (positional, then keywords by PyTorch's parameter
// names) before any IR is built, so a wrong call is reported against the
// call site, not deep inside the lowering. Tensor methods (and the torch.X
// functions that are methods in disguise) live in LowerTensorMethods.cpp.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/OpTable.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <limits>

using namespace mlir;

namespace kiln {

static bool isTensorType(Type t) { return llvm::isa<RankedTensorType>(t); }

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
Type dtypeFromGlobal(OpBuilder &b, const PyValue &v) {
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
    // As in a list literal, sizes that differ become dynamic;
    // staticJoinedShape recovers them from the elements.
    Type t = elems[0].getType();
    for (Value e : elems) {
      Type joined = joinTypes(t, e.getType());
      if (!joined) {
        fl.error(expr.range,
                 "tensors in one list must have one dtype and rank; got " +
                     describeType(t) + " and " + describeType(e.getType()));
        return std::nullopt;
      }
      t = joined;
    }
    for (Value &e : elems)
      e = *fl.castForMerge(e, t, expr.range);
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

/// Refines `shape`, the element shape of torch.stack (`catDim` -1) or the
/// result shape of torch.cat along `catDim`, for a list literal: joining
/// its elements to one list type made sizes that differ dynamic, and the
/// elements' own types give them back. Reports sizes that can never agree.
/// Returns `shape` unchanged for a list that is not a literal.
static std::optional<SmallVector<int64_t>>
staticJoinedShape(FunctionLowering &fl, Value list, SmallVector<int64_t> shape,
                  int64_t catDim, SourceRange where) {
  auto ctor = list.getDefiningOp<ListConstructOp>();
  if (!ctor)
    return shape;
  SmallVector<RankedTensorType> parts;
  for (Value v : ctor->getOperands()) {
    if (auto cast = v.getDefiningOp<tensor::CastOp>())
      v = cast.getSource();
    parts.push_back(llvm::cast<RankedTensorType>(v.getType()));
  }
  for (int64_t i = 0; i < parts[0].getRank(); ++i) {
    int64_t size = ShapedType::kDynamic, total = 0;
    for (RankedTensorType p : parts) {
      int64_t s = p.getDimSize(i);
      if (i == catDim) {
        total = ShapedType::isDynamic(s) || ShapedType::isDynamic(total)
                    ? ShapedType::kDynamic
                    : total + s;
      } else if (!ShapedType::isDynamic(s) && !ShapedType::isDynamic(size) &&
                 s != size) {
        std::string rule =
            catDim < 0 ? std::string("stack expects tensors of one size")
                       : "cat expects tensors of one size except in "
                         "dimension " +
                             std::to_string(catDim);
        fl.error(where, rule + "; got " + describeType(parts[0]) + " and " +
                            describeType(p) + ", which differ in dimension " +
                            std::to_string(i));
        return std::nullopt;
      } else if (!ShapedType::isDynamic(s)) {
        size = s;
      }
    }
    shape[i] = i == catDim ? total : size;
  }
  return shape;
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
      // float("-inf") is how models spell infinity, e.g. to mask scores
      // before a softmax.
      if (name == "float" && v->kind == PyValue::Kind::Str) {
        std::string text = llvm::StringRef(v->str).trim().lower();
        llvm::StringRef body(text);
        bool negative = body.consume_front("-");
        if (!negative)
          body.consume_front("+");
        double d;
        if (body == "inf" || body == "infinity")
          d = std::numeric_limits<double>::infinity();
        else if (body == "nan")
          d = std::numeric_limits<double>::quiet_NaN();
        else if (body.getAsDouble(d)) {
          error(call.range,
                "could not convert string to float: '" + v->str + "'");
          return std::nullopt;
        }
        return PyValue::ofValue(constFloat(negative ? -d : d, call.range));
      }
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
  if (p.consume_front("math.")) {
    if (const ops::Row *row = ops::lookup(ops::Math, p))
      return callOp(*row, ops::Math, path, std::nullopt, CallArgs::of(call));
    error(call.func->range, "'" + path + "' is not supported");
    return std::nullopt;
  }
  // torch.nn.functional.X behaves as torch.X for the ops we know.
  if (p.consume_front("torch.nn.functional.")) {
    if (const ops::Row *row = ops::lookup(ops::Functional, p))
      return callOp(*row, ops::Functional, "F." + p.str(), std::nullopt,
                    CallArgs::of(call));
    if (isFunctionalOp(p))
      return callFunctional(p.str(), CallArgs::of(call));
    error(call.func->range,
          "torch.nn.functional." + p.str() + " is not supported yet");
    return std::nullopt;
  }
  if (p.consume_front("torch.")) {
    std::string name = p.str();
    if (name == "where" && call.args.size() == 1 && call.keywords.empty()) {
      error(call.range, "torch.where(condition) with one argument is not "
                        "supported; it returns indices of a run-time count");
      return std::nullopt;
    }
    if (const ops::Row *row = ops::lookup(ops::Torch, name))
      return callOp(*row, ops::Torch, path, std::nullopt, CallArgs::of(call));
    if (name == "arange")
      return callNNCreator(name, CallArgs::of(call));
    // Creation functions take no tensor receiver.
    static const char *const creators[] = {"zeros", "ones",  "empty", "full",
                                           "rand",  "randn", "tensor"};
    bool isCreator = llvm::is_contained(creators, name);
    if (!isCreator && name != "stack" && name != "cat") {
      if (dtypeFromGlobal(b, PyValue::global(path)))
        error(call.func->range, "'" + path + "' is a dtype, not a function");
      else
        error(call.func->range, "'" + path + "' is not supported");
      return std::nullopt;
    }
    if (!isCreator) {
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
        std::optional<SmallVector<int64_t>> shape =
            SmallVector<int64_t>(et.getShape());
        if (name == "stack") {
          std::optional<int64_t> d =
              normalizeDim(dim, et.getRank() + 1, call.range);
          if (d)
            shape = staticJoinedShape(*this, *list, *shape, -1, call.range);
          if (!d || !shape)
            return std::nullopt;
          shape->insert(shape->begin() + *d,
                        count ? *count : ShapedType::kDynamic);
          return PyValue::ofValue(b.create<StackOp>(
              loc(call.range),
              RankedTensorType::get(*shape, et.getElementType()), *list,
              b.getI64IntegerAttr(*d)));
        }
        if (et.getRank() == 0) {
          error(call.range, "torch.cat needs tensors of rank 1 or more");
          return std::nullopt;
        }
        std::optional<int64_t> d = normalizeDim(dim, et.getRank(), call.range);
        if (!d)
          return std::nullopt;
        int64_t &size = (*shape)[*d];
        size = count && size != ShapedType::kDynamic ? size * *count
                                                     : ShapedType::kDynamic;
        shape = staticJoinedShape(*this, *list, *shape, *d, call.range);
        if (!shape)
          return std::nullopt;
        return PyValue::ofValue(b.create<CatOp>(
            loc(call.range), RankedTensorType::get(*shape, et.getElementType()),
            *list, b.getI64IntegerAttr(*d)));
      }
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

} // namespace kiln
