//===- Weights.h - Trained weights for an archive ----------------*- C++ -*-===//
//
// The compiler's side of weights: reading a safetensors file named by
// `--weights`, matching it to the parameters and buffers the module's
// __init__ declared, and making deterministic stand-ins for
// `--random-weights`. Kept apart from MLIR so that runtime tests can link it.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_ARCHIVE_WEIGHTS_H
#define KILN_CODEGEN_ARCHIVE_WEIGHTS_H

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// A weight the compiled module declares.
struct WeightSpec {
  std::string name;  // as in state_dict(): "conv1.weight"
  std::string dtype; // as the manifest spells it: "f32", "f16", "bf16", ...
  std::vector<int64_t> shape;
  std::string origin; // where __init__ declares it, "net.py:12:20"
  /// Other state_dict() names of the same tensor (tied weights: GPT's
  /// lm_head.weight is its wte.weight): a file may hold any of the names,
  /// each with the same dtype and shape.
  std::vector<std::string> aliases;
};

/// A weight's elements, dense row-major and little-endian.
struct WeightData {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;
  std::string bytes;
};

/// Reads the safetensors file at `path` and matches its tensors to
/// `expected` by name. On success returns an empty string and fills `out`
/// in the order of `expected`. Otherwise returns one message, starting with
/// the path, that lists every missing, unexpected, wrong-shape and
/// wrong-dtype tensor with what was expected and what was found, sorted by
/// name; a file that is not valid safetensors (truncated, bad header,
/// offsets outside the data or overlapping, a dtype other than F32, F16,
/// BF16, F64, I64, I32 and BOOL, a bool byte other than 0 or 1) is reported
/// as one "PATH: ..." message. Never throws; `out` is empty on failure.
std::string readSafetensors(const std::string &path,
                            const std::vector<WeightSpec> &expected,
                            std::vector<WeightData> &out);

/// Deterministic weights for testing, the same for the same seed on every
/// machine: floats uniform in +-1/sqrt(fan_in) as PyTorch initializes
/// layers (fan_in is size(1) times the receptive field for rank >= 2, the
/// size itself for rank 1 and 1 for rank 0; a "*bias" takes the fan_in of
/// its sibling "*weight" of rank >= 2, as nn.Linear and nn.Conv2d do),
/// except that 1-D tensors named "*weight" or "*running_var" are uniform in
/// [0.9, 1.1) so that norms stay well-conditioned; integer and bool buffers
/// are zero. Each tensor draws from its own stream, seeded by `seed` and its
/// name, so adding a weight leaves the others unchanged; f16 and bf16 values
/// are the f32 ones rounded to nearest even, as `.half()` would.
std::vector<WeightData> randomWeights(const std::vector<WeightSpec> &expected,
                                      uint64_t seed);

/// "f32[120, 400]": how weight reports print a tensor's type (the IR's
/// Tensor[f32, 120x400] is for values in a program).
std::string weightTypeText(const std::string &dtype,
                           const std::vector<int64_t> &shape);

/// randomWeights makes every value in memory, and the archive writer holds
/// them again; weights for tests never need more than this, in all.
constexpr uint64_t kMaxRandomWeightBytes = uint64_t(4) << 30;
/// "" when `expected` fits kMaxRandomWeightBytes, else an error naming the
/// largest weight (an nn.Linear(100000, 100000) alone is 40 GB).
std::string checkRandomWeightBudget(const std::vector<WeightSpec> &expected);

} // namespace kiln

#endif // KILN_CODEGEN_ARCHIVE_WEIGHTS_H
