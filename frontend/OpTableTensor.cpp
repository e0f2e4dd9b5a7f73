//===- OpTableTensor.cpp - The op table's rows: the Tensor family ---------===//
//
// Reductions, shape queries, views and reshapes, casts, matmul and the
// creation ops that copy another tensor's shape (see OpFamilies.h). Each
// builder reads its bound arguments by name; dims are compile-time ints
// (the result type depends on them), sizes may be run-time ints. Result
// types come from ir/ShapeInference where the verifier checks the same
// rule, so errors point at the user's call rather than at the IR.
//
// Overloads are rows of one name tried in table order (OpBinder.cpp):
// max(), then max(dim, keepdim), then max(other), as PyTorch's schemas list
// them; an int binds the dim overload before the Tensor one, which also
// takes numbers.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/LoweringImpl.h"
#include "frontend/OpFamilies.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::ops {

namespace {
using V = std::optional<Value>;

Value self(OpArgs &a) { return a.value("self"); }
RankedTensorType typeOf(Value v) {
  return llvm::cast<RankedTensorType>(v.getType());
}
V fail(OpArgs &a, SourceRange at, const std::string &message) {
  a.fl.error(at, message);
  return std::nullopt;
}
/// l * r on i64 sizes, folded when both are constants so that static
/// shapes stay static.
Value mulSizes(OpArgs &a, Value l, Value r) {
  std::optional<int64_t> cl = a.fl.constIntValue(l), cr = a.fl.constIntValue(r);
  if (cl && cr)
    return a.fl.constInt(*cl * *cr, a.where);
  return a.fl.b.create<MulOp>(a.fl.loc(a.where), a.fl.b.getI64Type(), l, r);
}
Value castTo(OpArgs &a, Value x, Type element) {
  auto t = typeOf(x);
  if (t.getElementType() == element)
    return x;
  return a.fl.b.create<CastOp>(a.fl.loc(a.where), withElementType(t, element),
                               x);
}

//===--- reductions ---------------------------------------------------===//

/// The sorted, distinct dims of `dim` (int[]?); empty (all dims) for None
/// or [], as PyTorch reads them.
std::optional<SmallVector<int64_t>> reduceDims(OpArgs &a, int64_t rank) {
  SmallVector<int64_t> dims;
  if (a.isNone("dim"))
    return dims;
  std::optional<std::vector<int64_t>> ds = a.ints("dim");
  if (!ds)
    return std::nullopt;
  for (int64_t d : *ds) {
    std::optional<int64_t> nd = a.fl.normalizeDim(d, rank, a.range("dim"));
    if (!nd)
      return std::nullopt;
    if (!llvm::is_contained(dims, *nd))
      dims.push_back(*nd);
  }
  llvm::sort(dims);
  return dims;
}

enum class Reduce { Sum, Mean, AMax, AMin, Var, Std };

template <Reduce K> V reduce(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  // dtype= casts the input first, as PyTorch does (sum of int8 in int64).
  if (a.row.schema().find("dtype") >= 0 && !a.isNone("dtype"))
    x = castTo(a, x, a.dtype("dtype"));
  auto tt = typeOf(x);
  std::optional<SmallVector<int64_t>> dims = reduceDims(a, tt.getRank());
  std::optional<bool> keep = dims ? a.flag("keepdim") : std::nullopt;
  if (!keep)
    return std::nullopt;
  int64_t correction = 1;
  if (K == Reduce::Var || K == Reduce::Std) {
    std::optional<bool> unbiased = a.flag("unbiased");
    if (!unbiased)
      return std::nullopt;
    correction = *unbiased;
  }
  bool needsFloat = K == Reduce::Mean || K == Reduce::Var || K == Reduce::Std;
  if (needsFloat && !llvm::isa<FloatType>(tt.getElementType()))
    return fail(a, a.where,
                a.row.schema().name + "() needs a floating tensor, got " +
                    fl.describe(PyValue::ofValue(x)));
  std::string why;
  Type rt = inferReduceType(tt, *dims, *keep, K == Reduce::Sum, &why);
  if (!rt)
    return fail(a, a.where, fl.userMessage(why));
  Location l = fl.loc(a.where);
  auto dimsAttr = fl.b.getDenseI64ArrayAttr(*dims);
  auto keepAttr = fl.b.getBoolAttr(*keep);
  switch (K) {
  case Reduce::Sum:
    return fl.b.create<SumOp>(l, rt, x, dimsAttr, keepAttr).getResult();
  case Reduce::Mean:
    return fl.b.create<MeanOp>(l, rt, x, dimsAttr, keepAttr).getResult();
  case Reduce::AMax:
    return fl.b.create<AMaxOp>(l, rt, x, dimsAttr, keepAttr).getResult();
  case Reduce::AMin:
    return fl.b.create<AMinOp>(l, rt, x, dimsAttr, keepAttr).getResult();
  case Reduce::Var:
  case Reduce::Std:
    break;
  }
  Value var = fl.b.create<VarOp>(l, rt, x, dimsAttr, keepAttr,
                                 fl.b.getI64IntegerAttr(correction));
  return K == Reduce::Std ? nn::unary(fl, "kiln.sqrt", var, a.where) : var;
}

/// kiln.max_dim of `x` along `dim` (first index of equal maxima and of
/// the first NaN, as PyTorch); min is max of -x, which keeps both rules.
std::optional<std::pair<Value, Value>> maxDim(OpArgs &a, Value x, int64_t dim,
                                              bool keep, bool isMin) {
  FunctionLowering &fl = a.fl;
  if (isMin && typeOf(x).getElementType().isInteger(1)) {
    fl.error(a.where, a.spelling + "() does not support bool tensors, got " +
                          fl.describe(PyValue::ofValue(x)));
    return std::nullopt;
  }
  Value in = isMin ? nn::unary(fl, "kiln.neg", x, a.where) : x;
  std::string why;
  Type vt = inferReduceType(in.getType(), {dim}, keep, false, &why);
  if (!vt) {
    fl.error(a.where, fl.userMessage(why));
    return std::nullopt;
  }
  Type it = withElementType(vt, fl.b.getI64Type());
  auto op = fl.b.create<MaxDimOp>(fl.loc(a.where), vt, it, in, dim, keep);
  Value values = op.getResult(0);
  if (isMin)
    values = nn::unary(fl, "kiln.neg", values, a.where);
  return std::make_pair(values, op.getResult(1));
}

template <bool IsMin> V maxAll(OpArgs &a) {
  Value x = self(a);
  Type rt = inferReduceType(x.getType(), {}, false, false, nullptr);
  Location l = a.fl.loc(a.where);
  auto dims = a.fl.b.getDenseI64ArrayAttr({});
  auto keep = a.fl.b.getBoolAttr(false);
  if (IsMin)
    return a.fl.b.create<AMinOp>(l, rt, x, dims, keep).getResult();
  return a.fl.b.create<AMaxOp>(l, rt, x, dims, keep).getResult();
}

template <bool IsMin> V maxAlongDim(OpArgs &a) {
  Value x = self(a);
  std::optional<int64_t> dim = a.dim("dim", typeOf(x).getRank());
  std::optional<bool> keep = dim ? a.flag("keepdim") : std::nullopt;
  auto r = keep ? maxDim(a, x, *dim, *keep, IsMin) : std::nullopt;
  if (!r)
    return std::nullopt;
  a.tupleResult =
      PyValue::tuple({PyValue::ofValue(r->first), PyValue::ofValue(r->second)});
  return r->first;
}

template <bool IsMin> V maxOther(OpArgs &a) {
  return a.fl.emitElementwise(IsMin ? "kiln.minimum" : "kiln.maximum", self(a),
                              a.value("other"), a.where, a.range("self"),
                              a.range("other"));
}

template <bool IsMin> V argMax(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  auto tt = typeOf(x);
  int64_t rank = tt.getRank();
  std::optional<bool> keepdim = a.flag("keepdim");
  if (!keepdim)
    return std::nullopt;
  if (tt.getElementType().isInteger(1))
    return fail(a, a.where,
                a.row.schema().name + "() does not support bool tensors, got " +
                    fl.describe(PyValue::ofValue(x)));
  bool hasDim = !a.isNone("dim");
  std::optional<int64_t> dim = hasDim ? a.dim("dim", rank) : 0;
  if (!dim)
    return std::nullopt;
  // With no dim, or on a 0-d tensor, it runs over x flattened.
  Value input = x;
  bool flatten = !hasDim || rank == 0;
  if (flatten) {
    std::vector<Value> dims = fl.dimValues(x, a.where);
    Value n = dims.empty() ? fl.constInt(1, a.where) : dims[0];
    for (size_t i = 1; i < dims.size(); ++i)
      n = nn::binary(fl, "kiln.mul", n, dims[i], a.where);
    input = nn::reshape(fl, x, {n}, a.where);
  }
  bool keep = *keepdim && !flatten;
  auto r = maxDim(a, input, *dim, keep, IsMin);
  if (!r)
    return std::nullopt;
  Value indices = r->second;
  if (flatten && *keepdim && rank > 0)
    indices = nn::reshape(
        fl, indices, SmallVector<Value>(rank, fl.constInt(1, a.where)),
        a.where);
  return indices;
}

//===--- shape queries and identities -----------------------------------===//

V sizeAll(OpArgs &a) {
  std::vector<PyValue> items;
  for (Value d : a.fl.dimValues(self(a), a.where))
    items.push_back(PyValue::ofValue(d));
  a.tupleResult = PyValue::tuple(std::move(items));
  return self(a);
}

V sizeDim(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  if (tt.getRank() == 0)
    return fail(a, a.where, "size(dim) of a 0-d tensor");
  std::optional<int64_t> nd = a.dim("dim", tt.getRank());
  if (!nd)
    return std::nullopt;
  return a.fl.dimValues(x, a.where)[*nd];
}

V dimRow(OpArgs &a) {
  return a.fl.constInt(typeOf(self(a)).getRank(), a.where);
}

V numel(OpArgs &a) {
  Value n = a.fl.constInt(1, a.where);
  for (Value d : a.fl.dimValues(self(a), a.where))
    n = mulSizes(a, n, d);
  return n;
}

V item(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  Type et = tt.getElementType();
  OpBuilder &b = a.fl.b;
  Type scalar = et.isInteger(1)            ? b.getI1Type()
                : llvm::isa<FloatType>(et) ? Type(b.getF64Type())
                                           : Type(b.getI64Type());
  if (tt.hasStaticShape() && tt.getNumElements() != 1)
    return fail(a, a.where,
                "item() needs a one-element tensor, got " +
                    a.fl.describe(PyValue::ofValue(x)));
  return b.create<ItemOp>(a.fl.loc(a.where), scalar, x).getResult();
}

/// contiguous, clone, detach: values are immutable in the IR.
V identity(OpArgs &a) { return self(a); }

//===--- casts ----------------------------------------------------------===//

template <Type (*Element)(OpBuilder &)> V castRow(OpArgs &a) {
  return castTo(a, self(a), Element(a.fl.b));
}
Type f32(OpBuilder &b) { return b.getF32Type(); }
Type f64(OpBuilder &b) { return b.getF64Type(); }
Type f16(OpBuilder &b) { return b.getF16Type(); }
Type bf16(OpBuilder &b) { return b.getBF16Type(); }
Type i32(OpBuilder &b) { return b.getI32Type(); }
Type i64(OpBuilder &b) { return b.getI64Type(); }
Type i1(OpBuilder &b) { return b.getI1Type(); }

V toDtype(OpArgs &a) {
  if (a.isNone("dtype"))
    return self(a);
  return castTo(a, self(a), a.dtype("dtype"));
}
V toOther(OpArgs &a) {
  return castTo(a, self(a), typeOf(a.value("other")).getElementType());
}

//===--- views and reshapes ---------------------------------------------===//

/// view/reshape to `sizes`, with at most one -1 inferred from a static
/// element count.
V reshapeTo(OpArgs &a, Value x, ArrayRef<Value> sizes) {
  FunctionLowering &fl = a.fl;
  auto tt = typeOf(x);
  SmallVector<int64_t> shape;
  int inferred = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::optional<int64_t> c = fl.constIntValue(sizes[i]);
    if (c && *c == -1) {
      if (inferred >= 0)
        return fail(a, a.where, "only one dimension can be inferred (-1)");
      inferred = i;
    }
    shape.push_back(c && *c >= 0 ? *c : ShapedType::kDynamic);
  }
  if (inferred >= 0 && tt.hasStaticShape()) {
    int64_t known = 1;
    bool allStatic = true;
    for (size_t i = 0; i < shape.size(); ++i)
      if (static_cast<int>(i) != inferred) {
        allStatic &= shape[i] != ShapedType::kDynamic;
        known *= shape[i] == ShapedType::kDynamic ? 1 : shape[i];
      }
    if (allStatic && known > 0) {
      if (tt.getNumElements() % known != 0)
        return fail(a, a.where,
                    "shape is invalid for a tensor of " +
                        std::to_string(tt.getNumElements()) + " elements");
      shape[inferred] = tt.getNumElements() / known;
    }
  }
  auto rt = RankedTensorType::get(shape, tt.getElementType());
  if (rt.hasStaticShape() && tt.hasStaticShape() &&
      rt.getNumElements() != tt.getNumElements())
    return fail(a, a.where,
                "cannot reshape " + fl.describe(PyValue::ofValue(x)) + " to " +
                    describeType(rt) + ": the element counts differ");
  return fl.b.create<ReshapeOp>(fl.loc(a.where), rt, x, sizes).getResult();
}

V reshapeRow(OpArgs &a) {
  const std::string &param = a.row.schema().params[1].name;
  std::optional<std::vector<Value>> sizes = a.intValues(param);
  if (!sizes)
    return std::nullopt;
  return reshapeTo(a, self(a), *sizes);
}

V expand(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  std::optional<std::vector<Value>> sizes = a.intValues("size");
  if (!sizes)
    return std::nullopt;
  int64_t lead = static_cast<int64_t>(sizes->size()) - tt.getRank();
  if (lead < 0)
    return fail(a, a.where,
                "expand() needs at least " + std::to_string(tt.getRank()) +
                    " sizes for " + a.fl.describe(PyValue::ofValue(x)));
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < sizes->size(); ++i) {
    std::optional<int64_t> c = a.fl.constIntValue((*sizes)[i]);
    int64_t off = static_cast<int64_t>(i) - lead;
    if (c && *c == -1)
      shape.push_back(off >= 0 ? tt.getDimSize(off) : ShapedType::kDynamic);
    else
      shape.push_back(c && *c >= 0 ? *c : ShapedType::kDynamic);
  }
  auto rt = RankedTensorType::get(shape, tt.getElementType());
  return a.fl.b.create<ExpandOp>(a.fl.loc(a.where), rt, x, *sizes)
      .getResult();
}

V expandAs(OpArgs &a) {
  Value x = self(a), other = a.value("other");
  auto rt = RankedTensorType::get(typeOf(other).getShape(),
                                  typeOf(x).getElementType());
  return a.fl.b
      .create<ExpandOp>(a.fl.loc(a.where), rt, x,
                        a.fl.dimValues(other, a.where))
      .getResult();
}

V flatten(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  auto tt = typeOf(x);
  int64_t rank = tt.getRank();
  if (rank == 0)
    return reshapeTo(a, x, {fl.constInt(1, a.where)});
  std::optional<int64_t> s = a.dim("start_dim", rank);
  std::optional<int64_t> e = s ? a.dim("end_dim", rank) : std::nullopt;
  if (!e)
    return std::nullopt;
  if (*s > *e)
    return fail(a, a.where, "flatten() has start_dim after end_dim");
  std::vector<Value> dims = fl.dimValues(x, a.where);
  SmallVector<Value> sizes(dims.begin(), dims.begin() + *s);
  Value n = dims[*s];
  for (int64_t j = *s + 1; j <= *e; ++j)
    n = mulSizes(a, n, dims[j]);
  sizes.push_back(n);
  sizes.append(dims.begin() + *e + 1, dims.end());
  return reshapeTo(a, x, sizes);
}

V unflatten(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  int64_t rank = typeOf(x).getRank();
  std::optional<int64_t> d = a.dim("dim", rank);
  std::optional<std::vector<Value>> parts =
      d ? a.intValues("sizes") : std::nullopt;
  if (!parts)
    return std::nullopt;
  std::vector<Value> dims = fl.dimValues(x, a.where);
  // A -1 among the sizes is the dim's size over the others', at run time
  // when the dim is dynamic.
  Value known = fl.constInt(1, a.where);
  int inferred = -1;
  for (size_t i = 0; i < parts->size(); ++i) {
    std::optional<int64_t> c = fl.constIntValue((*parts)[i]);
    if (c && *c == -1)
      inferred = i;
    else
      known = mulSizes(a, known, (*parts)[i]);
  }
  if (inferred >= 0) {
    std::optional<int64_t> total = fl.constIntValue(dims[*d]);
    std::optional<int64_t> k = fl.constIntValue(known);
    (*parts)[inferred] =
        total && k && *k > 0
            ? fl.constInt(*total / *k, a.where)
            : fl.b.create<FloorDivOp>(fl.loc(a.where), fl.b.getI64Type(),
                                      dims[*d], known)
                  .getResult();
  }
  SmallVector<Value> sizes(dims.begin(), dims.begin() + *d);
  sizes.append(parts->begin(), parts->end());
  sizes.append(dims.begin() + *d + 1, dims.end());
  return reshapeTo(a, x, sizes);
}

V unsqueeze(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  int64_t rank = tt.getRank();
  std::optional<int64_t> d = a.constInt("dim");
  if (!d)
    return std::nullopt;
  if (*d < -(rank + 1) || *d > rank)
    return fail(a, a.range("dim"),
                "unsqueeze dimension " + std::to_string(*d) +
                    " is out of range for a tensor of rank " +
                    std::to_string(rank) + " (expected " +
                    std::to_string(-(rank + 1)) + " to " +
                    std::to_string(rank) + ")");
  int64_t nd = *d < 0 ? *d + rank + 1 : *d;
  SmallVector<int64_t> shape(tt.getShape());
  shape.insert(shape.begin() + nd, 1);
  return a.fl.b
      .create<UnsqueezeOp>(a.fl.loc(a.where),
                           RankedTensorType::get(shape, tt.getElementType()), x,
                           a.fl.b.getI64IntegerAttr(nd))
      .getResult();
}

Value squeezeDim(OpArgs &a, Value x, int64_t d) {
  auto tt = typeOf(x);
  SmallVector<int64_t> shape(tt.getShape());
  shape.erase(shape.begin() + d);
  return a.fl.b.create<SqueezeOp>(
      a.fl.loc(a.where), RankedTensorType::get(shape, tt.getElementType()), x,
      a.fl.b.getI64IntegerAttr(d));
}

V squeezeAll(OpArgs &a) {
  // Only the dims known to be 1: a dynamic dim keeps the rank static.
  Value x = self(a);
  for (int64_t d = typeOf(x).getRank() - 1; d >= 0; --d)
    if (typeOf(x).getDimSize(d) == 1)
      x = squeezeDim(a, x, d);
  return x;
}

V squeezeOne(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  std::optional<int64_t> nd = a.dim("dim", tt.getRank());
  if (!nd)
    return std::nullopt;
  int64_t size = tt.getRank() ? tt.getDimSize(*nd) : 0;
  if (tt.getRank() == 0 || (size != 1 && size != ShapedType::kDynamic))
    return x; // PyTorch leaves a dim that is not 1 alone
  return squeezeDim(a, x, *nd);
}

Value transposeDims(OpArgs &a, Value x, int64_t d0, int64_t d1) {
  auto tt = typeOf(x);
  SmallVector<int64_t> shape(tt.getShape());
  std::swap(shape[d0], shape[d1]);
  return a.fl.b.create<TransposeOp>(
      a.fl.loc(a.where), RankedTensorType::get(shape, tt.getElementType()), x,
      a.fl.b.getI64IntegerAttr(d0), a.fl.b.getI64IntegerAttr(d1));
}

V transpose(OpArgs &a) {
  int64_t rank = typeOf(self(a)).getRank();
  std::optional<int64_t> d0 = a.dim("dim0", rank);
  std::optional<int64_t> d1 = d0 ? a.dim("dim1", rank) : std::nullopt;
  if (!d1)
    return std::nullopt;
  return transposeDims(a, self(a), *d0, *d1);
}

V t(OpArgs &a) {
  Value x = self(a);
  int64_t rank = typeOf(x).getRank();
  if (rank > 2)
    return fail(a, a.where,
                "t() expects a tensor of rank 2 or less, got " +
                    a.fl.describe(PyValue::ofValue(x)));
  return rank < 2 ? x : transposeDims(a, x, 0, 1);
}

V permute(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  int64_t rank = tt.getRank();
  std::optional<std::vector<int64_t>> dims = a.ints("dims");
  if (!dims)
    return std::nullopt;
  if (static_cast<int64_t>(dims->size()) != rank)
    return fail(a, a.where,
                "permute() needs " + std::to_string(rank) + " dims, got " +
                    std::to_string(dims->size()));
  SmallVector<int64_t> perm, shape;
  for (int64_t d : *dims) {
    std::optional<int64_t> nd = a.fl.normalizeDim(d, rank, a.range("dims"));
    if (!nd)
      return std::nullopt;
    if (llvm::is_contained(perm, *nd))
      return fail(a, a.where,
                  "permute() dims repeat dimension " + std::to_string(*nd));
    perm.push_back(*nd);
    shape.push_back(tt.getDimSize(*nd));
  }
  return a.fl.b
      .create<PermuteOp>(a.fl.loc(a.where),
                         RankedTensorType::get(shape, tt.getElementType()), x,
                         a.fl.b.getDenseI64ArrayAttr(perm))
      .getResult();
}

//===--- masked_fill, triu/tril -----------------------------------------===//

V maskedFill(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a), mask = a.value("mask"), value = a.value("value");
  auto tt = typeOf(x);
  Type element = tt.getElementType();
  auto mt = llvm::dyn_cast<RankedTensorType>(mask.getType());
  if (!mt || !mt.getElementType().isInteger(1))
    return fail(a, a.range("mask"),
                "masked_fill() needs a bool tensor mask, got " +
                    fl.describe(PyValue::ofValue(mask)));
  // The result keeps x's dtype: the value is converted to it first.
  Value fill;
  if (auto vt = llvm::dyn_cast<RankedTensorType>(value.getType())) {
    if (vt.getRank() != 0)
      return fail(a, a.range("value"),
                  "masked_fill() takes a number or a 0-d tensor as the "
                  "value, got " +
                      fl.describe(PyValue::ofValue(value)));
    fill = castTo(a, value, element);
  } else {
    Type kind = element.isInteger(1)            ? fl.b.getI1Type()
                : llvm::isa<FloatType>(element) ? Type(fl.b.getF64Type())
                                                : Type(fl.b.getI64Type());
    fill = fl.castScalar(value, kind, a.range("value"));
  }
  // The mask broadcasts to x's shape; it cannot grow x.
  std::string why;
  auto t = llvm::dyn_cast_or_null<RankedTensorType>(
      inferWhereType(mt, fill.getType(), x.getType(), &why));
  bool grows = t && t.getRank() != tt.getRank();
  for (int64_t i = 0; t && !grows && i < tt.getRank(); ++i)
    grows = !tt.isDynamicDim(i) && t.getDimSize(i) != tt.getDimSize(i);
  if (!t || grows)
    return fail(a, a.where,
                "masked_fill() mask " + describeType(mt) +
                    " does not broadcast to the shape of " + describeType(tt));
  return fl.b.create<WhereOp>(fl.loc(a.where), t, mask, fill, x).getResult();
}

/// Keeps x[..., i, j] where j - i >= diagonal (triu) or <= diagonal
/// (tril); the (H, W) mask broadcasts over the batch dims.
template <bool Upper> V triangle(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  auto tt = typeOf(x);
  int64_t rank = tt.getRank();
  if (rank < 2)
    return fail(a, a.where,
                a.row.schema().name +
                    "() needs a tensor with at least 2 dimensions, got " +
                    fl.describe(PyValue::ofValue(x)));
  Location l = fl.loc(a.where);
  std::vector<Value> dims = fl.dimValues(x, a.where);
  auto range = [&](int64_t d, int64_t insertAt) {
    auto t = RankedTensorType::get({tt.getDimSize(d)}, fl.b.getI64Type());
    Value zero = fl.constInt(0, a.where), one = fl.constInt(1, a.where);
    Value r = fl.b.create<ArangeOp>(l, t, zero, dims[d], one);
    SmallVector<int64_t> shape = {tt.getDimSize(d)};
    shape.insert(shape.begin() + insertAt, 1);
    return fl.b.create<UnsqueezeOp>(
        l, RankedTensorType::get(shape, fl.b.getI64Type()), r, insertAt);
  };
  // Rows first, then columns, as named locals: the order of evaluating
  // arguments is unspecified, and the IR must not depend on the compiler.
  Value rows = range(rank - 2, 1);
  Value columns = range(rank - 1, 0);
  Value offset = nn::binary(fl, "kiln.sub", columns, rows, a.where);
  auto pred = Upper ? CmpPredicate::ge : CmpPredicate::le;
  Type maskType = withElementType(offset.getType(), fl.b.getI1Type());
  Value mask =
      fl.b.create<CmpOp>(l, maskType, pred, offset, a.value("diagonal"));
  Type element = tt.getElementType();
  Value zero = element.isInteger(1)            ? fl.constBool(false, a.where)
               : llvm::isa<FloatType>(element) ? fl.constFloat(0, a.where)
                                               : fl.constInt(0, a.where);
  Type rt = inferWhereType(maskType, x.getType(), zero.getType(), nullptr);
  return fl.b.create<WhereOp>(l, rt, mask, x, zero).getResult();
}

//===--- split, chunk, unbind -------------------------------------------===//

std::string listText(ArrayRef<int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

/// Slices x along `dim` at the given [start, end) bounds (i64 values).
PyValue slices(OpArgs &a, Value x, int64_t dim,
               ArrayRef<std::pair<Value, Value>> bounds) {
  FunctionLowering &fl = a.fl;
  auto t = typeOf(x);
  std::vector<PyValue> pieces;
  for (auto [start, end] : bounds) {
    SmallVector<int64_t> shape(t.getShape());
    std::optional<int64_t> s = fl.constIntValue(start),
                           e = fl.constIntValue(end);
    shape[dim] = s && e ? *e - *s : ShapedType::kDynamic;
    Value step = fl.constInt(1, a.where);
    pieces.push_back(PyValue::ofValue(fl.b.create<SliceOp>(
        fl.loc(a.where), RankedTensorType::get(shape, t.getElementType()), x,
        start, end, step, dim)));
  }
  return PyValue::tuple(std::move(pieces));
}

/// Static pieces of the given sizes.
PyValue splitInto(OpArgs &a, Value x, int64_t dim, ArrayRef<int64_t> sizes) {
  std::vector<std::pair<Value, Value>> bounds;
  int64_t start = 0;
  for (int64_t size : sizes) {
    // Named bounds: argument order is unspecified; the IR must not be.
    Value first = a.fl.constInt(start, a.where);
    Value last = a.fl.constInt(start + size, a.where);
    bounds.push_back({first, last});
    start += size;
  }
  return slices(a, x, dim, bounds);
}

V splitSections(OpArgs &a, Value x, int64_t dim, ArrayRef<int64_t> sizes,
                SourceRange at) {
  FunctionLowering &fl = a.fl;
  int64_t extent = typeOf(x).getDimSize(dim), total = 0;
  for (int64_t s : sizes) {
    if (s < 0)
      return fail(a, at,
                  "split sizes must be non-negative, got " + listText(sizes));
    total += s;
  }
  if (!ShapedType::isDynamic(extent) && total != extent)
    return fail(a, a.where,
                "split sizes " + listText(sizes) + " sum to " +
                    std::to_string(total) + ", but dimension " +
                    std::to_string(dim) + " of " +
                    fl.describe(PyValue::ofValue(x)) + " has size " +
                    std::to_string(extent));
  if (ShapedType::isDynamic(extent)) {
    // The pieces get static sizes, which hold once this check passed.
    Location l = fl.loc(a.where);
    Value actual = fl.b.create<DimOp>(l, fl.b.getI64Type(), x, dim);
    Value ok = fl.b.create<CmpOp>(l, fl.b.getI1Type(), CmpPredicate::eq,
                                  actual, fl.constInt(total, a.where));
    fl.b.create<AssertOp>(
        l, ok,
        fl.b.getStringAttr("split_with_sizes expects split_sizes to sum "
                           "exactly to the size of dimension " +
                           std::to_string(dim) +
                           ", but got split_sizes=" + listText(sizes)));
  }
  a.tupleResult = splitInto(a, x, dim, sizes);
  return x;
}

V split(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  const std::string &sizeName = a.row.schema().params[1].name;
  if (tt.getRank() == 0)
    return fail(a, a.where,
                "split() needs a tensor with at least one dimension");
  std::optional<int64_t> dim = a.dim("dim", tt.getRank());
  std::optional<std::vector<int64_t>> c =
      dim ? a.ints(sizeName) : std::nullopt;
  if (!c)
    return std::nullopt;
  const PyValue &size = a.arg(sizeName).value;
  if (size.kind == PyValue::Kind::Tuple ||
      (size.isValue() && llvm::isa<ListType>(size.value.getType())))
    return splitSections(a, x, *dim, *c, a.range(sizeName));
  int64_t n = (*c)[0], extent = tt.getDimSize(*dim);
  if (n <= 0)
    return fail(a, a.range(sizeName),
                sizeName + " must be positive, got " + std::to_string(n));
  // split(size) has ceil(extent / size) pieces: a dynamic count.
  if (ShapedType::isDynamic(extent))
    return fail(a, a.where,
                "split() of dimension " + std::to_string(*dim) +
                    " needs a static size, got " +
                    a.fl.describe(PyValue::ofValue(x)) +
                    "; pass a list of sizes instead");
  std::vector<int64_t> pieces;
  for (int64_t start = 0; start < extent; start += n)
    pieces.push_back(std::min(n, extent - start));
  if (pieces.empty())
    pieces.push_back(0);
  a.tupleResult = splitInto(a, x, *dim, pieces);
  return x;
}

/// chunk(n) on a dynamic dim: n pieces of ceil(extent / n), computed at
/// run time; PyTorch gives fewer pieces when the last ones would be empty,
/// so that case is a run-time error rather than a different tuple.
PyValue dynamicChunks(OpArgs &a, Value x, int64_t dim, int64_t n) {
  FunctionLowering &fl = a.fl;
  Location l = fl.loc(a.where);
  Type i64 = fl.b.getI64Type();
  Value extent = fl.dimValues(x, a.where)[dim];
  Value nm1 = fl.constInt(n - 1, a.where), nv = fl.constInt(n, a.where);
  Value step = fl.b.create<FloorDivOp>(
      l, i64, fl.b.create<AddOp>(l, i64, extent, nm1), nv);
  Value lastStart = fl.b.create<MulOp>(l, i64, step, nm1);
  Value zero = fl.constInt(0, a.where);
  Value full = fl.b.create<CmpOp>(l, fl.b.getI1Type(), CmpPredicate::lt,
                                  lastStart, extent);
  Value empty = fl.b.create<CmpOp>(l, fl.b.getI1Type(), CmpPredicate::eq,
                                   extent, zero);
  Value ok = fl.b.create<BitOrOp>(l, fl.b.getI1Type(), full, empty);
  fl.b.create<AssertOp>(
      l, ok,
      fl.b.getStringAttr("chunk(" + std::to_string(n) + ") of dimension " +
                         std::to_string(dim) +
                         " gives fewer pieces for this size, as PyTorch "
                         "would; kiln needs exactly " +
                         std::to_string(n)));
  std::vector<std::pair<Value, Value>> bounds;
  for (int64_t i = 0; i < n; ++i) {
    Value start = fl.b.create<MinimumOp>(
        l, i64, fl.b.create<MulOp>(l, i64, step, fl.constInt(i, a.where)),
        extent);
    Value end = fl.b.create<MinimumOp>(
        l, i64,
        fl.b.create<MulOp>(l, i64, step, fl.constInt(i + 1, a.where)), extent);
    bounds.push_back({start, end});
  }
  return slices(a, x, dim, bounds);
}

V chunk(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  if (tt.getRank() == 0)
    return fail(a, a.where,
                "chunk() needs a tensor with at least one dimension");
  std::optional<int64_t> dim = a.dim("dim", tt.getRank());
  std::optional<int64_t> n = dim ? a.constInt("chunks") : std::nullopt;
  if (!n)
    return std::nullopt;
  if (*n <= 0)
    return fail(a, a.range("chunks"),
                "chunks must be positive, got " + std::to_string(*n));
  int64_t extent = tt.getDimSize(*dim);
  if (ShapedType::isDynamic(extent)) {
    a.tupleResult = dynamicChunks(a, x, *dim, *n);
    return x;
  }
  // chunk(n) is split(ceil(extent / n)), except that an empty dim still
  // gives n empty pieces.
  std::vector<int64_t> pieces;
  if (extent == 0)
    pieces.assign(*n, 0);
  int64_t step = (extent + *n - 1) / *n;
  for (int64_t start = 0; start < extent; start += step)
    pieces.push_back(std::min(step, extent - start));
  a.tupleResult = splitInto(a, x, *dim, pieces);
  return x;
}

V unbind(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  if (tt.getRank() == 0)
    return fail(a, a.where, "unbind() needs a tensor with at least one "
                            "dimension");
  std::optional<int64_t> dim = a.dim("dim", tt.getRank());
  if (!dim)
    return std::nullopt;
  int64_t extent = tt.getDimSize(*dim);
  if (ShapedType::isDynamic(extent))
    return fail(a, a.where,
                "unbind() of dimension " + std::to_string(*dim) +
                    " needs a static size, got " +
                    a.fl.describe(PyValue::ofValue(x)));
  PyValue pieces = splitInto(a, x, *dim, std::vector<int64_t>(extent, 1));
  for (PyValue &p : pieces.elems)
    p = PyValue::ofValue(squeezeDim(a, p.value, *dim));
  a.tupleResult = pieces;
  return x;
}

//===--- matmul ---------------------------------------------------------===//

V matmul(OpArgs &a) {
  MaybeValue r = a.fl.applyBinOp(ast::BinOpKind::MatMul, a.args[0].value,
                                 a.args[1].value, a.where, a.args[0].range,
                                 a.args[1].range);
  return r ? V(r->value) : std::nullopt;
}

template <int Rank> V mmRow(OpArgs &a) {
  Value x = self(a), y = a.value("mat2");
  if (typeOf(x).getRank() != Rank || typeOf(y).getRank() != Rank)
    return fail(a, a.where,
                a.row.schema().name + "() multiplies two " +
                    std::to_string(Rank) + "-D tensors; got " +
                    a.fl.describe(PyValue::ofValue(x)) + " and " +
                    a.fl.describe(PyValue::ofValue(y)));
  // Unlike matmul, bmm does not broadcast the batch dim.
  int64_t b0 = typeOf(x).getDimSize(0), b1 = typeOf(y).getDimSize(0);
  if (Rank == 3 && !ShapedType::isDynamic(b0) && !ShapedType::isDynamic(b1) &&
      b0 != b1)
    return fail(a, a.where,
                "bmm() batch sizes differ: " +
                    a.fl.describe(PyValue::ofValue(x)) + " and " +
                    a.fl.describe(PyValue::ofValue(y)));
  return matmul(a);
}

//===--- creation from another tensor -----------------------------------===//

enum class Like { Zeros, Ones, Full, Rand, Randn };

template <Like K> V likeRow(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  auto tt = typeOf(x);
  Type et = a.isNone("dtype") ? tt.getElementType() : a.dtype("dtype");
  auto rt = RankedTensorType::get(tt.getShape(), et);
  std::vector<Value> sizes = fl.dimValues(x, a.where);
  Location l = fl.loc(a.where);
  if ((K == Like::Rand || K == Like::Randn) && !llvm::isa<FloatType>(et))
    return fail(a, a.where, a.spelling + "() needs a floating dtype");
  if (K == Like::Rand)
    return fl.b.create<RandOp>(l, rt, sizes).getResult();
  if (K == Like::Randn)
    return fl.b.create<RandnOp>(l, rt, sizes).getResult();
  Value fill = K == Like::Full   ? a.value("fill_value")
               : K == Like::Ones ? fl.constFloat(1, a.where)
                                 : fl.constFloat(0, a.where);
  return fl.b.create<FullOp>(l, rt, fill, sizes).getResult();
}

constexpr unsigned kBoth = Torch | Method;

#define REDUCE_SAMPLES                                                         \
  {                                                                            \
    {"x=f32[B,4,3]"}, {"x=f32[B,4,3]", "1"}, {"x=f32[B,4,3]", "-1, True"},     \
        {"x=f64[3,5]", "dim=(0, 1)"}, {                                        \
      "x=f32[0,3]", "1"                                                        \
    }                                                                          \
  }
} // namespace

std::vector<Row> tensorRows() {
  return {
      // Reductions.
      {"sum(Tensor self, int[]? dim=None, bool keepdim=False, *, "
       "ScalarType? dtype=None) -> Tensor",
       kBoth,
       nullptr,
       reduce<Reduce::Sum>,
       NoFlags,
       {{"x=f32[B,4,3]"},
        {"x=f32[B,4,3]", "1"},
        {"x=i64[B,4]", "-1, True"},
        {"x=f64[3,5]", "(0, 1)"},
        {"x=i32[4]", "dtype=torch.float64"},
        {"x=f32[2,0]", "1"}}},
      {"mean(Tensor self, int[]? dim=None, bool keepdim=False, *, "
       "ScalarType? dtype=None) -> Tensor",
       kBoth, nullptr, reduce<Reduce::Mean>, NoFlags, REDUCE_SAMPLES},
      {"var(Tensor self, int[]? dim=None, bool unbiased=True, "
       "bool keepdim=False) -> Tensor",
       kBoth,
       nullptr,
       reduce<Reduce::Var>,
       NoFlags,
       {{"x=f32[B,4,3]"},
        {"x=f32[B,4,3]", "1"},
        {"x=f64[3,5]", "-1, False, True"}}},
      {"std(Tensor self, int[]? dim=None, bool unbiased=True, "
       "bool keepdim=False) -> Tensor",
       kBoth,
       nullptr,
       reduce<Reduce::Std>,
       NoFlags,
       {{"x=f32[B,4,3]"},
        {"x=f32[B,4,3]", "1"},
        {"x=f64[3,5]", "-1, False, True"}}},
      {"amax(Tensor self, int[] dim=[], bool keepdim=False) -> Tensor",
       kBoth,
       nullptr,
       reduce<Reduce::AMax>,
       NoFlags,
       {{"x=f32[B,4,3]"}, {"x=f32[B,4,3]", "1"}, {"x=i64[3,5]", "-1, True"}}},
      {"amin(Tensor self, int[] dim=[], bool keepdim=False) -> Tensor",
       kBoth,
       nullptr,
       reduce<Reduce::AMin>,
       NoFlags,
       {{"x=f32[B,4,3]"}, {"x=f32[B,4,3]", "1"}, {"x=i64[3,5]", "-1, True"}}},
      {"max(Tensor self) -> Tensor",
       kBoth,
       nullptr,
       maxAll<false>,
       NoFlags,
       {{"x=f32[B,4]"}, {"x=i64[5]"}}},
      {"max(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)",
       kBoth,
       nullptr,
       maxAlongDim<false>,
       NoFlags,
       {{"x=f32[B,4]", "1"}, {"x=i64[3,5]", "0, True"}}},
      {"max(Tensor self, Tensor other) -> Tensor",
       kBoth,
       nullptr,
       maxOther<false>,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y"}}},
      {"min(Tensor self) -> Tensor",
       kBoth,
       nullptr,
       maxAll<true>,
       NoFlags,
       {{"x=f32[B,4]"}, {"x=i64[5]"}}},
      {"min(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)",
       kBoth,
       nullptr,
       maxAlongDim<true>,
       NoFlags,
       {{"x=f32[B,4]", "1"}, {"x=i64[3,5]", "0, True"}}},
      {"min(Tensor self, Tensor other) -> Tensor",
       kBoth,
       nullptr,
       maxOther<true>,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y"}}},
      {"argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
       kBoth,
       nullptr,
       argMax<false>,
       NoFlags,
       {{"x=f32[B,4]"}, {"x=f32[B,4]", "1"}, {"x=i64[3,5]", "0, True"}}},
      {"argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
       kBoth,
       nullptr,
       argMax<true>,
       NoFlags,
       {{"x=f32[B,4]"}, {"x=f32[B,4]", "1"}, {"x=i64[3,5]", "-1, True"}}},
      // Shape queries and identities.
      {"size(Tensor self) -> int[]", Method, nullptr, sizeAll},
      {"size(Tensor self, int dim) -> int",
       Method,
       nullptr,
       sizeDim,
       NoFlags,
       {{"x=f32[B,4]", "0"}, {"x=f32[B,4]", "-1"}}},
      {"dim(Tensor self) -> int", Method, nullptr, dimRow, NoFlags,
       {{"x=f32[B,4]"}}},
      {"numel(Tensor self) -> int", kBoth, nullptr, numel, NoFlags,
       {{"x=f32[B,4]"}}},
      {"item(Tensor self) -> Scalar",
       Method,
       nullptr,
       item,
       NoFlags,
       {{"x=f32[1]"}, {"x=i64[]"}}},
      {"contiguous(Tensor self) -> Tensor", Method, nullptr, identity, NoFlags,
       {{"x=f32[B,4]"}}},
      {"clone(Tensor self) -> Tensor", kBoth, nullptr, identity, NoFlags,
       {{"x=f32[B,4]"}}},
      {"detach(Tensor self) -> Tensor", kBoth, nullptr, identity, NoFlags,
       {{"x=f32[B,4]"}}},
      // Casts.
      {"float(Tensor self) -> Tensor", Method, nullptr, castRow<f32>, NoFlags,
       {{"x=i64[B,4]"}}},
      {"double(Tensor self) -> Tensor", Method, nullptr, castRow<f64>,
       NoFlags, {{"x=f32[B,4]"}}},
      {"half(Tensor self) -> Tensor", Method, nullptr, castRow<f16>, NoFlags,
       {{"x=f32[B,4]"}}},
      {"bfloat16(Tensor self) -> Tensor", Method, nullptr, castRow<bf16>,
       NoFlags, {{"x=f32[B,4]"}}},
      {"int(Tensor self) -> Tensor", Method, nullptr, castRow<i32>, NoFlags,
       {{"x=f32[B,4]", "", -9, 9}}},
      {"long(Tensor self) -> Tensor", Method, nullptr, castRow<i64>, NoFlags,
       {{"x=f32[B,4]", "", -9, 9}}},
      {"bool(Tensor self) -> Tensor", Method, nullptr, castRow<i1>, NoFlags,
       {{"x=i64[B,4]"}}},
      {"to(Tensor self, ScalarType? dtype, bool non_blocking=False, "
       "bool copy=False) -> Tensor",
       Method,
       nullptr,
       toDtype,
       NoFlags,
       {{"x=f32[B,4]", "torch.float64"}, {"x=f32[3]", "dtype=torch.int64"}}},
      {"to(Tensor self, Tensor other, bool non_blocking=False, "
       "bool copy=False) -> Tensor",
       Method,
       nullptr,
       toOther,
       NoFlags,
       {{"x=f32[B,4], y=f64[2]", "y"}}},
      {"type_as(Tensor self, Tensor other) -> Tensor",
       Method,
       nullptr,
       toOther,
       NoFlags,
       {{"x=i64[B,4], y=f32[2]", "y"}}},
      // Views and reshapes.
      {"view(Tensor self, int[] size) -> Tensor",
       Method,
       nullptr,
       reshapeRow,
       NoFlags,
       {{"x=f32[B,6]", "-1, 3, 2"}, {"x=f32[4,6]", "(2, 12)"}}},
      {"reshape(Tensor self, int[] shape) -> Tensor",
       kBoth,
       nullptr,
       reshapeRow,
       NoFlags,
       {{"x=f32[B,6]", "(-1, 2, 3)"}, {"x=i64[4,6]", "(24,)"}}},
      {"expand(Tensor self, int[] size, *, bool implicit=False) -> Tensor",
       Method,
       nullptr,
       expand,
       NoFlags,
       {{"x=f32[B,1]", "-1, 4"}, {"x=f32[3]", "(2, 3)"}}},
      {"expand_as(Tensor self, Tensor other) -> Tensor",
       Method,
       nullptr,
       expandAs,
       NoFlags,
       {{"x=f32[1,4], y=f32[B,4]", "y"}}},
      {"flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor",
       kBoth,
       nullptr,
       flatten,
       NoFlags,
       {{"x=f32[B,2,3]"}, {"x=f32[B,2,3,2]", "1, 2"}, {"x=f32[]"}}},
      {"unflatten(Tensor self, int dim, int[] sizes) -> Tensor",
       kBoth,
       nullptr,
       unflatten,
       NoFlags,
       {{"x=f32[B,6]", "1, (2, 3)"}, {"x=f32[B,6]", "-1, (3, -1)"}}},
      {"unsqueeze(Tensor self, int dim) -> Tensor",
       kBoth,
       nullptr,
       unsqueeze,
       NoFlags,
       {{"x=f32[B,4]", "0"}, {"x=f32[B,4]", "-1"}}},
      {"squeeze(Tensor self) -> Tensor",
       kBoth,
       nullptr,
       squeezeAll,
       NoFlags,
       {{"x=f32[1,B,1,4]"}}},
      {"squeeze(Tensor self, int dim) -> Tensor",
       kBoth,
       nullptr,
       squeezeOne,
       NoFlags,
       {{"x=f32[B,1,4]", "1"}, {"x=f32[B,4]", "-1"}}},
      {"transpose(Tensor self, int dim0, int dim1) -> Tensor",
       kBoth,
       nullptr,
       transpose,
       NoFlags,
       {{"x=f32[B,4,3]", "0, 2"}, {"x=i64[3,5]", "-1, 0"}}},
      {"t(Tensor self) -> Tensor",
       kBoth,
       nullptr,
       t,
       NoFlags,
       {{"x=f32[B,4]"}, {"x=f32[3]"}}},
      {"permute(Tensor self, int[] dims) -> Tensor",
       kBoth,
       nullptr,
       permute,
       NoFlags,
       {{"x=f32[B,4,3]", "(2, 0, 1)"}}},
      // Masks and pieces.
      {"masked_fill(Tensor self, Tensor mask, Tensor value) -> Tensor",
       kBoth | InPlace,
       nullptr,
       maskedFill,
       NoFlags,
       {{"x=f32[B,4], m=bool[B,4]", "m, -1.5"},
        {"x=i64[3,4], m=bool[4]", "m, 7"},
        {"x=f32[3], m=bool[3]", "m, float('-inf')"}}},
      {"triu(Tensor self, int diagonal=0) -> Tensor",
       kBoth,
       nullptr,
       triangle<true>,
       NoFlags,
       {{"x=f32[B,4,5]"}, {"x=i64[4,4]", "1"}, {"x=f32[3,4]", "-1"}}},
      {"tril(Tensor self, int diagonal=0) -> Tensor",
       kBoth,
       nullptr,
       triangle<false>,
       NoFlags,
       {{"x=f32[B,4,5]"}, {"x=i64[4,4]", "1"}, {"x=f32[3,4]", "-1"}}},
      {"split(Tensor self, int[] split_size, int dim=0) -> Tensor[]",
       Method,
       nullptr,
       split,
       NoFlags,
       {{"x=f32[5,B]", "2"}, {"x=f32[B,6]", "(1, 5), dim=1"}}},
      {"split(Tensor self, int[] split_size_or_sections, int dim=0) -> "
       "Tensor[]",
       Torch,
       nullptr,
       split,
       NoFlags,
       {{"x=f32[5,B]", "2"}, {"x=f32[B,6]", "[1, 5], dim=1"}}},
      {"chunk(Tensor self, int chunks, int dim=0) -> Tensor[]",
       kBoth,
       nullptr,
       chunk,
       NoFlags,
       {{"x=f32[7,B]", "3"},
        {"x=f32[B,8]", "4, dim=1"},
        {"x=f32[B,6]", "2"},
        {"x=f32[N,4]", "2"}}},
      {"unbind(Tensor self, int dim=0) -> Tensor[]",
       kBoth,
       nullptr,
       unbind,
       NoFlags,
       {{"x=f32[3,B]"}, {"x=f32[B,2]", "1"}}},
      // Matrix products.
      {"matmul(Tensor self, Tensor other) -> Tensor",
       kBoth,
       nullptr,
       matmul,
       NoFlags,
       {{"x=f32[B,4], y=f32[4,3]", "y"},
        {"x=f32[2,B,4], y=f32[4]", "y"},
        {"x=f64[3], y=f64[3]", "y"}}},
      {"mm(Tensor self, Tensor mat2) -> Tensor",
       kBoth,
       nullptr,
       mmRow<2>,
       NoFlags,
       {{"x=f32[B,4], y=f32[4,3]", "y"}}},
      {"bmm(Tensor self, Tensor mat2) -> Tensor",
       kBoth,
       nullptr,
       mmRow<3>,
       NoFlags,
       {{"x=f32[2,B,4], y=f32[2,4,3]", "y"}}},
      // Creation from another tensor's shape.
      {"zeros_like(Tensor self, *, ScalarType? dtype=None) -> Tensor",
       Torch,
       nullptr,
       likeRow<Like::Zeros>,
       NoFlags,
       {{"x=f32[B,4]"}, {"x=f32[3]", "dtype=torch.int64"}}},
      {"ones_like(Tensor self, *, ScalarType? dtype=None) -> Tensor",
       Torch,
       nullptr,
       likeRow<Like::Ones>,
       NoFlags,
       {{"x=f32[B,4]"}, {"x=i64[3]", "dtype=torch.float64"}}},
      {"full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None) "
       "-> Tensor",
       Torch,
       nullptr,
       likeRow<Like::Full>,
       NoFlags,
       {{"x=f32[B,4]", "2.5"}, {"x=i64[3]", "7"}}},
      {"rand_like(Tensor self, *, ScalarType? dtype=None) -> Tensor", Torch,
       nullptr, likeRow<Like::Rand>, NoFlags, {}, {}, 0, 0,
       "random: not compared with PyTorch"},
      {"randn_like(Tensor self, *, ScalarType? dtype=None) -> Tensor", Torch,
       nullptr, likeRow<Like::Randn>, NoFlags, {}, {}, 0, 0,
       "random: not compared with PyTorch"},
  };
}

} // namespace kiln::ops
