//===- OpTableViews.cpp - Op-table builders: item, casts and views -------===//
//
// The primitives of prelude/views.py's rows, one kiln op each: item,
// to(dtype), view/reshape, expand, unsqueeze, squeeze(dim), transpose and
// permute (size, numel, the other casts, flatten, unflatten, squeeze() and
// t are Python there). Dims are compile-time ints, sizes may be run-time ints.
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
//===--- item and casts -------------------------------------------------===//

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

V toDtype(OpArgs &a) {
  if (a.isNone("dtype"))
    return self(a);
  return castTo(a, self(a), a.dtype("dtype"));
}

//===--- views and reshapes ---------------------------------------------===//

/// view/reshape, with at most one -1 size inferred from a static element
/// count.
V reshapeRow(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  auto tt = typeOf(x);
  std::optional<std::vector<Value>> sizes =
      a.intValues(a.row.schema().params[1].name);
  if (!sizes)
    return std::nullopt;
  SmallVector<int64_t> shape;
  int inferred = -1;
  for (size_t i = 0; i < sizes->size(); ++i) {
    std::optional<int64_t> c = fl.constIntValue((*sizes)[i]);
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
  return fl.b.create<ReshapeOp>(fl.loc(a.where), rt, x, *sizes).getResult();
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

V squeezeOne(OpArgs &a) {
  Value x = self(a);
  auto tt = typeOf(x);
  std::optional<int64_t> nd = a.dim("dim", tt.getRank());
  if (!nd)
    return std::nullopt;
  int64_t size = tt.getRank() ? tt.getDimSize(*nd) : 0;
  if (tt.getRank() == 0 || (size != 1 && size != ShapedType::kDynamic))
    return x; // PyTorch leaves a dim that is not 1 alone
  SmallVector<int64_t> shape(tt.getShape());
  shape.erase(shape.begin() + *nd);
  return a.fl.b
      .create<SqueezeOp>(a.fl.loc(a.where),
                         RankedTensorType::get(shape, tt.getElementType()), x,
                         a.fl.b.getI64IntegerAttr(*nd))
      .getResult();
}

V transpose(OpArgs &a) {
  auto tt = typeOf(self(a));
  std::optional<int64_t> d0 = a.dim("dim0", tt.getRank());
  std::optional<int64_t> d1 = d0 ? a.dim("dim1", tt.getRank()) : std::nullopt;
  if (!d1)
    return std::nullopt;
  SmallVector<int64_t> shape(tt.getShape());
  std::swap(shape[*d0], shape[*d1]);
  return a.fl.b
      .create<TransposeOp>(a.fl.loc(a.where),
                           RankedTensorType::get(shape, tt.getElementType()),
                           self(a), a.fl.b.getI64IntegerAttr(*d0),
                           a.fl.b.getI64IntegerAttr(*d1))
      .getResult();
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
  return {{"item", item},
          {"to_dtype", toDtype},
          {"reshape", reshapeRow},
          {"expand", expand},
          {"unsqueeze", unsqueeze},
          {"squeeze_one", squeezeOne},
          {"transpose", transpose},
          {"permute", permute}};
}

} // namespace kiln::ops
