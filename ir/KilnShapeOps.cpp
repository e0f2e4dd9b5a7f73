//===- KilnShapeOps.cpp - verifiers of shape, indexing and creation ops ---===//
//
// The ops whose result shape depends on run-time sizes (reshape, expand,
// slice, full, rand) are checked for everything the types do say: rank,
// element type and static dims that cannot be right.
//
//===----------------------------------------------------------------------===//

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"
#include "ir/VerifierSupport.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kiln;

static LogicalResult checkDimAttr(Operation *op, RankedTensorType t,
                                  int64_t dim) {
  if (dim < 0 || dim >= t.getRank())
    return op->emitOpError("dim ")
           << dim << " is out of range for " << printType(t) << " (rank "
           << t.getRank() << ")";
  return success();
}

static LogicalResult checkSameElement(Operation *op, RankedTensorType a,
                                      RankedTensorType b) {
  if (a.getElementType() != b.getElementType())
    return op->emitOpError("cannot change the element type: ")
           << printType(a) << " to " << printType(b);
  return success();
}

static LogicalResult checkSizeCount(Operation *op, size_t count,
                                    RankedTensorType result) {
  if (static_cast<int64_t>(count) != result.getRank())
    return op->emitOpError("has ")
           << count << " sizes but the result type " << printType(result)
           << " has rank " << result.getRank();
  return success();
}

/// `input` with dim `dim` made dynamic.
static RankedTensorType withDynamicDim(RankedTensorType t, int64_t dim) {
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] = ShapedType::kDynamic;
  return RankedTensorType::get(shape, t.getElementType());
}

/// Everything but `dim` agrees, and the slice is no longer than the input.
static LogicalResult checkSliceOf(Operation *op, RankedTensorType input,
                                  RankedTensorType part, int64_t dim,
                                  const char *what) {
  std::string why;
  if (!isCompatibleResultType(withDynamicDim(input, dim), part, &why))
    return op->emitOpError(what)
           << " type " << printType(part) << " is not a slice of "
           << printType(input) << " along dim " << dim;
  int64_t n = input.getDimSize(dim), m = part.getDimSize(dim);
  if (!ShapedType::isDynamic(n) && !ShapedType::isDynamic(m) && m > n)
    return op->emitOpError(what)
           << " type " << printType(part) << " is longer than "
           << printType(input) << " along dim " << dim;
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult DimOp::verify() {
  RankedTensorType t = getInput().getType();
  if (getIndex() < 0 || getIndex() >= t.getRank())
    return emitOpError("index ")
           << getIndex() << " is out of range for " << printType(t)
           << " (rank " << t.getRank() << ")";
  return success();
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  RankedTensorType t = getInput().getType();
  if (getIndex() < 0 || getIndex() >= t.getRank() ||
      t.isDynamicDim(getIndex()))
    return {};
  return IntegerAttr::get(IntegerType::get(getContext(), 64),
                          t.getDimSize(getIndex()));
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (failed(checkSizeCount(*this, getShape().size(), out)) ||
      failed(checkSameElement(*this, in, out)))
    return failure();
  if (in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError("cannot change the number of elements: ")
           << printType(in) << " has " << in.getNumElements() << " and "
           << printType(out) << " has " << out.getNumElements();
  return success();
}

LogicalResult ExpandOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (failed(checkSizeCount(*this, getSizes().size(), out)) ||
      failed(checkSameElement(*this, in, out)))
    return failure();
  if (out.getRank() < in.getRank())
    return emitOpError("cannot reduce the rank: ")
           << printType(in) << " to " << printType(out);
  int64_t offset = out.getRank() - in.getRank();
  for (int64_t i = 0; i < in.getRank(); ++i) {
    int64_t from = in.getDimSize(i), to = out.getDimSize(i + offset);
    if (!ShapedType::isDynamic(from) && from != 1 &&
        !ShapedType::isDynamic(to) && to != from)
      return emitOpError("cannot expand dimension ")
             << i << " of " << printType(in) << " from " << from << " to "
             << to;
  }
  return success();
}

LogicalResult UnsqueezeOp::verify() {
  std::string why;
  return checkInferred(*this,
                       inferUnsqueezeType(getInput().getType(), getDim(), &why),
                       why, getResult().getType());
}

LogicalResult SqueezeOp::verify() {
  std::string why;
  return checkInferred(*this,
                       inferSqueezeType(getInput().getType(), getDim(), &why),
                       why, getResult().getType());
}

LogicalResult TransposeOp::verify() {
  std::string why;
  return checkInferred(
      *this,
      inferTransposeType(getInput().getType(), getDim0(), getDim1(), &why),
      why, getResult().getType());
}

LogicalResult PermuteOp::verify() {
  std::string why;
  return checkInferred(*this,
                       inferPermuteType(getInput().getType(), getDims(), &why),
                       why, getResult().getType());
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

LogicalResult SelectOp::verify() {
  std::string why;
  return checkInferred(*this,
                       inferSelectType(getInput().getType(), getDim(), &why),
                       why, getResult().getType());
}

LogicalResult SliceOp::verify() {
  RankedTensorType in = getInput().getType();
  if (failed(checkDimAttr(*this, in, getDim())))
    return failure();
  return checkSliceOf(*this, in, getResult().getType(), getDim(), "result");
}

LogicalResult SelectScatterOp::verify() {
  std::string why;
  Type expected = inferSelectType(getInput().getType(), getDim(), &why);
  if (!expected)
    return emitOpError(why);
  if (!isCompatibleResultType(expected, getSrc().getType(), &why))
    return emitOpError("src type ")
           << printType(getSrc().getType()) << " does not match "
           << printType(expected) << " (the input without dim " << getDim()
           << ")";
  return success();
}

LogicalResult SliceScatterOp::verify() {
  RankedTensorType in = getInput().getType();
  if (failed(checkDimAttr(*this, in, getDim())))
    return failure();
  return checkSliceOf(*this, in, getSrc().getType(), getDim(), "src");
}

//===----------------------------------------------------------------------===//
// Creation and joining
//===----------------------------------------------------------------------===//

LogicalResult FullOp::verify() {
  return checkSizeCount(*this, getSizes().size(), getResult().getType());
}

static LogicalResult verifyRandom(Operation *op, size_t sizes,
                                  RankedTensorType result) {
  if (!llvm::isa<FloatType>(result.getElementType()))
    return op->emitOpError("produces floats, got ") << printType(result);
  return checkSizeCount(op, sizes, result);
}

LogicalResult RandOp::verify() {
  return verifyRandom(*this, getSizes().size(), getResult().getType());
}

LogicalResult RandnOp::verify() {
  return verifyRandom(*this, getSizes().size(), getResult().getType());
}

LogicalResult StackOp::verify() {
  std::string why;
  Type element = getList().getType().getElementType();
  return checkInferred(*this, inferStackType(element, getDim(), &why), why,
                       getResult().getType());
}

LogicalResult CatOp::verify() {
  std::string why;
  Type element = getList().getType().getElementType();
  return checkInferred(*this, inferCatType(element, getDim(), &why), why,
                       getResult().getType());
}
