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

} // namespace kiln
