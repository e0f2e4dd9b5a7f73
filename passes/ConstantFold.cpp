//===- ConstantFold.cpp - STUB: being written ----------------------------------===//
//
// Tested by test/passes/constant-fold.mlir.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace kiln {
#define GEN_PASS_DEF_CONSTANTFOLD
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct ConstantFoldPass : public kiln::impl::ConstantFoldBase<ConstantFoldPass> {
  using ConstantFoldBase::ConstantFoldBase;
  void runOnOperation() override {}
};
} // namespace

std::unique_ptr<Pass> kiln::createConstantFoldPass() {
  return std::make_unique<ConstantFoldPass>();
}
