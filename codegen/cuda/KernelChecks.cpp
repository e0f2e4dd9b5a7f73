//===- KernelChecks.cpp - Run-time checks inside GPU kernels --------------===//
//
// A run-time check on tensor elements (an index out of range, an integer
// division by zero) sits inside the loop that becomes a kernel, as
// `scf.if %failed { call @kiln_rt_raise(site, a, b, c, d) }`. A kernel can
// call nothing on the host, and its only way to stop, a trap, leaves the
// CUDA context unusable for every later call (PyTorch's "device-side
// assert triggered"). So a kernel records the failure and the call goes
// on, with the work that the check guards skipped:
//
// - Before the loop, the host code asks the runtime for the running
//   call's check record (kiln_host_api.kernel_check_record); the kernel
//   gets its address as a parameter.
// - The raise becomes a compare-and-swap of site + 1 into the record's
//   first word, so the first failure to get there wins; the winning
//   thread stores a, b, c and d in the four words after it.
// - The rest of the block after the check runs only if the check passed,
//   so an out-of-range index is never read through.
//
// When the call finishes, the runtime reads the record and reports the
// failure with its site's location and message, as the CPU's raise does.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/lowering/LoweringSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

constexpr StringLiteral kRaise = "kiln_rt_raise";
constexpr StringLiteral kCheckRecord = "kiln_rt_kernel_check_record";

/// Replaces `raise` (site, a, b, c, d) with its record at `record`, and
/// returns the last op it made.
Operation *recordFailure(func::CallOp raise, Value record) {
  OpBuilder b(raise);
  Location loc = raise.getLoc();
  OperandRange args = raise.getOperands();
  Value zero = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(0));
  Value one = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(1));
  Value code = b.create<arith::AddIOp>(loc, args[0], one);
  auto swap = b.create<LLVM::AtomicCmpXchgOp>(
      loc, record, zero, code, LLVM::AtomicOrdering::monotonic,
      LLVM::AtomicOrdering::monotonic);
  Value won = b.create<LLVM::ExtractValueOp>(loc, swap, 1);
  auto store = b.create<scf::IfOp>(loc, won, [&](OpBuilder &then,
                                                 Location at) {
    for (int32_t word = 1; word < 5; ++word) {
      Value slot = then.create<LLVM::GEPOp>(
          at, record.getType(), then.getI64Type(), record,
          ArrayRef<LLVM::GEPArg>{word});
      then.create<LLVM::StoreOp>(at, args[word], slot);
    }
    then.create<scf::YieldOp>(at);
  });
  raise.erase();
  return store;
}

/// Runs the ops after `check` in its block (all but the terminator) only
/// when `failed` is false: they move into an scf.if that yields what the
/// terminator takes, and zeros when the check failed (the values of a
/// failed call are never seen).
LogicalResult skipAfter(Operation *check, Value failed) {
  Block *block = check->getBlock();
  Operation *terminator = block->getTerminator();
  if (check->getNextNode() == terminator)
    return success();
  OpBuilder b(check->getContext());
  b.setInsertionPointAfter(check);
  Location loc = check->getLoc();
  for (Type type : terminator->getOperandTypes())
    if (!isa<IntegerType, IndexType, FloatType, VectorType>(type))
      return check->emitError("--target=cuda cannot skip a value of type ")
             << type << " after a failed check in a GPU kernel";
  Value passed = b.create<arith::XOrIOp>(
      loc, failed, b.create<arith::ConstantOp>(loc, b.getBoolAttr(true)));
  auto guard = b.create<scf::IfOp>(
      loc, passed,
      [&](OpBuilder &then, Location at) {
        then.create<scf::YieldOp>(at, terminator->getOperands());
      },
      [&](OpBuilder &otherwise, Location at) {
        SmallVector<Value> zeros;
        for (Type type : terminator->getOperandTypes())
          zeros.push_back(otherwise.create<arith::ConstantOp>(
              at, cast<TypedAttr>(otherwise.getZeroAttr(type))));
        otherwise.create<scf::YieldOp>(at, zeros);
      });
  Operation *yield = guard.thenBlock()->getTerminator();
  while (guard->getNextNode() != terminator)
    guard->getNextNode()->moveBefore(yield);
  terminator->setOperands(guard.getResults());
  return success();
}

/// Turns `raise`, inside a kernel's loop, into a record at `record`, and
/// skips what its check guards.
LogicalResult lowerRaise(func::CallOp raise, Value record) {
  // emitCheck's shape: the raise alone in a branch of an scf.if. Anything
  // else is a raise that always happens at this point.
  Operation *check = raise;
  Value failed;
  if (auto branch = dyn_cast<scf::IfOp>(raise->getParentOp())) {
    check = branch;
    failed = branch.getCondition();
    if (raise->getParentRegion() == &branch.getElseRegion()) {
      OpBuilder b(branch);
      failed = b.create<arith::XOrIOp>(
          branch.getLoc(), failed,
          b.create<arith::ConstantOp>(branch.getLoc(), b.getBoolAttr(true)));
    }
  } else {
    OpBuilder b(raise);
    failed = b.create<arith::ConstantOp>(raise.getLoc(), b.getBoolAttr(true));
  }
  Operation *recorded = recordFailure(raise, record);
  return skipAfter(check == raise.getOperation() ? recorded : check, failed);
}

struct KernelChecksPass
    : public PassWrapper<KernelChecksPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KernelChecksPass)

  StringRef getArgument() const final { return "kiln-kernel-checks"; }
  StringRef getDescription() const final {
    return "Make the run-time checks inside each outermost scf.parallel "
           "record their failure in the call's check record";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    LLVM::LLVMDialect, scf::SCFDialect>();
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    kiln::codegen::declareRuntimeFunctions(module);
    SmallVector<scf::ParallelOp> loops;
    module.walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
      loops.push_back(loop);
      return WalkResult::skip();
    });
    for (scf::ParallelOp loop : loops) {
      SmallVector<func::CallOp> raises;
      loop.walk([&](func::CallOp call) {
        if (call.getCallee() == kRaise)
          raises.push_back(call);
      });
      if (raises.empty())
        continue;
      OpBuilder b(loop);
      Value record = kiln::codegen::callRuntime(
          b, loop.getLoc(), kCheckRecord,
          LLVM::LLVMPointerType::get(&getContext()), {})[0];
      for (func::CallOp raise : raises)
        if (failed(lowerRaise(raise, record)))
          return signalPassFailure();
    }
    kiln::codegen::eraseUnusedRuntimeFunctions(module);
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createKernelChecksPass() {
  return std::make_unique<KernelChecksPass>();
}
