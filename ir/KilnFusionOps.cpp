//===- KilnFusionOps.cpp - the fusion group verifier ----------------------===//
//
// The fusion pass is the only producer of groups, but a hand-written or
// corrupted group must still be rejected before codegen trusts it: codegen
// assumes a group's body is straight-line pure code it can fuse freely.
//
//===----------------------------------------------------------------------===//

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

using namespace mlir;
using namespace kiln;

LogicalResult FusionGroupOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("has ")
           << getInputs().size() << " inputs but its body takes "
           << body.getNumArguments() << " arguments";
  for (auto [i, input, arg] :
       llvm::enumerate(getInputs(), body.getArguments()))
    if (input.getType() != arg.getType())
      return emitOpError("input #")
             << i << " has type " << input.getType()
             << " but the body's argument has type " << arg.getType();

  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("body must end with kiln.yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields (")
           << yield.getValues().getTypes() << ") but its results are ("
           << getResultTypes() << ")";

  for (Operation &op : body.without_terminator()) {
    if (!isa<KilnDialect>(op.getDialect()) || op.getNumRegions() != 0 ||
        !isPure(&op) || isa<FusionGroupOp>(op))
      return op.emitOpError("cannot be part of a fusion group: only pure "
                            "kiln ops without regions can");
  }
  // Codegen makes each result of the group's loop nest; an input passed
  // through would have none.
  for (auto [i, value] : llvm::enumerate(yield.getValues()))
    if (isa<BlockArgument>(value))
      return emitOpError("result #")
             << i << " passes an input through; use the input instead";
  return success();
}
