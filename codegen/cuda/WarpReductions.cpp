//===- WarpReductions.cpp - A row reduction as one warp per output --------===//
//
// convert-linalg-to-parallel-loops makes a reduction over the innermost
// dims a loop that accumulates in memory, one output element per
// iteration of the parallel loop:
//
//   scf.parallel (%i) {
//     scf.for %k = %lb to %ub step %s {
//       %x = ...(loads at %i, %k)...
//       %o = memref.load %out[%i]
//       %r = arith.addf %x, %o          (the combiner)
//       memref.store %r, %out[%i]
//     }
//   }
//
// One thread per %i would walk a whole row alone, its loads uncoalesced.
// Here a warp takes each %i: lane l accumulates the row's elements
// l, l + 32, ... in a register from the combiner's identity, the warp
// combines its 32 partial results with shuffles (xor 16, 8, 4, 2, 1), and
// lane 0 combines that with the output's initial value. Neighbouring lanes
// read neighbouring elements, so the loads coalesce. The order of the
// combination changes, as in PyTorch's own reductions; kiln's float sums
// already allow reassociation (docs/codegen.md).
//
// The pattern must hold exactly: one accumulator load and one store, at
// indices the row loop does not change, a combiner with a known identity
// on 32-bit elements (what gpu.shuffle takes), and nothing else in the
// parallel body but side-effect-free ops before the row loop. Anything
// else keeps one thread per output.
//
//===----------------------------------------------------------------------===//

#include "codegen/cuda/KernelMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

using namespace mlir;

namespace {

/// The combiner's identity for `type`, or null when kiln does not know one.
TypedAttr identity(Operation *combiner, Type type) {
  Builder b(type.getContext());
  if (auto f = dyn_cast<FloatType>(type)) {
    const auto &semantics = f.getFloatSemantics();
    if (isa<arith::AddFOp>(combiner))
      return b.getFloatAttr(type, 0.0);
    if (isa<arith::MulFOp>(combiner))
      return b.getFloatAttr(type, 1.0);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
      return b.getFloatAttr(type, APFloat::getInf(semantics, /*Negative=*/true));
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
      return b.getFloatAttr(type, APFloat::getInf(semantics));
    return {};
  }
  auto i = dyn_cast<IntegerType>(type);
  if (!i)
    return {};
  unsigned width = i.getWidth();
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp>(combiner))
    return b.getIntegerAttr(type, 0);
  if (isa<arith::MulIOp>(combiner))
    return b.getIntegerAttr(type, 1);
  if (isa<arith::AndIOp>(combiner))
    return b.getIntegerAttr(type, APInt::getAllOnes(width));
  if (isa<arith::MaxSIOp>(combiner))
    return b.getIntegerAttr(type, APInt::getSignedMinValue(width));
  if (isa<arith::MinSIOp>(combiner))
    return b.getIntegerAttr(type, APInt::getSignedMaxValue(width));
  return {};
}

} // namespace

std::optional<kiln::cuda::Accumulation>
kiln::cuda::matchAccumulation(scf::ParallelOp loop) {
  Block *body = loop.getBody();
  auto ops = body->without_terminator();
  if (ops.empty())
    return std::nullopt;
  auto row = dyn_cast<scf::ForOp>(&*std::prev(ops.end()));
  if (!row || row.getNumResults() != 0)
    return std::nullopt;
  for (Operation &op : ops)
    if (&op != row && !isMemoryEffectFree(&op))
      return std::nullopt;
  Accumulation acc{row, {}, nullptr, {}};
  for (Operation &op : row.getBody()->without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (acc.store)
        return std::nullopt;
      acc.store = store;
    } else if (!isMemoryEffectFree(&op) && !isa<memref::LoadOp>(op)) {
      return std::nullopt;
    }
  }
  if (!acc.store)
    return std::nullopt;
  Operation *combiner = acc.store.getValueToStore().getDefiningOp();
  if (!combiner || combiner->getNumOperands() != 2 ||
      combiner->getNumResults() != 1 || !combiner->hasOneUse() ||
      combiner->getBlock() != row.getBody())
    return std::nullopt;
  for (Value operand : combiner->getOperands()) {
    auto load = operand.getDefiningOp<memref::LoadOp>();
    if (load && load.getMemRef() == acc.store.getMemRef() &&
        load.getIndices() == acc.store.getIndices() && load->hasOneUse())
      acc.load = load;
  }
  if (!acc.load)
    return std::nullopt;
  // Nothing else reads the accumulator, and the row does not move it.
  for (Operation &op : row.getBody()->without_terminator())
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && load != acc.load &&
        load.getMemRef() == acc.store.getMemRef())
      return std::nullopt;
  for (Value index : acc.store.getIndices())
    if (row.getRegion().isAncestor(index.getParentRegion()))
      return std::nullopt;
  Type element = acc.load.getType();
  if (element.getIntOrFloatBitWidth() != 32 ||
      !identity(combiner, element))
    return std::nullopt;
  acc.combiner = combiner;
  return acc;
}

Value kiln::cuda::tripCount(OpBuilder &b, Location loc, Value lb, Value ub,
                           Value step) {
  Value zero = b.createOrFold<arith::ConstantIndexOp>(loc, 0);
  Value one = b.createOrFold<arith::ConstantIndexOp>(loc, 1);
  Value span = b.createOrFold<arith::MaxSIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, ub, lb), zero);
  // (A loop's step is positive. The kernel lowering has no ceildivsi.)
  return b.createOrFold<arith::DivUIOp>(
      loc,
      b.createOrFold<arith::AddIOp>(
          loc, span, b.createOrFold<arith::SubIOp>(loc, step, one)),
      step);
}

Value kiln::cuda::combinerIdentity(OpBuilder &b, Location loc,
                                   Operation *combiner, Type type) {
  return b.create<arith::ConstantOp>(loc, type, identity(combiner, type));
}

Value kiln::cuda::combine(OpBuilder &b, Operation *combiner, Value lhs,
                          Value rhs) {
  IRMapping mapping;
  mapping.map(combiner->getOperand(0), lhs);
  mapping.map(combiner->getOperand(1), rhs);
  return b.clone(*combiner, mapping)->getResult(0);
}

SmallVector<Value>
kiln::cuda::rowElements(OpBuilder &b, Accumulation acc,
                        MutableArrayRef<IRMapping> elements, CloneOp clone) {
  for (Operation &op : acc.row.getBody()->without_terminator()) {
    if (&op == acc.load || &op == acc.store || &op == acc.combiner)
      continue;
    for (IRMapping &element : elements)
      clone ? clone(b, op, element) : (void)b.clone(op, element);
  }
  Value x = acc.combiner->getOperand(0) == acc.load.getResult()
                ? acc.combiner->getOperand(1)
                : acc.combiner->getOperand(0);
  SmallVector<Value> values;
  for (IRMapping &element : elements)
    values.push_back(element.lookupOrDefault(x));
  return values;
}

Value kiln::cuda::reduceRowInWarp(OpBuilder &b, Accumulation acc,
                                  IRMapping &mapping, Value lane) {
  Location loc = acc.row.getLoc();
  Type element = acc.load.getType();
  Value lb = mapping.lookupOrDefault(acc.row.getLowerBound());
  Value ub = mapping.lookupOrDefault(acc.row.getUpperBound());
  Value step = mapping.lookupOrDefault(acc.row.getStep());
  Value first = b.create<arith::AddIOp>(
      loc, lb, b.create<arith::MulIOp>(loc, lane, step));
  Value stride = b.create<arith::MulIOp>(
      loc, step, b.create<arith::ConstantIndexOp>(loc, kWarp));
  Value start = combinerIdentity(b, loc, acc.combiner, element);
  // The lane's elements, kElementsInFlight at a time while that many are
  // left: their loads issue together, and the lane combines them in
  // order, as one at a time would. Then the rest, one at a time.
  Value count = tripCount(b, loc, first, ub, stride);
  Value batch = b.create<arith::ConstantIndexOp>(loc, kElementsInFlight);
  Value batched = b.create<arith::MulIOp>(
      loc, b.create<arith::DivUIOp>(loc, count, batch), batch);
  Value split = b.create<arith::AddIOp>(
      loc, first, b.create<arith::MulIOp>(loc, batched, stride));
  auto batches = b.create<scf::ForOp>(
      loc, first, split, b.create<arith::MulIOp>(loc, stride, batch),
      ValueRange{start},
      [&](OpBuilder &inner, Location, Value k, ValueRange partial) {
        SmallVector<IRMapping> elements(kElementsInFlight, mapping);
        for (auto [j, element] : llvm::enumerate(elements))
          element.map(acc.row.getInductionVar(),
                      inner.create<arith::AddIOp>(
                          loc, k,
                          inner.create<arith::MulIOp>(
                              loc, stride,
                              inner.create<arith::ConstantIndexOp>(loc, j))));
        Value next = partial[0];
        for (Value x : rowElements(inner, acc, elements))
          next = combine(inner, acc.combiner, x, next);
        inner.create<scf::YieldOp>(loc, next);
      });
  auto rest = b.create<scf::ForOp>(
      loc, split, ub, stride, batches.getResults(),
      [&](OpBuilder &inner, Location, Value k, ValueRange partial) {
        IRMapping element = mapping;
        element.map(acc.row.getInductionVar(), k);
        Value x = rowElements(inner, acc, element).front();
        inner.create<scf::YieldOp>(
            loc, combine(inner, acc.combiner, x, partial[0]));
      });
  return reduceAcrossWarp(b, loc, acc.combiner, rest.getResult(0));
}

Value kiln::cuda::reduceAcrossWarp(OpBuilder &b, Location loc,
                                   Operation *combiner, Value partial) {
  // Xor shuffles leave every lane with the whole warp's result.
  Value total = partial;
  for (int64_t offset = kWarp / 2; offset > 0; offset /= 2) {
    auto shuffle = b.create<gpu::ShuffleOp>(
        loc, total, static_cast<int32_t>(offset), static_cast<int32_t>(kWarp),
        gpu::ShuffleMode::XOR);
    total = combine(b, combiner, total, shuffle.getShuffleResult());
  }
  return total;
}

void kiln::cuda::storeCombined(OpBuilder &b, Accumulation acc,
                               IRMapping &mapping, Value total) {
  Location loc = acc.store.getLoc();
  SmallVector<Value> indices;
  for (Value index : acc.store.getIndices())
    indices.push_back(mapping.lookupOrDefault(index));
  Value memref = mapping.lookupOrDefault(acc.store.getMemRef());
  Value initial = b.create<memref::LoadOp>(loc, memref, indices);
  b.create<memref::StoreOp>(loc, combine(b, acc.combiner, total, initial),
                            memref, indices);
}

LogicalResult kiln::cuda::mapWarpReduction(scf::ParallelOp loop) {
  std::optional<Accumulation> acc = matchAccumulation(loop);
  if (!acc)
    return failure();
  Location loc = acc->row.getLoc();
  buildKernel(loop, kWarp, 1, [&](OpBuilder &b,
                                  MutableArrayRef<IRMapping> points,
                                  Value lane) {
    IRMapping &mapping = points.front();
    for (Operation &op : loop.getBody()->without_terminator())
      if (&op != acc->row)
        b.clone(op, mapping);
    Value total = reduceRowInWarp(b, *acc, mapping, lane);
    Value leader = b.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq, lane,
        b.create<arith::ConstantIndexOp>(loc, 0));
    auto write = b.create<scf::IfOp>(loc, leader, /*withElse=*/false);
    OpBuilder then = write.getThenBodyBuilder();
    storeCombined(then, *acc, mapping, total);
  });
  return success();
}
