//===- MapToKernels.cpp - Parallel loops on buffers become GPU launches ---===//
//
// After bufferization and convert-linalg-to-parallel-loops, every linalg op
// of a CUDA entry is an scf.parallel over its parallel dims (its reduction
// dims are scf.for loops inside). Each outermost scf.parallel becomes one
// gpu.launch over its flattened iteration space (buildKernel): a row
// tile (a loop over rows whose body holds the tile's loops) a warp per
// row (WarpTiles.cpp), a row reduction a warp per output
// (WarpReductions.cpp), anything else a thread per point (four per
// thread in a full block, which reads and writes them with 16-byte
// accesses where the host finds the memory aligned: VectorAccess.cpp). A
// flat grid needs only grid.x (up to 2^31-1 blocks), whatever the rank,
// so no dim of a tensor is limited to the 65535 blocks of grid.y and
// grid.z.
//
// A rank-0 entry argument (a Python scalar) stays in host memory (the
// runtime copies only tensors of rank 1 and more to the device), so its
// loads are hoisted out of the loop and reach the kernel as a value.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/cuda/KernelMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace {

/// What a kernel cannot do yet, or null. A row tile's buffers of static
/// shape (kiln-tile-stack-buffers) are the thread's own.
Operation *unsupportedInKernel(scf::ParallelOp loop) {
  Operation *bad = nullptr;
  loop.getBody()->walk([&](Operation *op) {
    auto alloca = dyn_cast<memref::AllocaOp>(op);
    if (isa<CallOpInterface, memref::AllocOp>(op) ||
        (alloca && !alloca.getType().hasStaticShape())) {
      bad = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return bad;
}

} // namespace

bool kiln::cuda::isHostScalarArgument(Value memref) {
  auto arg = dyn_cast<BlockArgument>(memref);
  return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp()) &&
         cast<MemRefType>(arg.getType()).getRank() == 0;
}

void kiln::cuda::forEachHostOp(Operation *module,
                               function_ref<bool(Operation *)> visit) {
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (auto fn = dyn_cast<func::FuncOp>(op);
        fn && isDeallocHelper(fn.getName()))
      return WalkResult::skip();
    return visit(op) ? WalkResult::advance() : WalkResult::interrupt();
  });
}

namespace {

/// Maps `loop`'s induction variables to the indices of flat point `point`
/// (and the constants its body uses to copies at `b`, so that they fold
/// into the kernel's code instead of becoming kernel parameters).
IRMapping mapPoint(OpBuilder &b, Location loc, scf::ParallelOp loop,
                   Value point, ArrayRef<Value> extents,
                   const kiln::cuda::Dividers &dividers) {
  IRMapping mapping;
  SetVector<Value> outside;
  getUsedValuesDefinedAbove(loop.getRegion(), outside);
  outside.insert(loop.getLowerBound().begin(), loop.getLowerBound().end());
  outside.insert(loop.getStep().begin(), loop.getStep().end());
  for (Value value : outside)
    if (Operation *def = value.getDefiningOp();
        def && def->hasTrait<OpTrait::ConstantLike>())
      mapping.map(value, b.clone(*def)->getResult(0));
  SmallVector<Value> indices =
      kiln::cuda::delinearize(b, loc, point, extents, dividers);
  for (int64_t d = loop.getNumLoops() - 1; d >= 0; --d) {
    Value iv = b.create<arith::AddIOp>(
        loc, mapping.lookupOrDefault(loop.getLowerBound()[d]),
        b.create<arith::MulIOp>(loc, indices[d],
                                mapping.lookupOrDefault(loop.getStep()[d])));
    mapping.map(loop.getInductionVars()[d], iv);
  }
  return mapping;
}

/// `if point < total`, with the point's mapping, at `b`.
IRMapping guardPoint(OpBuilder &b, Location loc, scf::ParallelOp loop,
                     Value point, Value total, ArrayRef<Value> extents,
                     const kiln::cuda::Dividers &dividers) {
  Value inRange =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, point, total);
  auto guard = b.create<scf::IfOp>(loc, inRange, /*withElse=*/false);
  b.setInsertionPointToStart(guard.thenBlock());
  return mapPoint(b, loc, loop, point, extents, dividers);
}

} // namespace

void kiln::cuda::buildKernel(scf::ParallelOp loop, int64_t threadsPerPoint,
                             int64_t pointsPerThread, const FillBody &fillBody,
                             const VectorPlan *vector) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  assert((threadsPerPoint == 1 || pointsPerThread == 1) &&
         "a thread takes several points, or several threads one");
  // Loads of host scalars first, outside the kernel.
  loop.getBody()->walk([&](memref::LoadOp load) {
    if (isHostScalarArgument(load.getMemRef()))
      load->moveBefore(loop);
  });

  // Iterations per dim, and their product.
  SmallVector<Value> extents;
  Value total = b.create<arith::ConstantIndexOp>(loc, 1);
  for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep())) {
    Value span = b.create<arith::SubIOp>(loc, ub, lb);
    Value n = b.create<arith::CeilDivSIOp>(loc, span, step);
    Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
    n = b.create<arith::MaxSIOp>(loc, n, zero);
    extents.push_back(n);
    total = b.create<arith::MulIOp>(loc, total, n);
  }
  Dividers dividers = makeDividers(b, loc, extents, total);
  int64_t pointsPerBlock = kThreadsPerBlock / threadsPerPoint * pointsPerThread;
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value threads = b.create<arith::ConstantIndexOp>(loc, kThreadsPerBlock);
  Value blocks = b.create<arith::CeilDivSIOp>(
      loc, total, b.create<arith::ConstantIndexOp>(loc, pointsPerBlock));
  Value vectorAllowed;
  if (vector && !vector->empty())
    vectorAllowed = vectorPathAllowed(b, loc, *vector, extents.back());
  auto launch = b.create<gpu::LaunchOp>(loc, blocks, one, one, threads, one,
                                        one);

  OpBuilder k = OpBuilder::atBlockBegin(&launch.getBody().front());
  k.create<gpu::TerminatorOp>(loc);
  k.setInsertionPointToStart(&launch.getBody().front());
  // Constants made inside the kernel are folded into its code; the ones
  // outside would become kernel parameters.
  Value block = launch.getBlockIds().x, thread = launch.getThreadIds().x;
  Value first = k.create<arith::MulIOp>(
      loc, block, k.create<arith::ConstantIndexOp>(loc, pointsPerBlock));
  // Point j of a thread is the block's (j * threads + thread): each of the
  // thread's loads is coalesced with its neighbours' in the warp.
  auto pointOf = [&](OpBuilder &at, int64_t j) {
    return at.create<arith::AddIOp>(
        loc, first,
        at.create<arith::AddIOp>(
            loc, thread,
            at.create<arith::ConstantIndexOp>(loc, j * kThreadsPerBlock)));
  };
  if (threadsPerPoint > 1) {
    Value perPoint = k.create<arith::ConstantIndexOp>(loc, threadsPerPoint);
    Value point = k.create<arith::AddIOp>(
        loc, first, k.create<arith::DivUIOp>(loc, thread, perPoint));
    Value lane = k.create<arith::RemUIOp>(loc, thread, perPoint);
    IRMapping mapping =
        guardPoint(k, loc, loop, point, total, extents, dividers);
    fillBody(k, mapping, lane);
  } else if (pointsPerThread == 1) {
    IRMapping mapping =
        guardPoint(k, loc, loop, pointOf(k, 0), total, extents, dividers);
    fillBody(k, mapping, Value());
  } else {
    // Every block but the last has all its points: their bodies run
    // unguarded, side by side, so that the loads of all of them are in
    // flight at once. The last block guards each point.
    Value end = k.create<arith::AddIOp>(
        loc, first, k.create<arith::ConstantIndexOp>(loc, pointsPerBlock));
    Value full =
        k.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, end, total);
    auto split = k.create<scf::IfOp>(loc, full, /*withElse=*/true);
    Block *scalar = split.thenBlock();
    if (vectorAllowed) {
      auto choose = OpBuilder::atBlockBegin(split.thenBlock())
                        .create<scf::IfOp>(loc, vectorAllowed,
                                           /*withElse=*/true);
      OpBuilder v = OpBuilder::atBlockBegin(choose.thenBlock());
      // Thread t takes the block's points 4t .. 4t + 3: one row, as the
      // innermost extent is a multiple of four.
      Value point = v.create<arith::AddIOp>(
          loc, first,
          v.create<arith::MulIOp>(
              loc, thread,
              v.create<arith::ConstantIndexOp>(loc, pointsPerThread)));
      SmallVector<IRMapping> consecutive(
          pointsPerThread,
          mapPoint(v, loc, loop, point, extents, dividers));
      Value inner = loop.getInductionVars().back();
      for (int64_t j = 1; j < pointsPerThread; ++j)
        consecutive[j].map(
            inner, v.create<arith::AddIOp>(
                       loc, consecutive[0].lookup(inner),
                       v.create<arith::ConstantIndexOp>(loc, j)));
      fillVectorBody(v, loc, loop, *vector, consecutive);
      scalar = choose.elseBlock();
    }
    OpBuilder whole = OpBuilder::atBlockBegin(scalar);
    SmallVector<IRMapping> mappings;
    for (int64_t j = 0; j < pointsPerThread; ++j)
      mappings.push_back(
          mapPoint(whole, loc, loop, pointOf(whole, j), extents, dividers));
    fillBody(whole, mappings, Value());
    OpBuilder tail = OpBuilder::atBlockBegin(split.elseBlock());
    for (int64_t j = 0; j < pointsPerThread; ++j) {
      OpBuilder guarded = tail;
      IRMapping mapping = guardPoint(guarded, loc, loop, pointOf(tail, j),
                                     total, extents, dividers);
      fillBody(guarded, mapping, Value());
    }
  }
  loop.erase();
}

namespace {

LogicalResult mapLoop(scf::ParallelOp loop) {
  if (Operation *bad = unsupportedInKernel(loop)) {
    auto call = dyn_cast<func::CallOp>(bad);
    std::string what =
        call ? "a call of " + call.getCallee().str() + " (a run-time check, "
                                                       "print or list)"
             : "a buffer allocated per element";
    return bad->emitError("--target=cuda cannot put " + what +
                          " inside a GPU kernel yet");
  }
  if (succeeded(kiln::cuda::mapWarpTile(loop)) ||
      succeeded(kiln::cuda::mapWarpReduction(loop)))
    return success();
  // A thread per point, or per kPointsPerThread points where the body has
  // no loop of its own.
  bool straight = true;
  loop.getBody()->walk([&](LoopLikeOpInterface) { straight = false; });
  kiln::cuda::VectorPlan vector;
  if (straight)
    vector = kiln::cuda::planVectorAccesses(loop);
  kiln::cuda::buildKernel(
      loop, 1, straight ? kiln::cuda::kPointsPerThread : 1,
      [&](OpBuilder &body, MutableArrayRef<IRMapping> points, Value) {
        // Op by op across the points: the points are independent
        // iterations of the parallel loop, and every load of all of them
        // then comes before the first store, which the compiler would not
        // move a load above (kernel arguments may alias).
        for (Operation &op : loop.getBody()->without_terminator())
          for (IRMapping &mapping : points)
            body.clone(op, mapping);
      },
      &vector);
  return success();
}

struct MapToKernelsPass
    : public PassWrapper<MapToKernelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MapToKernelsPass)

  StringRef getArgument() const final { return "kiln-map-to-kernels"; }
  StringRef getDescription() const final {
    return "Turn each outermost scf.parallel into a flat gpu.launch";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                    math::MathDialect, NVVM::NVVMDialect, scf::SCFDialect>();
  }
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        loops.push_back(loop);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (scf::ParallelOp loop : loops) {
      if (loop.getNumResults() != 0) {
        loop.emitError("--target=cuda cannot map a parallel loop with "
                       "results to a GPU kernel yet");
        return signalPassFailure();
      }
      if (failed(mapLoop(loop)))
        return signalPassFailure();
    }
    getOperation()->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                            UnitAttr::get(&getContext()));
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createMapToKernelsPass() {
  return std::make_unique<MapToKernelsPass>();
}
