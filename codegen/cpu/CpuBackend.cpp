//===- CpuBackend.cpp - kiln IR to an x86-64 shared object ----------------===//
//
// The whole CPU back end as one linear function: MLIR lowering, translation
// to LLVM IR, ABI glue, LLVM optimization, machine code, LLD.
//
//===----------------------------------------------------------------------===//

#include "codegen/cpu/CpuBackend.h"

#include "codegen/Passes.h"
#include "codegen/cpu/AbiGlue.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

namespace kiln {

static std::vector<EntrySignature> entrySignatures(ModuleOp module) {
  std::vector<EntrySignature> entries;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->hasAttr("kiln.entry"))
      entries.push_back({fn.getName().str(), fn.getNumArguments(),
                         fn.getNumResults()});
  return entries;
}

bool compileForCpu(ModuleOp module, unsigned optLevel, CpuRequest request,
                   CpuArtifacts &artifacts, std::string &error) {
  std::vector<EntrySignature> entries = entrySignatures(module);

  PassManager pm(module.getContext());
  pm.enableVerifier(true);
  buildCpuLoweringPipeline(pm, optLevel);
  if (failed(pm.run(module))) {
    error = "lowering to LLVM failed";
    return false;
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "kiln");
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return false;
  }
  error = addAbiGlue(*llvmModule, entries);
  if (!error.empty())
    return false;

  artifacts.target = hostCpuTarget();
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(artifacts.target, optLevel, error);
  if (!machine)
    return false;
  optimizeModule(*llvmModule, *machine, optLevel);
  std::string verifierMessages;
  llvm::raw_string_ostream verifierStream(verifierMessages);
  if (llvm::verifyModule(*llvmModule, &verifierStream)) {
    error = "generated LLVM IR is invalid:\n" + verifierMessages;
    return false;
  }
  if (request.llvmIR) {
    llvm::raw_string_ostream irStream(artifacts.llvmIR);
    llvmModule->print(irStream, nullptr);
  }
  if (request.assembly &&
      !emitNativeCode(*llvmModule, *machine, /*assembly=*/true,
                      artifacts.assembly, error))
    return false;
  if (!request.sharedObject)
    return true;
  std::string object;
  if (!emitNativeCode(*llvmModule, *machine, /*assembly=*/false, object,
                      error))
    return false;
  return linkSharedObject(object, artifacts.sharedObject, error);
}

} // namespace kiln
