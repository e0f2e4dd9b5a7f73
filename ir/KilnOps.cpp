//===- KilnOps.cpp - kiln op verifiers and folders ------------------------===//
//
// Verifiers recompute each result type with ShapeInference.h and accept a
// declared result that is less static than the inferred one, never one that
// contradicts it. Messages are lower case and name the types involved.
//
//===----------------------------------------------------------------------===//

#include "ir/Activations.h"
#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"
#include "ir/VerifierSupport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace kiln {

/// Which operands a unary op accepts.
enum class UnaryDomain { Numeric, Float, Bool };

static LogicalResult verifyElementwiseOp(Operation *op, ElementwiseKind kind);
static LogicalResult verifyUnaryOp(Operation *op, UnaryDomain domain);

} // namespace kiln

using namespace kiln;

#include "ir/KilnEnums.cpp.inc"

#define GET_OP_CLASSES
#include "ir/KilnOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

LogicalResult kiln::checkInferred(Operation *op, Type inferred,
                                  const std::string &why, Type actual) {
  if (!inferred)
    return op->emitOpError(why);
  std::string mismatch;
  if (!isCompatibleResultType(inferred, actual, &mismatch))
    return op->emitOpError(mismatch);
  return success();
}

/// True when two tensor shapes have the same rank and no two static dims
/// differ.
static bool shapesAgree(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return false;
  return true;
}

static bool isFloatElement(Type t) {
  return llvm::isa<FloatType>(getElementTypeOrSelf(t));
}

static LogicalResult checkDimAttr(Operation *op, RankedTensorType t,
                                  int64_t dim, int64_t extra = 0) {
  if (dim < 0 || dim >= t.getRank() + extra)
    return op->emitOpError("dim ")
           << dim << " is out of range for " << printType(t) << " (rank "
           << t.getRank() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult kiln::verifyElementwiseOp(Operation *op, ElementwiseKind kind) {
  std::string why;
  Type inferred = inferElementwiseType(kind, op->getOperand(0).getType(),
                                       op->getOperand(1).getType(), &why);
  return checkInferred(op, inferred, why, op->getResult(0).getType());
}

LogicalResult CmpOp::verify() {
  return verifyElementwiseOp(getOperation(), ElementwiseKind::Compare);
}

LogicalResult kiln::verifyUnaryOp(Operation *op, UnaryDomain domain) {
  Type type = op->getOperand(0).getType();
  Type element = getElementTypeOrSelf(type);
  switch (domain) {
  case UnaryDomain::Numeric:
    if (element.isInteger(1))
      return op->emitOpError("needs a numeric operand, got ")
             << printType(type);
    break;
  case UnaryDomain::Float:
    if (!llvm::isa<FloatType>(element))
      return op->emitOpError("needs a float tensor or a float, got ")
             << printType(type);
    break;
  case UnaryDomain::Bool:
    if (!element.isInteger(1))
      return op->emitOpError("needs a bool tensor or a bool, got ")
             << printType(type);
    break;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Conversions and constants
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  Type in = getInput().getType(), out = getResult().getType();
  if (isScalarType(in) != isScalarType(out))
    return emitOpError("casts a tensor to a tensor or a scalar to a scalar, "
                       "got ")
           << printType(in) << " to " << printType(out);
  if (auto tin = llvm::dyn_cast<RankedTensorType>(in)) {
    auto tout = llvm::cast<RankedTensorType>(out);
    if (!shapesAgree(tin.getShape(), tout.getShape()))
      return emitOpError("cannot change the shape: ")
             << printType(in) << " to " << printType(out);
  }
  return success();
}

LogicalResult FromScalarOp::verify() {
  if (getResult().getType().getRank() != 0)
    return emitOpError("result must be a 0-d tensor, got ")
           << printType(getResult().getType());
  return success();
}

LogicalResult ItemOp::verify() {
  RankedTensorType t = getInput().getType();
  for (int64_t d : t.getShape())
    if (!ShapedType::isDynamic(d) && d != 1)
      return emitOpError("needs a tensor with exactly one element, got ")
             << printType(t);
  return success();
}

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties,
    RegionRange regions, SmallVectorImpl<Type> &inferredReturnTypes) {
  Adaptor adaptor(operands, attributes, properties, regions);
  if (!adaptor.getValue())
    return failure();
  inferredReturnTypes.push_back(adaptor.getValue().getType());
  return success();
}

LogicalResult ConstantOp::verify() {
  Type valueType = getValue().getType();
  if (valueType != getResult().getType())
    return emitOpError("value type ")
           << printType(valueType) << " differs from the result type "
           << printType(getResult().getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult UndefOp::verify() {
  Type t = getResult().getType();
  if (llvm::isa<FunctionType>(t))
    return emitOpError("cannot produce a function value, got ")
           << printType(t);
  return success();
}

//===----------------------------------------------------------------------===//
// Linear algebra and reductions
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  std::string why;
  Type inferred =
      inferMatmulType(getLhs().getType(), getRhs().getType(), &why);
  return checkInferred(*this, inferred, why, getResult().getType());
}

LogicalResult MatmulEpilogueOp::verify() {
  if (!activationCode(getActivation()))
    return emitOpError("has no activation '") << getActivation() << "'";
  std::string why;
  Type inferred =
      inferMatmulType(getLhs().getType(), getRhs().getType(), &why);
  if (failed(checkInferred(*this, inferred, why, getResult().getType())))
    return failure();
  auto result = cast<RankedTensorType>(getResult().getType());
  auto bias = dyn_cast<RankedTensorType>(getBias().getType());
  if (result.getRank() == 0 || !bias || bias.getRank() != 1 ||
      bias.getElementType() != result.getElementType() ||
      (!bias.isDynamicDim(0) && !result.isDynamicDim(result.getRank() - 1) &&
       bias.getDimSize(0) != result.getShape().back()))
    return emitOpError("needs a bias vector of the result's last dim and "
                       "element type, got ")
           << printType(bias ? Type(bias) : getBias().getType()) << " for "
           << printType(result);
  return success();
}

static LogicalResult verifyReduce(Operation *op, Type input,
                                  ArrayRef<int64_t> dims, bool keepdim,
                                  bool toI64, bool floatOnly, Type result) {
  if (floatOnly && !isFloatElement(input))
    return op->emitOpError("needs a float tensor, got ") << printType(input);
  std::string why;
  Type inferred = inferReduceType(input, dims, keepdim, toI64, &why);
  return checkInferred(op, inferred, why, result);
}

LogicalResult SumOp::verify() {
  return verifyReduce(*this, getInput().getType(), getDims(), getKeepdim(),
                      /*toI64=*/true, /*floatOnly=*/false,
                      getResult().getType());
}

LogicalResult MeanOp::verify() {
  return verifyReduce(*this, getInput().getType(), getDims(), getKeepdim(),
                      false, /*floatOnly=*/true, getResult().getType());
}

LogicalResult AMaxOp::verify() {
  return verifyReduce(*this, getInput().getType(), getDims(), getKeepdim(),
                      false, false, getResult().getType());
}

LogicalResult AMinOp::verify() {
  return verifyReduce(*this, getInput().getType(), getDims(), getKeepdim(),
                      false, false, getResult().getType());
}

LogicalResult VarOp::verify() {
  if (getCorrection() < 0)
    return emitOpError("correction must be non-negative, got ")
           << getCorrection();
  return verifyReduce(*this, getInput().getType(), getDims(), getKeepdim(),
                      false, /*floatOnly=*/true, getResult().getType());
}

LogicalResult MaxDimOp::verify() {
  RankedTensorType t = getInput().getType();
  if (failed(checkDimAttr(*this, t, getDim())))
    return failure();
  if (t.getElementType().isInteger(1))
    return emitOpError("needs a numeric tensor, got ") << printType(t);
  std::string why;
  Type values = inferReduceType(t, {getDim()}, getKeepdim(), false, &why);
  if (failed(checkInferred(*this, values, why, getValues().getType())))
    return failure();
  Type indices =
      withElementType(values, IntegerType::get(getContext(), 64));
  return checkInferred(*this, indices, why, getIndices().getType());
}

//===----------------------------------------------------------------------===//
// Lists
//===----------------------------------------------------------------------===//

LogicalResult ListConstructOp::verify() {
  Type element = getResult().getType().getElementType();
  for (auto [i, v] : llvm::enumerate(getElements()))
    if (v.getType() != element)
      return emitOpError("list element ")
             << i << " has type " << printType(v.getType())
             << " but the list holds " << printType(element);
  return success();
}

LogicalResult ListAppendOp::verify() {
  Type element = getList().getType().getElementType();
  if (getValue().getType() != element)
    return emitOpError("cannot append ")
           << printType(getValue().getType()) << " to a list of "
           << printType(element);
  return success();
}

LogicalResult ListGetOp::verify() {
  Type element = getList().getType().getElementType();
  if (getResult().getType() != element)
    return emitOpError("result type ")
           << printType(getResult().getType()) << " differs from the element "
           << "type " << printType(element);
  return success();
}

//===----------------------------------------------------------------------===//
// Side effects
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() {
  StringRef format = getFormat();
  size_t placeholders = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    char c = format[i];
    if (c != '{' && c != '}')
      continue;
    char next = i + 1 < format.size() ? format[i + 1] : '\0';
    if (c == '{' && next == '}')
      ++placeholders;
    else if (next != c)
      return emitOpError("format has an unmatched '")
             << c << "' at offset " << i << " (literal braces are doubled)";
    ++i;
  }
  if (placeholders != getArgs().size())
    return emitOpError("format has ")
           << placeholders << " placeholders but " << getArgs().size()
           << " arguments";
  return success();
}
