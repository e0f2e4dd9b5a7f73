//===- CpuFeatures.cpp - Which of the archive's code objects this CPU runs ===//
//
// Codegen compiles for the generic x86-64 model plus an explicit feature
// list (codegen/cpu/NativeCode.cpp holds the same names), so checking that
// list here is enough to rule out an illegal-instruction crash. An archive
// may hold several code objects, one per --target-cpu name; the runtime
// takes the first this CPU can run. AVX and
// AVX-512 also need the OS to save their registers, which XCR0 tells.
//
//===----------------------------------------------------------------------===//

#include "CpuFeatures.h"

#include <cpuid.h>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace kiln {
namespace {

struct Registers {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

Registers cpuid(unsigned leaf, unsigned subleaf) {
  Registers r;
  if (!__get_cpuid_count(leaf, subleaf, &r.eax, &r.ebx, &r.ecx, &r.edx))
    return {};
  return r;
}

uint64_t xcr0() {
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

bool bit(unsigned value, int index) { return (value >> index) & 1u; }

struct Check {
  const char *name;
  bool present;
};

/// What this CPU and OS support, read once per load.
std::vector<Check> readFeatures() {
  Registers l1 = cpuid(1, 0), l7 = cpuid(7, 0), l71 = cpuid(7, 1),
            ext = cpuid(0x80000001u, 0);
  bool osxsave = bit(l1.ecx, 27);
  uint64_t xcr = osxsave ? xcr0() : 0;
  bool avxState = (xcr & 0x6) == 0x6;
  bool avx512State = avxState && (xcr & 0xe0) == 0xe0;
  return {
      {"sse3", bit(l1.ecx, 0)},
      {"ssse3", bit(l1.ecx, 9)},
      {"sse4.1", bit(l1.ecx, 19)},
      {"sse4.2", bit(l1.ecx, 20)},
      {"popcnt", bit(l1.ecx, 23)},
      {"movbe", bit(l1.ecx, 22)},
      {"avx", bit(l1.ecx, 28) && avxState},
      {"fma", bit(l1.ecx, 12) && avxState},
      {"f16c", bit(l1.ecx, 29) && avxState},
      {"avx2", bit(l7.ebx, 5) && avxState},
      {"bmi", bit(l7.ebx, 3)},
      {"bmi2", bit(l7.ebx, 8)},
      {"lzcnt", bit(ext.ecx, 5)},
      {"avx512f", bit(l7.ebx, 16) && avx512State},
      {"avx512dq", bit(l7.ebx, 17) && avx512State},
      {"avx512cd", bit(l7.ebx, 28) && avx512State},
      {"avx512bw", bit(l7.ebx, 30) && avx512State},
      {"avx512vl", bit(l7.ebx, 31) && avx512State},
      {"avx512vnni", bit(l7.ecx, 11) && avx512State},
      {"avx512bf16", bit(l71.eax, 5) && avx512State},
  };
}

/// Returns 1 if present, 0 if absent, -1 if the name is unknown.
int hasFeature(const std::vector<Check> &checks, const std::string &name) {
  for (const Check &check : checks)
    if (name == check.name)
      return check.present ? 1 : 0;
  return -1;
}

bool disabledByEnvironment(const std::string &name) {
  const char *list = std::getenv("KILN_CPU_DISABLE");
  if (!list)
    return false;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ','))
    if (item == name)
      return true;
  return false;
}

/// "a, b, c".
std::string joined(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out;
}

} // namespace

const CpuVariant *selectCpuVariant(const std::vector<CpuVariant> &variants,
                                   std::string &error) {
  std::vector<Check> checks = readFeatures();
  std::string reasons;
  bool newerRuntime = false;
  for (const CpuVariant &variant : variants) {
    std::vector<std::string> missing, unknown;
    for (const std::string &feature : variant.features) {
      int present = hasFeature(checks, feature);
      if (present < 0)
        unknown.push_back(feature);
      else if (present == 0 || disabledByEnvironment(feature))
        missing.push_back(feature);
    }
    if (missing.empty() && unknown.empty())
      return &variant;
    newerRuntime |= !unknown.empty();
    reasons += reasons.empty() ? "" : "; ";
    reasons += variants.size() > 1 ? variant.name + " needs " : "";
    reasons += unknown.empty()
                   ? joined(missing) + ", which this CPU lacks"
                   : joined(unknown) + ", which this runtime cannot check";
  }
  error = (variants.size() > 1 ? "no code object of the archive runs on this "
                                 "CPU: "
                               : "the archive's code needs ") +
          reasons;
  error += newerRuntime ? "; use a newer kiln runtime, or recompile"
                        : "; recompile";
  error += " with kiln compile --target-cpu=host on this machine, or "
           "--target-cpu=x86-64, which runs on every x86-64 CPU (a list such "
           "as x86-64,x86-64-v3 keeps the faster code for the CPUs that have "
           "it)";
  return nullptr;
}

} // namespace kiln
