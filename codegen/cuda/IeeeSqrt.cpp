//===- IeeeSqrt.cpp - Correctly rounded square roots in kernels -----------===//
//
// convert-gpu-to-nvvm sends math.sqrt to libdevice's __nv_sqrtf, which
// picks sqrt.approx.f32 unless __nvvm_reflect("__CUDA_PREC_SQRT") says
// otherwise, and LLVM 19's NVVMReflect answers only __CUDA_FTZ and
// __CUDA_ARCH (0 for the rest). nvcc, and so PyTorch's CUDA sqrt, defaults
// to -prec-sqrt=true: the correctly rounded sqrt.rn.f32. This pass lowers
// math.sqrt of an f32 to a call of the intrinsic llvm.nvvm.sqrt.rn.f first
// (llvm.intr.sqrt would do, but convert-gpu-to-nvvm holds it illegal, to
// send it to libdevice too), so that kiln's square roots are PyTorch's to
// the bit. f64 needs nothing: libdevice's __nv_sqrt is sqrt.rn.f64.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

struct IeeeSqrtPass
    : public PassWrapper<IeeeSqrtPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(IeeeSqrtPass)

  StringRef getArgument() const final { return "kiln-ieee-sqrt"; }
  StringRef getDescription() const final {
    return "Lower kernels' f32 math.sqrt to llvm.nvvm.sqrt.rn.f, not "
           "libdevice's approximation";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
  }
  void runOnOperation() override {
    getOperation().walk([](math::SqrtOp op) {
      // Other element types keep convert-gpu-to-nvvm's lowering.
      if (!op.getType().isF32())
        return;
      OpBuilder b(op);
      auto root = b.create<LLVM::CallIntrinsicOp>(op.getLoc(), op.getType(),
                                                  "llvm.nvvm.sqrt.rn.f",
                                                  ValueRange{op.getOperand()});
      op.replaceAllUsesWith(root.getResults());
      op.erase();
    });
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createIeeeSqrtPass() {
  return std::make_unique<IeeeSqrtPass>();
}
