//===- LowerIndexing.cpp - Subscripts and subscript assignment ------------===//
//
// Python indexing is decomposed into select (an int), slice (a:b:c) and
// unsqueeze (None), one dimension at a time; subscript assignment is the
// same walk producing the functional select_scatter/slice_scatter ops,
// innermost first, as PyTorch's functionalization does.
//
//===----------------------------------------------------------------------===//

#include "frontend/LoweringImpl.h"

#include <algorithm>

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

#include <limits>

using namespace mlir;

namespace kiln {

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

/// Lowers the indices of `t[...]`, expanding `...` to full slices.
static std::optional<std::vector<IndexStep>>
lowerIndices(FunctionLowering &fl, ArrayRef<const ast::Expr *> indices,
             int64_t rank, SourceRange where) {
  int64_t consumed = 0;
  int ellipses = 0;
  // Ints and tensors are lowered first: a bool mask consumes one dim per
  // dim of its own, so `...` can only be sized once their types are known.
  std::vector<MaybeValue> lowered(indices.size());
  for (size_t k = 0; k < indices.size(); ++k) {
    const ast::Expr *i = indices[k];
    if (llvm::isa<ast::EllipsisLitExpr>(i)) {
      ++ellipses;
      continue;
    }
    if (llvm::isa<ast::NoneLitExpr>(i))
      continue;
    if (!llvm::isa<ast::SliceExpr>(i)) {
      lowered[k] = fl.lowerExpr(*i);
      if (!lowered[k])
        return std::nullopt;
    }
    consumed += lowered[k] ? advancedIndexRank(*lowered[k]) : 1;
  }
  if (ellipses > 1) {
    fl.error(where, "an index can only have a single ellipsis ('...')");
    return std::nullopt;
  }
  if (consumed > rank) {
    fl.error(where, "too many indices for a tensor of rank " +
                        std::to_string(rank) + ": " + std::to_string(consumed) +
                        " given");
    return std::nullopt;
  }
  std::vector<IndexStep> steps;
  auto fullSlice = [&](SourceRange r) {
    IndexStep s{IndexStep::Slice,
                {},
                fl.constInt(0, r),
                fl.constInt(std::numeric_limits<int64_t>::max(), r),
                fl.constInt(1, r),
                0,
                std::numeric_limits<int64_t>::max(),
                1,
                r};
    return s;
  };
  for (size_t k = 0; k < indices.size(); ++k) {
    const ast::Expr *i = indices[k];
    if (llvm::isa<ast::EllipsisLitExpr>(i)) {
      for (int64_t k = 0; k < rank - consumed; ++k)
        steps.push_back(fullSlice(i->range));
      continue;
    }
    if (llvm::isa<ast::NoneLitExpr>(i)) {
      steps.push_back(
          {IndexStep::NewAxis, {}, {}, {}, {}, {}, {}, {}, i->range});
      continue;
    }
    if (auto *s = llvm::dyn_cast<ast::SliceExpr>(i)) {
      IndexStep st = fullSlice(i->range);
      auto part = [&](const ast::ExprPtr &e, Value &v,
                      std::optional<int64_t> &c) -> bool {
        if (!e || llvm::isa<ast::NoneLitExpr>(*e))
          return true;
        std::optional<Value> x = fl.lowerValue(*e);
        if (!x)
          return false;
        if (!x->getType().isInteger(64)) {
          fl.error(e->range, "slice indices must be ints, got " +
                                 fl.describe(PyValue::ofValue(*x)));
          return false;
        }
        v = *x;
        c = fl.constIntValue(*x);
        return true;
      };
      if (!part(s->lower, st.start, st.cStart) ||
          !part(s->upper, st.end, st.cEnd) || !part(s->step, st.step, st.cStep))
        return std::nullopt;
      if (!st.cStep || *st.cStep <= 0) {
        fl.error(s->step->range, "slice step must be a positive constant");
        return std::nullopt;
      }
      steps.push_back(st);
      continue;
    }
    MaybeValue &v = lowered[k];
    if (v->isValue() && llvm::isa<RankedTensorType>(v->value.getType())) {
      steps.push_back(
          {IndexStep::Advanced, v->value, {}, {}, {}, {}, {}, {}, i->range});
      continue;
    }
    if (!v->isValue() || !v->value.getType().isInteger(64)) {
      fl.error(i->range, "tensor indices must be ints, slices, None, '...', "
                         "or integer or bool tensors, got " +
                             fl.describe(*v));
      return std::nullopt;
    }
    steps.push_back(
        {IndexStep::Select, v->value, {}, {}, {}, {}, {}, {}, i->range});
  }
  // Trailing dims not mentioned are kept whole.
  return steps;
}

/// Static length of a Python slice over a dim of static size `n`.
static int64_t sliceLength(int64_t n, int64_t start, int64_t end,
                           int64_t step) {
  auto clamp = [n](int64_t i) {
    if (i < 0)
      i = i + n < 0 ? 0 : i + n;
    return i > n ? n : i;
  };
  int64_t s = clamp(start), e = clamp(end);
  return e <= s ? 0 : (e - s + step - 1) / step;
}

/// Checks a constant index against a static dim.
static bool checkIndex(FunctionLowering &fl, Value index, int64_t size,
                       int64_t dim, SourceRange r) {
  std::optional<int64_t> c = fl.constIntValue(index);
  if (!c || size == ShapedType::kDynamic)
    return true;
  if (*c >= size || *c < -size)
    return fl.error(
        r, "index " + std::to_string(*c) + " is out of range for dimension " +
               std::to_string(dim) + " of size " + std::to_string(size));
  return true;
}

static Type selectType(RankedTensorType t, int64_t dim) {
  SmallVector<int64_t> shape(t.getShape());
  shape.erase(shape.begin() + dim);
  return RankedTensorType::get(shape, t.getElementType());
}

static Type sliceType(RankedTensorType t, int64_t dim, const IndexStep &s) {
  SmallVector<int64_t> shape(t.getShape());
  int64_t n = shape[dim];
  shape[dim] = (n != ShapedType::kDynamic && s.cStart && s.cEnd && s.cStep)
                   ? sliceLength(n, *s.cStart, *s.cEnd, *s.cStep)
                   : ShapedType::kDynamic;
  return RankedTensorType::get(shape, t.getElementType());
}

/// `t[a:b:c]` on a tuple, with constant bounds, as Python slices it.
MaybeValue FunctionLowering::sliceTuple(const PyValue &tuple,
                                        const ast::SliceExpr &slice) {
  int64_t n = tuple.elems.size();
  auto bound = [&](const ast::ExprPtr &e,
                   int64_t fallback) -> std::optional<int64_t> {
    if (!e || llvm::isa<ast::NoneLitExpr>(*e))
      return fallback;
    return lowerConstInt(*e, "a tuple slice bound");
  };
  std::optional<int64_t> step = bound(slice.step, 1);
  if (!step)
    return std::nullopt;
  if (*step == 0) {
    error(slice.step->range, "slice step cannot be zero");
    return std::nullopt;
  }
  std::optional<int64_t> lo = bound(slice.lower, *step > 0 ? 0 : n - 1);
  std::optional<int64_t> hi = bound(slice.upper, *step > 0 ? n : -n - 1);
  if (!lo || !hi)
    return std::nullopt;
  // Python's clamping: negative bounds count from the end, and bounds past
  // either end stop there.
  auto clamp = [&](int64_t i) {
    if (i < 0)
      i += n;
    return *step > 0 ? std::clamp<int64_t>(i, 0, n)
                     : std::clamp<int64_t>(i, -1, n - 1);
  };
  std::vector<PyValue> out;
  for (int64_t i = clamp(*lo), end = clamp(*hi);
       *step > 0 ? i < end : i > end; i += *step)
    out.push_back(tuple.elems[i]);
  return PyValue::tuple(std::move(out));
}

MaybeValue FunctionLowering::lowerSubscript(const ast::SubscriptExpr &e) {
  MaybeValue base = lowerExpr(*e.value);
  if (!base)
    return std::nullopt;
  SmallVector<const ast::Expr *> indices;
  for (const ast::ExprPtr &i : e.indices)
    indices.push_back(i.get());

  if (base->kind == PyValue::Kind::Tuple) {
    if (indices.size() != 1) {
      error(e.range, "a tuple takes a single index");
      return std::nullopt;
    }
    if (auto *slice = llvm::dyn_cast<ast::SliceExpr>(indices[0]))
      return sliceTuple(*base, *slice);
    std::optional<int64_t> i = lowerConstInt(*indices[0], "a tuple index");
    if (!i)
      return std::nullopt;
    int64_t n = base->elems.size();
    if (*i >= n || *i < -n) {
      error(indices[0]->range, "tuple index " + std::to_string(*i) +
                                   " is out of range for a tuple of " +
                                   std::to_string(n));
      return std::nullopt;
    }
    return base->elems[*i < 0 ? *i + n : *i];
  }
  if (base->isValue()) {
    if (auto list = llvm::dyn_cast<ListType>(base->value.getType())) {
      if (auto *slice = llvm::dyn_cast<ast::SliceExpr>(indices[0]);
          slice && indices.size() == 1)
        return sliceList(*this, *base, *slice, e.range);
      if (indices.size() != 1 || llvm::isa<ast::SliceExpr>(indices[0])) {
        error(e.range, "a list takes a single int index");
        return std::nullopt;
      }
      std::optional<Value> i = lowerValue(*indices[0]);
      if (!i)
        return std::nullopt;
      if (!i->getType().isInteger(64)) {
        error(indices[0]->range, "list indices must be ints");
        return std::nullopt;
      }
      return PyValue::ofValue(b.create<ListGetOp>(
          loc(e.range), list.getElementType(), base->value, *i));
    }
    if (auto tt = llvm::dyn_cast<RankedTensorType>(base->value.getType())) {
      auto steps = lowerIndices(*this, indices, tt.getRank(), e.range);
      if (!steps)
        return std::nullopt;
      Value cur = base->value;
      int64_t dim = 0;
      std::vector<AdvancedIndex> advanced;
      for (const IndexStep &s : *steps) {
        auto t = llvm::cast<RankedTensorType>(cur.getType());
        Location l = loc(s.range);
        switch (s.kind) {
        case IndexStep::Advanced:
          advanced.push_back({dim, s.index, s.range});
          dim += advancedIndexRank(PyValue::ofValue(s.index));
          break;
        case IndexStep::NewAxis: {
          SmallVector<int64_t> shape(t.getShape());
          shape.insert(shape.begin() + dim, 1);
          cur = b.create<UnsqueezeOp>(
              l, RankedTensorType::get(shape, t.getElementType()), cur,
              b.getI64IntegerAttr(dim));
          ++dim;
          break;
        }
        case IndexStep::Select:
          if (!checkIndex(*this, s.index, t.getDimSize(dim), dim, s.range))
            return std::nullopt;
          cur = b.create<SelectOp>(l, selectType(t, dim), cur, s.index,
                                   b.getI64IntegerAttr(dim));
          break;
        case IndexStep::Slice:
          // `:` keeps the dim as it is: nothing to read.
          if (s.cStart != 0 || s.cEnd != std::numeric_limits<int64_t>::max() ||
              s.cStep != 1)
            cur = b.create<SliceOp>(l, sliceType(t, dim, s), cur, s.start,
                                    s.end, s.step, b.getI64IntegerAttr(dim));
          ++dim;
          break;
        }
      }
      if (!advanced.empty()) {
        std::optional<Value> r = readAdvanced(*this, cur, advanced, e.range);
        if (!r)
          return std::nullopt;
        cur = *r;
      }
      return PyValue::ofValue(cur);
    }
  }
  error(e.value->range, describe(*base) + " cannot be indexed");
  return std::nullopt;
}

/// Makes `value` the shape and dtype of `target` for a subscript store.
static std::optional<Value> broadcastForStore(FunctionLowering &fl, Value value,
                                              RankedTensorType target,
                                              SourceRange where) {
  Location l = fl.loc(where);
  auto vt = llvm::dyn_cast<RankedTensorType>(value.getType());
  if (!vt) {
    fl.error(where, "cannot store " + fl.describe(PyValue::ofValue(value)) +
                        " into a Tensor");
    return std::nullopt;
  }
  if (vt.getRank() > target.getRank()) {
    fl.error(where, "cannot store " + fl.describe(PyValue::ofValue(value)) +
                        " into a slice of type " + describeType(target));
    return std::nullopt;
  }
  if (vt.getElementType() != target.getElementType()) {
    value = fl.b.create<CastOp>(
        l, RankedTensorType::get(vt.getShape(), target.getElementType()),
        value);
    vt = llvm::cast<RankedTensorType>(value.getType());
  }
  return value;
}

std::optional<Value>
FunctionLowering::emitSubscriptUpdate(Value base,
                                      ArrayRef<const ast::Expr *> indices,
                                      Value value, SourceRange where) {
  auto tt = llvm::cast<RankedTensorType>(base.getType());
  auto steps = lowerIndices(*this, indices, tt.getRank(), where);
  if (!steps)
    return std::nullopt;
  for (const IndexStep &s : *steps)
    if (s.kind == IndexStep::NewAxis) {
      error(s.range, "None in an assignment target is not supported");
      return std::nullopt;
    }

  // Walk down, remembering each view, then scatter back up.
  struct Level {
    Value tensor;
    const IndexStep *step;
    int64_t dim;
  };
  std::vector<Level> levels;
  std::vector<AdvancedIndex> advanced;
  Value cur = base;
  int64_t dim = 0;
  for (const IndexStep &s : *steps) {
    auto t = llvm::cast<RankedTensorType>(cur.getType());
    if (s.kind == IndexStep::Advanced) {
      advanced.push_back({dim, s.index, s.range});
      dim += advancedIndexRank(PyValue::ofValue(s.index));
      continue;
    }
    levels.push_back({cur, &s, dim});
    Location l = loc(s.range);
    if (s.kind == IndexStep::Select) {
      if (!checkIndex(*this, s.index, t.getDimSize(dim), dim, s.range))
        return std::nullopt;
      cur = b.create<SelectOp>(l, selectType(t, dim), cur, s.index,
                               b.getI64IntegerAttr(dim));
    } else {
      cur = b.create<SliceOp>(l, sliceType(t, dim, s), cur, s.start, s.end,
                              s.step, b.getI64IntegerAttr(dim));
      ++dim;
    }
  }

  // The new contents of the innermost view.
  auto viewType = llvm::cast<RankedTensorType>(cur.getType());
  Value src;
  Location l = loc(where);
  if (!advanced.empty()) {
    std::optional<Value> v = storeAdvanced(*this, cur, advanced, value, where);
    if (!v)
      return std::nullopt;
    src = *v;
  } else if (isScalarType(value.getType())) {
    src = b.create<FullOp>(l, viewType, value, dimValues(cur, where));
  } else {
    std::optional<Value> v = broadcastForStore(*this, value, viewType, where);
    if (!v)
      return std::nullopt;
    src = *v;
    auto st = llvm::cast<RankedTensorType>(src.getType());
    if (st.getShape() != viewType.getShape()) {
      std::string why;
      Type check =
          inferElementwiseType(ElementwiseKind::Arith, viewType, st, &why);
      if (!check ||
          llvm::cast<RankedTensorType>(check).getRank() != viewType.getRank()) {
        error(where, "cannot store " + describe(PyValue::ofValue(value)) +
                         " into a slice of type " + describeType(viewType) +
                         (why.empty() ? "" : ": " + userMessage(why)));
        return std::nullopt;
      }
      src = b.create<ExpandOp>(l, viewType, src, dimValues(cur, where));
    }
  }

  // Scatter back, innermost first.
  for (auto it = levels.rbegin(); it != levels.rend(); ++it) {
    Location sl = loc(it->step->range);
    if (it->step->kind == IndexStep::Select)
      src = b.create<SelectScatterOp>(sl, it->tensor.getType(), it->tensor, src,
                                      it->step->index,
                                      b.getI64IntegerAttr(it->dim));
    else
      src = b.create<SliceScatterOp>(
          sl, it->tensor.getType(), it->tensor, src, it->step->start,
          it->step->end, it->step->step, b.getI64IntegerAttr(it->dim));
  }
  return src;
}

} // namespace kiln
