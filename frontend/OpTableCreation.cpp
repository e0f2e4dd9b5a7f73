//===- OpTableCreation.cpp - Creation and joining builders ----------------===//
//
// The builders of frontend/prelude/creation.py's rows: tensors made from
// sizes (torch.zeros/ones/empty/full/rand/randn and the Tensor.new_*
// methods), from a number (torch.tensor), from a range (torch.arange), and
// from a list of tensors (torch.cat, torch.stack); the ones made from
// another tensor's shape (zeros_like, ...) are in OpTableTensor.cpp. Sizes
// may be run-time ints, so `torch.zeros(x.size(0), 4)` has a dynamic first
// dim. device=, layout=, pin_memory= and requires_grad= are accepted as
// PyTorch's factories take them and ignored: they change where or how
// eager PyTorch keeps the result, not its values. torch.empty is
// zero-filled, one of the values PyTorch may return.
//
//===----------------------------------------------------------------------===//
#include "frontend/OpBuilders.h"
#include "frontend/OpFamilies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;

namespace kiln::ops {

namespace {
//===--- sized creation -------------------------------------------------===//

enum class Fill { Zeros, Ones, Empty, Full, Rand, Randn };

/// The result shape of an int[] `size`: static where a size is a constant.
std::optional<SmallVector<int64_t>> shapeOf(OpArgs &a,
                                            ArrayRef<Value> sizes) {
  SmallVector<int64_t> shape;
  for (Value s : sizes) {
    std::optional<int64_t> c = a.fl.constIntValue(s);
    if (c && *c < 0) {
      a.fl.error(a.range("size"), a.spelling + "() argument 'size' must be "
                                               "non-negative, got " +
                                      std::to_string(*c));
      return std::nullopt;
    }
    shape.push_back(c ? *c : ShapedType::kDynamic);
  }
  return shape;
}

/// The dtype PyTorch gives a number: float32 for a float, else its own.
Type dtypeOfNumber(OpArgs &a, Value v) {
  return v.getType().isF64() ? Type(a.fl.b.getF32Type()) : v.getType();
}

template <Fill K> V sized(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  std::optional<std::vector<Value>> sizes = a.intValues("size");
  std::optional<SmallVector<int64_t>> shape =
      sizes ? shapeOf(a, *sizes) : std::nullopt;
  if (!shape)
    return std::nullopt;
  // Tensor.new_* keep the receiver's dtype; torch.full takes the fill's.
  bool isNew = a.row.schema().find("self") >= 0;
  Type et = a.dtype("dtype");
  if (!et)
    et = isNew             ? typeOf(self(a)).getElementType()
         : K == Fill::Full ? dtypeOfNumber(a, a.value("fill_value"))
                           : Type(fl.b.getF32Type());
  auto t = RankedTensorType::get(*shape, et);
  Location l = fl.loc(a.where);
  if (K == Fill::Rand || K == Fill::Randn) {
    if (!llvm::isa<FloatType>(et))
      return fail(a, a.where, a.spelling + "() needs a floating dtype");
    if (K == Fill::Rand)
      return fl.b.create<RandOp>(l, t, *sizes).getResult();
    return fl.b.create<RandnOp>(l, t, *sizes).getResult();
  }
  Value fill = K == Fill::Full   ? a.value("fill_value")
               : K == Fill::Ones ? fl.constFloat(1, a.where)
                                 : fl.constFloat(0, a.where);
  return fl.b.create<FullOp>(l, t, fill, *sizes).getResult();
}

V tensor(OpArgs &a) {
  Value v = a.value("data");
  Type et = a.isNone("dtype") ? dtypeOfNumber(a, v) : a.dtype("dtype");
  return a.fl.b
      .create<FromScalarOp>(a.fl.loc(a.where), RankedTensorType::get({}, et),
                            v)
      .getResult();
}

//===--- arange ---------------------------------------------------------===//

/// The compile-time value of a scalar int or float, if it is a constant.
std::optional<double> constNumber(FunctionLowering &fl, Value v) {
  if (std::optional<int64_t> i = fl.constIntValue(v))
    return static_cast<double>(*i);
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto f = llvm::dyn_cast<FloatAttr>(c.getValue()))
      return f.getValueAsDouble();
  return std::nullopt;
}

/// arange(end) and arange(start, end, step=1): the rows differ only in
/// which bounds the call gives.
V arange(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  bool hasStart = a.row.schema().find("start") >= 0;
  SmallVector<Value, 3> bounds;
  bool anyFloat = false;
  for (const char *part : {"start", "end", "step"}) {
    if (!hasStart && part != std::string("end")) {
      bounds.push_back(fl.constInt(part == std::string("step"), a.where));
      continue;
    }
    Value v = a.value(part);
    if (!v.getType().isInteger(64) && !v.getType().isF64())
      return fail(a, a.range(part),
                  a.spelling + "() argument '" + part +
                      "' must be an int or a float, got " +
                      fl.describe(PyValue::ofValue(v)));
    anyFloat |= v.getType().isF64();
    bounds.push_back(v);
  }
  Type element = a.dtype("dtype");
  if (!element)
    element = anyFloat ? Type(fl.b.getF32Type()) : Type(fl.b.getI64Type());
  if (element.isInteger(1))
    return fail(a, a.range("dtype"),
                "torch.arange() does not support dtype=torch.bool");
  // Bounds of one kind; float ones also when the result is float.
  if (anyFloat || llvm::isa<FloatType>(element))
    for (Value &v : bounds)
      v = fl.castScalar(v, fl.b.getF64Type(), a.where);
  // PyTorch's length: ceil((end - start) / step), computed in double.
  int64_t length = ShapedType::kDynamic;
  std::optional<double> start = constNumber(fl, bounds[0]);
  std::optional<double> end = constNumber(fl, bounds[1]);
  std::optional<double> step = constNumber(fl, bounds[2]);
  if (step && *step == 0)
    return fail(a, a.where, "torch.arange() step must be nonzero");
  if (start && end && step) {
    double n = std::ceil((*end - *start) / *step);
    if (n < 0)
      return fail(a, a.where,
                  "torch.arange(): upper bound and larger bound inconsistent "
                  "with step sign");
    length = static_cast<int64_t>(n);
  }
  return fl.b
      .create<ArangeOp>(fl.loc(a.where),
                        RankedTensorType::get({length}, element), bounds[0],
                        bounds[1], bounds[2])
      .getResult();
}

//===--- cat and stack --------------------------------------------------===//

/// Refines `shape`, the element shape of stack (`catDim` -1) or the result
/// shape of cat along `catDim`, for a list literal: joining its elements to
/// one list type made sizes that differ dynamic, and the elements' own
/// types give them back. Reports sizes that can never agree. Returns
/// `shape` unchanged for a list that is not a literal.
std::optional<SmallVector<int64_t>> staticJoinedShape(OpArgs &a, Value list,
                                                      SmallVector<int64_t> shape,
                                                      int64_t catDim) {
  auto ctor = list.getDefiningOp<ListConstructOp>();
  if (!ctor)
    return shape;
  SmallVector<RankedTensorType> parts;
  for (Value v : ctor->getOperands()) {
    if (auto cast = v.getDefiningOp<tensor::CastOp>())
      v = cast.getSource();
    parts.push_back(typeOf(v));
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
        std::string rule = catDim < 0 ? std::string("stack expects tensors of "
                                                    "one size")
                                      : "cat expects tensors of one size "
                                        "except in dimension " +
                                            std::to_string(catDim);
        a.fl.error(a.where, rule + "; got " + describeType(parts[0]) +
                                " and " + describeType(p) +
                                ", which differ in dimension " +
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
std::optional<int64_t> staticListLength(Value list) {
  int64_t extra = 0;
  while (auto app = list.getDefiningOp<ListAppendOp>()) {
    ++extra;
    list = app->getOperand(0);
  }
  if (auto ctor = list.getDefiningOp<ListConstructOp>())
    return ctor->getNumOperands() + extra;
  return std::nullopt;
}

template <bool Stack> V join(OpArgs &a) {
  std::optional<Value> list = a.tensorList("tensors");
  if (!list)
    return std::nullopt;
  auto et = llvm::cast<RankedTensorType>(
      llvm::cast<ListType>(list->getType()).getElementType());
  if (!Stack && et.getRank() == 0)
    return fail(a, a.range("tensors"),
                a.spelling + "() needs tensors of rank 1 or more");
  std::optional<int64_t> d = a.dim("dim", et.getRank() + (Stack ? 1 : 0));
  if (!d)
    return std::nullopt;
  std::optional<int64_t> count = staticListLength(*list);
  SmallVector<int64_t> shape(et.getShape());
  if (!Stack && (!count || ShapedType::isDynamic(shape[*d])))
    shape[*d] = ShapedType::kDynamic;
  else if (!Stack)
    shape[*d] *= *count;
  std::optional<SmallVector<int64_t>> joined =
      staticJoinedShape(a, *list, shape, Stack ? -1 : *d);
  if (!joined)
    return std::nullopt;
  Location l = a.fl.loc(a.where);
  if (Stack) {
    joined->insert(joined->begin() + *d, count ? *count : ShapedType::kDynamic);
    return a.fl.b
        .create<StackOp>(l, RankedTensorType::get(*joined, et.getElementType()),
                         *list, a.fl.b.getI64IntegerAttr(*d))
        .getResult();
  }
  return a.fl.b
      .create<CatOp>(l, RankedTensorType::get(*joined, et.getElementType()),
                     *list, a.fl.b.getI64IntegerAttr(*d))
      .getResult();
}

} // namespace

std::vector<NamedBuilder> creationBuilders() {
  return {{"zeros", sized<Fill::Zeros>}, {"ones", sized<Fill::Ones>},
          {"empty", sized<Fill::Empty>}, {"full", sized<Fill::Full>},
          {"rand", sized<Fill::Rand>},   {"randn", sized<Fill::Randn>},
          {"tensor", tensor},            {"arange", arange},
          {"cat", join<false>},          {"stack", join<true>}};
}

} // namespace kiln::ops
