//===- CpuBackend.h - kiln IR to an x86-64 shared object --------*- C++ -*-===//
#ifndef KILN_CODEGEN_CPU_CPUBACKEND_H
#define KILN_CODEGEN_CPU_CPUBACKEND_H

#include "codegen/cpu/NativeCode.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace kiln {

/// What compileForCpu should produce besides lowering the module.
struct CpuRequest {
  bool llvmIR = false;
  bool assembly = false;
  bool sharedObject = true;
  /// cpuTargetNamed's name: "host", or an x86-64 level such as "x86-64-v3"
  /// for an archive that loads on every CPU of that level.
  std::string targetCpu = "host";
};

struct CpuArtifacts {
  CpuTarget target;
  std::string llvmIR;       // after LLVM optimization, if requested
  std::string assembly;     // if requested
  std::string sharedObject; // if requested
};

/// Lowers `module` (kiln IR, already optimized) in place to the LLVM dialect
/// and compiles it for the host. Afterwards the module carries the
/// `kiln.sites` and `kiln.strings` tables for the manifest. Diagnostics go
/// to the context's handler; on failure returns false with a summary in
/// `error`.
bool compileForCpu(mlir::ModuleOp module, unsigned optLevel, CpuRequest request,
                   CpuArtifacts &artifacts, std::string &error);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_CPUBACKEND_H
