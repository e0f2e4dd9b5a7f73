//===- Elementwise.cpp - Broadcasting elementwise maps over tensors -------===//
//
// Broadcasting follows PyTorch for static dims. A dynamic dim is assumed not
// to broadcast (as torch-mlir and IREE assume): the generated code checks
// that it equals the result's size and raises a run-time error that names
// both sizes otherwise. This keeps every indexing map static, so the
// generic op stays a plain loop nest that LLVM can vectorize.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/Elementwise.h"

#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace kiln::codegen {

/// Half-precision math runs in f32, as PyTorch's CPU kernels do.
static Type widenHalf(Type type) {
  if (type.isF16() || type.isBF16())
    return Float32Type::get(type.getContext());
  return type;
}

/// The result's size in every dim, with checks that dynamic operand dims
/// agree with it. The message is PyTorch's, which calls the first operand
/// "tensor a".
static SmallVector<Value> broadcastSizes(OpBuilder &b, Location loc,
                                         LoweringState &state,
                                         RankedTensorType resultType,
                                         ValueRange operands) {
  int64_t rank = resultType.getRank();
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < rank; ++i) {
    // (operand index, size) of every operand that is not broadcast here.
    SmallVector<std::pair<unsigned, Value>> participants;
    for (auto [k, operand] : llvm::enumerate(operands)) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      int64_t j = i - (rank - type.getRank());
      if (j < 0 || type.getDimSize(j) == 1)
        continue;
      Value size = type.isDynamicDim(j)
                       ? b.create<tensor::DimOp>(loc, operand, j).getResult()
                       : indexValue(b, loc, type.getDimSize(j));
      participants.push_back({static_cast<unsigned>(k), size});
    }
    Value size = resultType.isDynamicDim(i)
                     ? participants.front().second
                     : indexValue(b, loc, resultType.getDimSize(i));
    std::string where = " at non-singleton dimension " + std::to_string(i);
    for (auto [k, operandSize] : participants) {
      if (operandSize == size || matchPattern(operandSize, m_Constant()))
        continue;
      std::string mismatch = "the size of tensor a ({0}) must match the "
                             "size of tensor b ({1})" +
                             where;
      int64_t plain = state.tables.addSite(loc, mismatch);
      int64_t dynamicOne = state.tables.addSite(
          loc, mismatch + "; kiln broadcasts a dynamic dim only where its "
                          "shape spec declares it 1");
      Value differs = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                              operandSize, size);
      Value one = indexValue(b, loc, 1);
      // Operands in named locals: C++ leaves the order of evaluating
      // arguments unspecified, and the IR must not depend on it.
      Value operandIsOne = b.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq, operandSize, one);
      Value sizeIsOne =
          b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, size, one);
      Value isOne = b.create<arith::OrIOp>(loc, operandIsOne, sizeIsOne);
      // A size that is 1 at run time is the likely cause; say so.
      Value dynamicSite =
          b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(dynamicOne));
      Value plainSite =
          b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(plain));
      Value site =
          b.create<arith::SelectOp>(loc, isOne, dynamicSite, plainSite);
      // PyTorch names the first operand "a": pass its size first.
      if (k == 0)
        emitCheck(b, loc, differs, site, {operandSize, size});
      else
        emitCheck(b, loc, differs, site, {size, operandSize});
    }
    sizes.push_back(size);
  }
  return sizes;
}

Value buildElementwise(OpBuilder &b, Location loc, LoweringState &state,
                       Type resultType, ValueRange operands, Type computeType,
                       ScalarBody body) {
  SmallVector<Type> computeTypes(operands.size(), widenHalf(computeType));
  return buildElementwise(b, loc, state, resultType, operands, computeTypes,
                          body);
}

Value buildElementwise(OpBuilder &b, Location loc, LoweringState &state,
                       Type resultType, ValueRange operands,
                       TypeRange computeTypes, ScalarBody body) {
  assert(operands.size() == computeTypes.size() &&
         "one compute type per operand");
  Type resultElement = kiln::getElementTypeOrSelf(resultType);
  auto resultTensor = dyn_cast<RankedTensorType>(resultType);
  if (!resultTensor) {
    SmallVector<Value> converted;
    for (auto [operand, work] : llvm::zip(operands, computeTypes))
      converted.push_back(convertScalar(b, loc, operand, work));
    return convertScalar(b, loc, body(b, loc, converted), resultElement);
  }

  int64_t rank = resultTensor.getRank();
  SmallVector<Value> sizes =
      broadcastSizes(b, loc, state, resultTensor, operands);
  Value init = emptyTensor(b, loc, resultTensor, sizes);

  // Tensor operands become inputs with a broadcasting map; scalars are
  // converted once, outside the loop, and captured by the body.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<std::pair<bool, Value>> slots; // (is input, scalar value)
  for (auto [operand, work] : llvm::zip(operands, computeTypes)) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type) {
      slots.push_back({false, convertScalar(b, loc, operand, work)});
      continue;
    }
    SmallVector<AffineExpr> exprs;
    for (int64_t j = 0; j < type.getRank(); ++j) {
      int64_t i = j + rank - type.getRank();
      bool broadcast =
          type.getDimSize(j) == 1 && resultTensor.getDimSize(i) != 1;
      exprs.push_back(broadcast ? b.getAffineConstantExpr(0)
                                : b.getAffineDimExpr(i));
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, b.getContext()));
    inputs.push_back(operand);
    slots.push_back({true, Value()});
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{resultTensor}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> converted;
        unsigned next = 0;
        for (auto [slot, work] : llvm::zip(slots, computeTypes)) {
          auto [isInput, scalar] = slot;
          converted.push_back(
              isInput ? convertScalar(nb, nloc, args[next++], work) : scalar);
        }
        Value value = body(nb, nloc, converted);
        nb.create<linalg::YieldOp>(
            nloc, convertScalar(nb, nloc, value, resultElement));
      });
  return generic.getResult(0);
}

} // namespace kiln::codegen
