//===- ResultBuffers.cpp - Results allocated where the caller wants them --===//
//
// Function::run writes an entry's results into tensors its caller made
// once. Compiled code allocates its own buffers, so the runtime used to
// copy each result into its output after the call: for gelu on 256 x 4096
// that copy made the allocation-free path 45% slower than Model::run.
// Here the buffer an entry returns as result i is asked for by index,
// through kiln_host_api.alloc_result(i, bytes), and the runtime answers
// with the caller's output when Function::run lent it (the same bytes,
// 64-byte aligned, overlapping no input: runtime/src/EntryCall.cpp), else
// with fresh memory as alloc does.
//
// Only a buffer that is the result as a whole qualifies: a memref.alloc of
// the entry's own block (it runs once per call), with an identity layout,
// returned directly (or through memref.cast) and for one result only. The
// alloc becomes the call, then a memref descriptor of the pointer it
// returns: allocated and aligned both the pointer, offset 0, row-major
// strides, which is what the memref lowering would have built for a
// 64-byte aligned allocation.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/lowering/LoweringSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

constexpr StringLiteral kAllocResult = "kiln_rt_alloc_result";

/// The alloc that `value` is, as a whole, looking through casts; null if
/// it is anything else.
memref::AllocOp wholeAllocation(Value value) {
  while (auto cast = value.getDefiningOp<memref::CastOp>())
    value = cast.getSource();
  return value.getDefiningOp<memref::AllocOp>();
}

/// Whether `alloc` may be lent the caller's output: it runs once per call
/// of `fn`, and its buffer is laid out as the runtime's dense tensors are.
bool lendable(memref::AllocOp alloc, func::FuncOp fn) {
  MemRefType type = alloc.getType();
  Type element = type.getElementType();
  return alloc->getBlock() == &fn.getBody().front() &&
         type.getLayout().isIdentity() && element.isIntOrFloat() &&
         element.getIntOrFloatBitWidth() % 8 == 0 &&
         alloc.getAlignment().value_or(64) <= 64;
}

/// The descriptor of a dense row-major `type` at `ptr` with the sizes of
/// `alloc`, as the memref lowering lays descriptors out.
Value descriptorAt(OpBuilder &b, Location loc, memref::AllocOp alloc,
                   Value ptr, ArrayRef<Value> sizes) {
  MLIRContext *context = b.getContext();
  MemRefType type = alloc.getType();
  Type i64 = b.getI64Type();
  Type ptrType = LLVM::LLVMPointerType::get(context);
  SmallVector<Type> fields = {ptrType, ptrType, i64};
  int64_t rank = type.getRank();
  if (rank > 0)
    fields.append(2, LLVM::LLVMArrayType::get(i64, rank));
  auto structType = LLVM::LLVMStructType::getLiteral(context, fields);
  Value desc = b.create<LLVM::UndefOp>(loc, structType);
  desc = b.create<LLVM::InsertValueOp>(loc, desc, ptr, 0);
  desc = b.create<LLVM::InsertValueOp>(loc, desc, ptr, 1);
  Value zero = b.create<LLVM::ConstantOp>(loc, i64, b.getI64IntegerAttr(0));
  desc = b.create<LLVM::InsertValueOp>(loc, desc, zero, 2);
  Value stride = b.create<LLVM::ConstantOp>(loc, i64, b.getI64IntegerAttr(1));
  for (int64_t d = rank - 1; d >= 0; --d) {
    desc = b.create<LLVM::InsertValueOp>(loc, desc, sizes[d],
                                         ArrayRef<int64_t>{3, d});
    desc = b.create<LLVM::InsertValueOp>(loc, desc, stride,
                                         ArrayRef<int64_t>{4, d});
    if (d > 0)
      stride = b.create<LLVM::MulOp>(loc, stride, sizes[d]);
  }
  return b.create<UnrealizedConversionCastOp>(loc, type, desc).getResult(0);
}

/// Replaces `alloc` with the buffer of result `index`.
void allocateResult(memref::AllocOp alloc, int64_t index) {
  OpBuilder b(alloc);
  Location loc = alloc.getLoc();
  MemRefType type = alloc.getType();
  Type i64 = b.getI64Type();
  SmallVector<Value> sizes;
  auto dynamic = alloc.getDynamicSizes().begin();
  for (int64_t dim : type.getShape())
    sizes.push_back(
        ShapedType::isDynamic(dim)
            ? b.create<arith::IndexCastOp>(loc, i64, *dynamic++).getResult()
            : b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(dim))
                  .getResult());
  // CheckAllocationSizes has bounded the extent, so this cannot wrap. The
  // static part is one constant, so that a static buffer's request is one
  // (StaticBlockRecords.cpp reads it).
  int64_t staticBytes = type.getElementTypeBitWidth() / 8;
  for (int64_t dim : type.getShape())
    if (!ShapedType::isDynamic(dim))
      staticBytes *= dim;
  Value bytes =
      b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(staticBytes));
  for (auto [dim, size] : llvm::zip(type.getShape(), sizes))
    if (ShapedType::isDynamic(dim))
      bytes = b.create<arith::MulIOp>(loc, bytes, size);
  Value which = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(index));
  Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value ptr = b.create<func::CallOp>(loc, kAllocResult, TypeRange{ptrType},
                                     ValueRange{which, bytes})
                  .getResult(0);
  alloc.replaceAllUsesWith(descriptorAt(b, loc, alloc, ptr, sizes));
  alloc.erase();
}

struct ResultBuffersPass
    : public PassWrapper<ResultBuffersPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ResultBuffersPass)

  StringRef getArgument() const final { return "kiln-result-buffers"; }
  StringRef getDescription() const final {
    return "Allocate each buffer an entry point returns whole through "
           "kiln_host_api.alloc_result, so that Function::run's outputs "
           "can be written in place";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool used = false;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (!fn->hasAttr("kiln.entry") || fn.isExternal())
        continue;
      // One return at the end of the entry's block: the body is structured
      // until SCF is lowered, later in the pipeline.
      auto ret = dyn_cast<func::ReturnOp>(fn.getBody().front().getTerminator());
      if (!ret || !fn.getBody().hasOneBlock())
        continue;
      for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
        memref::AllocOp alloc = wholeAllocation(value);
        if (!alloc || !lendable(alloc, fn))
          continue;
        // A buffer returned twice keeps alloc: one output cannot be both.
        bool twice = llvm::count_if(ret.getOperands(), [&](Value other) {
                       return wholeAllocation(other) == alloc;
                     }) > 1;
        if (twice)
          continue;
        allocateResult(alloc, int64_t(index));
        used = true;
      }
    }
    if (used)
      kiln::codegen::declareRuntimeFunctions(module);
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createResultBuffersPass() {
  return std::make_unique<ResultBuffersPass>();
}
