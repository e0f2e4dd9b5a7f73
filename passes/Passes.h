//===- Passes.h - kiln's optimization passes and pipelines ------*- C++ -*-===//
//
// One factory per pass; each pass lives in the file named after it and is
// tested by test/passes/<name>.mlir. The -O pipelines are in Pipeline.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_PASSES_H
#define KILN_PASSES_PASSES_H

#include <memory>

namespace mlir {
class OpPassManager;
class Pass;
} // namespace mlir

namespace kiln {

/// Loop unrolling's knobs; the defaults are TorchScript's.
struct LoopUnrollOptions {
  unsigned unrollFactor = 8;
  unsigned unrollMaxBody = 32;
};

std::unique_ptr<mlir::Pass> createConstantFoldPass();
std::unique_ptr<mlir::Pass> createInlinePass();
std::unique_ptr<mlir::Pass> createDeadLoopValuesPass();
std::unique_ptr<mlir::Pass> createLoopUnrollPass();
std::unique_ptr<mlir::Pass> createLoopUnrollPass(const LoopUnrollOptions &);
std::unique_ptr<mlir::Pass> createShapeRefinementPass();
std::unique_ptr<mlir::Pass> createMaxPoolFirstPass();
std::unique_ptr<mlir::Pass> createChannelsLastPass();
/// The largest weight, in elements, whose product with one row
/// createSmallProductsPass generates (passes/SmallProducts.cpp): 1 MB of
/// f32, below where the library caught up on this machine.
inline constexpr int64_t kSmallProductElements = int64_t(1) << 18;
std::unique_ptr<mlir::Pass> createSmallProductsPass();
std::unique_ptr<mlir::Pass> createFusionPass();

struct PipelineOptions {
  unsigned optLevel = 2; // 0 to 3
  LoopUnrollOptions unroll;
  /// Whether convolutions may compute channels last (kiln-channels-last).
  /// kiln compile sets it from --conv-layout (by default, only where every
  /// target of the compile is an AVX-512 CPU); the kiln-O<n> pipelines
  /// registered for kiln-opt, which has no target, keep it on.
  bool channelsLast = true;
};

/// Adds the kiln-level optimization pipeline for `options.optLevel`.
void buildOptimizationPipeline(mlir::OpPassManager &pm,
                               const PipelineOptions &options);

/// Makes kiln's passes, the MLIR passes its pipelines use and the
/// `kiln-O1`..`kiln-O3` pipelines available by name, for `--passes=` and
/// kiln-opt.
void registerKilnPasses();

} // namespace kiln

#endif // KILN_PASSES_PASSES_H
