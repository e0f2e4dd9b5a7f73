//===- OpTableTensor.cpp - The op table's builders: the rest of Tensor ----===//
//
// masked_fill, split/chunk/unbind, matmul and rand_like/randn_like: the
// builders of prelude/tensor.py's rows (its decompositions are Python there;
// reductions are in OpTableReductions.cpp, shape queries, casts and
// views in OpTableViews.cpp).
// Each builder reads its bound arguments by name; dims are compile-time ints
// (the result type depends on them), sizes may be run-time ints.
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
//===--- masked_fill ----------------------------------------------------===//

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
        fl.b.getStringAttr("RuntimeError: split_with_sizes expects "
                           "split_sizes to sum "
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
      fl.b.getStringAttr("RuntimeError: chunk(" + std::to_string(n) +
                         ") of dimension " +
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

//===--- random creation from another tensor ----------------------------===//

template <bool Normal> V randomLike(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  auto tt = typeOf(x);
  Type et = a.isNone("dtype") ? tt.getElementType() : a.dtype("dtype");
  if (!llvm::isa<FloatType>(et))
    return fail(a, a.where, a.spelling + "() needs a floating dtype");
  auto rt = RankedTensorType::get(tt.getShape(), et);
  std::vector<Value> sizes = fl.dimValues(x, a.where);
  Location l = fl.loc(a.where);
  if (Normal)
    return fl.b.create<RandnOp>(l, rt, sizes).getResult();
  return fl.b.create<RandOp>(l, rt, sizes).getResult();
}
} // namespace

std::vector<NamedBuilder> tensorBuilders() {
  return {{"masked_fill", maskedFill},
          {"split", split},
          {"chunk", chunk},
          {"unbind", unbind},
          {"matmul", matmul},
          {"rand_like", randomLike<false>},
          {"randn_like", randomLike<true>}};
}

} // namespace kiln::ops
