//===- HostScratch.cpp - Host-only buffers of a CUDA entry on the stack ---===//
//
// In a CUDA entry every memref.alloc becomes a device allocation
// (AbiGlue routes MLIR's allocation to device_alloc). Buffer deallocation
// also allocates small host scratch arrays (the pointers and ownership
// flags of bufferization.dealloc at -O0) that only host code reads and
// writes, and a dynamic reshape (`x.view(B, T, 4, 8)`) reads its new
// shape from a small buffer the host fills. This pass puts each such
// buffer on the host's stack: a static allocation whose every user is a
// load, store, dealloc or reshape shape outside any kernel becomes a
// memref.alloca, and its dealloc goes.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/cuda/KernelMapping.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// Whether every use of `value` (through casts) is a host load, store,
/// dealloc or pointer comparison, or a call of the deallocation helper that
/// convert-bufferization-to-memref generates, which only loads and stores.
bool onlyHostAccesses(Value value) {
  return llvm::all_of(value.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (user->getParentOfType<gpu::LaunchOp>())
      return false;
    if (auto cast = dyn_cast<memref::CastOp>(user))
      return onlyHostAccesses(cast.getResult());
    if (auto call = dyn_cast<func::CallOp>(user))
      return kiln::cuda::isDeallocHelper(call.getCallee());
    // The shape operand of a reshape: the host reads it as it lowers the
    // reshape to a new descriptor.
    if (auto reshape = dyn_cast<memref::ReshapeOp>(user))
      return use.get() == reshape.getShape();
    // Buffer deallocation compares base pointers to decide what it frees.
    return isa<memref::LoadOp, memref::StoreOp, memref::DeallocOp,
               memref::ExtractAlignedPointerAsIndexOp>(user);
  });
}

struct HostScratchPass
    : public PassWrapper<HostScratchPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(HostScratchPass)

  StringRef getArgument() const final { return "kiln-host-scratch"; }
  StringRef getDescription() const final {
    return "Put the host-only scratch buffers of a CUDA entry on the stack";
  }
  void runOnOperation() override {
    SmallVector<memref::AllocOp> scratch;
    getOperation().walk([&](memref::AllocOp alloc) {
      if (alloc.getType().hasStaticShape() && onlyHostAccesses(alloc))
        scratch.push_back(alloc);
    });
    for (memref::AllocOp alloc : scratch) {
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      OpBuilder b(alloc);
      auto alloca = b.create<memref::AllocaOp>(alloc.getLoc(), alloc.getType(),
                                               alloc.getAlignmentAttr());
      alloc.replaceAllUsesWith(alloca.getResult());
      alloc.erase();
    }
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createHostScratchPass() {
  return std::make_unique<HostScratchPass>();
}
