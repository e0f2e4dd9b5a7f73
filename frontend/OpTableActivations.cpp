//===- OpTableActivations.cpp - The op table's rows: activations ----------===//
//
// The elementwise activations (relu6, silu, gelu, softplus, elu, selu, ...)
// and clamp (see OpFamilies.h). They are composed from existing kiln ops, so
// fusion sees through them; PyTorch computes them on floats only, so an int
// input is an error rather than a cast.
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

/// The input of an activation, which PyTorch computes on floats only.
V floatInput(OpArgs &a) {
  Value x = firstArg(a);
  if (isFloat(x))
    return x;
  a.fl.error(a.where, a.spelling + "() needs a float input, got " +
                          a.fl.describe(PyValue::ofValue(x)));
  return std::nullopt;
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
  Value r = firstArg(a);
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

} // namespace

std::vector<Row> activationRows() {
  return {
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
  };
}

} // namespace kiln::ops
