//===- StaticBlockRecords.cpp - A call's memory, known at compile time ----===//
//
// A first call pays a page fault for every page of every buffer it
// allocates: the runtime's block cache (runtime/src/BlockCache.cpp) is
// empty until then. In a VM a fault costs a microsecond or more, so
// softmax over 512 x 1024, 76 us warm, spent about 110 us of its 228 us
// first call faulting. For buffers of static shapes the sizes compiled
// code will ask the runtime for are known here, so this pass writes them
// down, and the runtime allocates and faults in those blocks while it
// loads the archive, then hands them to its cache (stockBlocks,
// docs/runtime.md "Prepared at load").
//
// A record is a request size in bytes, exactly as the code will make it,
// and how many blocks of that size one call of an entry point may hold:
// every static allocation of the entry and of the functions it calls,
// each counted once (one in a loop is freed and taken back each trip), the
// most over the entry points. The size is what the lowering asks for: a
// result's buffer through alloc_result (ResultBuffers.cpp) for its bytes,
// any other allocation through the memref lowering's allocation function
// for its bytes plus its alignment. A record that misses a request only
// leaves that fault to the first call; nothing is ever read from it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

#include <map>
#include <optional>

using namespace mlir;

namespace {

/// The bytes compiled code will request for `alloc`, or nothing where its
/// shape or element size is not static. The memref lowering pads an
/// aligned allocation by its alignment and aligns the pointer itself.
std::optional<int64_t> allocRequest(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  Type element = type.getElementType();
  if (!type.hasStaticShape() || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  // CheckAllocationSizes has refused a static buffer over the limit, so
  // this cannot wrap.
  return type.getNumElements() * (element.getIntOrFloatBitWidth() / 8) +
         int64_t(alloc.getAlignment().value_or(0));
}

/// The bytes a call of alloc_result requests, where they are a constant.
std::optional<int64_t> resultRequest(func::CallOp call) {
  APInt bytes;
  if (call.getCallee() != "kiln_rt_alloc_result" ||
      call.getNumOperands() != 2 ||
      !matchPattern(call.getOperand(1), m_ConstantInt(&bytes)))
    return std::nullopt;
  return bytes.getSExtValue();
}

using Requests = std::map<int64_t, int64_t>; // bytes -> how many

/// Adds the static requests of `fn`, and of each function it calls that
/// the module defines, to `requests`, each function once.
void collect(func::FuncOp fn, SymbolTable &symbols,
             llvm::DenseSet<Operation *> &visited, Requests &requests) {
  if (!visited.insert(fn).second || fn.isExternal())
    return;
  // An empty buffer asks for no memory worth faulting in.
  auto add = [&](std::optional<int64_t> bytes) {
    if (bytes && *bytes > 0)
      ++requests[*bytes];
  };
  fn.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      add(allocRequest(alloc));
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      if (std::optional<int64_t> bytes = resultRequest(call))
        add(bytes);
      else if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
        collect(callee, symbols, visited, requests);
    }
  });
}

struct StaticBlockRecordsPass
    : public PassWrapper<StaticBlockRecordsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StaticBlockRecordsPass)

  StringRef getArgument() const final { return "kiln-record-static-blocks"; }
  StringRef getDescription() const final {
    return "Record the memory requests of static size that a call of an "
           "entry point makes, for the runtime to fault in at load";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    Requests most;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (!fn->hasAttr("kiln.entry"))
        continue;
      Requests requests;
      llvm::DenseSet<Operation *> visited;
      collect(fn, symbols, visited, requests);
      for (auto [bytes, count] : requests)
        most[bytes] = std::max(most[bytes], count);
    }
    Builder b(module.getContext());
    SmallVector<Attribute> records;
    for (auto [bytes, count] : most)
      records.push_back(b.getDenseI64ArrayAttr({bytes, count}));
    if (records.empty())
      module->removeAttr(kiln::kStaticBlocksAttrName);
    else
      module->setAttr(kiln::kStaticBlocksAttrName, b.getArrayAttr(records));
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createStaticBlockRecordsPass() {
  return std::make_unique<StaticBlockRecordsPass>();
}
