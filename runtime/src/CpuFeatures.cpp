//===- CpuFeatures.cpp - Does this CPU run the archive's code? ------------===//
//
// Codegen compiles for the generic x86-64 model plus an explicit feature
// list (codegen/cpu/NativeCode.cpp holds the same names), so checking that
// list here is enough to rule out an illegal-instruction crash. AVX and
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

} // namespace

std::string checkCpuFeatures(const std::vector<std::string> &required) {
  std::vector<Check> checks = readFeatures();
  std::string missing, unknown;
  for (const std::string &feature : required) {
    int present = hasFeature(checks, feature);
    if (present < 0)
      unknown += (unknown.empty() ? "" : ", ") + feature;
    else if (present == 0 || disabledByEnvironment(feature))
      missing += (missing.empty() ? "" : ", ") + feature;
  }
  if (!unknown.empty())
    return "the archive's code needs CPU features this runtime cannot check "
           "(" + unknown + "); use a newer kiln runtime";
  if (!missing.empty())
    return "this CPU lacks " + missing +
           ", which the archive's code was compiled for; compile the model "
           "on (or for) this machine";
  return "";
}

} // namespace kiln
