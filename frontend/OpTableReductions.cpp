//===- OpTableReductions.cpp - The op table's builders: reductions --------===//
//
// sum, mean, var, amax/amin and max along a dim, one kiln op each: the
// builders of prelude/reductions.py's rows, which also says how their
// overloads are tried (std, max() and min(), min along a dim, max/min
// against another tensor and argmax/argmin are Python there). Dims are
// compile-time ints (the result type depends on them).
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

enum class Reduce { Sum, Mean, AMax, AMin, Var };

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
  if (K == Reduce::Var) {
    std::optional<bool> unbiased = a.flag("unbiased");
    if (!unbiased)
      return std::nullopt;
    correction = *unbiased;
  }
  bool needsFloat = K == Reduce::Mean || K == Reduce::Var;
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
    break;
  }
  return fl.b
      .create<VarOp>(l, rt, x, dimsAttr, keepAttr,
                     fl.b.getI64IntegerAttr(correction))
      .getResult();
}

/// kiln.max_dim: the max along a dim and the first index of equal maxima
/// and of the first NaN, as PyTorch (prelude/reductions.py builds min,
/// argmax and argmin on it).
V maxAlongDim(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  std::optional<int64_t> dim = a.dim("dim", typeOf(x).getRank());
  std::optional<bool> keep = dim ? a.flag("keepdim") : std::nullopt;
  if (!keep)
    return std::nullopt;
  std::string why;
  Type vt = inferReduceType(x.getType(), {*dim}, *keep, false, &why);
  if (!vt)
    return fail(a, a.where, fl.userMessage(why));
  Type it = withElementType(vt, fl.b.getI64Type());
  auto op = fl.b.create<MaxDimOp>(fl.loc(a.where), vt, it, x, *dim, *keep);
  a.tupleResult = PyValue::tuple(
      {PyValue::ofValue(op.getResult(0)), PyValue::ofValue(op.getResult(1))});
  return op.getResult(0);
}

} // namespace

std::vector<NamedBuilder> reductionBuilders() {
  return {{"sum", reduce<Reduce::Sum>},
          {"mean", reduce<Reduce::Mean>},
          {"var", reduce<Reduce::Var>},
          {"amax", reduce<Reduce::AMax>},
          {"amin", reduce<Reduce::AMin>},
          {"max_dim", maxAlongDim}};
}

} // namespace kiln::ops
