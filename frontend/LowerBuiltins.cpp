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
#include "frontend/Suggest.h"
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
  // int(n * scale) of constants stays a constant, for sizes.
  return foldConstantScalar(b, b.create<CastOp>(loc(where), to, v));
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

MaybeValue FunctionLowering::callGlobal(const std::string &path,
                                        const ast::CallExpr &call) {
  llvm::StringRef p(path);
  if (prelude)
    if (std::optional<MaybeValue> r = lowerPreludeIntrinsic(*this, p, call))
      return *r;
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
    if (name == "getattr")
      return lowerGetattr(call);
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
    error(call.func->range, unsupportedTorchName(path, "function"));
    return std::nullopt;
  }
  // torch.nn.functional.X behaves as torch.X for the ops we know.
  if (p.consume_front("torch.nn.functional.")) {
    if (const ops::Row *row = ops::lookup(ops::Functional, p))
      return callOp(*row, ops::Functional, "F." + p.str(), std::nullopt,
                    CallArgs::of(call));
    error(call.func->range, unsupportedTorchName(path, "function"));
    return std::nullopt;
  }
  // A Python number as a 0-d tensor: traced code computes sizes so.
  if (p == "torch.ops.prim.NumToTensor")
    return callOp(*ops::lookup(ops::Torch, "tensor"), ops::Torch, path,
                  std::nullopt, CallArgs::of(call));
  if (p.consume_front("torch.ops.aten.")) {
    if (MaybeValue r; callAten(p.str(), call, r))
      return r;
    bool known = isTorchName("torch." + p.str()) ||
                 isTorchName("Tensor." + p.str()) ||
                 isTorchName("torch.nn.functional." + p.str());
    error(call.func->range,
          "'" + path + "' is " +
              (known ? "an ATen op that kiln does not support yet"
                     : "not an ATen op kiln knows") +
              "; docs/python-subset.md lists kiln's ops");
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
    if (dtypeFromGlobal(b, PyValue::global(path)))
      error(call.func->range, "'" + path + "' is a dtype, not a function");
    else
      error(call.func->range, unsupportedTorchName(path, "function"));
    return std::nullopt;
  }
  error(call.func->range, "'" + path + "' is not supported");
  return std::nullopt;
}

} // namespace kiln
