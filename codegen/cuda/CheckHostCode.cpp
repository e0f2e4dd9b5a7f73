//===- CheckHostCode.cpp - What a CUDA entry's host code may not do -------===//
//
// In a CUDA archive, every tensor of an entry lives in device memory, and
// the host code around the kernels computes shapes, allocates, launches
// and calls the runtime, whose services (matmul, conv2d, print, lists, an
// element read or written: kiln-host-device-access) work on device
// tensors. This pass runs last before outlining and refuses, at the op's
// source location, what still cannot run there: copies or loop nests left
// on the host, which would touch device memory. (Random numbers can: the
// host only draws a stream key, and a Philox kernel makes the numbers.)
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/cuda/KernelMapping.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// Why `op`, outside any kernel, cannot run on the host; empty if it can.
std::string hostProblem(Operation *op) {
  if (isa<memref::CopyOp, linalg::LinalgOp>(op))
    return "a copy or loop nest left on the host";
  return "";
}

struct CheckHostCodePass
    : public PassWrapper<CheckHostCodePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckHostCodePass)

  StringRef getArgument() const final { return "kiln-check-host-code"; }
  StringRef getDescription() const final {
    return "Refuse host code of a CUDA entry that touches device memory";
  }
  void runOnOperation() override {
    bool failed = false;
    kiln::cuda::forEachHostOp(getOperation(), [&](Operation *op) {
      std::string problem = hostProblem(op);
      if (problem.empty())
        return true;
      op->emitError("--target=cuda does not support " + problem + " yet");
      failed = true;
      return false;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createCheckHostCodePass() {
  return std::make_unique<CheckHostCodePass>();
}
