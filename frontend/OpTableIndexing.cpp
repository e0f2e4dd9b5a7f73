//===- OpTableIndexing.cpp - Op-table builders: indexing, scans, order ---===//
//
// The builders of gather, index_select, cumsum, cumprod and flip
// (prelude/indexing.py), and of sort (prelude/order.py), two families (see
// OpFamilies.h) because prelude/resample.py's rows come between them in
// the documentation. Each is one kiln op (ir/KilnNNOps.td), lowered in
// codegen/lowering/IndexingOps.cpp and ScanOps.cpp; sort is kiln.sort
// along the last dim. roll and topk are Python in the prelude.
//
// The arguments that shape an op (dims) must be compile-time constants, as
// they are for the kiln ops' attributes; these builders read them from the
// bound arguments themselves.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/OpFamilies.h"
#include "frontend/OpTable.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::ops {

namespace {
using V = std::optional<Value>;

int64_t rankOf(Value v) {
  return llvm::cast<RankedTensorType>(v.getType()).getRank();
}

/// A compile-time int argument, normalized as a dim of a tensor of `rank`.
std::optional<int64_t> dimArg(OpArgs &a, StringRef name, int64_t rank) {
  std::optional<int64_t> d = a.fl.constIntValue(a.value(name));
  if (!d) {
    a.fl.error(a.range(name), a.spelling + "() argument '" + name.str() +
                                  "' must be a constant int here, got " +
                                  a.fl.describe(a.arg(name).value));
    return std::nullopt;
  }
  return a.fl.normalizeDim(*d, rank, a.range(name));
}

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
  std::optional<std::vector<int64_t>> dims =
      nn::constIntsOf(a.fl, a.arg("dims").value);
  if (!dims) {
    a.fl.error(a.range("dims"), a.spelling + "() argument 'dims' must be "
                                             "constant ints here, got " +
                                    a.fl.describe(a.arg("dims").value));
    return std::nullopt;
  }
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

//===--- sort ----------------------------------------------------------===//

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
V sortRow(OpArgs &a) {
  Value x = a.value("self");
  std::optional<int64_t> dim = a.dim("dim", rankOf(x));
  std::optional<bool> descending = a.flag("descending");
  if (!dim || !descending)
    return std::nullopt;
  std::string why;
  Value moved = toLast(a, x, *dim);
  Type t = inferSortType(moved.getType(), &why);
  if (!inferred(a, t, why))
    return std::nullopt;
  Type it = withElementType(t, a.fl.b.getI64Type());
  auto sort = a.fl.b.create<SortOp>(a.fl.loc(a.where), TypeRange{t, it},
                                    moved, *descending);
  Value values = toLast(a, sort.getValues(), *dim);
  a.tupleResult = PyValue::tuple(
      {PyValue::ofValue(values),
       PyValue::ofValue(toLast(a, sort.getIndices(), *dim))});
  return values;
}

} // namespace

std::vector<NamedBuilder> indexingBuilders() {
  return {{"gather", gather},
          {"index_select", indexSelect},
          {"cumsum", scan<CumsumOp>},
          {"cumprod", scan<CumprodOp>},
          {"flip", flip},
          {"index_put", indexPut},
          {"sort", sortRow}};
}

} // namespace kiln::ops
