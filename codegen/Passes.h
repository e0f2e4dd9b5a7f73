//===- Passes.h - codegen passes and the CPU pipeline ------------*- C++ -*-===//
#ifndef KILN_CODEGEN_PASSES_H
#define KILN_CODEGEN_PASSES_H

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;
class Pass;
} // namespace mlir

namespace kiln {

/// kiln IR to linalg/tensor/arith/math/scf, with calls into the runtime
/// (kiln/abi.h) for print, assert failures and Python lists. Entry points
/// get the ABI's signature: every argument and result is a tensor, and a
/// Python scalar is a rank-0 tensor. The manifest's run-time tables are left
/// on the module as `kiln.sites` and `kiln.strings`. With `gpu` (code
/// for GPU kernels), a fused group's producer is fused into every linalg
/// op that reads it, however costly (fuseAndInlineGroups), and indices
/// are checked where a kernel reads them rather than on the host.
std::unique_ptr<mlir::Pass> createLowerKilnToLinalgPass(bool gpu = false);

/// Gives a matmul's bias add, and the activation after it where the
/// target's GEMM library computes it as PyTorch does, to the library call:
/// a kiln.matmul_epilogue (codegen/lowering/LibraryEpilogues.cpp). `gpu`
/// picks cuBLASLt's activations, else oneDNN's.
std::unique_ptr<mlir::Pass> createLibraryEpiloguesPass(bool gpu = false);

/// The codegen strategy's tiling (codegen/strategy/Tiling.h): each fused
/// group becomes an scf.forall over tiles of its root, with the group's
/// other ops fused into the tile, at the CPU's tile sizes; with `gpu`,
/// each op that reads a row's reduction becomes a forall of one-row tiles
/// with the reduction fused in, for a warp each.
std::unique_ptr<mlir::Pass> createTileFusionGroupsPass(bool gpu = false);

/// The codegen strategy's vectorization (codegen/strategy/VectorizeTiles.cpp):
/// elementwise and row-reducing linalg ops become vector-dialect code in
/// chunks of four vector registers of `lanes` elements along their
/// innermost loop.
std::unique_ptr<mlir::Pass> createVectorizeTilesPass(int64_t lanes = 16);

/// Lowers the vector dialect's high-level ops (masks, multi-reductions,
/// transfers of more than one dim) to what the LLVM conversion takes
/// (codegen/cpu/LowerVectors.cpp).
std::unique_ptr<mlir::Pass> createLowerVectorsPass();

/// Moves the small buffers a tile allocates to its stack, at their static
/// upper bound, so that a tile calls nothing (TileStackBuffers.cpp).
std::unique_ptr<mlir::Pass> createTileStackBuffersPass();

/// Makes the last pass of a tile that passes over its input more than once
/// (softmax, layer norm) prefetch the next tile's input
/// (PrefetchNextTile.cpp).
std::unique_ptr<mlir::Pass> createPrefetchNextTilePass();

/// Hands each scf.forall's tiles to the runtime's threads through the
/// ABI's parallel_for (a tile's small buffers move to its stack), or makes
/// it a serial loop when a tile calls the runtime.
std::unique_ptr<mlir::Pass> createParallelTilesPass();

/// Rewrites math ops that LLVM would turn into libm calls (tanh, exp, log,
/// ...) into polynomial approximations, so loops that use them vectorize.
std::unique_ptr<mlir::Pass> createExpandMathPass();

/// Removes the inputs and results of linalg.generic that its body never
/// reads, before bufferization: MLIR 19 would otherwise erase an in-place
/// op that yields a constant as a self-copy (UnusedLinalgInputs.cpp).
std::unique_ptr<mlir::Pass> createUnusedLinalgInputsPass();

/// Rewrites memref.copy between non-dense buffers into linalg.copy, so that
/// no copy needs MLIR's C runner library; with `allCopies`, dense ones too
/// (a CUDA entry's copies become kernels).
std::unique_ptr<mlir::Pass> createStridedCopiesPass(bool allCopies = false);

/// Checks every buffer allocation against KILN_MAX_TENSOR_BYTES: a static
/// one at compile time, a dynamic one with a located run-time error.
std::unique_ptr<mlir::Pass> createCheckAllocationSizesPass();
/// The module attribute that holds the records of
/// createLibraryCallRecordsPass, which the archive writer copies into the
/// manifest's "library_calls".
inline constexpr llvm::StringLiteral kLibraryCallsAttrName =
    "kiln.library_calls";
/// Records, as the module's `kiln.library_calls`, the kernel library calls
/// whose shapes are static, for the runtime to prepare at load
/// (codegen/cpu/LibraryCallRecords.cpp).
std::unique_ptr<mlir::Pass> createLibraryCallRecordsPass();
/// The buffers an entry returns whole are asked of alloc_result, so that
/// Function::run can lend its outputs (codegen/cpu/ResultBuffers.cpp).
std::unique_ptr<mlir::Pass> createResultBuffersPass();
/// The module attribute that holds the records of
/// createStaticBlockRecordsPass, which the archive writer copies into the
/// code object's "blocks" in the manifest.
inline constexpr llvm::StringLiteral kStaticBlocksAttrName =
    "kiln.static_blocks";
/// Records, as the module's `kiln.static_blocks`, the memory requests of
/// static size one call makes, for the runtime to fault in at load
/// (codegen/cpu/StaticBlockRecords.cpp). After ResultBuffers.
std::unique_ptr<mlir::Pass> createStaticBlockRecordsPass();

/// Wraps each linalg op on buffers in `scf.if` (no extent is zero), so an
/// empty iteration space runs no loops at all.
std::unique_ptr<mlir::Pass> createSkipEmptyLoopNestsPass();

/// Which conversions between f32 and the 16-bit floats the target does in
/// hardware, exactly as PyTorch does them: F16C for f16. (AVX512-BF16 is
/// not used: its conversion flushes subnormals to zero, PyTorch's does not.)
struct HalfFloatSupport {
  bool f16 = false;
};

/// Writes conversions to and from f16 and bf16 that the target cannot do in
/// hardware as integer arithmetic, and f64 <-> f16/bf16 through f32, so
/// that no libgcc helper is called. (The options default to no hardware.)
std::unique_ptr<mlir::Pass> createExpandHalfFloatsPass();
std::unique_ptr<mlir::Pass> createExpandHalfFloatsPass(HalfFloatSupport native);

/// The first part of every target's lowering: kiln to linalg on tensors
/// (for `gpu` kernels, groups recompute what their ops share:
/// createLowerKilnToLinalgPass), the strategy's tiling for the target,
/// one-shot bufferization and buffer deallocation, ending in linalg on
/// memrefs.
void buildBufferizationPipeline(mlir::OpPassManager &pm, unsigned optLevel,
                                bool gpu, int64_t vectorLanes = 0);

/// The last part of the host code's lowering, from loops on memrefs to the
/// LLVM dialect (math, half floats, memrefs, control flow).
void buildLlvmLoweringPipeline(mlir::OpPassManager &pm, unsigned optLevel,
                               HalfFloatSupport native = {});

/// Makes the run-time checks inside each outermost scf.parallel (a future
/// kernel) record their failure in the running call's check record, and
/// skip the work they guard (codegen/cuda/KernelChecks.cpp).
std::unique_ptr<mlir::Pass> createKernelChecksPass();

/// Turns each outermost scf.parallel into a gpu.launch of one thread per
/// point (codegen/cuda/MapToKernels.cpp).
std::unique_ptr<mlir::Pass> createMapToKernelsPass();

/// Moves the host-only scratch buffers of a CUDA entry (buffer
/// deallocation's) to the stack (codegen/cuda/HostScratch.cpp).
std::unique_ptr<mlir::Pass> createHostScratchPass();

/// Makes a CUDA entry's host reads and writes of device tensor elements
/// calls of the runtime's device_read and device_write
/// (codegen/cuda/HostDeviceAccess.cpp).
std::unique_ptr<mlir::Pass> createHostDeviceAccessPass();

/// Refuses host code of a CUDA entry that would touch device memory, at
/// the op's source location (codegen/cuda/CheckHostCode.cpp).
std::unique_ptr<mlir::Pass> createCheckHostCodePass();

/// Lowers a kernel's f32 math.sqrt to llvm.nvvm.sqrt.rn.f, correctly
/// rounded as PyTorch's CUDA sqrt is; libdevice's would be approximate
/// (codegen/cuda/IeeeSqrt.cpp).
std::unique_ptr<mlir::Pass> createIeeeSqrtPass();

/// Gathers outlined kernels into gpu.module @kiln_kernels and turns each
/// gpu.launch_func into a call of kiln_launch__<kernel>, which AbiGlue
/// defines (codegen/cuda/KernelLaunches.cpp).
std::unique_ptr<mlir::Pass> createKernelLaunchesPass();

/// The CUDA host pipeline up to outlined kernels: bufferization without
/// CPU tiling, every linalg op a parallel loop, each loop a kernel launch
/// (codegen/cuda/CudaPipeline.cpp). The module then holds the host code and
/// gpu.module @kiln_kernels.
void buildCudaKernelPipeline(mlir::OpPassManager &pm, unsigned optLevel);

/// Lowers a module holding gpu.module @kiln_kernels to PTX for `chip`
/// (sm_80, ...): NVVM, the libdevice of the CUDA toolkit at `toolkit`, and
/// the NVPTX back end at -O`optLevel`.
void buildNvvmPipeline(mlir::OpPassManager &pm, const std::string &chip,
                       unsigned optLevel, const std::string &toolkit = "");

/// Adds the CPU pipeline after kiln-level optimization: lowering to linalg,
/// one-shot bufferization with buffer deallocation, and conversion to the
/// LLVM dialect. `optLevel` is 0 to 3; `native` says which 16-bit float
/// conversions the target has in hardware; `f32Lanes` is the f32 lanes of
/// its widest vector register (16 with AVX-512, 8 with AVX).
void buildCpuLoweringPipeline(mlir::OpPassManager &pm, unsigned optLevel,
                              HalfFloatSupport native = {},
                              unsigned f32Lanes = 8);

/// Registers the dialects and interface models the codegen pipeline needs.
void registerCodegenDialects(mlir::DialectRegistry &registry);
/// Makes the codegen passes available to kiln-opt.
void registerCodegenPasses();

} // namespace kiln

#endif // KILN_CODEGEN_PASSES_H
