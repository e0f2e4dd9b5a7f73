//===- HostDeviceAccess.cpp - Host code reading device tensor elements ----===//
//
// The host code of a CUDA entry reads a tensor's element where the script
// takes a Python number from a tensor (`.item()`, a tensor as a condition)
// and writes one where it stores a number into a tensor (`t[i, j] = s`).
// The tensor lives in device memory, which the host cannot dereference, so
// each such memref.load becomes a call of the runtime's device_read, which
// waits for the call's kernels so far and copies the element back, and
// each memref.store one of device_write, ordered on the call's stream, as
// PyTorch's `.item()` and element assignment do on CUDA tensors. Scratch
// on the host's stack and the rank-0 inputs the runtime keeps on the host
// are read and written in place.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/cuda/KernelMapping.h"
#include "codegen/lowering/LoweringSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

Value kiln::cuda::elementPointer(OpBuilder &b, Location loc, Value memref,
                                 ValueRange indices, unsigned addressSpace) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t bytes = (type.getElementTypeBitWidth() + 7) / 8;
  auto metadata = b.create<memref::ExtractStridedMetadataOp>(loc, memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    linear = b.create<arith::AddIOp>(
        loc, linear, b.create<arith::MulIOp>(loc, index, stride));
  Value base =
      b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, memref);
  Value size = b.create<arith::ConstantIndexOp>(loc, bytes);
  Value address = b.create<arith::AddIOp>(
      loc, base, b.create<arith::MulIOp>(loc, linear, size));
  Value word = b.create<arith::IndexCastOp>(loc, b.getI64Type(), address);
  return b.create<LLVM::IntToPtrOp>(
      loc, LLVM::LLVMPointerType::get(b.getContext(), addressSpace), word);
}

namespace {

/// Whether `memref` is host memory: views of a stack buffer or of a rank-0
/// entry argument.
bool isHostMemory(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref.getDefiningOp<memref::AllocaOp>() ||
         kiln::cuda::isHostScalarArgument(memref);
}

/// The element's address, as the !llvm.ptr device_read and device_write
/// take, and its size in bytes.
std::pair<Value, int64_t> elementAddress(OpBuilder &b, Location loc,
                                         Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  return {kiln::cuda::elementPointer(b, loc, memref, indices, 0),
          (type.getElementTypeBitWidth() + 7) / 8};
}

/// `bits`'s low bits as a value of `type` (an integer or float type).
Value fromBits(OpBuilder &b, Location loc, Value bits, Type type) {
  auto integer = b.getIntegerType(type.getIntOrFloatBitWidth());
  Value value = integer.getWidth() == 64
                    ? bits
                    : b.create<arith::TruncIOp>(loc, integer, bits);
  return isa<FloatType>(type) ? b.create<arith::BitcastOp>(loc, type, value)
                              : value;
}

/// `value` (an integer or float) as the low bits of an i64.
Value toBits(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  auto integer = b.getIntegerType(type.getIntOrFloatBitWidth());
  if (isa<FloatType>(type))
    value = b.create<arith::BitcastOp>(loc, integer, value);
  return integer.getWidth() == 64
             ? value
             : b.create<arith::ExtUIOp>(loc, b.getI64Type(), value);
}

LogicalResult rewrite(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto i64 = [&](int64_t v) {
    return b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(v));
  };
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    Type element = load.getType();
    if (!element.isIntOrFloat())
      return load.emitError("--target=cuda cannot read an element of type ")
             << element << " on the host";
    auto [address, bytes] =
        elementAddress(b, loc, load.getMemRef(), load.getIndices());
    Value bits = kiln::codegen::callRuntime(b, loc, "kiln_rt_device_read",
                                            b.getI64Type(),
                                            {address, i64(bytes)})[0];
    load.replaceAllUsesWith(fromBits(b, loc, bits, element));
    load.erase();
    return success();
  }
  auto store = cast<memref::StoreOp>(op);
  Type element = store.getValue().getType();
  if (!element.isIntOrFloat())
    return store.emitError("--target=cuda cannot write an element of type ")
           << element << " on the host";
  auto [address, bytes] =
      elementAddress(b, loc, store.getMemRef(), store.getIndices());
  kiln::codegen::callRuntime(
      b, loc, "kiln_rt_device_write", {},
      {address, toBits(b, loc, store.getValue()), i64(bytes)});
  store.erase();
  return success();
}

struct HostDeviceAccessPass
    : public PassWrapper<HostDeviceAccessPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(HostDeviceAccessPass)

  StringRef getArgument() const final { return "kiln-host-device-access"; }
  StringRef getDescription() const final {
    return "Make a CUDA entry's host reads and writes of device tensor "
           "elements calls of the runtime's device_read and device_write";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    LLVM::LLVMDialect, memref::MemRefDialect>();
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> accesses;
    kiln::cuda::forEachHostOp(module, [&](Operation *op) {
      if (auto load = dyn_cast<memref::LoadOp>(op);
          load && !isHostMemory(load.getMemRef()))
        accesses.push_back(op);
      if (auto store = dyn_cast<memref::StoreOp>(op);
          store && !isHostMemory(store.getMemRef()))
        accesses.push_back(op);
      return true;
    });
    if (accesses.empty())
      return;
    kiln::codegen::declareRuntimeFunctions(module);
    for (Operation *op : accesses)
      if (failed(rewrite(op)))
        return signalPassFailure();
    kiln::codegen::eraseUnusedRuntimeFunctions(module);
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createHostDeviceAccessPass() {
  return std::make_unique<HostDeviceAccessPass>();
}
