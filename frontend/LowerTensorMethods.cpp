//===- LowerTensorMethods.cpp - Tensor methods and torch.X(tensor, ...) ---===//
//
// A method call on a tensor is the op table's Tensor.X row (OpTable.h); the
// table is the only place a Tensor method is accepted.
//
//===----------------------------------------------------------------------===//

#include "frontend/LoweringImpl.h"
#include "frontend/OpTable.h"
#include "frontend/Suggest.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

bool isKnownTensorMethod(llvm::StringRef name) {
  return ops::lookup(ops::Method, name) != nullptr;
}

MaybeValue FunctionLowering::callMethod(PyValue self, const std::string &name,
                                        const CallArgs &call) {
  SourceRange where = call.range;
  if (self.isValue() && llvm::isa<ListType>(self.value.getType())) {
    error(where, "the list method '" + name + "' is not supported");
    return std::nullopt;
  }
  if (const ops::Row *row = ops::lookup(ops::Method, name))
    return callOp(*row, ops::Method, "Tensor." + name, self, call);
  error(where, unsupportedTorchName("Tensor." + name, "method"));
  return std::nullopt;
}

bool FunctionLowering::callAten(const std::string &name,
                                const ast::CallExpr &call, MaybeValue &out) {
  if (const ops::Row *row = ops::lookup(ops::Torch, name)) {
    out = callOp(*row, ops::Torch, "torch.ops.aten." + name, std::nullopt,
                 CallArgs::of(call));
    return true;
  }
  llvm::StringRef stem(name);
  bool inPlaceName = stem.consume_back("_");
  const ops::Row *inPlaceRow =
      inPlaceName ? ops::lookup(ops::InPlace, stem) : nullptr;
  const ops::Row *method = ops::lookup(ops::Method, name);
  if (!call.args.empty() && (inPlaceRow || method)) {
    // The ATen op's `self` is the first argument: the rest is the method's.
    CallArgs rest = CallArgs::of(call);
    rest.selfRange = call.args[0]->range;
    rest.args.erase(rest.args.begin());
    std::string spelled = "torch.ops.aten." + name;
    auto *receiver = llvm::dyn_cast<ast::NameExpr>(call.args[0].get());
    if (inPlaceRow && receiver) {
      out = inPlace(*inPlaceRow, *receiver, spelled, rest);
      return true;
    }
    out = std::nullopt;
    MaybeValue self = lowerExpr(*call.args[0]);
    if (self)
      out = callOp(inPlaceRow ? *inPlaceRow : *method, ops::Method, spelled,
                   *self, rest);
    return true;
  }
  if (const ops::Row *row = ops::lookup(ops::Functional, name)) {
    out = callOp(*row, ops::Functional, "torch.ops.aten." + name, std::nullopt,
                 CallArgs::of(call));
    return true;
  }
  return false;
}

} // namespace kiln
