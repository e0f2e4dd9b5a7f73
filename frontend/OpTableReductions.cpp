//===- OpTableReductions.cpp - The op table's builders: reductions --------===//
//
// sum, mean, var, amax/amin, max/min (all, along a dim, against another
// tensor) and argmax/argmin: the builders of prelude/reductions.py's rows,
// which also says how their overloads are tried (std is Python there, the
// square root of var). Dims are compile-time ints (the result type depends
// on them).
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


} // namespace

std::vector<NamedBuilder> reductionBuilders() {
  return {{"sum", reduce<Reduce::Sum>},
          {"mean", reduce<Reduce::Mean>},
          {"var", reduce<Reduce::Var>},
          {"amax", reduce<Reduce::AMax>},
          {"amin", reduce<Reduce::AMin>},
          {"max", maxAll<false>},
          {"max_dim", maxAlongDim<false>},
          {"max_other", maxOther<false>},
          {"min", maxAll<true>},
          {"min_dim", maxAlongDim<true>},
          {"min_other", maxOther<true>},
          {"argmax", argMax<false>},
          {"argmin", argMax<true>}};
}

} // namespace kiln::ops
