//===- RowInRegisters.cpp - A short row tile's elements in registers ------===//
//
// A row tile reads its row once per pass: softmax reads it for the max,
// again for the sum of exponentials and a third time for the output. In a
// warp tile (WarpTiles.cpp), lane l takes the row's elements l, l + 32,
// l + 64, ... in every pass, so when the row is short a lane can keep its
// elements in registers from the first pass and the row crosses the
// memory bus once, as PyTorch's softmax does. Without that, the later
// passes hit the cache only where the row was not evicted.
//
// Registers need static indices, so the passes are unrolled over a fixed
// number of elements per lane, C (a tier of kTiers, which has the
// measurements): element j of lane l is the row's point l + 32 j. An
// element past the row's end loads the row's last point instead, so that
// every load stays in bounds and none is behind a branch (ptxas waits for
// a load made in a branch where the branches join: with each load guarded
// so, softmax over rows of 512 took 193.5 us on an H200 against 146.7
// without registers), and is left out of reductions (a select) and stores
// nothing. Its store is guarded and takes the unclamped index, the lane's
// first address plus a constant, so that the clamped indices die with the
// first pass.
// Each tier is a kernel of its own, so that a short row's kernel is not
// held to the registers of a long row's: the host checks the row's length
// and launches the smallest tier that holds it, or the kernel of any
// length (emitStep) for a longer row.
//
// A pass in registers is a Reduce or Spread step over one row loop whose
// bounds come from outside the tile and whose body only loads, stores and
// computes. A load of global memory is made once per element and reused
// by later passes until a step writes global memory (a tile that reads
// back what it wrote). The loop being parallel, a pass that writes the
// memory it reads only reads its own points, which hold what the earlier
// passes loaded.
//
//===----------------------------------------------------------------------===//

#include "codegen/cuda/WarpTilePlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

using namespace mlir;
using namespace kiln::cuda;

namespace {

/// Elements per lane of each tier, smallest first: rows of up to 256 and
/// 512. One tier for all would hold a short row's lanes to the longest
/// row's work. Measured on an H200, softmax (µs, before and after the
/// register path; eager PyTorch 2.11 beside): 262144 rows of 256, 189.6
/// and 151.7; 131072 of 512, 148.8 and 140.2 (eager 151.7). A third tier
/// of 32 (rows of up to 1024) took 104 registers, its 32 loads' addresses
/// live at once, and ran slower than the kernel without registers: 65536
/// rows of 1024, 159.2 and 193.9 (eager 150.8).
constexpr int64_t kTiers[] = {8, 16};

/// A row loop: the bounds of the one dim of a pass that is not a single
/// iteration.
struct RowLoop {
  Value lb, ub, step;
  Value iv;
};

bool isUnitDim(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb),
                         u = getConstantIntValue(ub),
                         s = getConstantIntValue(step);
  return l && u && s && *u > *l && *u - *l <= *s;
}

/// Whether `op` only loads, stores, or computes.
bool isSimple(Operation &op) {
  return isa<memref::LoadOp, memref::StoreOp>(op) || isMemoryEffectFree(&op);
}

/// The row loop of a step the register path takes, or nothing.
std::optional<RowLoop> rowLoopOf(const Step &step, scf::ParallelOp tile) {
  auto loop = dyn_cast<scf::ParallelOp>(step.op);
  if (!loop || (step.role != Role::Reduce && step.role != Role::Spread))
    return std::nullopt;
  std::optional<RowLoop> row;
  for (auto [lb, ub, s, iv] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep(),
                 loop.getInductionVars())) {
    if (isUnitDim(lb, ub, s))
      continue;
    if (step.role == Role::Reduce || row)
      return std::nullopt;
    row = RowLoop{lb, ub, s, iv};
  }
  if (step.role == Role::Reduce) {
    scf::ForOp r = step.acc->row;
    row = RowLoop{r.getLowerBound(), r.getUpperBound(), r.getStep(),
                  r.getInductionVar()};
  }
  if (!row)
    return std::nullopt;
  for (Value bound : {row->lb, row->ub, row->step})
    if (tile.getRegion().isAncestor(bound.getParentRegion()))
      return std::nullopt;
  Block *body = step.role == Role::Reduce
                    ? scf::ForOp(step.acc->row).getBody()
                    : loop.getBody();
  if (!llvm::all_of(body->without_terminator(), isSimple))
    return std::nullopt;
  return row;
}

/// Whether two of the passes the register path takes load the same
/// global memref: what keeping the row in registers saves.
bool rereadsARow(ArrayRef<Step> steps,
                 ArrayRef<std::optional<RowLoop>> rows) {
  llvm::DenseMap<Value, unsigned> readers;
  for (auto [step, row] : llvm::zip(steps, rows)) {
    if (!row)
      continue;
    llvm::SmallPtrSet<Value, 4> read;
    step.op->walk([&](memref::LoadOp load) {
      if (!isLaneOwn(load.getMemRef()))
        read.insert(load.getMemRef());
    });
    for (Value memref : read)
      if (++readers[memref] == 2)
        return true;
  }
  return false;
}

/// A lane's elements of one row loop in a tier: the index of each (the
/// loop's point lane + 32 j), whether it is a point of the loop, and the
/// index its loads take (the same, clamped to the loop's last point).
struct LaneElements {
  SmallVector<Value> iv, valid, loadIv;
};

/// Loads of global memory made so far in the register path, by memref and
/// indices: one register per element for all the passes.
class LoadedElements {
public:
  void clone(OpBuilder &b, Operation &op, IRMapping &mapping) {
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load || isLaneOwn(load.getMemRef())) {
      b.clone(op, mapping);
      return;
    }
    SmallVector<void *, 4> key{
        mapping.lookupOrDefault(load.getMemRef()).getAsOpaquePointer()};
    for (Value index : load.getIndices())
      key.push_back(mapping.lookupOrDefault(index).getAsOpaquePointer());
    auto [it, fresh] = loaded.try_emplace(key);
    if (fresh)
      it->second = b.clone(op, mapping)->getResult(0);
    mapping.map(load.getResult(), it->second);
  }
  void forget() { loaded.clear(); }

private:
  std::map<SmallVector<void *, 4>, Value> loaded;
};

/// `mapping` with a pass's dims at their lower bounds.
IRMapping atLowerBounds(scf::ParallelOp loop, IRMapping &mapping) {
  IRMapping point = mapping;
  for (auto [iv, lb] : llvm::zip(loop.getInductionVars(), loop.getLowerBound()))
    point.map(iv, mapping.lookupOrDefault(lb));
  return point;
}

/// `point` with the row loop at each of the lane's elements, as its loads
/// take them.
SmallVector<IRMapping> elementMappings(const IRMapping &point,
                                       const RowLoop &row,
                                       const LaneElements &lane) {
  SmallVector<IRMapping> elements(lane.loadIv.size(), point);
  for (auto [element, iv] : llvm::zip(elements, lane.loadIv))
    element.map(row.iv, iv);
  return elements;
}

void emitReduce(OpBuilder &b, const Step &step, const RowLoop &row,
                const LaneElements &elementsOfLane, IRMapping &mapping,
                LoadedElements &loaded, Value lane) {
  auto loop = cast<scf::ParallelOp>(step.op);
  Accumulation acc = *step.acc;
  Location loc = acc.row.getLoc();
  IRMapping point = atLowerBounds(loop, mapping);
  for (Operation &op : loop.getBody()->without_terminator())
    if (&op != acc.row)
      b.clone(op, point);
  SmallVector<IRMapping> elements =
      elementMappings(point, row, elementsOfLane);
  SmallVector<Value> xs = rowElements(
      b, acc, elements, [&](OpBuilder &at, Operation &op, IRMapping &m) {
        loaded.clone(at, op, m);
      });
  Value partial = combinerIdentity(b, loc, acc.combiner, acc.load.getType());
  for (auto [x, valid] : llvm::zip(xs, elementsOfLane.valid))
    partial = b.create<arith::SelectOp>(
        loc, valid, combine(b, acc.combiner, x, partial), partial);
  storeReduced(b, step, point,
               reduceAcrossWarp(b, loc, acc.combiner, partial), lane);
}

void emitSpread(OpBuilder &b, const Step &step, const RowLoop &row,
                const LaneElements &elementsOfLane, IRMapping &mapping,
                LoadedElements &loaded) {
  auto loop = cast<scf::ParallelOp>(step.op);
  SmallVector<IRMapping> elements =
      elementMappings(atLowerBounds(loop, mapping), row, elementsOfLane);
  // Op by op across the elements, so that their loads issue together.
  for (Operation &op : loop.getBody()->without_terminator()) {
    for (auto [element, valid, iv] :
         llvm::zip(elements, elementsOfLane.valid, elementsOfLane.iv)) {
      if (!isa<memref::StoreOp>(op)) {
        loaded.clone(b, op, element);
        continue;
      }
      OpBuilder then =
          b.create<scf::IfOp>(op.getLoc(), valid, false).getThenBodyBuilder();
      IRMapping store = element;
      store.map(row.iv, iv);
      then.clone(op, store);
    }
  }
}

/// A row loop's bounds under `mapping`, as a key.
SmallVector<void *, 3> boundsKey(const RowLoop &row, IRMapping &mapping) {
  return {mapping.lookupOrDefault(row.lb).getAsOpaquePointer(),
          mapping.lookupOrDefault(row.ub).getAsOpaquePointer(),
          mapping.lookupOrDefault(row.step).getAsOpaquePointer()};
}

/// Each of `rows`' loops once, by boundsKey, with its iterations at `b`.
std::map<SmallVector<void *, 3>, std::pair<const RowLoop *, Value>>
tripCounts(OpBuilder &b, Location loc, ArrayRef<std::optional<RowLoop>> rows,
           IRMapping &mapping) {
  std::map<SmallVector<void *, 3>, std::pair<const RowLoop *, Value>> counts;
  for (const std::optional<RowLoop> &row : rows)
    if (row && !counts.count(boundsKey(*row, mapping)))
      counts[boundsKey(*row, mapping)] = {
          &*row, tripCount(b, loc, mapping.lookupOrDefault(row->lb),
                           mapping.lookupOrDefault(row->ub),
                           mapping.lookupOrDefault(row->step))};
  return counts;
}

SmallVector<std::optional<RowLoop>> rowLoops(scf::ParallelOp tile,
                                             ArrayRef<Step> steps) {
  SmallVector<std::optional<RowLoop>> rows;
  for (const Step &step : steps)
    rows.push_back(rowLoopOf(step, tile));
  return rows;
}

} // namespace

SmallVector<std::pair<scf::ParallelOp, int64_t>>
kiln::cuda::splitShortRows(scf::ParallelOp tile, ArrayRef<Step> steps) {
  SmallVector<std::optional<RowLoop>> rows = rowLoops(tile, steps);
  if (!rereadsARow(steps, rows))
    return {};
  // On the host, before the launch: the longest row loop, and whether
  // none is empty (an empty loop has no last point to clamp loads to).
  OpBuilder b(tile);
  Location loc = tile.getLoc();
  IRMapping host;
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value longest = zero;
  Value nonEmpty = b.create<arith::ConstantIntOp>(loc, 1, 1);
  for (auto &[key, count] : tripCounts(b, loc, rows, host)) {
    longest = b.create<arith::MaxUIOp>(loc, longest, count.second);
    nonEmpty = b.create<arith::AndIOp>(
        loc, nonEmpty,
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, count.second,
                                zero));
  }
  SmallVector<std::pair<scf::ParallelOp, int64_t>> copies;
  for (int64_t perLane : kTiers) {
    Value fits = b.create<arith::AndIOp>(
        loc, nonEmpty,
        b.create<arith::CmpIOp>(
            loc, arith::CmpIPredicate::ule, longest,
            b.create<arith::ConstantIndexOp>(loc, perLane * kWarp)));
    auto tier = b.create<scf::IfOp>(loc, fits, /*withElse=*/true);
    OpBuilder then = tier.getThenBodyBuilder();
    copies.push_back({cast<scf::ParallelOp>(then.clone(*tile)), perLane});
    b = tier.getElseBodyBuilder();
  }
  tile->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
  return copies;
}

void kiln::cuda::emitRowInRegisters(OpBuilder &b, scf::ParallelOp tile,
                                    ArrayRef<Step> steps, int64_t perLane,
                                    IRMapping &mapping, Value lane) {
  SmallVector<std::optional<RowLoop>> rows = rowLoops(tile, steps);
  Location loc = tile.getLoc();
  // The lane's elements of each row loop.
  std::map<SmallVector<void *, 3>, LaneElements> lanes;
  for (auto &[key, count] : tripCounts(b, loc, rows, mapping)) {
    auto [row, points] = count;
    LaneElements &elements = lanes[key];
    Value lb = mapping.lookupOrDefault(row->lb);
    Value step = mapping.lookupOrDefault(row->step);
    Value last = b.create<arith::SubIOp>(
        loc, points, b.create<arith::ConstantIndexOp>(loc, 1));
    auto indexOf = [&](Value point) {
      return b.create<arith::AddIOp>(
          loc, lb, b.create<arith::MulIOp>(loc, point, step));
    };
    for (int64_t j = 0; j < perLane; ++j) {
      Value point = b.create<arith::AddIOp>(
          loc, lane, b.create<arith::ConstantIndexOp>(loc, j * kWarp));
      elements.valid.push_back(b.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ult, point, points));
      elements.iv.push_back(indexOf(point));
      elements.loadIv.push_back(
          indexOf(b.create<arith::MinUIOp>(loc, point, last)));
    }
  }
  LoadedElements loaded;
  for (auto [step, row] : llvm::zip(steps, rows)) {
    if (!row) {
      emitStep(b, step, mapping, lane);
    } else {
      const LaneElements &elements = lanes.at(boundsKey(*row, mapping));
      if (step.role == Role::Reduce)
        emitReduce(b, step, *row, elements, mapping, loaded, lane);
      else
        emitSpread(b, step, *row, elements, mapping, loaded);
      syncAfter(b, step);
    }
    if (step.writesGlobal)
      loaded.forget();
  }
}
