//===- OpTableIndexing.cpp - Op-table builders: indexing, scans, order ---===//
//
// The builders of gather, index_select, cumsum, cumprod, flip and roll
// (prelude/indexing.py), and of sort and topk (prelude/order.py), two
// families (see OpFamilies.h) because prelude/resample.py's rows come
// between them in the documentation.
// gather, index_select, the scans and flip are one kiln op each
// (ir/KilnNNOps.td), lowered in codegen/lowering/IndexingOps.cpp and
// ScanOps.cpp; roll is slices and a cat per dim, which the shape lowering
// already does well; sort is kiln.sort along the last dim, and topk the
// first k of a stable sort.
//
// The arguments that shape an op (dims, shifts) must be compile-time
// constants, as they are for the kiln ops' attributes; these builders read
// them from the bound arguments themselves (the readers that
// OpTableResample.cpp shares are declared in OpTableIndexingArgs.h).
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/OpFamilies.h"
#include "frontend/OpTableIndexingArgs.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace mlir;

namespace kiln::ops {

int64_t indexing::rankOf(Value v) {
  return llvm::cast<RankedTensorType>(v.getType()).getRank();
}

/// A compile-time int argument, normalized as a dim of a tensor of `rank`.
std::optional<int64_t> indexing::dimArg(OpArgs &a, StringRef name, int64_t rank) {
  std::optional<int64_t> d = a.fl.constIntValue(a.value(name));
  if (!d) {
    a.fl.error(a.range(name), a.spelling + "() argument '" + name.str() +
                                  "' must be a constant int here, got " +
                                  a.fl.describe(a.arg(name).value));
    return std::nullopt;
  }
  return a.fl.normalizeDim(*d, rank, a.range(name));
}

/// A compile-time int[] argument.
std::optional<std::vector<int64_t>> indexing::intsArg(OpArgs &a, StringRef name) {
  std::optional<std::vector<int64_t>> v =
      nn::constIntsOf(a.fl, a.arg(name).value);
  if (!v)
    a.fl.error(a.range(name), a.spelling + "() argument '" + name.str() +
                                  "' must be constant ints here, got " +
                                  a.fl.describe(a.arg(name).value));
  return v;
}

namespace {
using V = std::optional<Value>;
using indexing::dimArg;
using indexing::intsArg;
using indexing::rankOf;

/// The bound tensor `name`, or an error: a Tensor parameter after the
/// first also binds a Python number, which these ops do not take.
V tensorArg(OpArgs &a, StringRef name) {
  const BoundArg &b = a.arg(name);
  if (b.value.isValue() && llvm::isa<RankedTensorType>(b.value.value.getType()))
    return b.value.value;
  a.fl.error(b.range, a.spelling + "() argument '" + name.str() +
                          "' must be a Tensor, got " + a.fl.describe(b.value));
  return std::nullopt;
}

/// Reports a failed shape inference at the call.
V inferred(OpArgs &a, Type t, const std::string &why) {
  if (t)
    return Value();
  a.fl.error(a.where, a.spelling + "(): " + a.fl.userMessage(why));
  return std::nullopt;
}

/// gather and index_select: self, a dim and an index tensor to one kiln op,
/// typed by the op's own shape rule.
template <typename OpTy,
          Type (*Infer)(Type, Type, int64_t, std::string *)>
V readAlongDim(OpArgs &a) {
  V x = tensorArg(a, "self"), index = tensorArg(a, "index");
  if (!x || !index)
    return std::nullopt;
  std::optional<int64_t> dim = dimArg(a, "dim", rankOf(*x));
  if (!dim)
    return std::nullopt;
  std::string why;
  Type t = Infer(x->getType(), index->getType(), *dim, &why);
  if (!inferred(a, t, why))
    return std::nullopt;
  return a.fl.b.create<OpTy>(a.fl.loc(a.where), t, *x, *index, *dim)
      .getResult();
}

V gather(OpArgs &a) { return readAlongDim<GatherOp, inferGatherType>(a); }
V indexSelect(OpArgs &a) {
  return readAlongDim<IndexSelectOp, inferIndexSelectType>(a);
}

template <typename ScanOp> V scan(OpArgs &a) {
  Value x = a.value("self");
  std::optional<int64_t> dim = dimArg(a, "dim", rankOf(x));
  if (!dim)
    return std::nullopt;
  Type dtype = a.isNone("dtype") ? Type() : dtypeFromGlobal(a.fl.b, a.arg("dtype").value);
  // PyTorch refuses a bool dtype= here only by its kernels' lack of one;
  // kiln's scans have no bool result either.
  if (dtype && dtype.isInteger(1)) {
    a.fl.error(a.range("dtype"),
               a.spelling + "() cannot compute in bool; give a numeric dtype");
    return std::nullopt;
  }
  std::string why;
  Type t = inferScanType(x.getType(), *dim, dtype, &why);
  if (!inferred(a, t, why))
    return std::nullopt;
  return a.fl.b.create<ScanOp>(a.fl.loc(a.where), t, x, *dim).getResult();
}

V flip(OpArgs &a) {
  Value x = a.value("self");
  std::optional<std::vector<int64_t>> dims = intsArg(a, "dims");
  if (!dims)
    return std::nullopt;
  SmallVector<int64_t> normalized;
  for (int64_t d : *dims) {
    std::optional<int64_t> n = a.fl.normalizeDim(d, rankOf(x), a.range("dims"));
    if (!n)
      return std::nullopt;
    normalized.push_back(*n);
  }
  // A 0-D tensor has nothing to reverse (PyTorch accepts dim 0 or -1).
  if (rankOf(x) == 0)
    return x;
  std::string why;
  Type t = inferFlipType(x.getType(), normalized, &why);
  if (!inferred(a, t, why))
    return std::nullopt;
  return a.fl.b.create<FlipOp>(a.fl.loc(a.where), t, x, normalized)
      .getResult();
}

/// x rolled by `shift` along `dim`: cat(x[n - s:], x[:n - s]) with
/// s = shift mod n (Python's mod, so a negative shift rolls left). Both
/// slices are typed `?` along `dim` so that they share the list's type.
V rollOne(OpArgs &a, Value x, int64_t shift, int64_t dim) {
  FunctionLowering &fl = a.fl;
  auto t = llvm::cast<RankedTensorType>(x.getType());
  Value n = fl.dimValues(x, a.where)[dim];
  // max(n, 1): an empty dim rolls to itself instead of dividing by zero.
  Value one = fl.constInt(1, a.where);
  Value positive = nn::binary(fl, "kiln.maximum", n, one, a.where);
  MaybeValue s = fl.applyBinOp(ast::BinOpKind::Mod,
                               PyValue::ofValue(fl.constInt(shift, a.where)),
                               PyValue::ofValue(positive), a.where, a.where,
                               a.where);
  if (!s)
    return std::nullopt;
  Value split = nn::binary(fl, "kiln.sub", n, s->value, a.where);
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] = ShapedType::kDynamic;
  auto partType = RankedTensorType::get(shape, t.getElementType());
  Location l = fl.loc(a.where);
  // Named operands: argument order is unspecified; the IR must not be.
  Value zero = fl.constInt(0, a.where), step = fl.constInt(1, a.where);
  Value tail = fl.b.create<SliceOp>(l, partType, x, split, n, step, dim);
  Value head = fl.b.create<SliceOp>(l, partType, x, zero, split, step, dim);
  Value list = fl.b.create<ListConstructOp>(l, ListType::get(partType),
                                            ValueRange{tail, head});
  Value joined = fl.b.create<CatOp>(l, partType, list, dim);
  return fl.castForMerge(joined, t, a.where);
}

V roll(OpArgs &a) {
  Value x = a.value("self");
  std::optional<std::vector<int64_t>> shifts = intsArg(a, "shifts");
  std::optional<std::vector<int64_t>> dims = intsArg(a, "dims");
  if (!shifts || !dims)
    return std::nullopt;
  if (shifts->size() != dims->size() || dims->empty()) {
    a.fl.error(a.where, a.spelling + "() needs as many shifts as dims, and "
                                     "at least one dim (a roll of the "
                                     "flattened tensor is not supported)");
    return std::nullopt;
  }
  for (size_t i = 0; i < dims->size(); ++i) {
    std::optional<int64_t> d =
        a.fl.normalizeDim((*dims)[i], rankOf(x), a.range("dims"));
    if (!d)
      return std::nullopt;
    if (rankOf(x) == 0)
      return x;
    V r = rollOne(a, x, (*shifts)[i], *d);
    if (!r)
      return std::nullopt;
    x = *r;
  }
  return x;
}
//===--- sort, topk ------------------------------------------------------===//

/// `x` with dims `d` and the last swapped (the identity when d is last).
Value toLast(OpArgs &a, Value x, int64_t d) {
  int64_t last = rankOf(x) - 1;
  if (d == last || last < 0)
    return x;
  std::string why;
  Type t = inferTransposeType(x.getType(), d, last, &why);
  return a.fl.b.create<TransposeOp>(a.fl.loc(a.where), t, x, d, last);
}

/// kiln.sort along `dim` (moved last and back): values and i64 indices.
std::optional<std::pair<Value, Value>> sortAlong(OpArgs &a, Value x,
                                                 int64_t dim,
                                                 bool descending) {
  std::string why;
  Value moved = toLast(a, x, dim);
  Type t = inferSortType(moved.getType(), &why);
  if (!inferred(a, t, why))
    return std::nullopt;
  Type it = withElementType(t, a.fl.b.getI64Type());
  auto sort = a.fl.b.create<SortOp>(a.fl.loc(a.where), TypeRange{t, it},
                                    moved, descending);
  return std::make_pair(toLast(a, sort.getValues(), dim),
                        toLast(a, sort.getIndices(), dim));
}

V sortRow(OpArgs &a) {
  Value x = a.value("self");
  std::optional<int64_t> dim = a.dim("dim", rankOf(x));
  std::optional<bool> descending = a.flag("descending");
  if (!dim || !descending)
    return std::nullopt;
  auto r = sortAlong(a, x, *dim, *descending);
  if (!r)
    return std::nullopt;
  a.tupleResult =
      PyValue::tuple({PyValue::ofValue(r->first), PyValue::ofValue(r->second)});
  return r->first;
}

/// topk: the first k of a stable sort, so that equal values come in input
/// order (PyTorch's CPU topk may order ties differently).
V topk(OpArgs &a) {
  Value x = a.value("self");
  std::optional<int64_t> dim = a.dim("dim", rankOf(x));
  std::optional<bool> largest = a.flag("largest");
  std::optional<int64_t> k = a.constInt("k");
  if (!dim || !largest || !k || !a.flag("sorted"))
    return std::nullopt;
  auto t = llvm::cast<RankedTensorType>(x.getType());
  int64_t n = t.getRank() ? t.getDimSize(*dim) : 1;
  if (*k < 0 || (!ShapedType::isDynamic(n) && *k > n)) {
    a.fl.error(a.range("k"), "selected index k out of range: k = " +
                                 std::to_string(*k) + " for a dim of size " +
                                 std::to_string(n));
    return std::nullopt;
  }
  auto r = sortAlong(a, x, *dim, *largest);
  if (!r)
    return std::nullopt;
  if (t.getRank() == 0) {
    a.tupleResult = PyValue::tuple(
        {PyValue::ofValue(r->first), PyValue::ofValue(r->second)});
    return r->first;
  }
  // A dynamic dim shorter than k gives fewer than k: the slice clamps.
  auto first = [&](Value v) {
    auto vt = llvm::cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(vt.getShape());
    shape[*dim] = *k;
    Value start = a.fl.constInt(0, a.where), end = a.fl.constInt(*k, a.where);
    Value step = a.fl.constInt(1, a.where);
    return a.fl.b
        .create<SliceOp>(a.fl.loc(a.where),
                         RankedTensorType::get(shape, vt.getElementType()), v,
                         start, end, step, *dim)
        .getResult();
  };
  Value values = first(r->first), indices = first(r->second);
  a.tupleResult =
      PyValue::tuple({PyValue::ofValue(values), PyValue::ofValue(indices)});
  return values;
}

} // namespace

std::vector<NamedBuilder> indexingBuilders() {
  return {{"gather", gather},
          {"index_select", indexSelect},
          {"cumsum", scan<CumsumOp>},
          {"cumprod", scan<CumprodOp>},
          {"flip", flip},
          {"roll", roll},
          {"sort", sortRow},
          {"topk", topk}};
}

} // namespace kiln::ops
