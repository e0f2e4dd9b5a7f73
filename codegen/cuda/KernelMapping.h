//===- KernelMapping.h - How a parallel loop becomes a kernel ---*- C++ -*-===//
//
// Private to codegen/cuda: the launch every strategy shares
// (MapToKernels.cpp) and the strategies beside one thread per point.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_CUDA_KERNELMAPPING_H
#define KILN_CODEGEN_CUDA_KERNELMAPPING_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

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

/// Calls `visit` on each op of `module`'s host code, in order: not inside
/// a kernel (gpu.launch, gpu.module) nor in the buffer-deallocation helper,
/// which works on host scratch only. The walk stops when `visit` returns
/// false.
void forEachHostOp(mlir::Operation *module,
                   llvm::function_ref<bool(mlir::Operation *)> visit);

/// The address of `memref[indices]`, from its strided metadata, as an
/// LLVM pointer in `addressSpace`: 0 (generic) for the runtime's
/// device_read and device_write, 1 (global) for a kernel's own accesses.
mlir::Value elementPointer(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value memref, mlir::ValueRange indices,
                           unsigned addressSpace);

/// Threads per block of every kernel: a multiple of the 32-thread warp that
/// keeps 8 blocks resident per SM on sm_80 and sm_90.
constexpr int64_t kThreadsPerBlock = 256;

/// Points each thread of a thread-per-point kernel takes (a loop-free
/// body). With one, a block's 256 threads keep 256 loads in flight, and 8
/// resident blocks 8 KB per SM: far from the ~17 KB per SM that the
/// memory's bandwidth times its latency asks for (3.7 TB/s x ~600 ns over
/// 132 SMs on an H200), so an elementwise kernel reached 65% of a copy's
/// bandwidth. Four points per thread, their loads issued together, keep
/// four times as many in flight.
constexpr int64_t kPointsPerThread = 4;

/// Fills the kernel's body at the builder for the points that `mappings`
/// map the loop's induction variables (and constants) to: one point, or a
/// thread's kPointsPerThread points; `lane` is the thread's index among a
/// point's threads (null for one thread per point).
using FillBody = llvm::function_ref<void(
    mlir::OpBuilder &, llvm::MutableArrayRef<mlir::IRMapping> mappings,
    mlir::Value lane)>;

/// The loads and stores of a thread-per-point loop's body that move four
/// consecutive points' elements in one 16-byte access (VectorAccess.cpp),
/// and the memrefs they touch, whose alignment the host checks.
struct VectorPlan {
  llvm::SmallPtrSet<mlir::Operation *, 8> accesses;
  llvm::SmallVector<mlir::Value> memrefs;
  bool empty() const { return accesses.empty(); }
};
VectorPlan planVectorAccesses(mlir::scf::ParallelOp loop);
/// On the host, before the launch: whether the kernel may take its vector
/// path (`innerExtent`, the loop's innermost extent, a multiple of four and
/// each planned memref aligned for it).
mlir::Value vectorPathAllowed(mlir::OpBuilder &host, mlir::Location loc,
                              const VectorPlan &plan, mlir::Value innerExtent);
/// Fills the kernel's body for four consecutive points, `points[j]`
/// mapping the innermost induction variable to the first's + j: the
/// planned accesses as one 16-byte load or store each, every other op once
/// per point.
void fillVectorBody(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::scf::ParallelOp loop, const VectorPlan &plan,
                    llvm::MutableArrayRef<mlir::IRMapping> points);

/// Replaces `loop` with a gpu.launch over its flattened iteration space in
/// which `threadsPerPoint` threads (1, or a warp's 32) share each point,
/// or each thread takes `pointsPerThread` points (then threadsPerPoint is
/// 1), a block holding kThreadsPerBlock threads. A point outside the space
/// does nothing. Loads of rank-0 entry arguments (host scalars) move
/// before the launch.
/// With a non-empty `vector` plan (pointsPerThread is then kPointsPerThread),
/// a full block whose accesses the host found aligned takes the vector path
/// (fillVectorBody), its threads' points consecutive.
void buildKernel(mlir::scf::ParallelOp loop, int64_t threadsPerPoint,
                 int64_t pointsPerThread, const FillBody &fillBody,
                 const VectorPlan *vector = nullptr);

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

/// Threads of a warp, which shuffle values among themselves.
constexpr int64_t kWarp = 32;

/// Elements of a row each lane of a warp has in flight at once, in a row
/// reduction and in a row tile's other loops. One at a time, a lane's
/// load waits out the memory's latency before the next issues, and a warp
/// per row keeps too few bytes in flight to reach the memory's bandwidth
/// (kPointsPerThread has the numbers). A reduction also waits for each
/// batch before it loads the next, so a batch must be deep: softmax over
/// 131072 rows of 512 (a row tile) took 336 us on an H100 with 4, 310
/// with 8 and 216 with 16 (eager PyTorch 193, a copy of the input 189),
/// its kernel then taking 40 registers instead of 32.
constexpr int64_t kElementsInFlight = 16;

/// A parallel loop's row loop that accumulates into one element per point
/// (WarpReductions.cpp states the pattern): what it loads, combines and
/// stores.
struct Accumulation {
  mlir::scf::ForOp row;
  mlir::memref::LoadOp load;
  mlir::Operation *combiner;
  mlir::memref::StoreOp store;
};
std::optional<Accumulation> matchAccumulation(mlir::scf::ParallelOp loop);

/// Inside a kernel: the iterations of a loop from `lb` to `ub` by the
/// positive `step`, folded where they are constants.
mlir::Value tripCount(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lb,
                      mlir::Value ub, mlir::Value step);

/// The identity of an Accumulation's `combiner` on `type` (matchAccumulation
/// accepts only combiners that have one), as a constant at `b`.
mlir::Value combinerIdentity(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Operation *combiner, mlir::Type type);

/// `combiner` applied to (lhs, rhs) at `b`'s insertion point.
mlir::Value combine(mlir::OpBuilder &b, mlir::Operation *combiner,
                    mlir::Value lhs, mlir::Value rhs);

/// Clones `op` at `b` under `mapping` (where a plain clone would not do).
using CloneOp = llvm::function_ref<void(mlir::OpBuilder &, mlir::Operation &,
                                        mlir::IRMapping &)>;

/// The row body's element (what the combiner takes beside the accumulator)
/// at each of `elements`' indices, the body cloned at `b` (by `clone`, if
/// given) op by op across the elements, so that their loads come first.
llvm::SmallVector<mlir::Value>
rowElements(mlir::OpBuilder &b, Accumulation acc,
            llvm::MutableArrayRef<mlir::IRMapping> elements,
            CloneOp clone = {});

/// At `b`, for the point `mapping` maps the loop's induction variables
/// to: the 32 lanes of a warp (`lane`, 0 to 31) reduce the row loop
/// together, and each gets the whole row's result, not yet combined with
/// the accumulator's initial value.
mlir::Value reduceRowInWarp(mlir::OpBuilder &b, Accumulation acc,
                            mlir::IRMapping &mapping, mlir::Value lane);

/// Each lane's `partial` result combined across the warp's 32 lanes, which
/// all get the whole.
mlir::Value reduceAcrossWarp(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Operation *combiner, mlir::Value partial);

/// At `b`: the accumulator's element combined with `total`, stored back.
void storeCombined(mlir::OpBuilder &b, Accumulation acc,
                   mlir::IRMapping &mapping, mlir::Value total);

/// Maps a reduction loop nest (WarpReductions.cpp states which) to a warp
/// per output element; fails, leaving `loop` as it was, for any other.
mlir::LogicalResult mapWarpReduction(mlir::scf::ParallelOp loop);

/// Maps a row tile, a parallel loop whose body holds parallel loops
/// (WarpTiles.cpp), to a warp per tile; fails, leaving `loop` as it was,
/// when it is not one or holds what a warp cannot share.
mlir::LogicalResult mapWarpTile(mlir::scf::ParallelOp loop);

} // namespace kiln::cuda

#endif // KILN_CODEGEN_CUDA_KERNELMAPPING_H
