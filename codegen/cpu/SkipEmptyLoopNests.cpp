//===- SkipEmptyLoopNests.cpp - No work for an iteration space with no points
//
// A loop nest whose innermost loop has no iterations still runs its outer
// loops: linalg over a [2^30, 2^31, 0] buffer spins through 2^61 empty
// iterations, a hang from an input with no elements. Before linalg ops
// become loops, each one whose iteration space has a dynamic extent is
// wrapped in `scf.if` (every extent is non-zero), so an empty space costs
// a few compares. An op with a static zero extent is erased: on buffers
// it has no results, and it would never run its body.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

struct SkipEmptyLoopNestsPass
    : public PassWrapper<SkipEmptyLoopNestsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SkipEmptyLoopNestsPass)

  StringRef getArgument() const final { return "kiln-skip-empty-loop-nests"; }
  StringRef getDescription() const final {
    return "Guard each linalg op on buffers so that an iteration space with "
           "a zero extent does no work";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, scf::SCFDialect>();
  }

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      guard(op);
  }

  void guard(linalg::LinalgOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value nonEmpty;
    for (Range range : op.createLoopRanges(b, loc)) {
      std::optional<int64_t> size = getConstantIntValue(range.size);
      if (size && *size == 0) {
        op->erase();
        return;
      }
      if (size)
        continue;
      Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
      Value extentNonZero = b.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ne, cast<Value>(range.size), zero);
      nonEmpty = nonEmpty
                     ? b.create<arith::AndIOp>(loc, nonEmpty, extentNonZero)
                     : extentNonZero;
    }
    if (!nonEmpty)
      return;
    auto ifOp = b.create<scf::IfOp>(loc, nonEmpty, /*withElseRegion=*/false);
    op->moveBefore(ifOp.thenBlock()->getTerminator());
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createSkipEmptyLoopNestsPass() {
  return std::make_unique<SkipEmptyLoopNestsPass>();
}
