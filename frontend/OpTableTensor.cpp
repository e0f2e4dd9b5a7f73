//===- OpTableTensor.cpp - The op table's builders: the rest of Tensor ----===//
//
// matmul, the one row of prelude/tensor.py that is not a Python
// decomposition there: it is the @ operator's lowering (broadcasting batch
// dims, 1-D operands), whose errors point at each operand of the user's
// call.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/OpBuilders.h"
#include "frontend/OpFamilies.h"

using namespace mlir;

namespace kiln::ops {

namespace {
V matmul(OpArgs &a) {
  MaybeValue r = a.fl.applyBinOp(ast::BinOpKind::MatMul, a.args[0].value,
                                 a.args[1].value, a.where, a.args[0].range,
                                 a.args[1].range);
  return r ? V(r->value) : std::nullopt;
}
} // namespace

std::vector<NamedBuilder> tensorBuilders() {
  return {{"matmul", matmul}};
}
} // namespace kiln::ops
