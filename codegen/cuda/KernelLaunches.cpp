//===- KernelLaunches.cpp - gpu.launch_func as calls into kiln/abi.h ------===//
//
// After gpu-kernel-outlining each kernel sits in a gpu.module of its own.
// This pass gathers them into one gpu.module, @kiln_kernels, which becomes
// the archive's PTX and cubins, and replaces each gpu.launch_func with a
// call of a declaration
//
//   kiln_launch__<kernel>(grid x, y, z, block x, y, z, operands...)
//
// that AbiGlue.cpp defines: it packs the operands as CUDA kernel
// parameters and calls the runtime's launch_kernel. A memref operand of
// a call to a declaration becomes its descriptor's fields (allocated,
// aligned, offset, sizes, strides) in the LLVM lowering, which is exactly
// the parameter list convert-gpu-to-nvvm gives the kernel.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

constexpr StringLiteral kKernelModule = "kiln_kernels";

/// A kernel name PTX takes: letters, digits and '_' (a method's kernel,
/// `MLP.forward_kernel`, would have a '.'), unique among `taken`.
std::string ptxName(StringRef name, llvm::StringSet<> &taken) {
  std::string base;
  for (char c : name)
    base += llvm::isAlnum(c) ? c : '_';
  std::string unique = base;
  for (int i = 1; taken.contains(unique); ++i)
    unique = base + "_" + std::to_string(i);
  taken.insert(unique);
  return unique;
}

/// Moves every outlined kernel into @kiln_kernels, named after the module
/// outlining made for it (unique in the module), and returns that module.
gpu::GPUModuleOp gatherKernels(ModuleOp module) {
  SmallVector<gpu::GPUModuleOp> outlined(module.getOps<gpu::GPUModuleOp>());
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto kernels = b.create<gpu::GPUModuleOp>(module.getLoc(), kKernelModule);
  OpBuilder into = OpBuilder::atBlockBegin(kernels.getBody());
  llvm::StringSet<> taken;
  for (gpu::GPUModuleOp from : outlined) {
    for (auto fn : llvm::make_early_inc_range(from.getOps<gpu::GPUFuncOp>())) {
      StringRef oldName = fn.getName();
      std::string newName = ptxName(from.getName(), taken);
      auto newRef = SymbolRefAttr::get(
          b.getStringAttr(kKernelModule),
          {FlatSymbolRefAttr::get(b.getContext(), newName)});
      module.walk([&](gpu::LaunchFuncOp launch) {
        if (launch.getKernelModuleName() == from.getName() &&
            launch.getKernelName() == oldName)
          launch.setKernelAttr(newRef);
      });
      fn->moveBefore(into.getInsertionBlock(), into.getInsertionPoint());
      fn.setName(newName);
    }
    from.erase();
  }
  return kernels;
}

func::FuncOp launcherDeclaration(ModuleOp module, gpu::LaunchFuncOp launch) {
  std::string name = "kiln_launch__" + launch.getKernelName().str();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  SmallVector<Type> inputs(6, b.getIndexType());
  for (Value operand : launch.getKernelOperands())
    inputs.push_back(operand.getType());
  auto fn = b.create<func::FuncOp>(launch.getLoc(), name,
                                   b.getFunctionType(inputs, {}));
  fn.setPrivate();
  return fn;
}

struct KernelLaunchesPass
    : public PassWrapper<KernelLaunchesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KernelLaunchesPass)

  StringRef getArgument() const final { return "kiln-kernel-launches"; }
  StringRef getDescription() const final {
    return "Gather kernels into @kiln_kernels; launches become ABI calls";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    gatherKernels(module);
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    for (gpu::LaunchFuncOp launch : launches) {
      if (launch.getAsyncToken() || launch.getDynamicSharedMemorySize() ||
          launch.hasClusterSize()) {
        launch.emitError("a kernel launch kiln-kernel-launches cannot pass");
        return signalPassFailure();
      }
      func::FuncOp callee = launcherDeclaration(module, launch);
      gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      SmallVector<Value> operands = {grid.x,  grid.y,  grid.z,
                                     block.x, block.y, block.z};
      llvm::append_range(operands, launch.getKernelOperands());
      OpBuilder b(launch);
      b.create<func::CallOp>(launch.getLoc(), callee, operands);
      launch.erase();
    }
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createKernelLaunchesPass() {
  return std::make_unique<KernelLaunchesPass>();
}
