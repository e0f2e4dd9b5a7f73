//===- Elementwise.cpp - ops that compute each element on its own ---------===//

#include "ir/Elementwise.h"

#include "ir/KilnDialect.h"

using namespace mlir;

bool kiln::isElementwise(Operation *op) {
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  return isa<AddOp, SubOp, MulOp, DivOp, FloorDivOp, RemOp, PowOp, MaximumOp,
             MinimumOp, BitAndOp, BitOrOp, BitXorOp, CmpOp, NegOp, AbsOp,
             ExpOp, LogOp, TanhOp, SigmoidOp, ReluOp, SqrtOp, RsqrtOp, SinOp,
             CosOp, FloorOp, CeilOp, NotOp, CastOp, ErfOp, WhereOp>(op);
}
