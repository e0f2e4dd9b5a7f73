//===- KilnNNOps.cpp - Verifiers of the neural-network ops ----------------===//
//
// As in KilnOps.cpp, result types are recomputed with ShapeInference.h, so a
// declared type may be less static than the inferred one but never
// contradict it.
//
//===----------------------------------------------------------------------===//

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"
#include "ir/VerifierSupport.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace kiln;

LogicalResult ParamOp::verify() {
  auto module = (*this)->getParentOfType<ModuleOp>();
  auto params =
      module ? module->getAttrOfType<DictionaryAttr>(kParamsAttrName) : nullptr;
  if (!params)
    return emitOpError("needs the enclosing module's '")
           << kParamsAttrName << "' dictionary";
  auto declared = params.getAs<TypeAttr>(getName());
  if (!declared)
    return emitOpError("names '") << getName() << "', which '"
                                  << kParamsAttrName << "' does not declare";
  if (declared.getValue() != getType())
    return emitOpError("type ")
           << getType() << " differs from the declared " << declared.getValue();
  return success();
}

LogicalResult Conv2dOp::verify() {
  std::string why;
  // A channels-last convolution is checked as the one it computes: its
  // input permuted to N x C x H x W, and the result back.
  Type input = getInput().getType();
  if (getChannelsLast()) {
    if (getInput().getType().getRank() != 4)
      return emitOpError("channels_last needs a 4-D input, got ") << input;
    input = inferPermuteType(input, kToChannelsFirst, &why);
  }
  Type inferred = inferConv2dType(input, getWeight().getType(), getStride(),
                                  getPadding(), getDilation(), getGroups(),
                                  &why);
  if (inferred && getChannelsLast())
    inferred = inferPermuteType(inferred, kToChannelsLast, &why);
  return checkInferred(*this, inferred, why, getType());
}

LogicalResult MaxPool2dOp::verify() {
  std::string why;
  Type inferred =
      inferPool2dType(getInput().getType(), getKernel(), getStride(),
                      getPadding(), getDilation(), getCeilMode(), &why);
  return checkInferred(*this, inferred, why, getType());
}

LogicalResult AvgPool2dOp::verify() {
  std::string why;
  Type inferred = inferPool2dType(getInput().getType(), getKernel(),
                                  getStride(), getPadding(), {1, 1},
                                  getCeilMode(), &why);
  return checkInferred(*this, inferred, why, getType());
}

LogicalResult WhereOp::verify() {
  std::string why;
  Type inferred = inferWhereType(getCondition().getType(), getLhs().getType(),
                                 getRhs().getType(), &why);
  return checkInferred(*this, inferred, why, getType());
}

LogicalResult ArangeOp::verify() {
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be 1-D, got ") << type;
  if (type.getElementType().isInteger(1))
    return emitOpError("result cannot be bool, got ") << type;
  return success();
}

LogicalResult EmbeddingOp::verify() {
  std::string why;
  Type inferred = inferEmbeddingType(getWeight().getType(),
                                     getIndices().getType(), &why);
  return checkInferred(*this, inferred, why, getType());
}

LogicalResult GatherOp::verify() {
  std::string why;
  Type inferred = inferGatherType(getInput().getType(), getIndex().getType(),
                                  getDim(), &why);
  return checkInferred(*this, inferred, why, getType());
}

LogicalResult IndexSelectOp::verify() {
  std::string why;
  Type inferred = inferIndexSelectType(getInput().getType(),
                                       getIndex().getType(), getDim(), &why);
  return checkInferred(*this, inferred, why, getType());
}

/// A scan's result element type is the frontend's choice (dtype=), so the
/// verifier checks the shape against the input and accepts any element
/// type but bool, which neither sum nor product keep.
static LogicalResult verifyScan(Operation *op, Type input, int64_t dim,
                                RankedTensorType result) {
  std::string why;
  if (result.getElementType().isInteger(1))
    return op->emitOpError("result cannot be bool, got ") << printType(result);
  Type inferred = inferScanType(input, dim, result.getElementType(), &why);
  return checkInferred(op, inferred, why, result);
}

LogicalResult CumsumOp::verify() {
  return verifyScan(*this, getInput().getType(), getDim(), getType());
}

LogicalResult CumprodOp::verify() {
  return verifyScan(*this, getInput().getType(), getDim(), getType());
}

LogicalResult FlipOp::verify() {
  std::string why;
  Type inferred = inferFlipType(getInput().getType(), getDims(), &why);
  return checkInferred(*this, inferred, why, getType());
}

LogicalResult SortOp::verify() {
  std::string why;
  Type inferred = inferSortType(getInput().getType(), &why);
  if (failed(checkInferred(*this, inferred, why, getValues().getType())))
    return failure();
  Type indices = withElementType(inferred, IntegerType::get(getContext(), 64));
  return checkInferred(*this, indices, why, getIndices().getType());
}
