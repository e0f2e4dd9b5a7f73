//===- ReductionSupport.h - Builders shared by reductions and matmul ------===//
//
// Private to codegen/lowering: accumulator types as PyTorch's CPU kernels
// pick them, filled and mapped tensors, and views that add unit dims or
// regroup dims, for ReductionOps, MatmulOps and RandomOps.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_LOWERING_REDUCTIONSUPPORT_H
#define KILN_CODEGEN_LOWERING_REDUCTIONSUPPORT_H

#include "codegen/lowering/CheckSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kiln::codegen {
using namespace mlir;

inline bool isHalf(Type type) { return type.isF16() || type.isBF16(); }

/// Where PyTorch's CPU kernels accumulate: f32 for f16 and bf16.
inline Type accumulatorType(Type element) {
  return isHalf(element) ? Float32Type::get(element.getContext()) : element;
}

/// One step of a float sum. The steps may be reassociated, as PyTorch's
/// vectorized reductions reassociate them: the sum is then taken in vector
/// lanes and several accumulators, and the lanes are added at the end,
/// which is both faster and closer to the exact sum than one left-to-right
/// chain (docs/codegen.md).
inline Value sumStep(OpBuilder &b, Location loc, Value x, Value acc) {
  return b.create<arith::AddFOp>(
      loc, x, acc,
      arith::FastMathFlagsAttr::get(b.getContext(),
                                    arith::FastMathFlags::reassoc));
}

inline Value constantOf(OpBuilder &b, Location loc, Type type, double value) {
  if (isa<FloatType>(type))
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, value));
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

/// A tensor of `type` filled with `value` (sizes as for emptyTensor).
inline Value filled(OpBuilder &b, Location loc, RankedTensorType type,
             ValueRange sizes, Value value) {
  Value empty = emptyTensor(b, loc, type, sizes);
  return b.create<linalg::FillOp>(loc, value, empty).getResult(0);
}

/// Applies `fn` to every element of `input`, giving `elementType`.
inline Value mapElements(OpBuilder &b, Location loc, Value input, Type elementType,
                  function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto type = cast<RankedTensorType>(input.getType());
  auto resultType = RankedTensorType::get(type.getShape(), elementType);
  Value init = emptyTensor(b, loc, resultType, tensorSizes(b, loc, input));
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{resultType}, ValueRange{input}, ValueRange{init},
          ArrayRef<AffineMap>{identity, identity}, parallel,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            nb.create<linalg::YieldOp>(nl, fn(nb, nl, args[0]));
          })
      .getResult(0);
}

/// `value` with size-1 dims inserted where `unit` is true (a view).
inline Value insertUnitDims(OpBuilder &b, Location loc, Value value,
                     ArrayRef<bool> unit) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> inSizes = tensorSizes(b, loc, value);
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  int64_t next = 0;
  for (auto [i, isUnit] : llvm::enumerate(unit)) {
    pending.push_back(static_cast<int64_t>(i));
    if (isUnit) {
      shape.push_back(1);
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    int64_t size = type.getDimSize(next);
    shape.push_back(size);
    sizes.push_back(ShapedType::isDynamic(size) ? OpFoldResult(inSizes[next])
                                                : b.getIndexAttr(size));
    ++next;
    groups.push_back(pending);
    pending.clear();
  }
  // Trailing unit dims join the last group.
  if (!groups.empty())
    groups.back().append(pending.begin(), pending.end());
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return b.create<tensor::ExpandShapeOp>(loc, resultType, value, groups, sizes);
}

/// `value` without its size-1 dims where `unit` is true; their type must
/// say 1 (a view).
inline Value dropUnitDims(OpBuilder &b, Location loc, Value value,
                          ArrayRef<bool> unit) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (auto [i, isUnit] : llvm::enumerate(unit)) {
    pending.push_back(static_cast<int64_t>(i));
    if (isUnit)
      continue;
    shape.push_back(type.getDimSize(i));
    groups.push_back(pending);
    pending.clear();
  }
  // Trailing unit dims join the last group.
  if (!groups.empty())
    groups.back().append(pending.begin(), pending.end());
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return b.create<tensor::CollapseShapeOp>(loc, resultType, value, groups);
}

/// `src` reshaped to `type` (dims `sizes`, index values), each result dim in
/// one of `groups`: a tensor.expand_shape (a view) when no group has two `?`
/// dims, else tensor.reshape, because MLIR 19's one-shot bufferization
/// crashes on such an expand_shape; tensor.reshape becomes memref.reshape
/// (after a copy if the source is strided).
inline Value expandTo(OpBuilder &b, Location loc, Value src, RankedTensorType type,
               ArrayRef<ReassociationIndices> groups, ArrayRef<Value> sizes) {
  bool viewable = llvm::all_of(groups, [&](const ReassociationIndices &g) {
    return llvm::count_if(g, [&](int64_t i) { return type.isDynamicDim(i); }) <=
           1;
  });
  SmallVector<OpFoldResult> mixed;
  for (int64_t i = 0; i < type.getRank(); ++i)
    mixed.push_back(type.isDynamicDim(i) ? OpFoldResult(sizes[i])
                                         : b.getIndexAttr(type.getDimSize(i)));
  if (viewable)
    return b.create<tensor::ExpandShapeOp>(loc, type, src, groups, mixed);
  SmallVector<Value> dims;
  for (int64_t i = 0; i < type.getRank(); ++i)
    dims.push_back(type.isDynamicDim(i)
                       ? sizes[i]
                       : indexValue(b, loc, type.getDimSize(i)));
  Value shape = b.create<tensor::FromElementsOp>(loc, dims);
  return b.create<tensor::ReshapeOp>(loc, type, src, shape);
}

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_REDUCTIONSUPPORT_H
