//===- CheckHostCode.cpp - What a CUDA entry's host code may not do -------===//
//
// In a CUDA archive, every tensor of an entry lives in device memory, and
// the host code around the kernels only computes shapes, allocates and
// launches. This pass runs after kiln-map-to-kernels and refuses, at the
// op's source location, what would make the host touch device memory:
// reading or writing a tensor's elements outside a kernel (a Python number
// taken from a tensor, a tensor used as a condition), copies left on the
// host, and the runtime services that work on host memory (print, lists,
// convolution, random numbers); matmul is legal, as cuBLAS runs it on the
// GPU's tensors. Host scratch on the stack
// (memref.alloca, used by buffer deallocation) and the rank-0 inputs the
// runtime keeps on the host stay legal.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/cuda/KernelMapping.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

bool isHostMemory(Value memref, bool reading) {
  return memref.getDefiningOp<memref::AllocaOp>() ||
         (reading && kiln::cuda::isHostScalarArgument(memref));
}

/// Why `op`, outside any kernel, cannot run on the host; empty if it can.
std::string hostProblem(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return isHostMemory(load.getMemRef(), true)
               ? ""
               : "reading a tensor's value on the host (a Python number "
                 "taken from a tensor, or a tensor used as a condition)";
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return isHostMemory(store.getMemRef(), false)
               ? ""
               : "writing a tensor element on the host (a Python number "
                 "returned or stored as a tensor)";
  if (isa<memref::CopyOp, linalg::LinalgOp>(op))
    return "a copy or loop nest left on the host";
  if (auto call = dyn_cast<func::CallOp>(op)) {
    StringRef callee = call.getCallee();
    // raise reads only shapes; matmul and conv2d are cuBLAS's and cuDNN's
    // on the GPU's tensors; the check record is the kernels' to write.
    if (callee == "kiln_rt_raise" || callee.starts_with("kiln_rt_matmul_") ||
        callee == "kiln_rt_kernel_check_record" ||
        callee.starts_with("kiln_rt_conv2d_") ||
        !callee.starts_with("kiln_rt_"))
      return "";
    callee.consume_front("kiln_rt_");
    return ("the runtime's " + callee.split('_').first +
            " (print, Python lists and random numbers run on "
            "the CPU only)")
        .str();
  }
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
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      // Buffer deallocation's helper works on the host scratch arrays that
      // kiln-host-scratch put on the stack.
      if (auto fn = dyn_cast<func::FuncOp>(op);
          fn && kiln::cuda::isDeallocHelper(fn.getName()))
        return WalkResult::skip();
      std::string problem = hostProblem(op);
      if (problem.empty())
        return WalkResult::advance();
      op->emitError("--target=cuda does not support " + problem + " yet");
      failed = true;
      return WalkResult::interrupt();
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createCheckHostCodePass() {
  return std::make_unique<CheckHostCodePass>();
}
