//===- VectorAccess.cpp - 16-byte loads and stores for elementwise kernels ===//
//
// In a thread-per-point kernel each thread of a full block takes
// kPointsPerThread points (MapToKernels.cpp). When those points are
// consecutive along the innermost dim, a load or store whose last index is
// that dim's induction variable touches four neighbouring elements, which
// one 16-byte access (ld.v4.f32, st.v4.f32) moves instead of four: a
// quarter of the memory instructions, the rest of the body unchanged.
//
// That needs what only the run time knows: the innermost extent a multiple
// of four (so that the four points share a row), and each such memref's
// first element 16-byte aligned with every stride but the last (which must
// be 1) a multiple of four. An input may be any view of a caller's tensor,
// so the host code checks this before each launch (vectorPathAllowed) and
// the kernel takes the vector path only then; otherwise its full blocks
// run the scalar body, as before.
//
// The accesses are llvm.load/llvm.store with an explicit alignment: MLIR
// 19's vector.load lowers with the element's alignment (4), which the
// NVPTX backend would split back into four scalar accesses. Only 32-bit
// elements (f32, i32) are taken.
//
//===----------------------------------------------------------------------===//

#include "codegen/cuda/KernelMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace {

constexpr int64_t kWidth = kiln::cuda::kPointsPerThread;
constexpr int64_t kElementBytes = 4;

bool isConstantIndex(Value value, int64_t expected) {
  auto constant = value.getDefiningOp<arith::ConstantIndexOp>();
  return constant && constant.value() == expected;
}

/// Whether `value` is computed (inside `loop`'s body) from `iv`.
bool dependsOn(Value value, Value iv, scf::ParallelOp loop) {
  if (value == iv)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != loop.getBody())
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOn(operand, iv, loop);
  });
}

/// The memref and indices of a load or store whose four points are four
/// neighbouring elements, or a null memref.
std::pair<Value, ValueRange> contiguousAccess(Operation *op,
                                              scf::ParallelOp loop) {
  Value memref;
  ValueRange indices;
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    memref = load.getMemRef();
    indices = load.getIndices();
  } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
    memref = store.getMemRef();
    indices = store.getIndices();
  } else {
    return {};
  }
  auto type = cast<MemRefType>(memref.getType());
  Type element = type.getElementType();
  Value iv = loop.getInductionVars().back();
  bool word = (element.isF32() || element.isInteger(32));
  if (!word || type.getRank() == 0 || indices.back() != iv ||
      loop->isAncestor(memref.getParentRegion()->getParentOp()) ||
      kiln::cuda::isHostScalarArgument(memref))
    return {};
  for (Value index : indices.drop_back())
    if (dependsOn(index, iv, loop))
      return {};
  return {memref, indices};
}

} // namespace

kiln::cuda::VectorPlan kiln::cuda::planVectorAccesses(scf::ParallelOp loop) {
  VectorPlan plan;
  // Consecutive points are consecutive innermost indices only from 0 in
  // steps of 1, which is what convert-linalg-to-parallel-loops makes.
  if (!isConstantIndex(loop.getLowerBound().back(), 0) ||
      !isConstantIndex(loop.getStep().back(), 1))
    return plan;
  for (Operation &op : loop.getBody()->without_terminator()) {
    Value memref = contiguousAccess(&op, loop).first;
    if (!memref)
      continue;
    plan.accesses.insert(&op);
    if (!llvm::is_contained(plan.memrefs, memref))
      plan.memrefs.push_back(memref);
  }
  return plan;
}

Value kiln::cuda::vectorPathAllowed(OpBuilder &b, Location loc,
                                    const VectorPlan &plan,
                                    Value innerExtent) {
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value width = b.create<arith::ConstantIndexOp>(loc, kWidth);
  Value bytes = b.create<arith::ConstantIndexOp>(loc, kWidth * kElementBytes);
  Value element = b.create<arith::ConstantIndexOp>(loc, kElementBytes);
  auto isZero = [&](Value value, Value modulus) {
    return b.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq,
        b.create<arith::RemUIOp>(loc, value, modulus), zero);
  };
  Value allowed = isZero(innerExtent, width);
  for (Value memref : plan.memrefs) {
    auto meta = b.create<memref::ExtractStridedMetadataOp>(loc, memref);
    Value pointer =
        b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, memref);
    Value first = b.create<arith::AddIOp>(
        loc, pointer,
        b.create<arith::MulIOp>(loc, meta.getOffset(), element));
    allowed = b.create<arith::AndIOp>(loc, allowed, isZero(first, bytes));
    ValueRange strides = meta.getStrides();
    allowed = b.create<arith::AndIOp>(
        loc, allowed,
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, strides.back(),
                                one));
    for (Value stride : strides.drop_back())
      allowed = b.create<arith::AndIOp>(loc, allowed, isZero(stride, width));
  }
  return allowed;
}

void kiln::cuda::fillVectorBody(OpBuilder &b, Location loc,
                                scf::ParallelOp loop, const VectorPlan &plan,
                                MutableArrayRef<IRMapping> points) {
  assert(points.size() == size_t(kWidth) && "one mapping per lane");
  auto lane = [&](int64_t j) {
    return b.create<LLVM::ConstantOp>(loc, b.getI32Type(), j);
  };
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!plan.accesses.contains(&op)) {
      for (IRMapping &mapping : points)
        b.clone(op, mapping);
      continue;
    }
    auto [memref, indices] = contiguousAccess(&op, loop);
    SmallVector<Value> first;
    for (Value index : indices)
      first.push_back(points[0].lookupOrDefault(index));
    // Global memory (address space 1): every tensor of a kernel is in it,
    // and ld.global is what the scalar accesses become too.
    Value address = kiln::cuda::elementPointer(
        b, loc, points[0].lookupOrDefault(memref), first, /*addressSpace=*/1);
    unsigned alignment = kWidth * kElementBytes;
    Type element = cast<MemRefType>(memref.getType()).getElementType();
    auto vector = VectorType::get({kWidth}, element);
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value loaded = b.create<LLVM::LoadOp>(loc, vector, address, alignment);
      for (int64_t j = 0; j < kWidth; ++j)
        points[j].map(load.getResult(),
                      b.create<LLVM::ExtractElementOp>(loc, loaded, lane(j)));
      continue;
    }
    auto store = cast<memref::StoreOp>(op);
    Value packed = b.create<LLVM::UndefOp>(loc, vector);
    for (int64_t j = 0; j < kWidth; ++j)
      packed = b.create<LLVM::InsertElementOp>(
          loc, packed, points[j].lookupOrDefault(store.getValueToStore()),
          lane(j));
    b.create<LLVM::StoreOp>(loc, packed, address, alignment);
  }
}
