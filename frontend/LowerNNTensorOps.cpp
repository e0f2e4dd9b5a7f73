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

bool isNNTensorMethod(llvm::StringRef name) {
  static const char *const methods[] = {
      "softmax", "log_softmax", "masked_fill", "triu",
      "tril",    "split",       "chunk"};
  return llvm::is_contained(methods, name);
}

/// torch.where(condition, lhs, rhs), typed with inferWhereType.
static std::optional<Value> emitWhere(FunctionLowering &fl, Value condition,
                                      Value lhs, Value rhs, SourceRange where) {
  if (!llvm::isa<RankedTensorType>(condition.getType())) {
    fl.error(where, "where() needs a bool tensor condition, got " +
                        fl.describe(PyValue::ofValue(condition)));
    return std::nullopt;
  }
  std::string why;
  Type t =
      inferWhereType(condition.getType(), lhs.getType(), rhs.getType(), &why);
  if (!t) {
    fl.error(where, fl.userMessage(why));
    return std::nullopt;
  }
  return fl.b.create<WhereOp>(fl.loc(where), t, condition, lhs, rhs)
      .getResult();
}

/// `v` as a Python scalar of the kind of `element` (bool, int or float), so
/// that mixing it with a tensor of `element` keeps that dtype.
static Value scalarLike(FunctionLowering &fl, Type element, Value v,
                        SourceRange where) {
  Type kind = element.isInteger(1)            ? fl.b.getI1Type()
              : llvm::isa<FloatType>(element) ? Type(fl.b.getF64Type())
                                              : Type(fl.b.getI64Type());
  return fl.castScalar(v, kind, where);
}

/// Slices `x` along `dim` into consecutive pieces of the given sizes.
static PyValue splitInto(FunctionLowering &fl, Value x, int64_t dim,
                         ArrayRef<int64_t> sizes, SourceRange where) {
  auto t = llvm::cast<RankedTensorType>(x.getType());
  std::vector<PyValue> pieces;
  int64_t start = 0;
  for (int64_t size : sizes) {
    SmallVector<int64_t> shape(t.getShape());
    shape[dim] = size;
    // Named bounds: argument order is unspecified; the IR must not be.
    Value first = fl.constInt(start, where);
    Value last = fl.constInt(start + size, where);
    Value step = fl.constInt(1, where);
    pieces.push_back(PyValue::ofValue(fl.b.create<SliceOp>(
        fl.loc(where), RankedTensorType::get(shape, t.getElementType()), x,
        first, last, step, dim)));
    start += size;
  }
  return PyValue::tuple(std::move(pieces));
}

static std::string listText(ArrayRef<int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

MaybeValue FunctionLowering::callNNMethod(PyValue self, const std::string &name,
                                          const CallArgs &call) {
  SourceRange where = call.range;
  Location l = loc(where);
  std::optional<Value> xs =
      requireTensor(self, where, "the receiver of ." + name + "()");
  if (!xs)
    return std::nullopt;
  Value x = *xs;
  auto tt = llvm::cast<RankedTensorType>(x.getType());
  int64_t rank = tt.getRank();
  Type element = tt.getElementType();
  std::string fn = "Tensor." + name;
  std::optional<std::vector<const ast::Expr *>> bound;
  auto bind = [&](ArrayRef<BuiltinParam> params) {
    bound = bindArgs(call, fn, params, true);
    return bound.has_value();
  };
  auto arg = [&](size_t i) { return (*bound)[i]; };
  auto wrap = [](std::optional<Value> v) -> MaybeValue {
    return v ? MaybeValue(PyValue::ofValue(*v)) : std::nullopt;
  };
  // A dim argument, normalized against the receiver's rank.
  auto dimArg = [&](size_t i, int64_t fallback) -> std::optional<int64_t> {
    std::optional<int64_t> d =
        arg(i) ? lowerConstInt(*arg(i), "dim") : fallback;
    if (!d)
      return std::nullopt;
    return normalizeDim(*d, rank, arg(i) ? arg(i)->range : where);
  };

  if (name == "softmax" || name == "log_softmax") {
    if (!bind({{"self"}, {"dim"}, {"dtype", false}}))
      return std::nullopt;
    std::optional<int64_t> dim = dimArg(1, 0);
    std::optional<Type> dtype =
        dim ? nn::lowerOptionalDtype(*this, arg(2)) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    return wrap(
        nn::emitSoftmax(*this, x, *dim, *dtype, name == "log_softmax", where));
  }

  if (name == "masked_fill") {
    if (!bind({{"self"}, {"mask"}, {"value"}}))
      return std::nullopt;
    std::optional<Value> mask = lowerValue(*arg(1));
    std::optional<Value> value = mask ? lowerValue(*arg(2)) : std::nullopt;
    if (!value)
      return std::nullopt;
    auto mt = llvm::dyn_cast<RankedTensorType>(mask->getType());
    if (!mt || !mt.getElementType().isInteger(1)) {
      error(arg(1)->range, "masked_fill() needs a bool tensor mask, got " +
                               describe(PyValue::ofValue(*mask)));
      return std::nullopt;
    }
    // The result keeps x's dtype: the value is converted to it first.
    Value fill;
    if (auto vt = llvm::dyn_cast<RankedTensorType>(value->getType())) {
      if (vt.getRank() != 0) {
        error(arg(2)->range,
              "masked_fill() takes a number or a 0-d tensor as the value, "
              "got " +
                  describe(PyValue::ofValue(*value)));
        return std::nullopt;
      }
      fill = vt.getElementType() == element
                 ? *value
                 : b.create<CastOp>(loc(arg(2)->range),
                                    RankedTensorType::get({}, element), *value)
                       .getResult();
    } else if (isScalarType(value->getType())) {
      fill = scalarLike(*this, element, *value, arg(2)->range);
    } else {
      error(arg(2)->range, "masked_fill() takes a number or a 0-d tensor as "
                           "the value, got " +
                               describe(PyValue::ofValue(*value)));
      return std::nullopt;
    }
    // The mask broadcasts to x's shape; it cannot grow x.
    std::string why;
    auto t = llvm::dyn_cast_or_null<RankedTensorType>(
        inferWhereType(mt, fill.getType(), x.getType(), &why));
    bool grows = t && t.getRank() != rank;
    for (int64_t i = 0; t && !grows && i < rank; ++i)
      grows = !tt.isDynamicDim(i) && t.getDimSize(i) != tt.getDimSize(i);
    if (!t || grows) {
      error(where, "masked_fill() mask " + describeType(mt) +
                       " does not broadcast to the shape of " +
                       describeType(tt));
      return std::nullopt;
    }
    return PyValue::ofValue(b.create<WhereOp>(l, t, *mask, fill, x));
  }

  if (name == "triu" || name == "tril") {
    if (!bind({{"self"}, {"diagonal", false}}))
      return std::nullopt;
    Value diagonal = constInt(0, where);
    if (arg(1)) {
      std::optional<Value> d = lowerValue(*arg(1));
      if (!d)
        return std::nullopt;
      if (!d->getType().isInteger(64)) {
        error(arg(1)->range,
              "diagonal must be an int, got " + describe(PyValue::ofValue(*d)));
        return std::nullopt;
      }
      diagonal = *d;
    }
    if (rank < 2) {
      error(where, name + "() needs a tensor with at least 2 dimensions, got " +
                       describe(self));
      return std::nullopt;
    }
    // Keep x[..., i, j] where j - i >= diagonal (triu) or <= diagonal
    // (tril); the (H, W) mask broadcasts over the batch dims.
    std::vector<Value> dims = dimValues(x, where);
    auto range = [&](int64_t d, int64_t insertAt) {
      auto t = RankedTensorType::get({tt.getDimSize(d)}, b.getI64Type());
      Value zero = constInt(0, where), one = constInt(1, where);
      Value r = b.create<ArangeOp>(l, t, zero, dims[d], one);
      SmallVector<int64_t> shape = {tt.getDimSize(d)};
      shape.insert(shape.begin() + insertAt, 1);
      return b.create<UnsqueezeOp>(
          l, RankedTensorType::get(shape, b.getI64Type()), r, insertAt);
    };
    // Rows first, then columns, as named locals: the order of evaluating
    // arguments is unspecified, and the IR must not depend on the compiler.
    Value rows = range(rank - 2, 1);
    Value columns = range(rank - 1, 0);
    Value offset = nn::binary(*this, "kiln.sub", columns, rows, where);
    auto pred = name == "triu" ? CmpPredicate::ge : CmpPredicate::le;
    Type maskType = withElementType(offset.getType(), b.getI1Type());
    Value mask = b.create<CmpOp>(l, maskType, pred, offset, diagonal);
    Value zero = element.isInteger(1)            ? constBool(false, where)
                 : llvm::isa<FloatType>(element) ? constFloat(0, where)
                                                 : constInt(0, where);
    return wrap(emitWhere(*this, mask, x, zero, where));
  }

  if (name == "split" || name == "chunk") {
    // Tensor.split names its size `split_size`, torch.split
    // `split_size_or_sections`.
    const char *sizeName =
        name == "chunk" ? "chunks"
        : llvm::any_of(call.keywords,
                       [](const ast::Keyword *k) {
                         return k->name == "split_size_or_sections";
                       })
            ? "split_size_or_sections"
            : "split_size";
    if (!bind({{"self"}, {sizeName}, {"dim", false}}))
      return std::nullopt;
    if (rank == 0) {
      error(where, name + "() needs a tensor with at least one dimension");
      return std::nullopt;
    }
    std::optional<int64_t> dim = dimArg(2, 0);
    MaybeValue size = dim ? lowerExpr(*arg(1)) : std::nullopt;
    if (!size)
      return std::nullopt;
    int64_t extent = tt.getDimSize(*dim);
    bool sections =
        name == "split" &&
        (size->kind == PyValue::Kind::Tuple ||
         (size->isValue() && llvm::isa<ListType>(size->value.getType())));
    std::optional<std::vector<int64_t>> c = nn::constIntsOf(*this, *size);
    if (!c) {
      error(arg(1)->range, std::string(sizeName) + " must be a constant int" +
                               (name == "split" ? " or a list of them" : "") +
                               ", got " + describe(*size));
      return std::nullopt;
    }
    if (sections) {
      int64_t total = 0;
      for (int64_t s : *c) {
        if (s < 0) {
          error(arg(1)->range,
                "split sizes must be non-negative, got " + listText(*c));
          return std::nullopt;
        }
        total += s;
      }
      if (!ShapedType::isDynamic(extent) && total != extent) {
        error(where, "split sizes " + listText(*c) + " sum to " +
                         std::to_string(total) + ", but dimension " +
                         std::to_string(*dim) + " of " + describe(self) +
                         " has size " + std::to_string(extent));
        return std::nullopt;
      }
      if (ShapedType::isDynamic(extent)) {
        // The pieces get static sizes, which hold once this check passed.
        Value actual = b.create<DimOp>(l, b.getI64Type(), x, *dim);
        Value ok = b.create<CmpOp>(l, b.getI1Type(), CmpPredicate::eq, actual,
                                   constInt(total, where));
        b.create<AssertOp>(
            l, ok,
            b.getStringAttr("split_with_sizes expects split_sizes to sum "
                            "exactly to the size of dimension " +
                            std::to_string(*dim) +
                            ", but got split_sizes=" + listText(*c)));
      }
      return splitInto(*this, x, *dim, *c, where);
    }
    int64_t n = (*c)[0];
    if (n <= 0) {
      error(arg(1)->range, std::string(sizeName) + " must be positive, got " +
                               std::to_string(n));
      return std::nullopt;
    }
    if (ShapedType::isDynamic(extent)) {
      error(where,
            name + "() of dimension " + std::to_string(*dim) +
                " needs a static size, got " + describe(self) +
                (name == "split" ? "; pass a list of sizes instead" : ""));
      return std::nullopt;
    }
    // chunk(n) is split(ceil(extent / n)), except that an empty dim still
    // gives n empty pieces.
    std::vector<int64_t> pieces;
    if (name == "chunk" && extent == 0)
      pieces.assign(n, 0);
    int64_t step = name == "chunk" ? (extent + n - 1) / n : n;
    for (int64_t start = 0; start < extent; start += step)
      pieces.push_back(std::min(step, extent - start));
    if (pieces.empty())
      pieces.push_back(0);
    return splitInto(*this, x, *dim, pieces, where);
  }

  assert(!isNNTensorMethod(name) && "every nn tensor method has a case");
  error(where, "the Tensor method '" + name + "' is not supported");
  return std::nullopt;
}

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
