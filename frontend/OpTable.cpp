//===- OpTable.cpp - The elementwise rows of the op table -----------------===//
//
// Unary math, the elementwise activations, clamp, binary arithmetic,
// comparisons, where, and Python's math module on scalars. A row whose op is
// one kiln op names it; the others are composed here from existing kiln ops
// (so fusion sees through them), in formulations chosen to stay within a few
// ulp of PyTorch's kernels: log1p and expm1 use the classic corrections
// (Goldberg's and Kahan's) rather than log(1 + x) and exp(x) - 1, which lose
// every digit near 0; round is half to even as torch.round is.
//
// Binary arithmetic goes through applyBinOp, as `x + y` does, so dtype
// promotion lives in one place.
//
//===----------------------------------------------------------------------===//
#include "frontend/OpTable.h"
#include "frontend/LowerNNSupport.h"
#include "frontend/OpFamilies.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace kiln::ops {

namespace {
using V = std::optional<Value>;

bool isFloat(Value v) {
  return llvm::isa<FloatType>(mlir::getElementTypeOrSelf(v.getType()));
}

/// `v` in float32 (a tensor) or f64 (a Python scalar), as PyTorch computes
/// float math on ints.
Value toFloat(OpArgs &a, Value v) {
  if (isFloat(v))
    return v;
  if (auto t = llvm::dyn_cast<RankedTensorType>(v.getType()))
    return a.fl.b.create<CastOp>(a.fl.loc(a.where),
                                 withElementType(t, a.fl.b.getF32Type()), v);
  return a.fl.castScalar(v, a.fl.b.getF64Type(), a.where);
}

/// Small builders on operands known to combine (a float tensor or scalar
/// with scalars or its own shape), so they cannot fail.
struct Ops {
  OpArgs &a;
  Value c(double v) { return a.fl.constFloat(v, a.where); }
  Value un(StringRef op, Value x) { return nn::unary(a.fl, op, x, a.where); }
  Value bin(StringRef op, Value l, Value r) {
    return *a.fl.emitElementwise(op, l, r, a.where, a.where, a.where);
  }
  Value add(Value l, Value r) { return bin("kiln.add", l, r); }
  Value sub(Value l, Value r) { return bin("kiln.sub", l, r); }
  Value mul(Value l, Value r) { return bin("kiln.mul", l, r); }
  Value div(Value l, Value r) { return bin("kiln.div", l, r); }
  Value max(Value l, Value r) { return bin("kiln.maximum", l, r); }
  Value min(Value l, Value r) { return bin("kiln.minimum", l, r); }
  Value cmp(CmpPredicate p, Value l, Value r) {
    return *a.fl.emitCompare(p, l, r, a.where, a.where, a.where);
  }
  /// where(cond, t, f) with f's type when both share it.
  Value select(Value cond, Value t, Value f) {
    Type type =
        inferWhereType(cond.getType(), t.getType(), f.getType(), nullptr);
    assert(type && "select operands broadcast");
    return a.fl.b.create<WhereOp>(a.fl.loc(a.where), type, cond, t, f);
  }
  Value log1p(Value x) {
    // log(u) * x / (u - 1) with u = 1 + x cancels the rounding of 1 + x
    // (Goldberg); u == 1 means x is below half an ulp of 1, where
    // log1p(x) == x; u == inf keeps inf rather than inf/inf.
    Value u = add(x, c(1.0)), d = sub(u, c(1.0));
    Value r = mul(un("kiln.log", u), div(x, d));
    r = select(cmp(CmpPredicate::eq, u, c(INFINITY)), u, r);
    return select(cmp(CmpPredicate::eq, d, c(0.0)), x, r);
  }
  Value expm1(Value x) {
    // (u - 1) * x / log(u) with u = exp(x) (Kahan): the error of u cancels.
    Value u = un("kiln.exp", x), d = sub(u, c(1.0));
    Value r = mul(d, div(x, un("kiln.log", u)));
    r = select(cmp(CmpPredicate::eq, u, c(INFINITY)), u, r);
    r = select(cmp(CmpPredicate::eq, d, c(-1.0)), c(-1.0), r);
    return select(cmp(CmpPredicate::eq, d, c(0.0)), x, r);
  }
  Value clamp(Value x, double lo, double hi) {
    return min(max(x, c(lo)), c(hi));
  }
  Value softplus(Value x, Value beta, Value threshold) {
    Value bx = mul(x, beta);
    return select(cmp(CmpPredicate::gt, bx, threshold), x,
                  div(log1p(un("kiln.exp", bx)), beta));
  }
};

/// The first parameter's value, in float for float math.
Value self(OpArgs &a) { return a.args[0].value.value; }

/// The input of an activation, which PyTorch computes on floats only.
V floatInput(OpArgs &a) {
  Value x = self(a);
  if (isFloat(x))
    return x;
  a.fl.error(a.where, a.spelling + "() needs a float input, got " +
                          a.fl.describe(PyValue::ofValue(x)));
  return std::nullopt;
}

#define UNARY_FLOAT(NAME, BODY)                                                \
  V NAME(OpArgs &a) {                                                          \
    Ops o{a};                                                                  \
    Value x = toFloat(a, self(a));                                             \
    (void)o;                                                                   \
    return BODY;                                                               \
  }
#define ACTIVATION(NAME, BODY)                                                 \
  V NAME(OpArgs &a) {                                                          \
    Ops o{a};                                                                  \
    V in = floatInput(a);                                                      \
    if (!in)                                                                   \
      return std::nullopt;                                                     \
    Value x = *in;                                                             \
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
  Value x = self(a);
  return Ops{a}.mul(x, x);
}

V sign(OpArgs &a) {
  Ops o{a};
  Value x = self(a);
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
  Value x = self(a);
  if (!isFloat(x))
    return x;
  return o.select(o.cmp(CmpPredicate::lt, x, o.c(0.0)), o.un("kiln.ceil", x),
                  o.un("kiln.floor", x));
}

V round(OpArgs &a) {
  // Half to even, exactly: x - floor(x) is exact in binary floating point,
  // so ties are detected without the rounding of x + 0.5.
  Ops o{a};
  Value x = self(a);
  if (!isFloat(x))
    return x;
  Value f = o.un("kiln.floor", x), frac = o.sub(x, f);
  Value odd = o.sub(f, o.mul(o.un("kiln.floor", o.mul(f, o.c(0.5))), o.c(2.0)));
  Value tie = o.add(f, odd);
  return o.select(o.cmp(CmpPredicate::gt, frac, o.c(0.5)), o.add(f, o.c(1.0)),
                  o.select(o.cmp(CmpPredicate::lt, frac, o.c(0.5)), f, tie));
}

ACTIVATION(silu, o.mul(x, o.un("kiln.sigmoid", x)))
ACTIVATION(relu6, o.clamp(x, 0, 6))
ACTIVATION(hardsigmoid, o.div(o.clamp(o.add(x, o.c(3)), 0, 6), o.c(6)))
ACTIVATION(hardswish, o.div(o.mul(x, o.clamp(o.add(x, o.c(3)), 0, 6)), o.c(6)))
ACTIVATION(mish, o.mul(x, o.un("kiln.tanh", o.softplus(x, o.c(1), o.c(20)))))
ACTIVATION(softplus, o.softplus(x, a.value("beta"), a.value("threshold")))
ACTIVATION(hardtanh, o.min(o.max(x, a.value("min_val")), a.value("max_val")))
ACTIVATION(elu, o.select(o.cmp(CmpPredicate::gt, x, o.c(0)), x,
                         o.mul(o.expm1(x), a.value("alpha"))))
ACTIVATION(celu, o.select(o.cmp(CmpPredicate::gt, x, o.c(0)), x,
                          o.mul(o.expm1(o.div(x, a.value("alpha"))),
                                a.value("alpha"))))
ACTIVATION(leaky_relu, o.select(o.cmp(CmpPredicate::gt, x, o.c(0)), x,
                                o.mul(x, a.value("negative_slope"))))
// min(x, 0) - log1p(exp(-|x|)), which neither overflows nor cancels.
ACTIVATION(logsigmoid,
           o.sub(o.min(x, o.c(0)),
                 o.log1p(o.un("kiln.exp",
                              o.un("kiln.neg", o.un("kiln.abs", x))))))

V selu(OpArgs &a) {
  // The constants of Klambauer et al., as PyTorch spells them.
  const double alpha = 1.6732632423543772848170429916717;
  const double scale = 1.0507009873554804934193349852946;
  Ops o{a};
  V in = floatInput(a);
  if (!in)
    return std::nullopt;
  Value x = *in;
  Value neg = o.mul(o.expm1(x), o.c(alpha));
  return o.mul(o.select(o.cmp(CmpPredicate::gt, x, o.c(0)), x, neg),
               o.c(scale));
}

V gelu(OpArgs &a) {
  Ops o{a};
  std::string approx = a.str("approximate");
  if (approx != "none" && approx != "tanh") {
    a.fl.error(a.range("approximate"),
               "approximate must be 'none' or 'tanh', got '" + approx + "'");
    return std::nullopt;
  }
  V in = floatInput(a);
  if (!in)
    return std::nullopt;
  Value x = *in, inner;
  if (approx == "none") {
    // 0.5 * x * (1 + erf(x / sqrt(2)))
    inner = o.un("kiln.erf", o.mul(x, o.c(M_SQRT1_2)));
  } else {
    // 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
    Value poly = o.add(x, o.mul(o.mul(o.mul(x, x), x), o.c(0.044715)));
    inner = o.un("kiln.tanh", o.mul(poly, o.c(M_SQRT2 * M_2_SQRTPI * 0.5)));
  }
  return o.mul(o.mul(x, o.c(0.5)), o.add(inner, o.c(1.0)));
}

V clampRow(OpArgs &a) {
  // clamp(min, max) is min(max(x, min), max), which also gives max where
  // min > max, as PyTorch documents.
  const Schema &s = a.row.schema();
  Value r = self(a);
  bool any = false;
  for (size_t i = 1; i < s.params.size(); ++i) {
    const BoundArg &bound = a.args[i];
    if (bound.value.isNone())
      continue;
    bool isMin = s.params[i].name == "min";
    V next = a.fl.emitElementwise(isMin ? "kiln.maximum" : "kiln.minimum", r,
                                  bound.value.value, a.where, a.range("self"),
                                  bound.range);
    if (!next)
      return std::nullopt;
    r = *next;
    any = true;
  }
  if (!any) {
    a.fl.error(a.where,
               a.row.schema().name + "() needs at least one of min and max");
    return std::nullopt;
  }
  return r;
}

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
  Value x = self(a);
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
  return a.fl.emitElementwise(op, self(a), a.args[1].value.value, a.where,
                              a.args[0].range, a.args[1].range);
}
V maximum(OpArgs &a) { return elementwise(a, "kiln.maximum"); }
V minimum(OpArgs &a) { return elementwise(a, "kiln.minimum"); }

template <CmpPredicate P> V compare(OpArgs &a) {
  return a.fl.emitCompare(P, self(a), a.args[1].value.value, a.where,
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

//===--- math.X on Python scalars -------------------------------------===//

/// A scalar row computed by a tensor builder on a 0-d f64 tensor: the
/// guarded decompositions need where, which takes tensors.
template <V (*Fn)(OpArgs &)> V viaTensor(OpArgs &a) {
  Value x = toFloat(a, self(a));
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
  Value r = o.un("kiln.log", toFloat(a, self(a)));
  if (a.isNone("base"))
    return r;
  return o.div(r, o.un("kiln.log", toFloat(a, a.value("base"))));
}
V mathRounding(OpArgs &a, StringRef op) {
  Value r = nn::unary(a.fl, op, toFloat(a, self(a)), a.where);
  return a.fl.castScalar(r, a.fl.b.getI64Type(), a.where);
}
V mathFloor(OpArgs &a) { return mathRounding(a, "kiln.floor"); }
V mathCeil(OpArgs &a) { return mathRounding(a, "kiln.ceil"); }
V mathPow(OpArgs &a) {
  return Ops{a}.bin("kiln.pow", toFloat(a, self(a)), toFloat(a, a.value("y")));
}
V mathIsnan(OpArgs &a) {
  Value x = toFloat(a, self(a));
  return Ops{a}.cmp(CmpPredicate::ne, x, x);
}
V mathIsinf(OpArgs &a) {
  Ops o{a};
  return o.cmp(CmpPredicate::eq, o.un("kiln.abs", toFloat(a, self(a))),
               o.c(INFINITY));
}
V mathIsfinite(OpArgs &a) {
  Ops o{a};
  return o.cmp(CmpPredicate::lt, o.un("kiln.abs", toFloat(a, self(a))),
               o.c(INFINITY));
}
} // namespace

std::optional<Value> lowerRow(OpArgs &a) {
  if (a.row.build)
    return a.row.build(a);
  Value x = self(a);
  Type element = mlir::getElementTypeOrSelf(x.getType());
  if ((a.row.flags & NoBool) && element.isInteger(1)) {
    a.fl.error(a.where, a.spelling + "() does not support bool tensors, got " +
                            a.fl.describe(PyValue::ofValue(x)));
    return std::nullopt;
  }
  if (a.row.flags & FloatMath)
    x = toFloat(a, x);
  return nn::unary(a.fl, a.row.kilnOp, x, a.where);
}

std::optional<double> mathConstant(StringRef name) {
  if (name == "pi")
    return M_PI;
  if (name == "e")
    return M_E;
  if (name == "tau")
    return 2 * M_PI;
  if (name == "inf")
    return std::numeric_limits<double>::infinity();
  if (name == "nan")
    return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

// Spelling sets.
constexpr unsigned kTensorOp = Torch | Method | InPlace;
constexpr unsigned kActivation = Functional | FInplaceArg;

// Samples shared by many rows: broadcasting over a dynamic dim, a second
// dtype, an empty tensor.
#define UNARY_SAMPLES(LO, HI)                                                  \
  {                                                                            \
    {"x=f32[B,5]", "", LO, HI}, {"x=f64[3]", "", LO, HI}, {                    \
      "x=f32[0,3]", "", LO, HI                                                 \
    }                                                                          \
  }
#define BINARY_SAMPLES                                                         \
  {                                                                            \
    {"x=f32[B,4], y=f32[4]", "y"}, {"x=i64[N], y=i64[N]", "y"},                \
        {"x=f32[3,1], y=f64[2]", "y"}, {"x=f32[B,3]", "2.5"}, {                \
      "x=f32[0,2], y=f32[2]", "y"                                              \
    }                                                                          \
  }

std::vector<Row> elementwiseRows() {
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
      // Elementwise activations.
      {"relu6(Tensor self) -> Tensor", kActivation, nullptr, relu6, NoFlags,
       UNARY_SAMPLES(-8, 8)},
      {"hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
       kActivation,
       nullptr,
       hardtanh,
       NoFlags,
       {{"x=f32[B,5]", "", -3, 3}, {"x=f64[4]", "-0.5, max_val=2.0", -3, 3}}},
      {"hardsigmoid(Tensor self) -> Tensor", kActivation, nullptr, hardsigmoid,
       NoFlags, UNARY_SAMPLES(-5, 5)},
      {"hardswish(Tensor self) -> Tensor", kActivation, nullptr, hardswish,
       NoFlags, UNARY_SAMPLES(-5, 5)},
      {"silu(Tensor self) -> Tensor", kActivation, nullptr, silu, NoFlags,
       UNARY_SAMPLES(-6, 6)},
      {"mish(Tensor self) -> Tensor", kActivation, nullptr, mish, NoFlags,
       UNARY_SAMPLES(-6, 6)},
      {"softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor",
       Functional,
       nullptr,
       softplus,
       NoFlags,
       {{"x=f32[B,5]", "", -30, 30},
        {"x=f64[4]", "beta=2.0, threshold=5", -6, 6},
        {"x=f32[0]"}}},
      {"elu(Tensor self, Scalar alpha=1) -> Tensor",
       kActivation,
       nullptr,
       elu,
       NoFlags,
       {{"x=f32[B,5]", "", -4, 4}, {"x=f64[4]", "alpha=0.5", -4, 4}}},
      {"selu(Tensor self) -> Tensor", Torch | kActivation, nullptr, selu,
       NoFlags, UNARY_SAMPLES(-4, 4)},
      {"celu(Tensor self, Scalar alpha=1) -> Tensor",
       Torch | kActivation,
       nullptr,
       celu,
       NoFlags,
       {{"x=f32[B,5]", "", -4, 4}, {"x=f64[4]", "alpha=2.0", -4, 4}}},
      {"leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor",
       kActivation,
       nullptr,
       leaky_relu,
       NoFlags,
       {{"x=f32[B,5]"}, {"x=f64[4]", "0.2"}}},
      {"logsigmoid(Tensor self) -> Tensor", Functional, nullptr, logsigmoid,
       NoFlags, UNARY_SAMPLES(-30, 30)},
      {"gelu(Tensor self, *, str approximate='none') -> Tensor",
       Functional,
       nullptr,
       gelu,
       NoFlags,
       {{"x=f32[B,5]", "", -4, 4},
        {"x=f64[4]", "approximate='tanh'", -4, 4},
        {"x=f32[0]"}}},
      {"clamp(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
       kTensorOp,
       nullptr,
       clampRow,
       NoFlags,
       {{"x=f32[B,5]", "-0.5, 0.5"},
        {"x=i64[4]", "max=2"},
        {"x=f32[3,4], lo=f32[4]", "lo"}},
       {"clip"}},
      {"clamp_min(Tensor self, Tensor min) -> Tensor",
       kTensorOp,
       nullptr,
       clampRow,
       NoFlags,
       {{"x=f32[B,5]", "0.25"}}},
      {"clamp_max(Tensor self, Tensor max) -> Tensor",
       kTensorOp,
       nullptr,
       clampRow,
       NoFlags,
       {{"x=f32[B,5]", "0.25"}}},
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

const std::vector<Row> &allRows() {
  static const std::vector<Row> rows = [] {
    std::vector<Row> all;
    for (std::vector<Row> (*family)() : kFamilies) {
      std::vector<Row> some = family();
      all.insert(all.end(), some.begin(), some.end());
    }
    return all;
  }();
  return rows;
}

} // namespace kiln::ops
