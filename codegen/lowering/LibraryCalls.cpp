//===- LibraryCalls.cpp - Calls into the runtime's kernel library ---------===//

#include "codegen/lowering/LibraryCalls.h"
#include "codegen/lowering/ReductionSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln::codegen {

bool usesKernelLibrary(Type element) {
  return element.isF32() || isHalf(element);
}

Value toLibraryElements(OpBuilder &b, Location loc, Value tensor) {
  return fromLibraryElements(b, loc, tensor, b.getF32Type());
}

Value fromLibraryElements(OpBuilder &b, Location loc, Value tensor,
                          Type element) {
  if (cast<RankedTensorType>(tensor.getType()).getElementType() == element)
    return tensor;
  return mapElements(b, loc, tensor, element,
                     [&](OpBuilder &nb, Location nl, Value x) {
                       return convertScalar(nb, nl, x, element);
                     });
}

Value callKernelLibrary(OpBuilder &b, Location loc, LoweringState &state,
                        StringRef name, ValueRange operands,
                        ArrayRef<int64_t> shape, ValueRange sizes,
                        ValueRange extra, ArrayRef<int64_t> outPermutation) {
  Type f32 = b.getF32Type();
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::zip(shape, sizes))
    if (ShapedType::isDynamic(dim))
      dynamicSizes.push_back(size);
  // A buffer of its own, as list_materialize's: the library writes it, and
  // to_tensor hands it to bufferization as a fresh, writable tensor.
  Value buffer =
      b.create<memref::AllocOp>(loc, MemRefType::get(shape, f32), dynamicSizes);
  Value view = buffer;
  if (!outPermutation.empty())
    view = b.create<memref::TransposeOp>(
        loc, buffer,
        AffineMapAttr::get(
            AffineMap::getPermutationMap(outPermutation, b.getContext())));
  Value out =
      b.create<memref::CastOp>(loc, UnrankedMemRefType::get(f32, 0), view);
  Value site = b.create<arith::ConstantOp>(
      loc, b.getI64IntegerAttr(state.tables.addSite(loc, "")));
  SmallVector<Value> args(operands);
  args.push_back(out);
  llvm::append_range(args, extra);
  args.push_back(site);
  callRuntime(b, loc, ("kiln_rt_" + name + "_f32").str(), {}, args);
  return b.create<bufferization::ToTensorOp>(loc, buffer, /*restrict=*/true,
                                             /*writable=*/true);
}

} // namespace kiln::codegen
