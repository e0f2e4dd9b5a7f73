//===- OpTableUnaryMath.cpp - The op table's rows: math functions ---------===//
//
// Unary math on tensors (exp, log, the trig functions, rounding, ...) and
// Python's math module on scalars (see OpFamilies.h). A row whose op is one
// kiln op names it; the others are composed here from existing kiln ops (so
// fusion sees through them), in formulations chosen to stay within a few
// ulp of PyTorch's kernels: log1p and expm1 use the classic corrections
// (Goldberg's and Kahan's) rather than log(1 + x) and exp(x) - 1, which lose
// every digit near 0; round is half to even as torch.round is. The math.X
// rows reuse the tensor builders on 0-d tensors where they need where.
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
#define UNARY_FLOAT(NAME, BODY)                                                \
  V NAME(OpArgs &a) {                                                          \
    Ops o{a};                                                                  \
    Value x = toFloat(a, firstArg(a));                                             \
    (void)o;                                                                   \
    return BODY;                                                               \
  }
UNARY_FLOAT(erfc, o.sub(o.c(1.0), o.un("kiln.erf", x)))
UNARY_FLOAT(log1p, o.log1p(x))
UNARY_FLOAT(expm1, o.expm1(x))
UNARY_FLOAT(exp2, o.un("kiln.exp", o.mul(x, o.c(M_LN2))))
UNARY_FLOAT(log2, o.mul(o.un("kiln.log", x), o.c(1.0 / M_LN2)))
UNARY_FLOAT(log10, o.mul(o.un("kiln.log", x), o.c(1.0 / M_LN10)))
UNARY_FLOAT(tan, o.div(o.un("kiln.sin", x), o.un("kiln.cos", x)))
UNARY_FLOAT(reciprocal, o.div(o.c(1.0), x))
// sinh through expm1 keeps its digits near 0, where exp(x) - exp(-x)
// cancels.
UNARY_FLOAT(sinh,
            o.mul(o.sub(o.expm1(x), o.expm1(o.un("kiln.neg", x))), o.c(0.5)))
UNARY_FLOAT(cosh, o.mul(o.add(o.un("kiln.exp", x),
                              o.un("kiln.exp", o.un("kiln.neg", x))),
                        o.c(0.5)))

V square(OpArgs &a) {
  Value x = firstArg(a);
  return Ops{a}.mul(x, x);
}

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

/// A scalar row computed by a tensor builder on a 0-d f64 tensor: the
/// guarded decompositions need where, which takes tensors.
template <V (*Fn)(OpArgs &)> V viaTensor(OpArgs &a) {
  Value x = toFloat(a, firstArg(a));
  Location l = a.fl.loc(a.where);
  Value t = a.fl.b.create<FromScalarOp>(
      l, RankedTensorType::get({}, a.fl.b.getF64Type()), x);
  OpArgs inner = a;
  inner.args[0].value = PyValue::ofValue(t);
  V r = Fn(inner);
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

std::vector<Row> unaryRows() {
  return {
      // Unary math.
      {"exp(Tensor self) -> Tensor", kTensorOp, "kiln.exp", nullptr, FloatMath,
       UNARY_SAMPLES(-4, 4)},
      {"log(Tensor self) -> Tensor", kTensorOp, "kiln.log", nullptr, FloatMath,
       UNARY_SAMPLES(0.01, 10)},
      {"tanh(Tensor self) -> Tensor", kTensorOp | Functional, "kiln.tanh",
       nullptr, FloatMath, UNARY_SAMPLES(-4, 4)},
      {"sigmoid(Tensor self) -> Tensor", kTensorOp | Functional, "kiln.sigmoid",
       nullptr, FloatMath, UNARY_SAMPLES(-6, 6)},
      {"relu(Tensor self) -> Tensor",
       kTensorOp | kActivation,
       "kiln.relu",
       nullptr,
       NoBool,
       {{"x=f32[B,5]"}, {"x=i64[4]"}, {"x=f32[0]"}}},
      {"sqrt(Tensor self) -> Tensor", kTensorOp, "kiln.sqrt", nullptr,
       FloatMath, UNARY_SAMPLES(0, 9)},
      {"rsqrt(Tensor self) -> Tensor", kTensorOp, "kiln.rsqrt", nullptr,
       FloatMath, UNARY_SAMPLES(0.01, 9)},
      {"abs(Tensor self) -> Tensor",
       kTensorOp,
       "kiln.abs",
       nullptr,
       NoFlags,
       {{"x=f32[B,5]"}, {"x=i64[4]", "", -5, 5}},
       {"absolute"}},
      {"neg(Tensor self) -> Tensor",
       kTensorOp,
       "kiln.neg",
       nullptr,
       NoBool,
       {{"x=f32[B,5]"}, {"x=i64[4]"}},
       {"negative"}},
      {"sin(Tensor self) -> Tensor", kTensorOp, "kiln.sin", nullptr, FloatMath,
       UNARY_SAMPLES(-6, 6)},
      {"cos(Tensor self) -> Tensor", kTensorOp, "kiln.cos", nullptr, FloatMath,
       UNARY_SAMPLES(-6, 6)},
      {"floor(Tensor self) -> Tensor",
       kTensorOp,
       "kiln.floor",
       nullptr,
       NoBool,
       {{"x=f32[B,5]", "", -3, 3}, {"x=i64[4]"}}},
      {"ceil(Tensor self) -> Tensor",
       kTensorOp,
       "kiln.ceil",
       nullptr,
       NoBool,
       {{"x=f32[B,5]", "", -3, 3}, {"x=i64[4]"}}},
      {"erf(Tensor self) -> Tensor", kTensorOp, "kiln.erf", nullptr, FloatMath,
       UNARY_SAMPLES(-3, 3)},
      {"erfc(Tensor self) -> Tensor",
       kTensorOp,
       nullptr,
       erfc,
       NoFlags,
       UNARY_SAMPLES(-3, 3),
       {},
       0,
       0,
       "1 - erf(x): absolute error ~1e-7"},
      {"log1p(Tensor self) -> Tensor",
       kTensorOp,
       nullptr,
       log1p,
       NoFlags,
       {{"x=f32[B,5]", "", -1e-6, 1e-6},
        {"x=f64[3]", "", -0.9, 5},
        {"x=f32[4]", "", -0.5, 100}}},
      {"expm1(Tensor self) -> Tensor",
       kTensorOp,
       nullptr,
       expm1,
       NoFlags,
       {{"x=f32[B,5]", "", -1e-6, 1e-6},
        {"x=f64[3]", "", -5, 5},
        {"x=f32[4]", "", -20, 20}}},
      {"exp2(Tensor self) -> Tensor", kTensorOp, nullptr, exp2, NoFlags,
       UNARY_SAMPLES(-8, 8)},
      {"log2(Tensor self) -> Tensor", kTensorOp, nullptr, log2, NoFlags,
       UNARY_SAMPLES(0.01, 100)},
      {"log10(Tensor self) -> Tensor", kTensorOp, nullptr, log10, NoFlags,
       UNARY_SAMPLES(0.01, 100)},
      {"tan(Tensor self) -> Tensor", kTensorOp, nullptr, tan, NoFlags,
       UNARY_SAMPLES(-1.2, 1.2)},
      {"reciprocal(Tensor self) -> Tensor", kTensorOp, nullptr, reciprocal,
       NoFlags, UNARY_SAMPLES(0.1, 4)},
      {"square(Tensor self) -> Tensor",
       kTensorOp,
       nullptr,
       square,
       NoFlags,
       {{"x=f32[B,5]"}, {"x=i64[4]"}, {"x=f32[0]"}}},
      {"sign(Tensor self) -> Tensor",
       kTensorOp,
       nullptr,
       sign,
       NoFlags,
       {{"x=f32[B,5]"}, {"x=i64[4]"}}},
      {"trunc(Tensor self) -> Tensor",
       kTensorOp,
       nullptr,
       trunc,
       NoFlags,
       {{"x=f32[B,5]", "", -3, 3}, {"x=f64[4]", "", -3, 3}}},
      {"round(Tensor self) -> Tensor",
       kTensorOp,
       nullptr,
       round,
       NoFlags,
       {{"x=f32[B,5]", "", -3, 3}, {"x=f64[4]", "", -3, 3}}},
      {"sinh(Tensor self) -> Tensor", kTensorOp, nullptr, sinh, NoFlags,
       UNARY_SAMPLES(-4, 4)},
      {"cosh(Tensor self) -> Tensor", kTensorOp, nullptr, cosh, NoFlags,
       UNARY_SAMPLES(-4, 4)},
  };
}

std::vector<Row> mathRows() {
  return {
      // Python's math module on scalars.
      {"sqrt(float x) -> float",
       Math,
       "kiln.sqrt",
       nullptr,
       FloatMath,
       {{"x=f64[]", "", 0, 9}}},
      {"exp(float x) -> float",
       Math,
       "kiln.exp",
       nullptr,
       FloatMath,
       {{"x=f64[]", "", -4, 4}}},
      {"log(float x, Scalar? base=None) -> float",
       Math,
       nullptr,
       mathLog,
       NoFlags,
       {{"x=f64[]", "", 0.1, 9}, {"x=f64[]", "2", 0.1, 9}}},
      {"log10(float x) -> float",
       Math,
       nullptr,
       viaTensor<log10>,
       NoFlags,
       {{"x=f64[]", "", 0.1, 9}}},
      {"log1p(float x) -> float",
       Math,
       nullptr,
       viaTensor<log1p>,
       NoFlags,
       {{"x=f64[]", "", -1e-6, 1e-6}}},
      {"expm1(float x) -> float",
       Math,
       nullptr,
       viaTensor<expm1>,
       NoFlags,
       {{"x=f64[]", "", -1e-6, 1e-6}}},
      {"sin(float x) -> float",
       Math,
       "kiln.sin",
       nullptr,
       FloatMath,
       {{"x=f64[]", "", -3, 3}}},
      {"cos(float x) -> float",
       Math,
       "kiln.cos",
       nullptr,
       FloatMath,
       {{"x=f64[]", "", -3, 3}}},
      {"tan(float x) -> float",
       Math,
       nullptr,
       viaTensor<tan>,
       NoFlags,
       {{"x=f64[]", "", -1, 1}}},
      {"tanh(float x) -> float",
       Math,
       "kiln.tanh",
       nullptr,
       FloatMath,
       {{"x=f64[]", "", -3, 3}}},
      {"erf(float x) -> float",
       Math,
       "kiln.erf",
       nullptr,
       FloatMath,
       {{"x=f64[]", "", -3, 3}}},
      {"erfc(float x) -> float",
       Math,
       nullptr,
       viaTensor<erfc>,
       NoFlags,
       {{"x=f64[]", "", -3, 3}}},
      {"floor(float x) -> int",
       Math,
       nullptr,
       mathFloor,
       NoFlags,
       {{"x=f64[]", "", -3, 3}}},
      {"ceil(float x) -> int",
       Math,
       nullptr,
       mathCeil,
       NoFlags,
       {{"x=f64[]", "", -3, 3}}},
      {"fabs(float x) -> float",
       Math,
       "kiln.abs",
       nullptr,
       FloatMath,
       {{"x=f64[]", "", -3, 3}}},
      {"pow(float x, float y) -> float",
       Math,
       nullptr,
       mathPow,
       NoFlags,
       {{"x=f64[]", "1.5", 0, 3}}},
      {"isnan(float x) -> bool",
       Math,
       nullptr,
       mathIsnan,
       NoFlags,
       {{"x=f64[]"}}},
      {"isinf(float x) -> bool",
       Math,
       nullptr,
       mathIsinf,
       NoFlags,
       {{"x=f64[]"}}},
      {"isfinite(float x) -> bool",
       Math,
       nullptr,
       mathIsfinite,
       NoFlags,
       {{"x=f64[]"}}},
  };
}

} // namespace kiln::ops
