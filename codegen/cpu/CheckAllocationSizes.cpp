//===- CheckAllocationSizes.cpp - Refuse buffers too large to address -----===//
//
// MLIR's memref lowering computes a buffer's byte size as the plain product
// of its dims and the element size, which wraps silently: a [2^32, 2^32]
// f32 result becomes a 0-byte allocation that the next loop writes 64 GiB
// into. Inputs are bounded at the runtime's boundary, but compiled code
// derives new shapes from them (an outer product, x.sum(0) of a [0, M, N]
// input), so every allocation is checked where it happens, in this one
// pass, against KILN_MAX_TENSOR_BYTES (kiln/abi.h), by the runtime's rule
// for inputs: each zero dim counts as one, so that no stride or size of any
// view of the buffer can wrap either (an empty [0, 2^40, 2^40] buffer
// would have a stride of 2^80):
//   - a static shape over the limit is a compile-time error at the op that
//     made the tensor;
//   - a dynamic one gets a run-time check before the allocation: the
//     extent is multiplied up saturating at limit + 1 (a full 128-bit
//     product per dim, so nothing wraps), and an extent over the limit
//     raises a located error.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/lowering/LoweringSupport.h"

#include "runtime/include/kiln/abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// Bytes per element as the memref lowering will store them (i1 is a byte).
uint64_t elementBytes(Type type) {
  return std::max<uint64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
}

/// The largest element count of `type` that stays within the limit.
uint64_t maxElements(MemRefType type) {
  return KILN_MAX_TENSOR_BYTES / elementBytes(type.getElementType());
}

std::string tooLarge(uint64_t limit) {
  return "this tensor would need more than " + std::to_string(limit) +
         " bytes, more than kiln can address (the limit is 2^47)";
}

/// Emits `count * max(size, 1)`, saturated at `cap` (limit + 1): both are
/// i64 and taken as unsigned (a negative size is huge), so the 128-bit
/// product is exact.
Value saturatingMul(OpBuilder &b, Location loc, Value count, Value size,
                    Value cap) {
  Value zero = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(0));
  Value one = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(1));
  Value isZero =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, size, zero);
  size = b.create<arith::SelectOp>(loc, isZero, one, size);
  auto product = b.create<arith::MulUIExtendedOp>(loc, count, size);
  // Operands in named locals, here and below: C++ leaves the order of
  // evaluating arguments unspecified, and the IR must not depend on it.
  Value highSet = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                          product.getHigh(), zero);
  Value lowAbove = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt,
                                           product.getLow(), cap);
  Value overflow = b.create<arith::OrIOp>(loc, highSet, lowAbove);
  return b.create<arith::SelectOp>(loc, overflow, cap, product.getLow());
}

struct CheckAllocationSizesPass
    : public PassWrapper<CheckAllocationSizesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckAllocationSizesPass)

  StringRef getArgument() const final { return "kiln-check-allocation-sizes"; }
  StringRef getDescription() const final {
    return "Refuse buffers larger than KILN_MAX_TENSOR_BYTES, at compile time "
           "or with a run-time check";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    // LLVM: the runtime's declarations name !llvm.ptr.
    registry.insert<arith::ArithDialect, scf::SCFDialect, func::FuncDialect,
                    LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto tables = kiln::codegen::RuntimeTables::load(module);
    bool failed = false;
    bool checked = false;
    module.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      uint64_t limit = maxElements(type);
      // The static part of the extent, saturated like the dynamic part.
      uint64_t staticCount = 1;
      for (int64_t dim : type.getShape()) {
        uint64_t extent = uint64_t(std::max<int64_t>(dim, 1));
        if (!ShapedType::isDynamic(dim) &&
            __builtin_mul_overflow(staticCount, extent, &staticCount))
          staticCount = limit + 1;
      }
      staticCount = std::min(staticCount, limit + 1);
      if (type.hasStaticShape()) {
        if (staticCount > limit) {
          alloc.emitError(tooLarge(KILN_MAX_TENSOR_BYTES));
          failed = true;
        }
        return;
      }
      OpBuilder b(alloc);
      Location loc = alloc.getLoc();
      Value cap = b.create<arith::ConstantOp>(
          loc, b.getI64IntegerAttr(int64_t(limit + 1)));
      Value count = b.create<arith::ConstantOp>(
          loc, b.getI64IntegerAttr(int64_t(staticCount)));
      for (Value size : alloc.getDynamicSizes())
        count = saturatingMul(
            b, loc, count,
            b.create<arith::IndexCastUIOp>(loc, b.getI64Type(), size), cap);
      Value tooBig =
          b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, count, cap);
      int64_t site = tables.addSite(loc, tooLarge(KILN_MAX_TENSOR_BYTES));
      kiln::codegen::emitCheck(b, loc, tooBig, site);
      checked = true;
    });
    if (failed)
      return signalPassFailure();
    if (checked) {
      kiln::codegen::declareRuntimeFunctions(module);
      kiln::codegen::eraseUnusedRuntimeFunctions(module);
      tables.store(module);
    }
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createCheckAllocationSizesPass() {
  return std::make_unique<CheckAllocationSizesPass>();
}
