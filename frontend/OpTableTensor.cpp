//===- OpTableTensor.cpp - The op table's builders: the rest of Tensor ----===//
//
// matmul and rand_like/randn_like: the builders of prelude/tensor.py's rows
// that are not Python decompositions there. matmul is the @ operator's
// lowering (broadcasting batch dims, 1-D operands); the random creations
// draw values that eager PyTorch's cannot be compared with.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/LoweringImpl.h"
#include "frontend/OpBuilders.h"
#include "frontend/OpFamilies.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::ops {

namespace {
//===--- matmul ---------------------------------------------------------===//

V matmul(OpArgs &a) {
  MaybeValue r = a.fl.applyBinOp(ast::BinOpKind::MatMul, a.args[0].value,
                                 a.args[1].value, a.where, a.args[0].range,
                                 a.args[1].range);
  return r ? V(r->value) : std::nullopt;
}

//===--- random creation from another tensor ----------------------------===//

template <bool Normal> V randomLike(OpArgs &a) {
  FunctionLowering &fl = a.fl;
  Value x = self(a);
  auto tt = typeOf(x);
  Type et = a.isNone("dtype") ? tt.getElementType() : a.dtype("dtype");
  if (!llvm::isa<FloatType>(et))
    return fail(a, a.where, a.spelling + "() needs a floating dtype");
  auto rt = RankedTensorType::get(tt.getShape(), et);
  std::vector<Value> sizes = fl.dimValues(x, a.where);
  Location l = fl.loc(a.where);
  if (Normal)
    return fl.b.create<RandnOp>(l, rt, sizes).getResult();
  return fl.b.create<RandOp>(l, rt, sizes).getResult();
}
} // namespace

std::vector<NamedBuilder> tensorBuilders() {
  return {{"matmul", matmul},
          {"rand_like", randomLike<false>},
          {"randn_like", randomLike<true>}};
}

} // namespace kiln::ops
