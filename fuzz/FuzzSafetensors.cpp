//===- FuzzSafetensors.cpp - libFuzzer target: the safetensors reader -----===//
//
// `kiln compile --weights FILE` reads a safetensors file that came from
// anywhere. The reader must answer every file with weights or one message,
// never a crash or an allocation the header merely claims.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"
#include "codegen/archive/Weights.h"

#include <cstdlib>

using kiln::WeightData;
using kiln::WeightSpec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::fuzz::FuzzInput file(data, size);
  // The names the seeds use (fuzz/collect_seeds.py), so that a mutated
  // file can also match: a match is where the shape, dtype and data checks
  // run.
  static const std::vector<WeightSpec> expected = {
      {"fc.weight", "f32", {2, 3}, "fuzz:1:1"},
      {"fc.bias", "f32", {2}, "fuzz:2:1"},
      {"half", "f16", {4}, "fuzz:3:1"},
      {"flags", "bool", {3}, "fuzz:4:1"},
      {"steps", "i64", {}, "fuzz:5:1"},
  };
  std::vector<WeightData> out;
  std::string error = kiln::readSafetensors(file.path(), expected, out);
  if (error.empty() != (out.size() == expected.size()))
    std::abort(); // the contract: weights, or a message and no weights
  return 0;
}
