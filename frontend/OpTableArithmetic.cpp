//===- OpTableArithmetic.cpp - The op table's builders: arithmetic --------===//
//
// Binary arithmetic (add, sub, mul, div, pow, ...), maximum/minimum, the
// comparisons and where: the builders of prelude/arithmetic.py's rows.
// Binary arithmetic goes through applyBinOp, as `x + y` does, so dtype
// promotion lives in one place.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/LoweringImpl.h"
#include "frontend/OpBuilders.h"
#include "frontend/OpFamilies.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;

namespace kiln::ops {

namespace {
/// A Python operator on `self` and the second parameter.
V binOp(OpArgs &a, ast::BinOpKind op, Value other) {
  const BoundArg &o = a.args[1];
  MaybeValue r = a.fl.applyBinOp(op, a.args[0].value, PyValue::ofValue(other),
                                 a.where, a.args[0].range, o.range);
  return r ? V(r->value) : std::nullopt;
}

V withAlpha(OpArgs &a, ast::BinOpKind op) {
  Value other = a.args[1].value.value;
  if (a.arg("alpha").given) {
    MaybeValue scaled = a.fl.applyBinOp(
        ast::BinOpKind::Mul, PyValue::ofValue(other), a.arg("alpha").value,
        a.where, a.args[1].range, a.range("alpha"));
    if (!scaled)
      return std::nullopt;
    other = scaled->value;
  }
  return binOp(a, op, other);
}

V add(OpArgs &a) { return withAlpha(a, ast::BinOpKind::Add); }
V sub(OpArgs &a) { return withAlpha(a, ast::BinOpKind::Sub); }
V mul(OpArgs &a) {
  return binOp(a, ast::BinOpKind::Mul, a.args[1].value.value);
}
V pow(OpArgs &a) {
  return binOp(a, ast::BinOpKind::Pow, a.args[1].value.value);
}
V floorDivide(OpArgs &a) {
  return binOp(a, ast::BinOpKind::FloorDiv, a.args[1].value.value);
}
V remainder(OpArgs &a) {
  return binOp(a, ast::BinOpKind::Mod, a.args[1].value.value);
}

V elementwise(OpArgs &a, StringRef op) {
  return a.fl.emitElementwise(op, firstArg(a), a.args[1].value.value, a.where,
                              a.args[0].range, a.args[1].range);
}
V maximum(OpArgs &a) { return elementwise(a, "kiln.maximum"); }
V minimum(OpArgs &a) { return elementwise(a, "kiln.minimum"); }

template <CmpPredicate P> V compare(OpArgs &a) {
  return a.fl.emitCompare(P, firstArg(a), a.args[1].value.value, a.where,
                          a.args[0].range, a.args[1].range);
}

V where(OpArgs &a) {
  Value c = a.value("condition"), x = a.value("self"), y = a.value("other");
  std::string why;
  Type t = inferWhereType(c.getType(), x.getType(), y.getType(), &why);
  if (!t) {
    a.fl.error(a.where, a.fl.userMessage(why));
    return std::nullopt;
  }
  return a.fl.b.create<WhereOp>(a.fl.loc(a.where), t, c, x, y).getResult();
}

} // namespace

std::vector<NamedBuilder> arithmeticBuilders() {
  return {{"add", add},
          {"sub", sub},
          {"mul", mul},
          {"pow", pow},
          {"floor_divide", floorDivide},
          {"remainder", remainder},
          {"maximum", maximum},
          {"minimum", minimum},
          {"eq", compare<CmpPredicate::eq>},
          {"ne", compare<CmpPredicate::ne>},
          {"lt", compare<CmpPredicate::lt>},
          {"le", compare<CmpPredicate::le>},
          {"gt", compare<CmpPredicate::gt>},
          {"ge", compare<CmpPredicate::ge>},
          {"where", where}};
}

} // namespace kiln::ops
