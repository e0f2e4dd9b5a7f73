//===- WeightArguments.cpp - kiln.param ops become function arguments -----===//
//
// A weight lives in the archive's mapping, whose address the runtime learns
// only at load time, so compiled code cannot refer to it as a global. The
// entry point receives it instead, like an input, and hands it down to the
// helpers that read it. Weight arguments carry static shapes, so the code
// that reads them is as specialized as code reading a constant would be.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/EntryBoundary.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

#include <map>
#include <set>

using namespace mlir;

namespace kiln::codegen {

void passWeightsAsArguments(ModuleOp module) {
  auto declared = module->getAttrOfType<DictionaryAttr>(kParamsAttrName);
  if (!declared)
    return;
  std::map<std::string, int64_t> indexOf;
  SmallVector<Type> typeOf;
  for (NamedAttribute attr : declared) {
    indexOf[attr.getName().str()] = typeOf.size();
    typeOf.push_back(cast<TypeAttr>(attr.getValue()).getValue());
  }

  // Which weights each function needs, directly or through its callees,
  // iterated to a fixed point (the frontend rejects recursion, so this
  // takes at most call-depth rounds).
  SymbolTable symbols(module);
  std::map<Operation *, std::set<int64_t>> needs;
  for (auto fn : module.getOps<func::FuncOp>())
    fn.walk([&](ParamOp param) {
      needs[fn].insert(indexOf.at(param.getName().str()));
    });
  for (bool changed = true; changed;) {
    changed = false;
    for (auto fn : module.getOps<func::FuncOp>())
      fn.walk([&](func::CallOp call) {
        Operation *callee = symbols.lookup(call.getCallee());
        for (int64_t i : needs[callee])
          changed |= needs[fn].insert(i).second;
      });
  }

  // Append the arguments, then replace the params and extend the calls.
  std::map<Operation *, std::map<int64_t, BlockArgument>> argumentOf;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal())
      continue;
    Block &entry = fn.getBody().front();
    for (int64_t i : needs[fn]) {
      unsigned position = fn.getNumArguments();
      fn.insertArgument(position, typeOf[i], {}, fn.getLoc());
      fn.setArgAttr(position, "kiln.weight",
                    IntegerAttr::get(IntegerType::get(fn.getContext(), 64), i));
      argumentOf[fn][i] = entry.getArgument(position);
    }
  }
  for (auto fn : module.getOps<func::FuncOp>()) {
    auto &args = argumentOf[fn];
    fn.walk([&](ParamOp param) {
      param.replaceAllUsesWith(args.at(indexOf.at(param.getName().str())));
      param.erase();
    });
    fn.walk([&](func::CallOp call) {
      Operation *callee = symbols.lookup(call.getCallee());
      SmallVector<Value> operands(call.getOperands());
      for (int64_t i : needs[callee])
        operands.push_back(args.at(i));
      call->setOperands(operands);
    });
  }
  module->removeAttr(kParamsAttrName);
}

} // namespace kiln::codegen
