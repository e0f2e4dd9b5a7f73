//===- OpTableArithmetic.cpp - The op table's rows: arithmetic ------------===//
//
// Binary arithmetic (add, sub, mul, div, pow, ...), maximum/minimum, the
// comparisons and where (see OpFamilies.h). Binary arithmetic goes through
// applyBinOp, as `x + y` does, so dtype promotion lives in one place.
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

V div(OpArgs &a) {
  Value y = a.args[1].value.value;
  if (a.isNone("rounding_mode"))
    return binOp(a, ast::BinOpKind::Div, y);
  std::string mode = a.str("rounding_mode");
  if (mode == "floor")
    return binOp(a, ast::BinOpKind::FloorDiv, y);
  if (mode != "trunc") {
    a.fl.error(a.range("rounding_mode"),
               "div expected rounding_mode to be one of None, 'trunc', or "
               "'floor' but found '" +
                   mode + "'");
    return std::nullopt;
  }
  Value x = firstArg(a);
  if (isFloat(x) || isFloat(y)) {
    V q = binOp(a, ast::BinOpKind::Div, y);
    if (!q)
      return std::nullopt;
    Ops o{a};
    return o.select(o.cmp(CmpPredicate::lt, *q, o.c(0.0)),
                    o.un("kiln.ceil", *q), o.un("kiln.floor", *q));
  }
  // Integers: floor division rounds a negative inexact quotient one below
  // truncation.
  V q = binOp(a, ast::BinOpKind::FloorDiv, y);
  if (!q)
    return std::nullopt;
  Ops o{a};
  Value zero = a.fl.constInt(0, a.where), one = a.fl.constInt(1, a.where);
  Value inexact = o.cmp(CmpPredicate::ne, o.mul(*q, y), x);
  Value up = o.select(o.cmp(CmpPredicate::lt, *q, zero), o.add(*q, one), *q);
  return o.select(inexact, up, *q);
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

#define BINARY_SAMPLES                                                         \
  {                                                                            \
    {"x=f32[B,4], y=f32[4]", "y"}, {"x=i64[N], y=i64[N]", "y"},                \
        {"x=f32[3,1], y=f64[2]", "y"}, {"x=f32[B,3]", "2.5"}, {                \
      "x=f32[0,2], y=f32[2]", "y"                                              \
    }                                                                          \
  }
} // namespace

std::vector<Row> arithmeticRows() {
  return {
      // Binary arithmetic.
      {"add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
       kTensorOp,
       nullptr,
       add,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y"},
        {"x=i64[N], y=i64[N]", "y, alpha=3"},
        {"x=f32[3,1], y=f64[2]", "y, alpha=0.5"},
        {"x=f32[B,3]", "2.5"},
        {"x=f32[0,2], y=f32[2]", "y"}}},
      {"sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
       kTensorOp,
       nullptr,
       sub,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y, alpha=2"},
        {"x=i64[N], y=i64[N]", "y"},
        {"x=f32[B,3]", "2.5"}},
       {"subtract"}},
      {"mul(Tensor self, Tensor other) -> Tensor",
       kTensorOp,
       nullptr,
       mul,
       NoFlags,
       BINARY_SAMPLES,
       {"multiply"}},
      {"div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor",
       kTensorOp,
       nullptr,
       div,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y + 2.0"},
        {"x=i64[N], y=i64[N]", "y + 1"},
        {"x=f32[B,4], y=f32[4]", "y + 0.5, rounding_mode='trunc'", -4, 4},
        {"x=i64[N], y=i64[N]", "y + 1, rounding_mode='trunc'"},
        {"x=f32[B,4], y=f32[4]", "y + 0.5, rounding_mode='floor'", -4, 4},
        {"x=f32[0,2]", "3.0"}},
       {"divide"}},
      {"pow(Tensor self, Tensor exponent) -> Tensor",
       kTensorOp,
       nullptr,
       pow,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y", 0.1, 3},
        {"x=i64[N]", "2"},
        {"x=f64[3]", "0.5", 0, 4}}},
      {"floor_divide(Tensor self, Tensor other) -> Tensor",
       kTensorOp,
       nullptr,
       floorDivide,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y + 2.0", -5, 5},
        {"x=i64[N], y=i64[N]", "y + 1"}}},
      {"remainder(Tensor self, Tensor other) -> Tensor",
       kTensorOp,
       nullptr,
       remainder,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y + 2.0", -5, 5},
        {"x=i64[N], y=i64[N]", "y + 1"}}},
      {"maximum(Tensor self, Tensor other) -> Tensor",
       Torch | Method,
       nullptr,
       maximum,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y"}, {"x=i64[N], y=i64[N]", "y"}}},
      {"minimum(Tensor self, Tensor other) -> Tensor",
       Torch | Method,
       nullptr,
       minimum,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y"}, {"x=i64[N], y=i64[N]", "y"}}},
      // Comparisons.
      {"eq(Tensor self, Tensor other) -> Tensor",
       Torch | Method,
       nullptr,
       compare<CmpPredicate::eq>,
       NoFlags,
       {{"x=i64[B,4], y=i64[4]", "y"}, {"x=f32[3]", "0.0"}}},
      {"ne(Tensor self, Tensor other) -> Tensor",
       Torch | Method,
       nullptr,
       compare<CmpPredicate::ne>,
       NoFlags,
       {{"x=i64[B,4], y=i64[4]", "y"}, {"x=f32[3]", "0.0"}},
       {"not_equal"}},
      {"lt(Tensor self, Tensor other) -> Tensor",
       Torch | Method,
       nullptr,
       compare<CmpPredicate::lt>,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y"}, {"x=i64[3]", "2"}},
       {"less"}},
      {"le(Tensor self, Tensor other) -> Tensor",
       Torch | Method,
       nullptr,
       compare<CmpPredicate::le>,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y"}, {"x=i64[3]", "2"}},
       {"less_equal"}},
      {"gt(Tensor self, Tensor other) -> Tensor",
       Torch | Method,
       nullptr,
       compare<CmpPredicate::gt>,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y"}, {"x=i64[3]", "2"}},
       {"greater"}},
      {"ge(Tensor self, Tensor other) -> Tensor",
       Torch | Method,
       nullptr,
       compare<CmpPredicate::ge>,
       NoFlags,
       {{"x=f32[B,4], y=f32[4]", "y"}, {"x=i64[3]", "2"}},
       {"greater_equal"}},
      {"where(Tensor condition, Tensor self, Tensor other) -> Tensor",
       Torch | Method,
       nullptr,
       where,
       NoFlags,
       {{"c=bool[B,4], x=f32[B,4], y=f32[4]", "x, y"},
        {"c=bool[3], x=i64[3]", "x, 0"}}},
  };
}

} // namespace kiln::ops
