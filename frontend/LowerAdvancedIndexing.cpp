//===- LowerAdvancedIndexing.cpp - Indexing by integer and bool tensors ---===//
//
// PyTorch's advanced indexing, built from kiln's existing ops. Ints, slices
// and None are applied first (LowerIndexing.cpp), as PyTorch's applySlicing
// does, so what is left is `x[..., i0, ..., i1, ...]` with tensors at known
// dims, which aten::index and aten::index_put_ compute:
//  - a bool mask over k dims stands for its true positions: the k dims
//    merge into one, and a stable sort of `not mask` lists the true
//    positions first, in order; mask.sum() cuts the list, so the result's
//    size is computed while running, as arange's is;
//  - negative indices wrap, and an index outside [-size, size) is a
//    run-time IndexError, as in PyTorch;
//  - the indexed dims move first and merge into one, and the indices into
//    one linear index (they broadcast together), so one index_select reads
//    every element. The result's index dims stand where the first indexed
//    dim was when the indexed dims are adjacent, else first (PyTorch's and
//    NumPy's rule).
// A store computes the same linear index and, kiln having no scatter op,
// compares it with every position: work and memory grow as (number of
// indices) x (number of rows indexed), fine for the index lists models
// write. (A sort would not help: kiln.sort itself counts ranks pairwise.)
// The common `x[mask] = v`, with `v` the same for every selected element,
// is one kiln.where instead. index_put (the op-table row) is the same
// store; with accumulate=True the values an index names are summed into
// its row rather than the last one winning.
//
//===----------------------------------------------------------------------===//

#include "frontend/LoweringImpl.h"
#include "frontend/OpTable.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

#include <numeric>

using namespace mlir;

namespace kiln {

int64_t advancedIndexRank(const PyValue &index) {
  if (index.isValue())
    if (auto t = llvm::dyn_cast<RankedTensorType>(index.value.getType()))
      if (t.getElementType().isInteger(1))
        return t.getRank();
  return 1;
}

namespace {

RankedTensorType typeOf(Value v) {
  return llvm::cast<RankedTensorType>(v.getType());
}

/// "[4, 5]" as PyTorch prints a shape ("?" for a run-time size).
std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + (ShapedType::isDynamic(shape[i])
                                ? std::string("?")
                                : std::to_string(shape[i]));
  return s + "]";
}

/// Builds the ops of one indexing expression, all at its location. The
/// operands are known to fit, so type inference cannot fail here.
struct Builder {
  FunctionLowering &fl;
  SourceRange r;
  Location l;
  Builder(FunctionLowering &fl, SourceRange r) : fl(fl), r(r), l(fl.loc(r)) {}

  Value i64(int64_t v) { return fl.constInt(v, r); }
  Value bin(StringRef op, Value a, Value b) {
    return *fl.emitElementwise(op, a, b, r, r, r);
  }
  Value cmp(CmpPredicate p, Value a, Value b) {
    return *fl.emitCompare(p, a, b, r, r, r);
  }
  Value product(ArrayRef<Value> sizes) {
    Value p = i64(1);
    for (Value s : sizes)
      p = bin("kiln.mul", p, s);
    return p;
  }
  std::vector<Value> dims(Value x) { return fl.dimValues(x, r); }
  Value reshape(Value x, ArrayRef<Value> sizes) {
    SmallVector<int64_t> shape;
    for (Value s : sizes)
      shape.push_back(fl.constIntValue(s).value_or(ShapedType::kDynamic));
    auto t = RankedTensorType::get(shape, typeOf(x).getElementType());
    if (t == x.getType())
      return x;
    return fl.b.create<ReshapeOp>(l, t, x, sizes);
  }
  Value permute(Value x, ArrayRef<int64_t> perm) {
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i)
      identity &= perm[i] == int64_t(i);
    if (identity)
      return x;
    std::string why;
    Type t = inferPermuteType(x.getType(), perm, &why);
    return fl.b.create<PermuteOp>(l, t, x, fl.b.getDenseI64ArrayAttr(perm));
  }
  Value cast(Value x, Type element) {
    if (typeOf(x).getElementType() == element)
      return x;
    return fl.b.create<CastOp>(l, withElementType(x.getType(), element), x);
  }
  Value where(Value c, Value a, Value b) {
    std::string why;
    Type t = inferWhereType(c.getType(), a.getType(), b.getType(), &why);
    return fl.b.create<WhereOp>(l, t, c, a, b);
  }
  Value indexSelect(Value x, int64_t dim, Value index) {
    std::string why;
    Type t = inferIndexSelectType(x.getType(), index.getType(), dim, &why);
    return fl.b.create<IndexSelectOp>(l, t, x, index,
                                      fl.b.getI64IntegerAttr(dim));
  }
  Value arange(Value n) {
    auto t = RankedTensorType::get(
        {fl.constIntValue(n).value_or(ShapedType::kDynamic)},
        fl.b.getI64Type());
    return fl.b.create<ArangeOp>(l, t, i64(0), n, i64(1));
  }
  /// The number of true elements of a bool or int tensor, as an i64.
  Value countTrue(Value x) {
    Value s = fl.b.create<SumOp>(
        l, RankedTensorType::get({}, fl.b.getI64Type()),
        cast(x, fl.b.getI64Type()), fl.b.getDenseI64ArrayAttr({}),
        fl.b.getBoolAttr(false));
    return fl.b.create<ItemOp>(l, fl.b.getI64Type(), s);
  }
  void check(Value ok, const std::string &message) {
    fl.b.create<AssertOp>(l, ok, fl.b.getStringAttr(message));
  }
};

/// The tensor and its integer indices once masks are positions and
/// negative indices have wrapped.
struct Prepared {
  Value x;
  std::vector<std::pair<int64_t, Value>> indices; // dim, i64 index
};

/// `mask`'s true positions over dims [d, d + k) of `x`: merges those dims.
std::optional<Value> maskPositions(Builder &ib, Value &x, int64_t d, Value mask,
                                   SourceRange where) {
  RankedTensorType xt = typeOf(x), mt = typeOf(mask);
  int64_t k = mt.getRank();
  if (k == 0) {
    ib.fl.error(where, "a 0-d bool index is not supported; use torch.where");
    return std::nullopt;
  }
  std::vector<Value> xd = ib.dims(x), md = ib.dims(mask);
  for (int64_t j = 0; j < k; ++j) {
    int64_t a = mt.getDimSize(j), b = xt.getDimSize(d + j);
    std::string message =
        "IndexError: the shape of the mask " + shapeText(mt.getShape()) +
        " at index " + std::to_string(j) +
        " does not match the shape of the indexed tensor " +
        shapeText(xt.getShape()) + " at index " + std::to_string(d + j);
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b)) {
      if (a != b) {
        ib.fl.error(where, message.substr(strlen("IndexError: ")));
        return std::nullopt;
      }
      continue;
    }
    ib.check(ib.cmp(CmpPredicate::eq, md[j], xd[d + j]), message);
  }
  Value n = ib.product(ArrayRef<Value>(md));
  if (k != 1) {
    std::vector<Value> merged(xd.begin(), xd.begin() + d);
    merged.push_back(n);
    merged.insert(merged.end(), xd.begin() + d + k, xd.end());
    x = ib.reshape(x, merged);
    mask = ib.reshape(mask, {n});
  }
  // A stable sort of 0 (true) and 1 (false) keys lists the true positions
  // first, in increasing order.
  Value keys =
      ib.bin("kiln.sub", ib.i64(1), ib.cast(mask, ib.fl.b.getI64Type()));
  Type kt = keys.getType();
  auto sort = ib.fl.b.create<SortOp>(ib.l, TypeRange{kt, kt}, keys,
                                     ib.fl.b.getBoolAttr(false));
  Value count = ib.countTrue(mask);
  auto st = RankedTensorType::get({ShapedType::kDynamic}, ib.fl.b.getI64Type());
  return ib.fl.b
      .create<SliceOp>(ib.l, st, sort.getIndices(), ib.i64(0), count, ib.i64(1),
                       ib.fl.b.getI64IntegerAttr(0))
      .getResult();
}

/// Checks and wraps `index` against dim `d` of `x`.
Value wrapIndex(Builder &ib, Value x, int64_t d, Value index) {
  index = ib.cast(index, ib.fl.b.getI64Type());
  Value size = ib.dims(x)[d];
  int64_t s = typeOf(x).getDimSize(d);
  Value low =
      ib.cmp(CmpPredicate::lt, index, ib.bin("kiln.sub", ib.i64(0), size));
  Value high = ib.cmp(CmpPredicate::ge, index, size);
  Value bad = ib.countTrue(ib.bin("kiln.bitor", low, high));
  ib.check(ib.cmp(CmpPredicate::eq, bad, ib.i64(0)),
           "IndexError: index out of range: an index is outside [-size, size) "
           "for dimension " +
               std::to_string(d) + " with size " +
               (ShapedType::isDynamic(s) ? "?" : std::to_string(s)));
  return ib.where(ib.cmp(CmpPredicate::lt, index, ib.i64(0)),
                  ib.bin("kiln.add", index, size), index);
}

std::optional<Prepared> prepare(Builder &ib, Value x,
                                ArrayRef<AdvancedIndex> indices) {
  Prepared p{x, {}};
  int64_t shift = 0; // dims removed by merging the dims of earlier masks
  std::vector<bool> fromMask;
  for (const AdvancedIndex &a : indices) {
    Type e = typeOf(a.index).getElementType();
    int64_t d = a.dim - shift;
    if (e.isInteger(1)) {
      int64_t k = typeOf(a.index).getRank();
      std::optional<Value> pos = maskPositions(ib, p.x, d, a.index, a.range);
      if (!pos)
        return std::nullopt;
      p.indices.push_back({d, *pos});
      fromMask.push_back(true);
      shift += k - 1;
      continue;
    }
    if (!e.isInteger(64) && !e.isInteger(32)) {
      ib.fl.error(a.range, "tensors used as indices must be integer or bool "
                           "tensors, got " +
                               ib.fl.describe(PyValue::ofValue(a.index)));
      return std::nullopt;
    }
    p.indices.push_back({d, a.index});
    fromMask.push_back(false);
  }
  // Wrapping reads the sizes of the tensor whose masked dims are merged.
  for (size_t i = 0; i < p.indices.size(); ++i)
    if (!fromMask[i])
      p.indices[i].second =
          wrapIndex(ib, p.x, p.indices[i].first, p.indices[i].second);
  // The indices broadcast together.
  Type shape = typeOf(p.indices[0].second);
  for (size_t i = 1; i < p.indices.size(); ++i) {
    std::string why;
    Type next = inferElementwiseType(ElementwiseKind::Arith, shape,
                                     p.indices[i].second.getType(), &why);
    if (!next) {
      std::string shapes;
      for (const auto &[d, index] : p.indices)
        shapes +=
            (shapes.empty() ? "" : ", ") + shapeText(typeOf(index).getShape());
      ib.fl.error(ib.r, "shape mismatch: indexing tensors could not be "
                        "broadcast together with shapes " +
                            shapes);
      return std::nullopt;
    }
    shape = next;
  }
  return p;
}

/// Where the indexed dims of `p` go and the linear index over them.
struct Layout {
  std::vector<int64_t> perm; // indexed dims first, then the others
  std::vector<Value> others; // sizes of the other dims
  int64_t front = 0;         // where the index dims go in the result
  Value n;                   // rows once the indexed dims merge
  Value linear;              // the broadcast linear index
};

Layout layout(Builder &ib, const Prepared &p) {
  Layout lay;
  std::vector<Value> xd = ib.dims(p.x);
  std::vector<bool> indexed(xd.size(), false);
  std::vector<Value> sizes;
  for (const auto &[d, index] : p.indices) {
    lay.perm.push_back(d);
    indexed[d] = true;
    sizes.push_back(xd[d]);
  }
  for (size_t d = 0; d < xd.size(); ++d)
    if (!indexed[d]) {
      lay.perm.push_back(d);
      lay.others.push_back(xd[d]);
    }
  int64_t first = p.indices.front().first, last = p.indices.back().first;
  bool adjacent = last - first + 1 == int64_t(p.indices.size());
  lay.front = adjacent ? first : 0;
  lay.n = ib.product(sizes);
  Value stride = ib.i64(1);
  for (size_t j = p.indices.size(); j-- > 0;) {
    Value term = ib.fl.constIntValue(stride) == 1
                     ? p.indices[j].second
                     : ib.bin("kiln.mul", p.indices[j].second, stride);
    lay.linear = lay.linear ? ib.bin("kiln.add", term, lay.linear) : term;
    stride = ib.bin("kiln.mul", stride, sizes[j]);
  }
  return lay;
}

/// The order that moves dims [0, nb) to `front` among `total` dims.
std::vector<int64_t> moveFront(int64_t nb, int64_t front, int64_t total) {
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < front; ++i)
    perm.push_back(nb + i);
  for (int64_t i = 0; i < nb; ++i)
    perm.push_back(i);
  for (int64_t i = nb + front; i < total; ++i)
    perm.push_back(i);
  return perm;
}

std::vector<int64_t> inverse(ArrayRef<int64_t> perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inv[perm[i]] = i;
  return inv;
}

/// The value stored through `x[mask] = value` when it is the same for every
/// selected element: one where. Null when `value` varies along them.
std::optional<Value> storeThroughMask(Builder &ib, Value x,
                                      const AdvancedIndex &a, Value value) {
  RankedTensorType xt = typeOf(x), mt = typeOf(a.index);
  int64_t k = mt.getRank(), rest = xt.getRank() - a.dim - k;
  RankedTensorType vt = typeOf(value);
  int64_t at = vt.getRank() - 1 - rest; // the value's dim over the selection
  if (k == 0 || (at >= 0 && vt.getDimSize(at) != 1))
    return Value();
  for (int64_t j = 0; j < k; ++j) {
    int64_t m = mt.getDimSize(j), s = xt.getDimSize(a.dim + j);
    if (!ShapedType::isDynamic(m) && !ShapedType::isDynamic(s) && m != s) {
      ib.fl.error(a.range, "the shape of the mask " + shapeText(mt.getShape()) +
                               " at index " + std::to_string(j) +
                               " does not match the shape of the indexed "
                               "tensor " +
                               shapeText(xt.getShape()) + " at index " +
                               std::to_string(a.dim + j));
      return std::nullopt;
    }
    if (ShapedType::isDynamic(m) || ShapedType::isDynamic(s))
      return Value(); // the general path checks the sizes while running
  }
  if (at >= 0) {
    std::vector<Value> vd = ib.dims(value), sizes(vd.begin(), vd.begin() + at);
    sizes.insert(sizes.end(), k, ib.i64(1));
    sizes.insert(sizes.end(), vd.begin() + at + 1, vd.end());
    value = ib.reshape(value, sizes);
  }
  std::vector<Value> md = ib.dims(a.index);
  md.insert(md.end(), rest, ib.i64(1));
  Value mask = ib.reshape(a.index, md);
  std::string why;
  Type t = inferWhereType(mask.getType(), value.getType(), xt, &why);
  if (!t || !isCompatibleResultType(t, xt, nullptr) ||
      typeOf(value).getRank() > xt.getRank()) {
    ib.fl.error(ib.r, "shape mismatch: value tensor of shape " +
                          shapeText(vt.getShape()) +
                          " cannot be broadcast to the indexed elements of " +
                          ib.fl.describe(PyValue::ofValue(x)));
    return std::nullopt;
  }
  return ib.fl.b.create<WhereOp>(ib.l, xt, mask, value, x).getResult();
}

/// For each of the n rows, the sum of the value rows (v is m x rest) whose
/// index names it (hits is m x n): what accumulate=True adds in.
Value sumHits(Builder &ib, Value hits, Value v) {
  Type element = typeOf(v).getElementType();
  std::string why;
  if (llvm::isa<FloatType>(element)) {
    // A 0/1 matrix product: every product is exact.
    Value h = ib.permute(ib.cast(hits, element), {1, 0});
    Type t = inferMatmulType(h.getType(), v.getType(), &why);
    return ib.fl.b.create<MatmulOp>(ib.l, t, h, v);
  }
  // kiln.matmul takes no ints or bools: a where per (index, row) pair,
  // summed in i64 as torch.sum sums ints.
  std::vector<Value> hd = ib.dims(hits), vd = ib.dims(v);
  Value picked = ib.where(ib.reshape(hits, {hd[0], hd[1], ib.i64(1)}),
                          ib.reshape(ib.cast(v, ib.fl.b.getI64Type()),
                                     {vd[0], ib.i64(1), vd[1]}),
                          ib.i64(0));
  Type t = inferReduceType(picked.getType(), {0}, false, true, &why);
  return ib.fl.b.create<SumOp>(ib.l, t, picked, ib.fl.b.getDenseI64ArrayAttr({0}),
                               ib.fl.b.getBoolAttr(false));
}

/// Each of the n rows of `rows` replaced by the value row (of v, m x rest)
/// of the last index that names it.
Value lastWins(Builder &ib, const Layout &lay, Value v, Value rows, Value m) {
  FunctionLowering &fl = ib.fl;
  Type element = typeOf(v).getElementType();
  // One more index, -1, that names no row: the reduction below then never
  // runs over zero indices (an empty mask selects none).
  auto list = RankedTensorType::get({ShapedType::kDynamic}, fl.b.getI64Type());
  Value pad =
      fl.b.create<FullOp>(ib.l, RankedTensorType::get({1}, fl.b.getI64Type()),
                          ib.i64(-1), ValueRange{ib.i64(1)});
  Value padded[] = {
      fl.b.create<tensor::CastOp>(ib.l, list, ib.reshape(lay.linear, {m})),
      fl.b.create<tensor::CastOp>(ib.l, list, pad)};
  Value linear = fl.b.create<CatOp>(
      ib.l, list,
      fl.b.create<ListConstructOp>(ib.l, ListType::get(list), padded),
      fl.b.getI64IntegerAttr(0));
  Value m1 = ib.bin("kiln.add", m, ib.i64(1));
  linear = ib.reshape(linear, {m1, ib.i64(1)});
  Value hits = ib.cmp(CmpPredicate::eq, linear,
                      ib.reshape(ib.arange(lay.n), {ib.i64(1), lay.n}));
  // The last index that names a row wins, as PyTorch's CPU loop does;
  // rows no index names read their old contents from past the values.
  Value which =
      ib.where(hits, ib.reshape(ib.arange(m1), {m1, ib.i64(1)}), ib.i64(-1));
  Value last = fl.b.create<AMaxOp>(
      ib.l,
      RankedTensorType::get({typeOf(which).getDimSize(1)}, fl.b.getI64Type()),
      which, fl.b.getDenseI64ArrayAttr({0}), fl.b.getBoolAttr(false));
  Value row = ib.where(ib.cmp(CmpPredicate::ge, last, ib.i64(0)), last,
                       ib.bin("kiln.add", ib.arange(lay.n), m));
  auto part = RankedTensorType::get(
      {ShapedType::kDynamic, typeOf(v).getDimSize(1)}, element);
  Value parts[] = {fl.b.create<tensor::CastOp>(ib.l, part, v),
                   fl.b.create<tensor::CastOp>(ib.l, part, rows)};
  Value both = fl.b.create<CatOp>(
      ib.l, part,
      fl.b.create<ListConstructOp>(ib.l, ListType::get(part), parts),
      fl.b.getI64IntegerAttr(0));
  return ib.indexSelect(both, 0, row);
}

/// `x` with `x[indices] = value`, or `+=` for accumulate (index_put).
std::optional<Value> store(FunctionLowering &fl, Value x,
                           ArrayRef<AdvancedIndex> indices, Value value,
                           SourceRange where, bool accumulate) {
  Builder ib(fl, where);
  RankedTensorType xt = typeOf(x);
  Type element = xt.getElementType();
  // The value takes x's dtype first, as PyTorch's setitem copies it in.
  if (isScalarType(value.getType()))
    value = fl.b.create<FromScalarOp>(
        ib.l, RankedTensorType::get({}, value.getType()), value);
  if (!llvm::isa<RankedTensorType>(value.getType())) {
    fl.error(where, "cannot store " + fl.describe(PyValue::ofValue(value)) +
                        " into a Tensor");
    return std::nullopt;
  }
  value = ib.cast(value, element);
  if (!accumulate && indices.size() == 1 &&
      typeOf(indices[0].index).getElementType().isInteger(1)) {
    std::optional<Value> v = storeThroughMask(ib, x, indices[0], value);
    if (!v || *v)
      return v;
  }
  std::optional<Prepared> p = prepare(ib, x, indices);
  if (!p)
    return std::nullopt;
  Layout lay = layout(ib, *p);
  // The value, broadcast to the indexed elements, index dims first.
  std::vector<Value> bd = ib.dims(lay.linear);
  int64_t nb = bd.size(), no = lay.others.size();
  std::vector<Value> sel(lay.others.begin(), lay.others.begin() + lay.front);
  sel.insert(sel.end(), bd.begin(), bd.end());
  sel.insert(sel.end(), lay.others.begin() + lay.front, lay.others.end());
  SmallVector<int64_t> selShape;
  for (Value s : sel)
    selShape.push_back(fl.constIntValue(s).value_or(ShapedType::kDynamic));
  auto selType = RankedTensorType::get(selShape, element);
  std::string why;
  Type joined = inferElementwiseType(ElementwiseKind::Arith, value.getType(),
                                     selType, &why);
  if (!joined || !isCompatibleResultType(joined, selType, nullptr)) {
    fl.error(where, "shape mismatch: value tensor of shape " +
                        shapeText(typeOf(value).getShape()) +
                        " cannot be broadcast to indexing result of shape " +
                        shapeText(selShape));
    return std::nullopt;
  }
  Value v = fl.b.create<ExpandOp>(ib.l, selType, value, sel);
  v = ib.permute(v, inverse(moveFront(nb, lay.front, nb + no)));
  Value m = ib.product(bd), rest = ib.product(lay.others);
  v = ib.reshape(v, {m, rest});
  std::vector<Value> permuted = ib.dims(ib.permute(p->x, lay.perm));
  Value rows = ib.reshape(ib.permute(p->x, lay.perm), {lay.n, rest});
  Value out;
  if (accumulate) {
    Value hits = ib.cmp(CmpPredicate::eq, ib.reshape(lay.linear, {m, ib.i64(1)}),
                        ib.reshape(ib.arange(lay.n), {ib.i64(1), lay.n}));
    Value sums = sumHits(ib, hits, v);
    Type sum = typeOf(sums).getElementType();
    out = ib.cast(ib.bin("kiln.add", ib.cast(rows, sum), sums), element);
  } else {
    out = lastWins(ib, lay, v, rows, m);
  }
  out = ib.reshape(out, permuted);
  // Back to x's own dims, which a mask's dims were merged out of.
  return ib.reshape(ib.permute(out, inverse(lay.perm)), ib.dims(x));
}

} // namespace

std::optional<Value> readAdvanced(FunctionLowering &fl, Value x,
                                  ArrayRef<AdvancedIndex> indices,
                                  SourceRange where) {
  Builder ib(fl, where);
  std::optional<Prepared> p = prepare(ib, x, indices);
  if (!p)
    return std::nullopt;
  if (p->indices.size() == 1) {
    auto [d, index] = p->indices[0];
    std::vector<Value> id = ib.dims(index), xd = ib.dims(p->x);
    Value flat = ib.reshape(index, {ib.product(id)});
    Value out = ib.indexSelect(p->x, d, flat);
    std::vector<Value> shape(xd.begin(), xd.begin() + d);
    shape.insert(shape.end(), id.begin(), id.end());
    shape.insert(shape.end(), xd.begin() + d + 1, xd.end());
    return ib.reshape(out, shape);
  }
  Layout lay = layout(ib, *p);
  SmallVector<Value> merged{lay.n};
  merged.append(lay.others.begin(), lay.others.end());
  Value rows = ib.reshape(ib.permute(p->x, lay.perm), merged);
  std::vector<Value> bd = ib.dims(lay.linear);
  Value out = ib.indexSelect(rows, 0, ib.reshape(lay.linear, {ib.product(bd)}));
  bd.insert(bd.end(), lay.others.begin(), lay.others.end());
  out = ib.reshape(out, bd);
  int64_t nb = typeOf(lay.linear).getRank();
  return ib.permute(out, moveFront(nb, lay.front, bd.size()));
}

std::optional<Value> storeAdvanced(FunctionLowering &fl, Value x,
                                   ArrayRef<AdvancedIndex> indices, Value value,
                                   SourceRange where) {
  return store(fl, x, indices, value, where, false);
}

} // namespace kiln

namespace kiln::ops {

std::optional<Value> indexPut(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = a.value("self");
  const BoundArg &values = a.arg("values");
  // PyTorch takes only a Tensor of self's dtype here, unlike x[i] = v.
  Value v = values.value.isValue() ? values.value.value : Value();
  if (!v || !llvm::isa<RankedTensorType>(v.getType())) {
    fl.error(values.range, a.spelling + "() argument 'values' must be a "
                                        "Tensor, got " +
                               fl.describe(values.value));
    return std::nullopt;
  }
  if (typeOf(v).getElementType() != typeOf(x).getElementType()) {
    fl.error(values.range,
             a.spelling + "() requires values of the destination's dtype: "
                          "self is " +
                 fl.describe(PyValue::ofValue(x)) + ", values " +
                 fl.describe(values.value));
    return std::nullopt;
  }
  std::optional<bool> accumulate = a.flag("accumulate");
  if (!accumulate)
    return std::nullopt;
  const BoundArg &given = a.arg("indices");
  std::vector<PyValue> items = given.value.elems;
  if (given.value.kind != PyValue::Kind::Tuple) {
    std::optional<std::vector<Value>> ts = a.tensors("indices");
    if (!ts)
      return std::nullopt;
    for (Value t : *ts)
      items.push_back(PyValue::ofValue(t));
  }
  // None stands for a whole dim, as `:` does in x[:, i] = v.
  std::vector<AdvancedIndex> indices;
  int64_t dim = 0, rank = typeOf(x).getRank();
  for (const PyValue &item : items) {
    if (!item.isNone())
      indices.push_back({dim, item.value, given.range});
    dim += item.isNone() ? 1 : advancedIndexRank(item);
  }
  if (dim > rank) {
    fl.error(given.range, a.spelling + "(): too many indices for tensor of "
                                       "dimension " +
                              std::to_string(rank) + " (got " +
                              std::to_string(dim) + ")");
    return std::nullopt;
  }
  if (indices.empty()) {
    fl.error(given.range, a.spelling + "() needs at least one index tensor "
                                       "in 'indices'");
    return std::nullopt;
  }
  return store(fl, x, indices, v, a.where, *accumulate);
}

} // namespace kiln::ops
