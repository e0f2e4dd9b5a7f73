//===- CpuFeatures.h - Which of the archive's code objects this CPU runs --===//
#ifndef KILN_RUNTIME_CPUFEATURES_H
#define KILN_RUNTIME_CPUFEATURES_H

#include "BlockCache.h"

#include <string>
#include <vector>

namespace kiln {

/// One code object of an archive and the x86 features (LLVM spelling:
/// "avx2", "avx512f", ...) it was compiled to use.
struct CpuVariant {
  std::string name; // its --target-cpu name: "host", "x86-64-v3", "znver4"
  std::vector<std::string> features;
  std::string object; // the archive entry holding it
  /// The memory requests of static size one call of its code makes (the
  /// manifest's "blocks"), which loading faults in (stockBlocks).
  std::vector<BlockStock> blocks;
};

/// The first of `variants` (an archive lists them best first) whose features
/// this CPU and OS all have, as glibc's hwcaps directories are searched.
/// When none qualifies, returns null and sets `error` to a message that
/// names what each one lacks and the flag that compiles for this machine.
///
/// KILN_CPU_DISABLE=avx512f,avx2 in the environment makes the runtime treat
/// those features as absent, to test an archive against an older CPU.
const CpuVariant *selectCpuVariant(const std::vector<CpuVariant> &variants,
                                   std::string &error);

} // namespace kiln

#endif // KILN_RUNTIME_CPUFEATURES_H
