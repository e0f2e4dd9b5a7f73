//===- ShapeRefinement.cpp - STUB: being written ----------------------------------===//
//
// Tested by test/passes/shape-refinement.mlir.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace kiln {
#define GEN_PASS_DEF_SHAPEREFINEMENT
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct ShapeRefinementPass : public kiln::impl::ShapeRefinementBase<ShapeRefinementPass> {
  using ShapeRefinementBase::ShapeRefinementBase;
  void runOnOperation() override {}
};
} // namespace

std::unique_ptr<Pass> kiln::createShapeRefinementPass() {
  return std::make_unique<ShapeRefinementPass>();
}
