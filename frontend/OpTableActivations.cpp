//===- OpTableActivations.cpp - The op table's rows: activations ----------===//
//
// The elementwise activations (relu6, silu, gelu, softplus, elu, selu, ...)
// and clamp are rows of frontend/prelude/activations.py; clamp, which takes
// a tensor or a number for each bound, lowers through the builder here.
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

std::vector<NamedBuilder> activationBuilders() { return {{"clamp", clampRow}}; }

} // namespace kiln::ops
