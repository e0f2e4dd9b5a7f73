//===- CpuFeatures.h - Does this CPU run the archive's code? --------------===//
#ifndef KILN_RUNTIME_CPUFEATURES_H
#define KILN_RUNTIME_CPUFEATURES_H

#include <string>
#include <vector>

namespace kiln {

/// Checks the x86 features (LLVM spelling: "avx2", "avx512f", ...) that an
/// archive's code was compiled for against this CPU and OS. Returns an
/// empty string when all are present, else the message to refuse with.
///
/// KILN_CPU_DISABLE=avx512f,avx2 in the environment makes the runtime treat
/// those features as absent, to test an archive against an older CPU.
std::string checkCpuFeatures(const std::vector<std::string> &required);

} // namespace kiln

#endif // KILN_RUNTIME_CPUFEATURES_H
