//===- Registration.cpp - Dialects and passes of the codegen pipeline -----===//

#include "codegen/Passes.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

using namespace mlir;

void kiln::registerCodegenDialects(DialectRegistry &registry) {
  registerDialects(registry);
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect, func::FuncDialect,
                  gpu::GPUDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, NVVM::NVVMDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, vector::VectorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  // Tiling (codegen/strategy/) cuts linalg ops and fuses tensor ops.
  linalg::registerTilingInterfaceExternalModels(registry);
  tensor::registerTilingInterfaceExternalModels(registry);
  // ParallelTiles.cpp bounds a partial tile's buffers.
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  // VectorizeTiles.cpp hoists a reduction's accumulator out of its loop.
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  vector::registerSubsetOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // --target=cuda: convert-gpu-to-nvvm takes the patterns of every dialect
  // a kernel uses from these interfaces, and the NVVM target attribute
  // translates kernels to LLVM IR and PTX.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void kiln::registerCodegenPasses() {
  registerPass([] { return createLibraryEpiloguesPass(); });
  registerPass([] { return createLowerKilnToLinalgPass(); });
  registerPass([] { return createTileFusionGroupsPass(); });
  registerPass([] { return createVectorizeTilesPass(); });
  // Upstream, after kiln-vectorize-tiles (CpuPipeline.cpp).
  registerPass([] { return createLoopInvariantSubsetHoistingPass(); });
  registerPass([] { return createLowerVectorsPass(); });
  registerPass([] { return createTileStackBuffersPass(); });
  registerPass([] { return createPrefetchNextTilePass(); });
  registerPass([] { return createParallelTilesPass(); });
  registerPass([] { return createExpandMathPass(); });
  registerPass([] { return createUnusedLinalgInputsPass(); });
  registerPass([] { return createStridedCopiesPass(); });
  registerPass([] { return createCheckAllocationSizesPass(); });
  registerPass([] { return createLibraryCallRecordsPass(); });
  registerPass([] { return createResultBuffersPass(); });
  registerPass([] { return createStaticBlockRecordsPass(); });
  registerPass([] { return createSkipEmptyLoopNestsPass(); });
  registerPass([] { return createExpandHalfFloatsPass(); });
  registerPass([] { return createKernelChecksPass(); });
  registerPass([] { return createMapToKernelsPass(); });
  registerPass([] { return createHostScratchPass(); });
  registerPass([] { return createHostDeviceAccessPass(); });
  registerPass([] { return createCheckHostCodePass(); });
  registerPass([] { return createKernelLaunchesPass(); });
  registerPass([] { return createIeeeSqrtPass(); });
  // Upstream, between kiln-check-host-code and kiln-kernel-launches.
  registerGpuKernelOutliningPass();
  PassPipelineRegistration<>(
      "kiln-cpu-lowering",
      "Lower kiln IR to the LLVM dialect as `kiln compile -O2` does",
      [](OpPassManager &pm) { buildCpuLoweringPipeline(pm, 2); });
  PassPipelineRegistration<>(
      "kiln-cuda-kernels",
      "Lower kiln IR to host code and gpu.module @kiln_kernels as `kiln "
      "compile --target=cuda -O2` does",
      [](OpPassManager &pm) { buildCudaKernelPipeline(pm, 2); });
}
