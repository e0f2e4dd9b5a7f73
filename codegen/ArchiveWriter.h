//===- ArchiveWriter.h - Package a compiled module as a .kiln file -*- C++ -*-===//
#ifndef KILN_CODEGEN_ARCHIVEWRITER_H
#define KILN_CODEGEN_ARCHIVEWRITER_H

#include "codegen/archive/Weights.h"
#include "codegen/cpu/CpuBackend.h"
#include "codegen/cuda/CudaBackend.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace kiln {

struct ArchiveInputs {
  std::string sourcePath; // as given on the command line
  std::string sourceText;
  std::string inputIR;     // kiln IR from the frontend
  std::string optimizedIR; // kiln IR after the -O pipeline
  unsigned optLevel = 2;
  /// The optimized kiln IR module, for entry signatures (before lowering).
  mlir::ModuleOp kilnModule;
  /// For --target=cpu: one code object per `--target-cpu` name, in any
  /// order: the archive lists them best first (most features), which is
  /// the order the runtime tries them in. Empty without --target=cpu.
  std::vector<const CpuArtifacts *> cpu;
  /// For --target=cuda: the kernels, and the host code that launches them,
  /// one code object per `--target-cpu` name as for the CPU.
  const CudaKernels *cuda = nullptr;
  std::vector<const CpuArtifacts *> cudaHost;
  /// Values of the weights the kiln module's `kiln.params` declares.
  const std::vector<WeightData> *weights = nullptr;
};

/// The manifest.json text (docs/archive.md) for `inputs`; `files` lists the
/// other entries as (name, data) and is checksummed into the manifest.
std::string buildManifest(
    const ArchiveInputs &inputs,
    const std::vector<std::pair<std::string, std::string>> &files);

/// Writes the archive to `path` atomically. Returns an error message, or an
/// empty string on success.
std::string writeArchive(const std::string &path, const ArchiveInputs &inputs);

} // namespace kiln

#endif // KILN_CODEGEN_ARCHIVEWRITER_H
