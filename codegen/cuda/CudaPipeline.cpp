//===- CudaPipeline.cpp - kiln IR to host code and GPU kernels ------------===//
//
// The CUDA lowering shares bufferization with the CPU (with the GPU's
// tiling: rows that reduce) and then makes every linalg op a parallel
// loop and every outermost parallel loop a kernel. The host code that
// remains computes shapes, allocates (through the runtime, in device
// memory) and launches; it is lowered to the LLVM dialect like CPU code
// (buildLlvmLoweringPipeline). The kernels are lowered separately, once
// per GPU architecture, by buildNvvmPipeline.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::buildCudaKernelPipeline(OpPassManager &pm, unsigned optLevel) {
  buildBufferizationPipeline(pm, optLevel, /*gpu=*/true);
  // A row tile's reductions write one element each: a warp's registers.
  pm.addPass(createTileStackBuffersPass());
  pm.addPass(createCheckAllocationSizesPass());
  pm.addPass(createStridedCopiesPass(/*allCopies=*/true));
  // A tile becomes the outer loop of a nest: one warp's (WarpTiles.cpp).
  pm.addPass(createForallToParallelLoopPass());
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createKernelChecksPass());
  pm.addPass(createMapToKernelsPass());
  pm.addPass(createHostScratchPass());
  pm.addPass(createHostDeviceAccessPass());
  pm.addPass(createCheckHostCodePass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createKernelLaunchesPass());
}

void kiln::buildNvvmPipeline(OpPassManager &pm, const std::string &chip,
                             unsigned optLevel, const std::string &toolkit) {
  GpuNVVMAttachTargetOptions target;
  target.chip = chip;
  target.optLevel = optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(memref::createExpandStridedMetadataPass());
  // Python's integer // and % (arith.floordivsi, ceildivsi) have no NVVM
  // instruction: a division and a sign correction.
  kernels.addPass(arith::createArithExpandOpsPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createConvertSCFToCFPass());
  kernels.addPass(createIeeeSqrtPass());
  // 64-bit indices, as on the host: a flat index may exceed 2^31.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.indexBitwidth = 64;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  if (optLevel > 0) {
    kernels.addPass(createCanonicalizerPass());
    kernels.addPass(createCSEPass());
  }
  pm.addPass(createReconcileUnrealizedCastsPass());
  // PTX ("isa"): ptxas makes the cubins (codegen/cuda/Ptxas.cpp).
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  // The toolkit's libdevice is linked into the kernels for their math
  // (__nv_expf, __nv_tanhf, ...).
  binary.toolkitPath = toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}
