//===- LoopUnroll.cpp - STUB: being written ----------------------------------===//
//
// Tested by test/passes/loop-unroll.mlir.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace kiln {
#define GEN_PASS_DEF_LOOPUNROLL
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct LoopUnrollPass : public kiln::impl::LoopUnrollBase<LoopUnrollPass> {
  using LoopUnrollBase::LoopUnrollBase;
  void runOnOperation() override {}
};
} // namespace

std::unique_ptr<Pass> kiln::createLoopUnrollPass() {
  return std::make_unique<LoopUnrollPass>();
}

std::unique_ptr<Pass>
kiln::createLoopUnrollPass(const LoopUnrollOptions &options) {
  return std::make_unique<LoopUnrollPass>(options);
}
