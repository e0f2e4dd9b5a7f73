//===- LowerNNTensorOps.cpp - Helpers of the nn lowering ------------------===//
//
// The helpers (LowerNNSupport.h) that LowerNNFunctional.cpp and the op
// table's builders share: small builders of elementwise ops, reductions
// and reshapes on operands the caller has checked, and the stable softmax
// (amax/sub/exp/sum/div), composed of existing kiln ops so that fusion
// sees through it. The tensor ops themselves are rows of the op table.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

namespace nn {

std::optional<std::vector<int64_t>> constIntsOf(FunctionLowering &fl,
                                                const PyValue &v) {
  std::vector<PyValue> items;
  if (v.kind == PyValue::Kind::Tuple)
    items = v.elems;
  else if (v.isValue() && llvm::isa<ListType>(v.value.getType())) {
    auto ctor = v.value.getDefiningOp<ListConstructOp>();
    if (!ctor)
      return std::nullopt;
    for (Value x : ctor->getOperands())
      items.push_back(PyValue::ofValue(x));
  } else
    items.push_back(v);
  std::vector<int64_t> out;
  for (const PyValue &item : items) {
    std::optional<int64_t> c =
        item.isValue() ? fl.constIntValue(item.value) : std::nullopt;
    if (!c)
      return std::nullopt;
    out.push_back(*c);
  }
  return out;
}

Value unary(FunctionLowering &fl, StringRef opName, Value x,
            SourceRange where) {
  OperationState state(fl.loc(where), opName);
  state.addOperands(x);
  state.addTypes(x.getType());
  return fl.b.create(state)->getResult(0);
}

Value binary(FunctionLowering &fl, StringRef opName, Value lhs, Value rhs,
             SourceRange where) {
  ElementwiseKind kind =
      opName == "kiln.div" ? ElementwiseKind::TrueDiv : ElementwiseKind::Arith;
  Type t = inferElementwiseType(kind, lhs.getType(), rhs.getType(), nullptr);
  assert(t && "callers check the operands of nn building blocks");
  OperationState state(fl.loc(where), opName);
  state.addOperands({lhs, rhs});
  state.addTypes(t);
  return fl.b.create(state)->getResult(0);
}

Value reduce(FunctionLowering &fl, StringRef opName, Value x,
             ArrayRef<int64_t> dims, bool keepdim, SourceRange where) {
  Type t = inferReduceType(x.getType(), dims, keepdim, opName == "kiln.sum",
                           nullptr);
  assert(t && "callers normalize and check reduction dims");
  OperationState state(fl.loc(where), opName);
  state.addOperands(x);
  state.addAttribute("dims", fl.b.getDenseI64ArrayAttr(dims));
  state.addAttribute("keepdim", fl.b.getBoolAttr(keepdim));
  state.addTypes(t);
  return fl.b.create(state)->getResult(0);
}

Value reshape(FunctionLowering &fl, Value x, ArrayRef<Value> sizes,
              SourceRange where) {
  SmallVector<int64_t> shape;
  for (Value s : sizes) {
    std::optional<int64_t> c = fl.constIntValue(s);
    shape.push_back(c && *c >= 0 ? *c : ShapedType::kDynamic);
  }
  Type element = llvm::cast<RankedTensorType>(x.getType()).getElementType();
  return fl.b.create<ReshapeOp>(
      fl.loc(where), RankedTensorType::get(shape, element), x, sizes);
}

} // namespace nn

} // namespace kiln
