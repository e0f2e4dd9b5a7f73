//===- OpBuilders.h - Helpers shared by the op table's builders -*- C++ -*-===//
//
// Private to frontend/: the small helpers that more than one OpTable*.cpp
// family file uses to write its builders (the bound `self`, a value's ranked
// type, reporting an error, size arithmetic and casts).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_OPBUILDERS_H
#define KILN_FRONTEND_OPBUILDERS_H

#include "frontend/LoweringImpl.h"
#include "frontend/OpTable.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <string>

namespace kiln::ops {

using V = std::optional<mlir::Value>;
constexpr unsigned kBoth = Torch | Method;

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
/// `x` without its size-1 dim `d`.
inline mlir::Value squeezeDim(OpArgs &a, mlir::Value x, int64_t d) {
  auto tt = typeOf(x);
  llvm::SmallVector<int64_t> shape(tt.getShape());
  shape.erase(shape.begin() + d);
  return a.fl.b.create<SqueezeOp>(
      a.fl.loc(a.where),
      mlir::RankedTensorType::get(shape, tt.getElementType()), x,
      a.fl.b.getI64IntegerAttr(d));
}

} // namespace kiln::ops

#endif // KILN_FRONTEND_OPBUILDERS_H
