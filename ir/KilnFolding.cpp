//===- KilnFolding.cpp - folders of kiln ops ------------------------------===//
//
// STUB: being written. Every folder declines for now.
//
//===----------------------------------------------------------------------===//

#include "ir/KilnDialect.h"

using namespace mlir;
using namespace kiln;

#define KILN_NO_FOLD(Op)                                                       \
  OpFoldResult Op::fold(FoldAdaptor) { return {}; }

KILN_NO_FOLD(AddOp)
KILN_NO_FOLD(SubOp)
KILN_NO_FOLD(MulOp)
KILN_NO_FOLD(DivOp)
KILN_NO_FOLD(FloorDivOp)
KILN_NO_FOLD(RemOp)
KILN_NO_FOLD(PowOp)
KILN_NO_FOLD(MaximumOp)
KILN_NO_FOLD(MinimumOp)
KILN_NO_FOLD(BitAndOp)
KILN_NO_FOLD(BitOrOp)
KILN_NO_FOLD(BitXorOp)
KILN_NO_FOLD(CmpOp)
KILN_NO_FOLD(NegOp)
KILN_NO_FOLD(AbsOp)
KILN_NO_FOLD(ExpOp)
KILN_NO_FOLD(LogOp)
KILN_NO_FOLD(TanhOp)
KILN_NO_FOLD(SigmoidOp)
KILN_NO_FOLD(ReluOp)
KILN_NO_FOLD(SqrtOp)
KILN_NO_FOLD(RsqrtOp)
KILN_NO_FOLD(SinOp)
KILN_NO_FOLD(CosOp)
KILN_NO_FOLD(FloorOp)
KILN_NO_FOLD(CeilOp)
KILN_NO_FOLD(NotOp)
KILN_NO_FOLD(CastOp)
KILN_NO_FOLD(FromScalarOp)
KILN_NO_FOLD(ReshapeOp)
KILN_NO_FOLD(ExpandOp)
KILN_NO_FOLD(UnsqueezeOp)
KILN_NO_FOLD(SqueezeOp)
KILN_NO_FOLD(TransposeOp)
KILN_NO_FOLD(PermuteOp)
KILN_NO_FOLD(FullOp)
