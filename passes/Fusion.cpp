//===- Fusion.cpp - STUB: being written ----------------------------------===//
//
// Tested by test/passes/fusion.mlir.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace kiln {
#define GEN_PASS_DEF_FUSION
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct FusionPass : public kiln::impl::FusionBase<FusionPass> {
  using FusionBase::FusionBase;
  void runOnOperation() override {}
};
} // namespace

std::unique_ptr<Pass> kiln::createFusionPass() {
  return std::make_unique<FusionPass>();
}
