//===- NativeCode.cpp - LLVM IR to x86-64 code in memory ------------------===//

#include "codegen/cpu/NativeCode.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <mutex>

using namespace llvm;

namespace kiln {

/// x86 features the runtime checks with cpuid before loading code
/// (runtime/src/CpuFeatures.cpp has the same list).
static const char *const checkableFeatures[] = {
    "sse3",     "ssse3",    "sse4.1",   "sse4.2",   "popcnt",
    "avx",      "avx2",     "fma",      "f16c",     "bmi",
    "bmi2",     "lzcnt",    "movbe",    "avx512f",  "avx512cd",
    "avx512bw", "avx512dq", "avx512vl", "avx512vnni", "avx512bf16"};

bool cpuTargetNamed(StringRef name, CpuTarget &target) {
  if (name == "host") {
    target = hostCpuTarget();
    return true;
  }
  if (name != "x86-64" && name != "x86-64-v2" && name != "x86-64-v3" &&
      name != "x86-64-v4")
    return false;
  target.triple = sys::getDefaultTargetTriple();
  target.tuneCpu = "generic";
  SmallVector<StringRef> level;
  X86::getFeaturesForCPU(name, level, /*NeedPlus=*/false);
  target.features.clear();
  for (const char *feature : checkableFeatures)
    if (llvm::is_contained(level, feature))
      target.features.push_back(feature);
  return true;
}

CpuTarget hostCpuTarget() {
  CpuTarget target;
  target.triple = sys::getDefaultTargetTriple();
  target.tuneCpu = sys::getHostCPUName().str();
  StringMap<bool> host = sys::getHostCPUFeatures();
  for (const char *feature : checkableFeatures)
    if (host.lookup(feature))
      target.features.push_back(feature);
  return target;
}

static void initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
}

std::unique_ptr<TargetMachine> createTargetMachine(const CpuTarget &target,
                                                   unsigned optLevel,
                                                   std::string &error) {
  initializeTargets();
  const Target *llvmTarget =
      TargetRegistry::lookupTarget(target.triple, error);
  if (!llvmTarget)
    return nullptr;
  std::string features;
  for (const std::string &feature : target.features)
    features += (features.empty() ? "+" : ",+") + feature;
  CodeGenOptLevel level = optLevel == 0   ? CodeGenOptLevel::None
                          : optLevel == 1 ? CodeGenOptLevel::Less
                          : optLevel == 2 ? CodeGenOptLevel::Default
                                          : CodeGenOptLevel::Aggressive;
  TargetOptions options;
  std::unique_ptr<TargetMachine> machine(llvmTarget->createTargetMachine(
      target.triple, "x86-64", features, options, Reloc::PIC_, std::nullopt,
      level));
  if (!machine)
    error = "cannot create a target machine for " + target.triple;
  return machine;
}

void optimizeModule(Module &module, TargetMachine &machine,
                    StringRef tuneCpu, unsigned optLevel) {
  module.setDataLayout(machine.createDataLayout());
  module.setTargetTriple(machine.getTargetTriple().str());
  for (Function &fn : module) {
    if (fn.isDeclaration())
      continue;
    fn.addFnAttr("target-cpu", machine.getTargetCPU());
    fn.addFnAttr("target-features", machine.getTargetFeatureString());
    fn.addFnAttr("tune-cpu", tuneCpu);
  }

  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager cgscc;
  ModuleAnalysisManager modules;
  PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  OptimizationLevel level = optLevel == 0   ? OptimizationLevel::O0
                            : optLevel == 1 ? OptimizationLevel::O1
                            : optLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager passes = optLevel == 0
                                 ? builder.buildO0DefaultPipeline(level)
                                 : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, modules);
}

bool emitNativeCode(Module &module, TargetMachine &machine, bool assembly,
                    std::string &out, std::string &error) {
  SmallString<0> buffer;
  raw_svector_ostream stream(buffer);
  legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr,
                                  assembly ? CodeGenFileType::AssemblyFile
                                           : CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit " +
            std::string(assembly ? "assembly" : "object files");
    return false;
  }
  passes.run(module);
  out.assign(buffer.begin(), buffer.end());
  return true;
}

} // namespace kiln
