//===- KernelMapping.h - How a parallel loop becomes a kernel ---*- C++ -*-===//
//
// Private to codegen/cuda: the launch every strategy shares
// (MapToKernels.cpp) and the strategies beside one thread per point.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_CUDA_KERNELMAPPING_H
#define KILN_CODEGEN_CUDA_KERNELMAPPING_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace kiln::cuda {

/// Whether `memref` is a rank-0 entry argument: a Python scalar, which the
/// runtime keeps in host memory (the host code reads it; a kernel gets its
/// value).
bool isHostScalarArgument(mlir::Value memref);

/// Whether `callee` is the buffer-deallocation helper that
/// convert-bufferization-to-memref generates, which only loads and stores
/// the host scratch arrays kiln-host-scratch puts on the stack.
inline bool isDeallocHelper(llvm::StringRef callee) {
  return callee.starts_with("dealloc_helper");
}

/// Threads per block of every kernel: a multiple of the 32-thread warp that
/// keeps 8 blocks resident per SM on sm_80 and sm_90.
constexpr int64_t kThreadsPerBlock = 256;

/// Replaces `loop` with a gpu.launch over its flattened iteration space in
/// which `threadsPerPoint` threads (1, or a warp's 32) share each point, a
/// block holding kThreadsPerBlock threads. Inside `if point < total`, with
/// the loop's induction variables and the constants it uses mapped,
/// `fillBody(builder, mapping, lane)` writes the point's work; `lane` is
/// the thread's index among the point's (null for one thread per point).
/// Loads of rank-0 entry arguments (host scalars) move before the launch.
void buildKernel(
    mlir::scf::ParallelOp loop, int64_t threadsPerPoint,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::IRMapping &, mlir::Value)>
        fillBody);

/// What splits a kernel's flat index into loop indices by multiplication
/// (FastDivision.cpp), computed on the host before the launch: whether the
/// iteration space fits 32 bits, and per dim after the first the magic
/// number, shift and divisor (i32).
struct Dividers {
  mlir::Value fits;
  llvm::SmallVector<mlir::Value> magic, shift, divisor;
};
Dividers makeDividers(mlir::OpBuilder &host, mlir::Location loc,
                      llvm::ArrayRef<mlir::Value> extents, mlir::Value total);
/// The loop indices (from 0) of flat index `point`, inside the kernel.
llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &kernel,
                                           mlir::Location loc,
                                           mlir::Value point,
                                           llvm::ArrayRef<mlir::Value> extents,
                                           const Dividers &dividers);

/// Maps a reduction loop nest (WarpReductions.cpp states which) to a warp
/// per output element; fails, leaving `loop` as it was, for any other.
mlir::LogicalResult mapWarpReduction(mlir::scf::ParallelOp loop);

} // namespace kiln::cuda

#endif // KILN_CODEGEN_CUDA_KERNELMAPPING_H
