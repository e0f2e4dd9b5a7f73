//===- LoweringLimits.cpp - The bounds lowering enforces on programs ------===//
//
// Lowering recurses through nested expressions and into the helpers a
// function calls, and ops may create tensors of any rank; a hostile or
// generated file must get a clear error at its source instead of a stack
// overflow or a compile that never ends. The bounds themselves, and why
// they are where they are, are in ir/Limits.h and frontend/LoweringImpl.h;
// docs/python-subset.md lists them.
//
//===----------------------------------------------------------------------===//

#include "frontend/LoweringImpl.h"

#include "ir/Limits.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

/// Ops create tensors of higher rank than their operands (unsqueeze,
/// stack, a view with many sizes) in too many places to check each, so the
/// whole lowered module is checked once against kMaxRank.
bool ModuleLowering::checkRanks(ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || tensor.getRank() <= int64_t(kMaxRank))
        continue;
      auto at = dyn_cast<FileLineColLoc>(op->getLoc());
      SourceLoc begin{at ? at.getLine() : 0, at ? at.getColumn() : 0};
      diags.error(
          {begin, {begin.line, begin.col + 1}},
          "this makes a tensor of rank " + std::to_string(tensor.getRank()) +
              "; kiln supports at most " + std::to_string(kMaxRank) + " dims");
      ok = false;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return ok;
}

DepthGuard::DepthGuard(ModuleLowering &m, SourceRange where) : m(m) {
  // Report once, where the limit is first crossed; the levels above fail
  // quietly as the error unwinds.
  if (++m.depth == kMaxLoweringDepth + 1)
    m.diags.error(where, "expressions and helper calls nest more than " +
                             std::to_string(kMaxLoweringDepth) +
                             " levels deep here, more than kiln compiles");
}

} // namespace kiln
