//===- OpTableViews.cpp - Op-table builders: shapes, casts and views -----===//
//
// Shape queries (size, dim, numel, item), identities (contiguous, clone,
// detach), casts (float, long, to, type_as) and views and reshapes (view,
// reshape, expand, flatten, unsqueeze, squeeze, transpose, permute): the
// builders of prelude/views.py's rows. Dims are compile-time ints, sizes may be run-time ints.
// Result types come from ir/ShapeInference where the verifier checks the
// same rule, so errors point at the user's call rather than at the IR.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/LoweringImpl.h"
#include "frontend/OpBuilders.h"
#include "frontend/OpFamilies.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::ops {

namespace {
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
} // namespace

std::vector<NamedBuilder> viewBuilders() {
  return {{"size_all", sizeAll},
          {"size_dim", sizeDim},
          {"dim", dimRow},
          {"numel", numel},
          {"item", item},
          {"identity", identity},
          {"float", castRow<f32>},
          {"double", castRow<f64>},
          {"half", castRow<f16>},
          {"bfloat16", castRow<bf16>},
          {"int", castRow<i32>},
          {"long", castRow<i64>},
          {"bool", castRow<i1>},
          {"to_dtype", toDtype},
          {"to_other", toOther},
          {"reshape", reshapeRow},
          {"expand", expand},
          {"flatten", flatten},
          {"unflatten", unflatten},
          {"unsqueeze", unsqueeze},
          {"squeeze_all", squeezeAll},
          {"squeeze_one", squeezeOne},
          {"transpose", transpose},
          {"t", t},
          {"permute", permute}};
}

} // namespace kiln::ops
