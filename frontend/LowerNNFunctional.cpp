//===- LowerNNFunctional.cpp - The building blocks of nn model ops --------===//
//
// emitConv2d, the pools, layer_norm, adaptive pooling and emitEmbedding:
// what the torch.nn.functional rows of the op table (OpTableNN.cpp) lower
// to. Only what cannot be composed cheaply has an op of its own (conv2d,
// the pools, embedding); layer_norm and adaptive pooling are composed from
// elementwise ops, reductions and shape ops, so fusion sees through them.
// linear, batch_norm and dropout are decompositions in
// frontend/prelude/functional.py. Each builder checks its operands (or
// computes the result type with ir/ShapeInference) before it creates an op,
// so a misuse is reported at the call and never by the verifier.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

static bool isFloatTensor(Value v) {
  return llvm::isa<FloatType>(
      llvm::cast<RankedTensorType>(v.getType()).getElementType());
}

//===----------------------------------------------------------------------===//
// Building blocks shared with nn.Module submodules
//===----------------------------------------------------------------------===//

/// "Tensor[f32, 3]" for a value.
static std::string typeOf(Value v) { return describeType(v.getType()); }

/// Checks that an optional per-channel or per-feature parameter (a bias, a
/// norm's weight) is 1-D with `size` elements (? matches anything) and has
/// the input's dtype.
static bool checkVector(FunctionLowering &fl, Value v, int64_t size,
                        Type element, const std::string &what,
                        SourceRange where) {
  if (!v)
    return true;
  auto t = llvm::cast<RankedTensorType>(v.getType());
  bool sizeOk =
      t.getRank() == 1 && (ShapedType::isDynamic(size) || t.isDynamicDim(0) ||
                           t.getDimSize(0) == size);
  if (sizeOk && t.getElementType() == element)
    return true;
  std::string expected = ShapedType::isDynamic(size)
                             ? std::string("1-D")
                             : "1-D with " + std::to_string(size) + " elements";
  return fl.error(where, what + " must be " + expected + " of the input's " +
                             "dtype, got " + describeType(t));
}

std::optional<Value> FunctionLowering::emitConv2d(
    Value x, Value weight, Value bias, ArrayRef<int64_t> stride,
    ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation, int64_t groups,
    SourceRange where) {
  std::string why;
  Type t = inferConv2dType(x.getType(), weight.getType(), stride, padding,
                           dilation, groups, &why);
  if (!t) {
    error(where, userMessage(why));
    return std::nullopt;
  }
  auto wt = llvm::cast<RankedTensorType>(weight.getType());
  if (!checkVector(*this, bias, wt.getDimSize(0), wt.getElementType(),
                   "conv2d bias", where))
    return std::nullopt;
  Location l = loc(where);
  Value y =
      b.create<Conv2dOp>(l, t, x, weight, stride, padding, dilation, groups);
  if (!bias)
    return y;
  // (O,) -> (O, 1, 1) broadcasts over N, H and W.
  Value one = constInt(1, where);
  Value b3 =
      nn::reshape(*this, bias, {dimValues(bias, where)[0], one, one}, where);
  return nn::binary(*this, "kiln.add", y, b3, where);
}

std::optional<Value> FunctionLowering::emitMaxPool2d(
    Value x, ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
    ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation, bool ceilMode,
    SourceRange where) {
  std::string why;
  Type t = inferPool2dType(x.getType(), kernel, stride, padding, dilation,
                           ceilMode, &why);
  if (!t) {
    error(where, "max_pool2d: " + userMessage(why));
    return std::nullopt;
  }
  return b
      .create<MaxPool2dOp>(loc(where), t, x, kernel, stride, padding, ceilMode,
                           dilation)
      .getResult();
}

std::optional<Value>
FunctionLowering::emitAvgPool2d(Value x, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> stride,
                                ArrayRef<int64_t> padding, bool ceilMode,
                                bool countIncludePad, SourceRange where) {
  std::string why;
  Type t = inferPool2dType(x.getType(), kernel, stride, padding, {1, 1},
                           ceilMode, &why);
  if (!t) {
    error(where, "avg_pool2d: " + userMessage(why));
    return std::nullopt;
  }
  return b
      .create<AvgPool2dOp>(loc(where), t, x, kernel, stride, padding, ceilMode,
                           countIncludePad)
      .getResult();
}

std::optional<Value> FunctionLowering::emitEmbedding(Value weight,
                                                     Value indices,
                                                     SourceRange where) {
  std::string why;
  Type t = inferEmbeddingType(weight.getType(), indices.getType(), &why);
  if (!t) {
    error(where, userMessage(why));
    return std::nullopt;
  }
  return b.create<EmbeddingOp>(loc(where), t, weight, indices).getResult();
}

} // namespace kiln
