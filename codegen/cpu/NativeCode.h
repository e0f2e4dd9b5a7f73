//===- NativeCode.h - LLVM IR to x86-64 code in memory ----------*- C++ -*-===//
#ifndef KILN_CODEGEN_CPU_NATIVECODE_H
#define KILN_CODEGEN_CPU_NATIVECODE_H

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace kiln {

/// What the code is compiled for. The CPU model is always the generic
/// "x86-64" plus an explicit feature list, so the code uses nothing the
/// runtime cannot check for at load time; `tuneCpu` only guides scheduling.
struct CpuTarget {
  /// The `--target-cpu` name it was made from ("host", "x86-64-v3",
  /// "znver4"); an archive names each code object after it.
  std::string name;
  /// The `--target-features` edits applied to it ("+avx2,-avx512f").
  std::string featureEdits;
  std::string triple;
  std::string tuneCpu;
  std::vector<std::string> features; // LLVM names: "avx2", "fma", ...
};

/// Resolves one `--target-cpu` name: "host", an x86-64 microarchitecture
/// level ("x86-64" to "x86-64-v4") or an LLVM x86-64 CPU name ("znver4",
/// "sapphirerapids"), keeping the features the runtime can check. Then
/// applies `featureEdits`, a `--target-features` list such as
/// "+avx2,-avx512f", with what each feature implies (-avx2 also drops
/// avx512f). Returns an error message, or "" on success.
std::string resolveCpuTarget(llvm::StringRef name, llvm::StringRef featureEdits,
                             CpuTarget &target);

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const CpuTarget &target, unsigned optLevel,
                    std::string &error);

/// Runs LLVM's default pipeline for -O`optLevel` (0 to 3).
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    llvm::StringRef tuneCpu, unsigned optLevel);

/// An ELF object, or assembly text with `assembly`. Returns false and sets
/// `error` on failure.
bool emitNativeCode(llvm::Module &module, llvm::TargetMachine &machine,
                    bool assembly, std::string &out, std::string &error);

/// Links one ELF object into a shared object with LLD, in process.
bool linkSharedObject(const std::string &object, std::string &sharedObject,
                      std::string &error);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_NATIVECODE_H
