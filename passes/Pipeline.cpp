//===- Pipeline.cpp - the -O pipelines ------------------------------------===//
//
// Each -O level is one function that reads top to bottom as the order the
// passes run in. Every level starts from the one below it. The pass manager
// runs the verifier after every pass, so a pass that breaks the IR is named
// at once instead of surfacing as a codegen failure.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace kiln {

// The generated registerKilnPasses() would clash with ours, which also
// registers MLIR's passes and the -O pipelines.
namespace generated {
#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"
} // namespace generated

/// -O1: cheap clean-ups that never grow the program.
static void buildO1(OpPassManager &pm) {
  // Calls between script functions disappear first, so that every later
  // pass sees whole bodies; helpers left without callers go with them.
  pm.addPass(createInlinePass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createConstantFoldPass());
  pm.addPass(createCSEPass());
  // Pure ops without users went with the folding; loop-carried values that
  // nothing reads need their own pass.
  pm.addPass(createDeadLoopValuesPass());
}

/// -O2: unrolling, static shapes and fusion on top of -O1.
static void buildO2(OpPassManager &pm, const PipelineOptions &options) {
  buildO1(pm);
  pm.addPass(createLoopUnrollPass(options.unroll));
  // Unrolled copies of the body repeat index arithmetic and shape queries.
  pm.addPass(createConstantFoldPass());
  pm.addPass(createShapeRefinementPass());
  // Refined shapes turn dim queries into constants; fold them before fusion
  // so that groups see the final operands.
  pm.addPass(createConstantFoldPass());
  pm.addPass(createCSEPass());
  // Before fusion, which would otherwise group the bias and relu ahead of
  // the pool.
  pm.addPass(createMaxPoolFirstPass());
  // Before fusion, so that groups form over the ops in the layout they
  // compute in.
  if (options.channelsLast)
    pm.addPass(createChannelsLastPass());
  // Only where kiln-fusion follows: unfused, its multiply is N x K.
  pm.addPass(createSmallProductsPass());
  pm.addPass(createFusionPass());
}

/// -O3 runs the -O2 kiln pipeline; it differs only in LLVM's optimization.
static void buildO3(OpPassManager &pm, const PipelineOptions &options) {
  buildO2(pm, options);
}

void buildOptimizationPipeline(OpPassManager &pm,
                               const PipelineOptions &options) {
  switch (options.optLevel) {
  case 0:
    return;
  case 1:
    return buildO1(pm);
  case 2:
    return buildO2(pm, options);
  default:
    return buildO3(pm, options);
  }
}

void registerKilnPasses() {
  generated::registerKilnPasses();
  registerCanonicalizerPass();
  registerCSEPass();
  registerInlinerPass();
  registerSymbolDCEPass();
  registerSCCPPass();
  registerLoopInvariantCodeMotionPass();
  for (unsigned level = 1; level <= 3; ++level)
    PassPipelineRegistration<>(
        "kiln-O" + std::to_string(level),
        "kiln's -O" + std::to_string(level) + " optimization pipeline",
        [level](OpPassManager &pm) {
          PipelineOptions options;
          options.optLevel = level;
          buildOptimizationPipeline(pm, options);
        });
}

} // namespace kiln
