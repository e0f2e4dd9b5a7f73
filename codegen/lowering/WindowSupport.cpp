//===- WindowSupport.cpp - Sliding-window sizes for pooling and conv2d ----===//

#include "codegen/lowering/WindowSupport.h"
#include "codegen/lowering/ReductionSupport.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::codegen {

Value padSpatial(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> low,
                 ArrayRef<Value> high, Value value) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<Value> inSizes = tensorSizes(b, loc, input);
  SmallVector<Value> sizes(inSizes);
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0));
  for (int i = 0; i < 2; ++i) {
    Value padded = b.createOrFold<arith::AddIOp>(
        loc, inSizes[2 + i],
        b.createOrFold<arith::AddIOp>(loc, indexValue(b, loc, low[i]),
                                      high[i]));
    std::optional<int64_t> size = constantInt(padded);
    shape[2 + i] = size ? *size : ShapedType::kDynamic;
    sizes[2 + i] = padded;
    offsets[2 + i] = b.getIndexAttr(low[i]);
  }
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  Value filledInput = filled(b, loc, paddedType, sizes, value);
  SmallVector<OpFoldResult> strides(4, b.getIndexAttr(1));
  SmallVector<OpFoldResult> inputSizes;
  for (int64_t i = 0; i < 4; ++i)
    inputSizes.push_back(type.isDynamicDim(i) ? OpFoldResult(inSizes[i])
                                              : OpFoldResult(b.getIndexAttr(
                                                    type.getDimSize(i))));
  return b.create<tensor::InsertSliceOp>(loc, input, filledInput, offsets,
                                         inputSizes, strides);
}

} // namespace kiln::codegen
