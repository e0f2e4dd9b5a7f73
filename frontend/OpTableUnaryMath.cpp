//===- OpTableUnaryMath.cpp - The op table's rows: math functions ---------===//
//
// The builders of the rows of frontend/prelude/unary.py (unary math on
// tensors) and pymath.py (Python's math module on scalars) that are neither
// one kiln op nor a Python decomposition: sign, trunc and round, which keep
// int inputs as they are, and the math.X functions. round is half to even,
// as torch.round is.
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
V sign(OpArgs &a) {
  Ops o{a};
  Value x = firstArg(a);
  auto t = llvm::cast<RankedTensorType>(x.getType());
  Value zero = isFloat(x) ? o.c(0.0) : a.fl.constInt(0, a.where);
  auto asType = [&](Value m) {
    return a.fl.b.create<CastOp>(a.fl.loc(a.where), t, m).getResult();
  };
  Value pos = asType(o.cmp(CmpPredicate::gt, x, zero));
  Value neg = asType(o.cmp(CmpPredicate::lt, x, zero));
  return o.sub(pos, neg);
}

V trunc(OpArgs &a) {
  Ops o{a};
  Value x = firstArg(a);
  if (!isFloat(x))
    return x;
  return o.select(o.cmp(CmpPredicate::lt, x, o.c(0.0)), o.un("kiln.ceil", x),
                  o.un("kiln.floor", x));
}

V round(OpArgs &a) {
  // Half to even, exactly: x - floor(x) is exact in binary floating point,
  // so ties are detected without the rounding of x + 0.5.
  Ops o{a};
  Value x = firstArg(a);
  if (!isFloat(x))
    return x;
  Value f = o.un("kiln.floor", x), frac = o.sub(x, f);
  Value odd = o.sub(f, o.mul(o.un("kiln.floor", o.mul(f, o.c(0.5))), o.c(2.0)));
  Value tie = o.add(f, odd);
  return o.select(o.cmp(CmpPredicate::gt, frac, o.c(0.5)), o.add(f, o.c(1.0)),
                  o.select(o.cmp(CmpPredicate::lt, frac, o.c(0.5)), f, tie));
}

//===--- math.X on Python scalars -------------------------------------===//

/// math.X as torch.X's row on a 0-d f64 tensor: the guarded
/// decompositions need where, which takes tensors.
V viaTensor(OpArgs &a) {
  const Row *row = lookup(Torch, a.row.schema().name);
  assert(row && "a via_tensor row names a torch op");
  Value x = toFloat(a, firstArg(a));
  Location l = a.fl.loc(a.where);
  Value t = a.fl.b.create<FromScalarOp>(
      l, RankedTensorType::get({}, a.fl.b.getF64Type()), x);
  OpArgs inner(a.fl, *row, a.spelling, a.where);
  inner.args.push_back({PyValue::ofValue(t), a.args[0].range, true});
  V r = lowerRow(inner);
  if (!r)
    return std::nullopt;
  return a.fl.b.create<ItemOp>(l, a.fl.b.getF64Type(), *r).getResult();
}

V mathLog(OpArgs &a) {
  Ops o{a};
  Value r = o.un("kiln.log", toFloat(a, firstArg(a)));
  if (a.isNone("base"))
    return r;
  return o.div(r, o.un("kiln.log", toFloat(a, a.value("base"))));
}
V mathRounding(OpArgs &a, StringRef op) {
  Value r = nn::unary(a.fl, op, toFloat(a, firstArg(a)), a.where);
  return a.fl.castScalar(r, a.fl.b.getI64Type(), a.where);
}
V mathFloor(OpArgs &a) { return mathRounding(a, "kiln.floor"); }
V mathCeil(OpArgs &a) { return mathRounding(a, "kiln.ceil"); }
V mathPow(OpArgs &a) {
  return Ops{a}.bin("kiln.pow", toFloat(a, firstArg(a)), toFloat(a, a.value("y")));
}
V mathIsnan(OpArgs &a) {
  Value x = toFloat(a, firstArg(a));
  return Ops{a}.cmp(CmpPredicate::ne, x, x);
}
V mathIsinf(OpArgs &a) {
  Ops o{a};
  return o.cmp(CmpPredicate::eq, o.un("kiln.abs", toFloat(a, firstArg(a))),
               o.c(INFINITY));
}
V mathIsfinite(OpArgs &a) {
  Ops o{a};
  return o.cmp(CmpPredicate::lt, o.un("kiln.abs", toFloat(a, firstArg(a))),
               o.c(INFINITY));
}
} // namespace

std::vector<NamedBuilder> unaryBuilders() {
  return {{"sign", sign},
          {"trunc", trunc},
          {"round", round},
          {"via_tensor", viaTensor},
          {"math_log", mathLog},
          {"math_floor", mathFloor},
          {"math_ceil", mathCeil},
          {"math_pow", mathPow},
          {"math_isnan", mathIsnan},
          {"math_isinf", mathIsinf},
          {"math_isfinite", mathIsfinite}};
}

} // namespace kiln::ops
