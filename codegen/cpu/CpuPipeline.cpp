//===- CpuPipeline.cpp - kiln IR to the LLVM dialect, for the CPU ---------===//
//
// One linear pipeline in three parts: lower kiln to linalg on tensors,
// tile, and bufferize (shared with the CUDA host pipeline); make loops of
// the linalg ops on buffers; and lower to the LLVM dialect (also shared).
// In detail: bufferize with
// one-shot bufferization (whole module, identity layouts at function
// boundaries so entry points see dense row-major buffers), let MLIR insert
// and simplify deallocations, then lower loops, math and memrefs to LLVM.
// Allocation goes through MLIR's generic _mlir_memref_to_llvm_alloc/free,
// which AbiGlue routes to the runtime.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::buildBufferizationPipeline(OpPassManager &pm, unsigned optLevel,
                                      bool gpu, int64_t vectorLanes) {
  // GPU kernels recompute what their ops share rather than pass it through
  // memory, and tile only rows that reduce; a CPU tile keeps what its ops
  // share in cache.
  if (optLevel > 0)
    pm.addPass(createLibraryEpiloguesPass(gpu));
  pm.addPass(createLowerKilnToLinalgPass(gpu));
  // A shape check that reads a reduction's dims would keep the reduction
  // alive outside the row tiles it is fused into, and make it a root of
  // its own; folded, the dims are the input's.
  if (gpu)
    pm.addPass(createCanonicalizerPass());
  pm.addPass(createTileFusionGroupsPass(gpu));
  if (vectorLanes > 0) {
    // A reduction fused into the tiles stays outside them while a shape
    // check reads its result's dims; folding those dims to the input's
    // lets it go before it is vectorized, which would keep it alive.
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createVectorizeTilesPass(vectorLanes));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createLoopInvariantSubsetHoistingPass());
  }
  if (optLevel > 0) {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }

  bufferization::OneShotBufferizationOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // A loop that yields a fresh tensor each iteration (x = x * x) yields a
  // new buffer; ownership-based deallocation frees the previous one.
  bufferize.allowReturnAllocsFromLoops = true;
  // Entry points see the runtime's dense row-major buffers (identity
  // layout); private helpers take any strided view, so a slice passed to a
  // helper needs no copy. (Casting a strided view to an identity layout would
  // silently drop its offset.)
  bufferize.functionArgTypeConverterFn =
      [](TensorType type, Attribute memorySpace, func::FuncOp fn,
         const bufferization::BufferizationOptions &) -> BaseMemRefType {
    if (fn.isPublic())
      return bufferization::getMemRefTypeWithStaticIdentityLayout(type,
                                                                  memorySpace);
    return bufferization::getMemRefTypeWithFullyDynamicLayout(type,
                                                              memorySpace);
  };
  bufferize.inferFunctionResultLayout = false;
  // Always, not only at -O1 and up: the canonicalizer after bufferization
  // would drop an in-place op whose input is unread (UnusedLinalgInputs.cpp).
  pm.addPass(createUnusedLinalgInputsPass());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferDeallocationPipelineOptions deallocation;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);
  pm.addPass(createCanonicalizerPass());

  pm.addPass(createBufferizationToMemRefPass());
  // Also drops the weights' argument marks, which LLVM would refuse.
  pm.addPass(createLibraryCallRecordsPass());
}

void kiln::buildCpuLoweringPipeline(OpPassManager &pm, unsigned optLevel,
                                    HalfFloatSupport native,
                                    unsigned f32Lanes) {
  buildBufferizationPipeline(pm, optLevel, /*gpu=*/false,
                             optLevel > 0 ? f32Lanes : 0);
  pm.addPass(createTileStackBuffersPass());
  if (optLevel > 0)
    pm.addPass(createPrefetchNextTilePass());
  pm.addPass(createCheckAllocationSizesPass());
  pm.addPass(createResultBuffersPass());
  pm.addPass(createStaticBlockRecordsPass());
  pm.addPass(createStridedCopiesPass());
  pm.addPass(createSkipEmptyLoopNestsPass());
  pm.addPass(createParallelTilesPass());
  pm.addPass(createConvertLinalgToLoopsPass());
  buildLlvmLoweringPipeline(pm, optLevel, native);
}

void kiln::buildLlvmLoweringPipeline(OpPassManager &pm, unsigned optLevel,
                                     HalfFloatSupport native) {
  // f16 and bf16 are storage types: arithmetic and math on them run in f32,
  // as PyTorch's CPU kernels do, and only the conversions are left.
  pm.addPass(math::createMathLegalizeToF32());
  static const std::string halfTypes[] = {"f16", "bf16"};
  arith::ArithEmulateUnsupportedFloatsOptions widen;
  widen.sourceTypeStrs = halfTypes;
  pm.addPass(arith::createArithEmulateUnsupportedFloats(widen));
  pm.addPass(createExpandMathPass());
  pm.addPass(createLowerVectorsPass());
  // Integer powers (`2 ** n`, pow of int tensors) have no LLVM intrinsic
  // and no libm function: MathToFuncs writes them as square-and-multiply
  // loops in functions of the module.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createExpandHalfFloatsPass(native));
  pm.addPass(createConvertSCFToCFPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  // What LLVM has no intrinsic for (f64 tanh, ...) calls libm, which every
  // process that loads the runtime has. After MathToLLVM, so that fma and
  // friends become intrinsics rather than calls.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (optLevel > 0)
    pm.addPass(createCanonicalizerPass());
}
