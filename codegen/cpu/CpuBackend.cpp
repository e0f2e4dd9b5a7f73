//===- CpuBackend.cpp - kiln IR to an x86-64 shared object ----------------===//
//
// The whole CPU back end as one linear function: MLIR lowering, translation
// to LLVM IR, ABI glue, LLVM optimization, machine code, LLD.
//
//===----------------------------------------------------------------------===//

#include "codegen/cpu/CpuBackend.h"

#include "codegen/Passes.h"
#include "codegen/cpu/AbiGlue.h"
#include "codegen/lowering/EntryBoundary.h"
#include "ir/KilnDialect.h"

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

/// What the ABI glue needs of each entry point, read after weights have
/// become arguments.
static std::vector<EntrySignature> entrySignatures(ModuleOp module) {
  std::vector<EntrySignature> entries;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn->hasAttr("kiln.entry"))
      continue;
    EntrySignature entry{fn.getName().str(), 0, fn.getNumResults(), {}};
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      auto index = fn.getArgAttrOfType<IntegerAttr>(i, "kiln.weight");
      if (!index) {
        ++entry.numArgs;
        continue;
      }
      auto type = cast<RankedTensorType>(fn.getArgumentTypes()[i]);
      entry.weights.push_back({index.getInt(), type.getShape().vec()});
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

bool compileForCpu(ModuleOp module, unsigned optLevel, CpuRequest request,
                   CpuArtifacts &artifacts, std::string &error) {
  unsigned numWeights = 0;
  if (auto params = module->getAttrOfType<DictionaryAttr>(kParamsAttrName))
    numWeights = params.size();
  codegen::passWeightsAsArguments(module);
  std::vector<EntrySignature> entries = entrySignatures(module);

  error = resolveCpuTarget(request.targetCpu, request.targetFeatures,
                           artifacts.target);
  if (!error.empty())
    return false;
  HalfFloatSupport native;
  native.f16 = llvm::is_contained(artifacts.target.features, "f16c");
  auto has = [&](const char *feature) {
    return llvm::is_contained(artifacts.target.features, feature);
  };
  unsigned f32Lanes = has("avx512f") ? 16 : has("avx") ? 8 : 4;

  bool deviceBuffers = static_cast<bool>(request.lowerToKernels);
  if (deviceBuffers && !request.lowerToKernels(module, error))
    return false;
  PassManager pm(module.getContext());
  pm.enableVerifier(true);
  if (deviceBuffers)
    buildLlvmLoweringPipeline(pm, optLevel, native);
  else
    buildCpuLoweringPipeline(pm, optLevel, native, f32Lanes);
  if (request.instrument)
    request.instrument(pm);
  if (failed(pm.run(module))) {
    error = "lowering to LLVM failed";
    return false;
  }
  artifacts.sites = module->getAttrOfType<ArrayAttr>("kiln.sites");
  artifacts.strings = module->getAttrOfType<ArrayAttr>("kiln.strings");
  artifacts.libraryCalls =
      module->getAttrOfType<ArrayAttr>(kLibraryCallsAttrName);
  artifacts.staticBlocks =
      module->getAttrOfType<ArrayAttr>(kStaticBlocksAttrName);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "kiln");
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return false;
  }
  error = addAbiGlue(*llvmModule, entries, numWeights, deviceBuffers);
  if (!error.empty())
    return false;

  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(artifacts.target, optLevel, error);
  if (!machine)
    return false;
  optimizeModule(*llvmModule, *machine, artifacts.target.tuneCpu, optLevel);
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
