//===- LowerNNTensorOps.cpp - Tensor methods and torch.X of nn models -----===//
//
// The tensor operations that nn models use beyond arithmetic: softmax,
// masked_fill, triu/tril, argmax, split/chunk, bmm and torch.arange, plus
// the helpers (LowerNNSupport.h) that LowerNNFunctional.cpp and the op
// table share. They compose existing kiln ops where they can (softmax is
// amax/sub/exp/sum/div, triu is arange, compare and where), so fusion sees
// through them.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;

namespace kiln {

//===----------------------------------------------------------------------===//
// Shared helpers (LowerNNSupport.h)
//===----------------------------------------------------------------------===//

namespace nn {

std::optional<bool> lowerConstBool(FunctionLowering &fl, const ast::Expr &e,
                                   const std::string &what) {
  MaybeValue v = fl.lowerExpr(e);
  if (!v)
    return std::nullopt;
  if (v->isValue() && v->value.getType().isInteger(1))
    if (auto c = v->value.getDefiningOp<arith::ConstantOp>())
      return llvm::cast<IntegerAttr>(c.getValue()).getValue().getBoolValue();
  fl.error(e.range, what + " must be True or False, got " + fl.describe(*v));
  return std::nullopt;
}

std::optional<double> lowerConstFloat(FunctionLowering &fl, const ast::Expr &e,
                                      const std::string &what) {
  MaybeValue v = fl.lowerExpr(e);
  if (!v)
    return std::nullopt;
  if (v->isValue())
    if (auto c = v->value.getDefiningOp<arith::ConstantOp>()) {
      if (auto f = llvm::dyn_cast<FloatAttr>(c.getValue()))
        return f.getValueAsDouble();
      if (std::optional<int64_t> i = fl.constIntValue(v->value))
        return static_cast<double>(*i);
    }
  fl.error(e.range, what + " must be a constant float, got " + fl.describe(*v));
  return std::nullopt;
}

std::optional<Value> lowerOptionalTensor(FunctionLowering &fl,
                                         const ast::Expr *e,
                                         const std::string &what) {
  if (!e)
    return Value();
  MaybeValue v = fl.lowerExpr(*e);
  if (!v)
    return std::nullopt;
  if (v->isNone())
    return Value();
  return fl.requireTensor(*v, e->range, what);
}

std::optional<Type> lowerOptionalDtype(FunctionLowering &fl,
                                       const ast::Expr *e) {
  if (!e)
    return Type();
  MaybeValue v = fl.lowerExpr(*e);
  if (!v)
    return std::nullopt;
  if (v->isNone())
    return Type();
  if (Type t = dtypeFromGlobal(fl.b, *v))
    return t;
  fl.error(e->range, "unknown dtype " + fl.describe(*v));
  return std::nullopt;
}

std::optional<std::vector<int64_t>> constIntsOf(FunctionLowering &fl,
                                                const PyValue &v) {
  std::vector<PyValue> items;
  if (v.kind == PyValue::Kind::Tuple)
    items = v.elems;
  else if (v.isValue() && llvm::isa<ListType>(v.value.getType())) {
    auto ctor = v.value.getDefiningOp<ListConstructOp>();
    if (!ctor)
      return std::nullopt;
    for (Value x : ctor->getOperands())
      items.push_back(PyValue::ofValue(x));
  } else
    items.push_back(v);
  std::vector<int64_t> out;
  for (const PyValue &item : items) {
    std::optional<int64_t> c =
        item.isValue() ? fl.constIntValue(item.value) : std::nullopt;
    if (!c)
      return std::nullopt;
    out.push_back(*c);
  }
  return out;
}

Value unary(FunctionLowering &fl, StringRef opName, Value x,
            SourceRange where) {
  OperationState state(fl.loc(where), opName);
  state.addOperands(x);
  state.addTypes(x.getType());
  return fl.b.create(state)->getResult(0);
}

Value binary(FunctionLowering &fl, StringRef opName, Value lhs, Value rhs,
             SourceRange where) {
  ElementwiseKind kind =
      opName == "kiln.div" ? ElementwiseKind::TrueDiv : ElementwiseKind::Arith;
  Type t = inferElementwiseType(kind, lhs.getType(), rhs.getType(), nullptr);
  assert(t && "callers check the operands of nn building blocks");
  OperationState state(fl.loc(where), opName);
  state.addOperands({lhs, rhs});
  state.addTypes(t);
  return fl.b.create(state)->getResult(0);
}

Value reduce(FunctionLowering &fl, StringRef opName, Value x,
             ArrayRef<int64_t> dims, bool keepdim, SourceRange where) {
  Type t = inferReduceType(x.getType(), dims, keepdim, opName == "kiln.sum",
                           nullptr);
  assert(t && "callers normalize and check reduction dims");
  OperationState state(fl.loc(where), opName);
  state.addOperands(x);
  state.addAttribute("dims", fl.b.getDenseI64ArrayAttr(dims));
  state.addAttribute("keepdim", fl.b.getBoolAttr(keepdim));
  state.addTypes(t);
  return fl.b.create(state)->getResult(0);
}

Value reshape(FunctionLowering &fl, Value x, ArrayRef<Value> sizes,
              SourceRange where) {
  SmallVector<int64_t> shape;
  for (Value s : sizes) {
    std::optional<int64_t> c = fl.constIntValue(s);
    shape.push_back(c && *c >= 0 ? *c : ShapedType::kDynamic);
  }
  Type element = llvm::cast<RankedTensorType>(x.getType()).getElementType();
  return fl.b.create<ReshapeOp>(
      fl.loc(where), RankedTensorType::get(shape, element), x, sizes);
}

std::optional<Value> emitSoftmax(FunctionLowering &fl, Value x, int64_t dim,
                                 Type dtype, bool log, SourceRange where) {
  auto t = llvm::cast<RankedTensorType>(x.getType());
  if (dtype && dtype != t.getElementType()) {
    t = RankedTensorType::get(t.getShape(), dtype);
    x = fl.b.create<CastOp>(fl.loc(where), t, x);
  }
  const char *fn = log ? "log_softmax" : "softmax";
  if (!llvm::isa<FloatType>(t.getElementType()) || t.getRank() == 0) {
    fl.error(where, std::string(fn) +
                        "() needs a float tensor with at least one "
                        "dimension, got " +
                        describeType(t));
    return std::nullopt;
  }
  // Subtracting the max keeps exp from overflowing.
  Value shifted = binary(fl, "kiln.sub", x,
                         reduce(fl, "kiln.amax", x, {dim}, true, where), where);
  Value e = unary(fl, "kiln.exp", shifted, where);
  Value sum = reduce(fl, "kiln.sum", e, {dim}, true, where);
  if (log)
    return binary(fl, "kiln.sub", shifted, unary(fl, "kiln.log", sum, where),
                  where);
  return binary(fl, "kiln.div", e, sum, where);
}

} // namespace nn

//===----------------------------------------------------------------------===//
// Tensor methods
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// torch.X with no tensor receiver
//===----------------------------------------------------------------------===//

/// The compile-time value of a scalar int or float, if it is a constant.
static std::optional<double> constNumber(FunctionLowering &fl, Value v) {
  if (std::optional<int64_t> i = fl.constIntValue(v))
    return static_cast<double>(*i);
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto f = llvm::dyn_cast<FloatAttr>(c.getValue()))
      return f.getValueAsDouble();
  return std::nullopt;
}

MaybeValue FunctionLowering::callNNCreator(const std::string &name,
                                           const CallArgs &call) {
  SourceRange where = call.range;
  std::string fn = "torch." + name;
  assert(name == "arange" && "callNNCreator handles arange");
  // arange(end), arange(start, end), arange(start, end, step): the number of
  // positional arguments decides what the first one means.
  static const char *const positions[3][3] = {
      {"end"}, {"start", "end"}, {"start", "end", "step"}};
  if (call.args.empty() || call.args.size() > 3) {
    error(where, "torch.arange() takes 1 to 3 positional arguments (" +
                     std::to_string(call.args.size()) + " given)");
    return std::nullopt;
  }
  std::map<std::string, const ast::Expr *> given;
  for (size_t i = 0; i < call.args.size(); ++i)
    given[positions[call.args.size() - 1][i]] = call.args[i];
  const ast::Expr *dtypeExpr = nullptr;
  for (const ast::Keyword *k : call.keywords) {
    if (k->name == "dtype") {
      dtypeExpr = k->value.get();
    } else if (k->name == "device" || k->name == "requires_grad") {
      continue; // no effect on compiled code
    } else if (k->name == "start" || k->name == "end" || k->name == "step") {
      if (given.count(k->name)) {
        error(k->range,
              fn + "() got multiple values for argument '" + k->name + "'");
        return std::nullopt;
      }
      given[k->name] = k->value.get();
    } else {
      error(k->range,
            fn + "() got an unexpected keyword argument '" + k->name + "'");
      return std::nullopt;
    }
  }
  SmallVector<Value, 3> bounds;
  bool anyFloat = false;
  for (const char *part : {"start", "end", "step"}) {
    auto it = given.find(part);
    if (it == given.end()) {
      bounds.push_back(constInt(part == std::string("step") ? 1 : 0, where));
      continue;
    }
    std::optional<Value> v = lowerValue(*it->second);
    if (!v)
      return std::nullopt;
    if (!v->getType().isInteger(64) && !v->getType().isF64()) {
      error(it->second->range, std::string(part) +
                                   " must be an int or a float, got " +
                                   describe(PyValue::ofValue(*v)));
      return std::nullopt;
    }
    anyFloat |= v->getType().isF64();
    bounds.push_back(*v);
  }
  std::optional<Type> dtype = nn::lowerOptionalDtype(*this, dtypeExpr);
  if (!dtype)
    return std::nullopt;
  Type element = *dtype     ? *dtype
                 : anyFloat ? Type(b.getF32Type())
                            : Type(b.getI64Type());
  if (element.isInteger(1)) {
    error(dtypeExpr->range, "torch.arange() does not support dtype=torch.bool");
    return std::nullopt;
  }
  // Bounds of one kind; float ones also when the result is float.
  if (anyFloat || llvm::isa<FloatType>(element))
    for (Value &v : bounds)
      v = castScalar(v, b.getF64Type(), where);
  // PyTorch's length: ceil((end - start) / step), computed in double.
  int64_t length = ShapedType::kDynamic;
  std::optional<double> start = constNumber(*this, bounds[0]);
  std::optional<double> end = constNumber(*this, bounds[1]);
  std::optional<double> step = constNumber(*this, bounds[2]);
  if (step && *step == 0) {
    error(where, "torch.arange() step must be nonzero");
    return std::nullopt;
  }
  if (start && end && step) {
    double n = std::ceil((*end - *start) / *step);
    if (n < 0) {
      error(where, "torch.arange(): upper bound and larger bound inconsistent "
                   "with step sign");
      return std::nullopt;
    }
    length = static_cast<int64_t>(n);
  }
  return PyValue::ofValue(
      b.create<ArangeOp>(loc(where), RankedTensorType::get({length}, element),
                         bounds[0], bounds[1], bounds[2]));
}

} // namespace kiln
