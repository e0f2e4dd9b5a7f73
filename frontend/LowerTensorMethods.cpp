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
  // ATen reads a bare int where the row has int[] as another overload's
  // ScalarType (torch.ops.aten.view(x, 6) is Tensor.view(torch.float32)),
  // which kiln has not: refuse rather than take it for a size. The trace
  // prints every int[] as a list.
  auto bareIntForList = [&](const ops::Row &row) {
    const std::vector<ops::Param> &params = row.schema().params;
    for (size_t i = 1; i < call.args.size() && i < params.size(); ++i)
      if (params[i].type == ops::ParamType::IntList &&
          llvm::isa<ast::IntLitExpr>(call.args[i].get())) {
        error(call.args[i]->range,
              "torch.ops.aten." + name + "() takes a list for '" +
                  params[i].name + "' (int[]); ATen reads an int there as a "
                  "dtype, as in Tensor." + name + "(dtype), which kiln does "
                  "not support");
        return true;
      }
    return false;
  };
  const ops::Row *inPlaceRow =
      inPlaceName ? ops::lookup(ops::InPlace, stem) : nullptr;
  const ops::Row *method = ops::lookup(ops::Method, name);
  if (!call.args.empty() && (inPlaceRow || method)) {
    out = std::nullopt;
    if (bareIntForList(inPlaceRow ? *inPlaceRow : *method))
      return true;
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
    MaybeValue self = lowerExpr(*call.args[0]);
    if (self)
      out = callOp(inPlaceRow ? *inPlaceRow : *method, ops::Method, spelled,
                   *self, rest);
    return true;
  }
  // F.X(x, inplace=True) in ATen is X_(x, ...): hardtanh_, hardswish_.
  const ops::Row *fInPlace =
      inPlaceName ? ops::lookup(ops::Functional, stem) : nullptr;
  if (fInPlace && !(fInPlace->spellings & ops::FInplaceArg))
    fInPlace = nullptr;
  const ops::Row *functional =
      fInPlace ? fInPlace : ops::lookup(ops::Functional, name);
  if (!functional)
    return false;
  out = std::nullopt;
  if (bareIntForList(*functional))
    return true;
  out = callOp(*functional, ops::Functional, "torch.ops.aten." + name,
               std::nullopt, CallArgs::of(call));
  // An activation keeps its input's type, so the result rebinds the name.
  if (fInPlace && out && !call.args.empty())
    if (auto *receiver = llvm::dyn_cast<ast::NameExpr>(call.args[0].get()))
      env[receiver->id] = Binding{*out, call.range};
  return true;
}

} // namespace kiln
