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
  std::string triple;
  std::string tuneCpu;
  std::vector<std::string> features; // LLVM names: "avx2", "fma", ...
};

/// The host, restricted to the features the runtime knows how to check.
CpuTarget hostCpuTarget();
/// `name` is "host" or an x86-64 microarchitecture level ("x86-64",
/// "x86-64-v2", "x86-64-v3", "x86-64-v4"): the level's features, as LLVM
/// defines them, that the runtime can check. False for another name.
bool cpuTargetNamed(llvm::StringRef name, CpuTarget &target);

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
