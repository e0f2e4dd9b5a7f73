//===- WarpTiles.cpp - A row tile as one warp -----------------------------===//
//
// A GPU row tile (kiln-tile-fusion-groups{gpu}, CudaTiling.cpp) reaches
// kernel mapping as a parallel loop over rows whose body holds the tile's
// ops, each a parallel loop of its own (softmax, abridged):
//
//   scf.parallel (%r) {
//     %x = memref.subview %in[%r, 0] [1, %n]
//     %max = memref.alloca() : memref<1xf32>
//     scf.parallel (%i) to (1) { memref.store -inf, %max[%i] }
//     scf.parallel (%i) to (1) { scf.for %k { ... %max[%i] = max(...) } }
//     ...
//     scf.parallel (%i, %j) to (1, %n) { ... memref.store %y, %out[...] }
//   }
//
// A warp runs each tile, its 32 lanes going through the tile's ops in
// step:
// - an accumulation (the WarpReductions.cpp pattern) is reduced by the
//   lanes together, and every lane ends with the row's result;
// - a loop that writes only memory other threads can see (global memory)
//   hands its points to the lanes in turn, 16 in flight per lane
//   (KernelMapping.h, kElementsInFlight);
// - everything else runs in every lane alike. The tile's buffers
//   (memref.alloca: the row's max and sum) are each lane's own, so the
//   lanes keep equal copies of them and never wait on each other. An op
//   that writes global memory otherwise runs in lane 0 alone, as lanes
//   that each read, modify and write it would race.
// When a later op of the tile reads global memory after one lane wrote it,
// a __syncwarp (nvvm.bar.warp.sync) between them makes the write visible.
//
// Anything else (an op with results that only lane 0 runs, a loop that
// writes both kinds of memory) fails, and the tile keeps one thread per
// row, which is correct but slow.
//
// Where two passes read the same row, the host first picks by the row's
// length: a short row's tile runs as a kernel of the register path
// (RowInRegisters.cpp), a longer row's as above.
//
//===----------------------------------------------------------------------===//

#include "codegen/cuda/WarpTilePlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace kiln::cuda;

bool kiln::cuda::isLaneOwn(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (isa<memref::AllocaOp>(def))
      return true;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return false;
    memref = view.getViewSource();
  }
  return false;
}

namespace {

/// What `op` does to memory, nested ops included.
Access accessOf(Operation *op) {
  Access access;
  op->walk([&](Operation *inner) {
    if (auto store = dyn_cast<memref::StoreOp>(inner)) {
      (isLaneOwn(store.getMemRef()) ? access.writesOwn : access.writesGlobal) =
          true;
    } else if (auto load = dyn_cast<memref::LoadOp>(inner)) {
      access.readsGlobal |= !isLaneOwn(load.getMemRef());
    } else if (!isa<memref::AllocaOp>(inner) &&
               !inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
               !isMemoryEffectFree(inner)) {
      // An effect kiln does not know: assume the worst.
      access.readsGlobal = access.writesGlobal = true;
    }
  });
  return access;
}

} // namespace

FailureOr<SmallVector<Step>> kiln::cuda::planTile(scf::ParallelOp tile) {
  SmallVector<Step> steps;
  bool nested = false;
  for (Operation &op : tile.getBody()->without_terminator()) {
    Access access = accessOf(&op);
    auto loop = dyn_cast<scf::ParallelOp>(op);
    nested |= bool(loop);
    std::optional<Accumulation> acc =
        loop ? matchAccumulation(loop) : std::nullopt;
    if (acc)
      steps.push_back({&op, Role::Reduce, access, acc,
                       !isLaneOwn(acc->store.getMemRef())});
    else if (!access.writesGlobal)
      steps.push_back({&op, Role::EveryLane, access, std::nullopt, false});
    else if (access.writesOwn || (!loop && op.getNumResults() != 0))
      return failure();
    else
      steps.push_back({&op, loop ? Role::Spread : Role::LaneZero, access,
                       std::nullopt, true});
  }
  if (!nested)
    return failure();
  // A write to global memory is made visible before any later access to
  // global memory in the tile.
  for (size_t i = 0; i < steps.size(); ++i) {
    if (!steps[i].writesGlobal)
      continue;
    for (size_t j = i + 1; j < steps.size() && !steps[i].syncAfter; ++j)
      steps[i].syncAfter =
          steps[j].access.readsGlobal || steps[j].access.writesGlobal;
  }
  return steps;
}

namespace {

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return b.create<arith::ConstantIndexOp>(loc, value);
}

/// `body` at each point of `loop`, one after the other, in every lane.
void forEachPoint(OpBuilder &b, scf::ParallelOp loop, IRMapping &mapping,
                  function_ref<void(OpBuilder &, IRMapping &)> body) {
  auto lookup = [&](ValueRange values) {
    return llvm::map_to_vector(
        values, [&](Value v) { return mapping.lookupOrDefault(v); });
  };
  scf::buildLoopNest(
      b, loop.getLoc(), lookup(loop.getLowerBound()),
      lookup(loop.getUpperBound()), lookup(loop.getStep()),
      [&](OpBuilder &nested, Location, ValueRange ivs) {
        IRMapping point = mapping;
        point.map(loop.getInductionVars(), ivs);
        body(nested, point);
      });
}

/// An accumulation, every point reduced by the whole warp.
void emitReduce(OpBuilder &b, const Step &step, IRMapping &mapping,
                Value lane) {
  auto loop = cast<scf::ParallelOp>(step.op);
  Accumulation acc = *step.acc;
  forEachPoint(b, loop, mapping, [&](OpBuilder &pb, IRMapping &point) {
    for (Operation &op : loop.getBody()->without_terminator())
      if (&op != acc.row)
        pb.clone(op, point);
    storeReduced(pb, step, point, reduceRowInWarp(pb, acc, point, lane),
                 lane);
  });
}

/// A loop that writes global memory only, its points handed to the lanes
/// in turn: point p to lane p % 32, kElementsInFlight at a time.
void emitSpread(OpBuilder &b, scf::ParallelOp loop, IRMapping &mapping,
                Value lane) {
  Location loc = loop.getLoc();
  SmallVector<Value> extents;
  Value total = constantIndex(b, loc, 1);
  for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep())) {
    Value extent =
        tripCount(b, loc, mapping.lookupOrDefault(lb),
                  mapping.lookupOrDefault(ub), mapping.lookupOrDefault(step));
    extents.push_back(extent);
    total = b.create<arith::MulIOp>(loc, total, extent);
  }
  // The loop's indices of flat point `flat`: a dim of one iteration needs
  // no division, and the outermost that remains none either.
  auto wide = llvm::find_if(
      extents, [](Value extent) { return getConstantIntValue(extent) != 1; });
  int64_t outermost = std::distance(extents.begin(), wide);
  auto pointAt = [&](OpBuilder &at, Value flat) {
    IRMapping point = mapping;
    Value rest = flat;
    for (int64_t d = extents.size() - 1; d >= 0; --d) {
      Value index;
      if (getConstantIntValue(extents[d]) == 1) {
        index = constantIndex(at, loc, 0);
      } else if (d == outermost) {
        index = rest;
      } else {
        index = at.create<arith::RemUIOp>(loc, rest, extents[d]);
        rest = at.create<arith::DivUIOp>(loc, rest, extents[d]);
      }
      point.map(loop.getInductionVars()[d],
                at.create<arith::AddIOp>(
                    loc, mapping.lookupOrDefault(loop.getLowerBound()[d]),
                    at.create<arith::MulIOp>(
                        loc, index,
                        mapping.lookupOrDefault(loop.getStep()[d]))));
    }
    return point;
  };
  // Op by op across the points, so that all their loads issue first.
  auto fill = [&](OpBuilder &at, MutableArrayRef<IRMapping> points) {
    for (Operation &op : loop.getBody()->without_terminator())
      for (IRMapping &point : points)
        at.clone(op, point);
  };
  Value warp = constantIndex(b, loc, kWarp);
  Value round = constantIndex(b, loc, kWarp * kElementsInFlight);
  Value whole = b.create<arith::MulIOp>(
      loc, b.create<arith::DivUIOp>(loc, total, round), round);
  b.create<scf::ForOp>(
      loc, constantIndex(b, loc, 0), whole, round, ValueRange{},
      [&](OpBuilder &at, Location, Value base, ValueRange) {
        SmallVector<IRMapping> points;
        for (int64_t j = 0; j < kElementsInFlight; ++j)
          points.push_back(pointAt(
              at, at.create<arith::AddIOp>(
                      loc, base,
                      at.create<arith::AddIOp>(
                          loc, lane, constantIndex(at, loc, j * kWarp)))));
        fill(at, points);
        at.create<scf::YieldOp>(loc);
      });
  b.create<scf::ForOp>(
      loc, b.create<arith::AddIOp>(loc, whole, lane), total, warp,
      ValueRange{}, [&](OpBuilder &at, Location, Value flat, ValueRange) {
        IRMapping point = pointAt(at, flat);
        fill(at, point);
        at.create<scf::YieldOp>(loc);
      });
}

} // namespace

void kiln::cuda::storeReduced(OpBuilder &b, const Step &step,
                              IRMapping &point, Value total, Value lane) {
  if (!step.writesGlobal) {
    storeCombined(b, *step.acc, point, total);
    return;
  }
  Location loc = step.op->getLoc();
  Value leader = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, lane,
                                         constantIndex(b, loc, 0));
  OpBuilder then = b.create<scf::IfOp>(loc, leader, false).getThenBodyBuilder();
  storeCombined(then, *step.acc, point, total);
}

void kiln::cuda::syncAfter(OpBuilder &b, const Step &step) {
  if (!step.syncAfter)
    return;
  Location loc = step.op->getLoc();
  b.create<NVVM::SyncWarpOp>(loc, b.create<arith::ConstantIntOp>(loc, -1, 32));
}

void kiln::cuda::emitStep(OpBuilder &b, const Step &step, IRMapping &mapping,
                          Value lane) {
  Location loc = step.op->getLoc();
  switch (step.role) {
  case Role::EveryLane:
    b.clone(*step.op, mapping);
    break;
  case Role::Reduce:
    emitReduce(b, step, mapping, lane);
    break;
  case Role::Spread:
    emitSpread(b, cast<scf::ParallelOp>(step.op), mapping, lane);
    break;
  case Role::LaneZero: {
    Value leader = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, lane,
                                           constantIndex(b, loc, 0));
    OpBuilder then =
        b.create<scf::IfOp>(loc, leader, false).getThenBodyBuilder();
    then.clone(*step.op, mapping);
    break;
  }
  }
  syncAfter(b, step);
}

LogicalResult kiln::cuda::mapWarpTile(scf::ParallelOp tile) {
  FailureOr<SmallVector<Step>> steps = planTile(tile);
  if (failed(steps))
    return failure();
  for (auto [copy, perLane] : splitShortRows(tile, *steps)) {
    // A copy plans as its original did.
    SmallVector<Step> copySteps = *planTile(copy);
    buildKernel(copy, kWarp, 1,
                [&](OpBuilder &b, MutableArrayRef<IRMapping> points,
                    Value lane) {
                  emitRowInRegisters(b, copy, copySteps, perLane,
                                     points.front(), lane);
                });
  }
  buildKernel(tile, kWarp, 1, [&](OpBuilder &b,
                                  MutableArrayRef<IRMapping> points,
                                  Value lane) {
    for (const Step &step : *steps)
      emitStep(b, step, points.front(), lane);
  });
  return success();
}
