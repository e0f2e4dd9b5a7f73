//===- EntryBoundary.cpp - Entry points take and return only tensors ------===//
//
// The runtime calls every entry point through one C signature (kiln/abi.h):
// an array of tensor descriptors in, an array out. A Python int, float or
// bool parameter or result therefore crosses the boundary as a rank-0
// tensor; this rewrite unwraps it on the way in and wraps it on the way out.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/EntryBoundary.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace kiln::codegen {

static bool isEntry(func::FuncOp fn) { return fn->hasAttr("kiln.entry"); }

/// The frontend's argument annotations have served their purpose (the
/// manifest is built from the unlowered module); LLVM has no use for them.
/// `kiln.weight` stays until the library calls are recorded
/// (LibraryCallRecords.cpp), which finds the weights by it.
static void dropKilnArgAttrs(func::FuncOp fn) {
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    DictionaryAttr attrs = fn.getArgAttrDict(i);
    if (!attrs)
      continue;
    SmallVector<NamedAttribute> kept;
    for (NamedAttribute attr : attrs)
      if (!attr.getName().strref().starts_with("kiln.") ||
          attr.getName() == "kiln.weight")
        kept.push_back(attr);
    fn.setArgAttrs(i, kept);
  }
}

/// A call must not go through an entry point: the entry's signature becomes
/// the ABI's (a scalar is a rank-0 tensor), and its arguments get identity
/// layouts, so a slice `x[i]` passed in would lose its offset and the
/// callee would read `x[0]`. Calls go to a private copy of the entry
/// instead, which keeps kiln's signature and takes any layout. (At -O1 and
/// above the inliner has removed such calls already.)
static void redirectCallsToEntries(ModuleOp module) {
  SymbolTable symbols(module);
  SmallVector<func::CallOp> calls;
  module.walk([&](func::CallOp call) { calls.push_back(call); });
  llvm::DenseMap<Operation *, func::FuncOp> copies;
  for (func::CallOp call : calls) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee || !isEntry(callee))
      continue;
    func::FuncOp &copy = copies[callee];
    if (!copy) {
      copy = callee.clone();
      copy->removeAttr("kiln.entry");
      copy.setPrivate();
      copy.setName((callee.getName() + ".callee").str());
      symbols.insert(copy); // renames it if the name is taken
    }
    call.setCallee(copy.getName());
  }
}

void rewriteEntryBoundaries(ModuleOp module) {
  redirectCallsToEntries(module);
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal())
      continue;
    dropKilnArgAttrs(fn);
    if (!isEntry(fn)) {
      fn.setPrivate();
      continue;
    }
    OpBuilder b(fn.getBody());
    Block &entry = fn.getBody().front();
    // Inputs are the caller's buffers: writes (x[i] = v) must go to a copy.
    for (unsigned i = 0; i < fn.getNumArguments(); ++i)
      fn.setArgAttr(i, "bufferization.writable", b.getBoolAttr(false));
    for (BlockArgument arg : entry.getArguments()) {
      if (isa<RankedTensorType>(arg.getType()))
        continue;
      Type scalar = arg.getType();
      arg.setType(RankedTensorType::get({}, scalar));
      auto extract = b.create<tensor::ExtractOp>(arg.getLoc(), arg);
      arg.replaceAllUsesExcept(extract, extract);
    }
    fn.walk([&](func::ReturnOp ret) {
      OpBuilder rb(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Type type = operand.get().getType();
        if (isa<RankedTensorType>(type))
          continue;
        operand.set(rb.create<tensor::FromElementsOp>(
            ret.getLoc(), RankedTensorType::get({}, type), operand.get()));
      }
    });
    SmallVector<Type> results;
    for (Type type : fn.getResultTypes())
      results.push_back(isa<RankedTensorType>(type)
                            ? type
                            : RankedTensorType::get({}, type));
    fn.setType(FunctionType::get(fn.getContext(), entry.getArgumentTypes(),
                                 results));
    // AbiGlue calls the C-compatible wrapper _mlir_ciface_<name>.
    fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  }
}

/// Ops whose tensor result bufferizes to a fresh, dense buffer.
static bool producesDenseBuffer(Value value) {
  // A cast only changes what the type says about the shape (shape
  // refinement inserts them at returns); the buffer is the operand's.
  while (auto cast = value.getDefiningOp<tensor::CastOp>())
    value = cast.getSource();
  Operation *op = value.getDefiningOp();
  return op && isa<linalg::LinalgOp, tensor::EmptyOp, tensor::FromElementsOp,
                   bufferization::ToTensorOp>(op);
}

void copyViewResults(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!isEntry(fn))
      continue;
    fn.walk([&](func::ReturnOp ret) {
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<RankedTensorType>(value.getType());
        if (!type || producesDenseBuffer(value))
          continue;
        Location loc = ret.getLoc();
        SmallVector<Value> dynamic;
        for (int64_t i = 0; i < type.getRank(); ++i)
          if (type.isDynamicDim(i))
            dynamic.push_back(b.create<tensor::DimOp>(loc, value, i));
        Value init = b.create<tensor::EmptyOp>(loc, type.getShape(),
                                               type.getElementType(), dynamic);
        operand.set(
            b.create<linalg::CopyOp>(loc, value, init).getResult(0));
      }
    });
  }
}

} // namespace kiln::codegen
