//===- CpuBackend.h - kiln IR to an x86-64 shared object --------*- C++ -*-===//
#ifndef KILN_CODEGEN_CPU_CPUBACKEND_H
#define KILN_CODEGEN_CPU_CPUBACKEND_H

#include "codegen/cpu/NativeCode.h"

#include <functional>
#include <string>

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir {
class ModuleOp;
class PassManager;
} // namespace mlir

namespace kiln {

/// What compileForCpu should produce besides lowering the module.
struct CpuRequest {
  bool llvmIR = false;
  bool assembly = false;
  bool sharedObject = true;
  /// One `--target-cpu` name and the `--target-features` edits to apply
  /// (resolveCpuTarget).
  std::string targetCpu = "host";
  std::string targetFeatures;
  /// Called on the lowering's pass manager before it runs: the driver's
  /// IR dumps and timing.
  std::function<void(mlir::PassManager &)> instrument;
  /// Set for the host code of a CUDA archive: lowers the module, after its
  /// weights became arguments, to loops around kernel launches
  /// (compileKernels, codegen/cuda/CudaBackend.h) in place of the CPU's
  /// tiling and loops. Every buffer is then allocated in device memory.
  std::function<bool(mlir::ModuleOp, std::string &)> lowerToKernels;
};

struct CpuArtifacts {
  CpuTarget target;
  /// The run-time check sites and print formats the code indexes (the
  /// module's `kiln.sites` and `kiln.strings` after lowering).
  mlir::ArrayAttr sites, strings;
  /// The kernel library calls to prepare at load (`kiln.library_calls`,
  /// codegen/cpu/LibraryCallRecords.cpp); null when there are none.
  mlir::ArrayAttr libraryCalls;
  /// The memory requests of static size one call makes, [bytes, count]
  /// each (`kiln.static_blocks`, codegen/cpu/StaticBlockRecords.cpp);
  /// null when there are none.
  mlir::ArrayAttr staticBlocks;
  std::string llvmIR;       // after LLVM optimization, if requested
  std::string assembly;     // if requested
  std::string sharedObject; // if requested
};

/// Lowers `module` (kiln IR, already optimized) in place to the LLVM dialect
/// and compiles it for `request`'s target CPU. Afterwards the module carries the
/// `kiln.sites` and `kiln.strings` tables for the manifest. Diagnostics go
/// to the context's handler; on failure returns false with a summary in
/// `error`.
bool compileForCpu(mlir::ModuleOp module, unsigned optLevel, CpuRequest request,
                   CpuArtifacts &artifacts, std::string &error);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_CPUBACKEND_H
