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

static bool isCheckable(StringRef feature) {
  return llvm::any_of(checkableFeatures,
                      [&](const char *f) { return feature == f; });
}

/// The message for a name LLVM does not know, with the closest one it does.
static std::string unknownCpu(StringRef name) {
  SmallVector<StringRef> valid;
  X86::fillValidCPUArchList(valid, /*Only64Bit=*/true);
  StringRef best;
  unsigned bestDistance = 4; // more edits than this is not a typo
  for (StringRef candidate : valid)
    if (unsigned d = name.edit_distance(candidate); d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  std::string message =
      "unknown --target-cpu '" + name.str() +
      "': expected host, an x86-64 level (x86-64, x86-64-v2, x86-64-v3, "
      "x86-64-v4) or an x86-64 CPU name such as znver4 or sapphirerapids";
  if (!best.empty())
    message += "; did you mean '" + best.str() + "'?";
  return message;
}

/// Turns `feature` on with every feature it implies, or off with every
/// feature that implies it (LLVM's update sets only the others).
static void setFeature(StringRef feature, bool enable,
                       StringMap<bool> &enabled) {
  enabled[feature] = enable;
  X86::updateImpliedFeatures(feature, enable, enabled);
}

/// Applies "+avx2,-avx512f" to `enabled`, with what each feature implies.
static std::string applyFeatureEdits(StringRef edits,
                                     StringMap<bool> &enabled) {
  SmallVector<StringRef> items;
  edits.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    item = item.trim();
    bool enable = item.consume_front("+");
    if (!enable && !item.consume_front("-"))
      return "--target-features: '" + item.str() +
             "' must start with + (use the feature) or - (do not use it)";
    if (!isCheckable(item)) {
      std::string known;
      for (const char *f : checkableFeatures)
        known += (known.empty() ? "" : ", ") + std::string(f);
      return "--target-features: unknown or uncheckable feature '" +
             item.str() + "'; the runtime checks " + known;
    }
    setFeature(item, enable, enabled);
  }
  return "";
}

std::string resolveCpuTarget(StringRef name, StringRef featureEdits,
                             CpuTarget &target) {
  target = CpuTarget();
  target.name = name.str();
  target.featureEdits = featureEdits.str();
  target.triple = sys::getDefaultTargetTriple();
  StringMap<bool> enabled;
  if (name == "host") {
    target.tuneCpu = sys::getHostCPUName().str();
    enabled = sys::getHostCPUFeatures();
  } else {
    if (X86::parseArchX86(name, /*Only64Bit=*/true) == X86::CK_None)
      return unknownCpu(name);
    // A level is a feature set, not a microarchitecture to tune for.
    target.tuneCpu = name.starts_with("x86-64") ? "generic" : name.str();
    // LLVM lists a CPU's own features (x86-64-v4: avx512bw, ...), not what
    // they imply (avx512f, avx2, ...), which the runtime must check too.
    SmallVector<StringRef> features;
    X86::getFeaturesForCPU(name, features, /*NeedPlus=*/false);
    for (StringRef feature : features)
      setFeature(feature, true, enabled);
  }
  if (std::string error = applyFeatureEdits(featureEdits, enabled);
      !error.empty())
    return error;
  for (const char *feature : checkableFeatures)
    if (enabled.lookup(feature))
      target.features.push_back(feature);
  return "";
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
