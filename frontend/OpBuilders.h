//===- OpBuilders.h - Helpers shared by the op table's builders -*- C++ -*-===//
//
// Private to frontend/: the small helpers that more than one OpTable*.cpp
// family file uses to write its builders (the bound `self`, a value's ranked
// type, reporting an error, size arithmetic and casts; for elementwise math
// the first argument, float conversion and the Ops builders of composed
// math).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_OPBUILDERS_H
#define KILN_FRONTEND_OPBUILDERS_H

#include "frontend/LowerNNSupport.h"
#include "frontend/LoweringImpl.h"
#include "frontend/OpTable.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cassert>
#include <cmath>
#include <optional>
#include <string>

namespace kiln::ops {

using V = std::optional<mlir::Value>;

inline mlir::Value self(OpArgs &a) { return a.value("self"); }
inline mlir::RankedTensorType typeOf(mlir::Value v) {
  return llvm::cast<mlir::RankedTensorType>(v.getType());
}
inline V fail(OpArgs &a, SourceRange at, const std::string &message) {
  a.fl.error(at, message);
  return std::nullopt;
}
/// l * r on i64 sizes, folded when both are constants so that static
/// shapes stay static.
inline mlir::Value mulSizes(OpArgs &a, mlir::Value l, mlir::Value r) {
  std::optional<int64_t> cl = a.fl.constIntValue(l), cr = a.fl.constIntValue(r);
  if (cl && cr)
    return a.fl.constInt(*cl * *cr, a.where);
  return a.fl.b.create<MulOp>(a.fl.loc(a.where), a.fl.b.getI64Type(), l, r);
}
inline mlir::Value castTo(OpArgs &a, mlir::Value x, mlir::Type element) {
  auto t = typeOf(x);
  if (t.getElementType() == element)
    return x;
  return a.fl.b.create<CastOp>(a.fl.loc(a.where),
                               withElementType(t, element), x);
}

//===--- elementwise math -----------------------------------------------===//

/// The first parameter's value (`self`, `input` or `x`).
inline mlir::Value firstArg(OpArgs &a) { return a.args[0].value.value; }

inline bool isFloat(mlir::Value v) {
  return llvm::isa<mlir::FloatType>(mlir::getElementTypeOrSelf(v.getType()));
}

/// `v` in float32 (a tensor) or f64 (a Python scalar), as PyTorch computes
/// float math on ints.
inline mlir::Value toFloat(OpArgs &a, mlir::Value v) {
  if (isFloat(v))
    return v;
  if (auto t = llvm::dyn_cast<mlir::RankedTensorType>(v.getType()))
    return a.fl.b.create<CastOp>(a.fl.loc(a.where),
                                 withElementType(t, a.fl.b.getF32Type()), v);
  return a.fl.castScalar(v, a.fl.b.getF64Type(), a.where);
}

/// Small builders on operands known to combine (a float tensor or scalar
/// with scalars or its own shape), so they cannot fail.
struct Ops {
  OpArgs &a;
  mlir::Value c(double v) { return a.fl.constFloat(v, a.where); }
  mlir::Value un(llvm::StringRef op, mlir::Value x) {
    return nn::unary(a.fl, op, x, a.where);
  }
  mlir::Value bin(llvm::StringRef op, mlir::Value l, mlir::Value r) {
    return *a.fl.emitElementwise(op, l, r, a.where, a.where, a.where);
  }
  mlir::Value add(mlir::Value l, mlir::Value r) { return bin("kiln.add", l, r); }
  mlir::Value sub(mlir::Value l, mlir::Value r) { return bin("kiln.sub", l, r); }
  mlir::Value mul(mlir::Value l, mlir::Value r) { return bin("kiln.mul", l, r); }
  mlir::Value div(mlir::Value l, mlir::Value r) { return bin("kiln.div", l, r); }
  mlir::Value max(mlir::Value l, mlir::Value r) {
    return bin("kiln.maximum", l, r);
  }
  mlir::Value min(mlir::Value l, mlir::Value r) {
    return bin("kiln.minimum", l, r);
  }
  mlir::Value cmp(CmpPredicate p, mlir::Value l, mlir::Value r) {
    return *a.fl.emitCompare(p, l, r, a.where, a.where, a.where);
  }
  /// where(cond, t, f) with f's type when both share it.
  mlir::Value select(mlir::Value cond, mlir::Value t, mlir::Value f) {
    mlir::Type type =
        inferWhereType(cond.getType(), t.getType(), f.getType(), nullptr);
    assert(type && "select operands broadcast");
    return a.fl.b.create<WhereOp>(a.fl.loc(a.where), type, cond, t, f);
  }
};

} // namespace kiln::ops

#endif // KILN_FRONTEND_OPBUILDERS_H
