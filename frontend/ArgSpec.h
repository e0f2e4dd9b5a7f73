//===- ArgSpec.h - Tensor argument specs ----------------------------------===//
//
// The rank, dtype and (possibly symbolic) sizes of a tensor argument, written
// `x=f32[B,784]`. They come from `--arg` on the command line or from a
// `# kiln: x=f32[B,784], h=f32[B,20]` comment above the function.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_ARGSPEC_H
#define KILN_FRONTEND_ARGSPEC_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {

enum class DType { F32, F16, BF16, F64, I32, I64, Bool };
/// "f32", "f16", "bf16", "f64", "i32", "i64", "bool".
const char *spell(DType dtype);
/// Accepts the short names above and float32, float16, bfloat16, float64,
/// int32, int64.
std::optional<DType> parseDType(std::string_view text);

/// A static size, or a symbolic one named by `symbol` (then size is -1).
struct SpecDim {
  int64_t size = -1;
  std::string symbol;
  bool isSymbolic() const { return size < 0; }
};

struct ArgSpec {
  /// `--arg forward.x=...` applies to entry point `forward` only; empty, the
  /// spec applies to every entry point with a parameter `name`.
  std::string entry;
  std::string name;
  DType dtype = DType::F32;
  std::vector<SpecDim> dims; // empty for a 0-d tensor
  /// Written `x=f32[N]?`: the input may be None. It must agree with the
  /// parameter's annotation (Optional[Tensor]), which alone decides; the
  /// mark is there so that a spec reads like the signature kiln inspect
  /// prints.
  bool optional = false;
  /// Written `mode=str:relu`: the value of a `str` parameter, which the
  /// entry point is compiled for (no tensor part; the text after "str:",
  /// as is). Unset for a tensor spec.
  std::optional<std::string> str;
  /// Written `mode=str` (no value): a str parameter given at run time.
  bool runtimeStr = false;
  /// Written `xs=[f32[B,3], f32[B,3]]` or `hc=(f32[B,H], f32[B,H])`: a
  /// List or Tuple parameter whose length is fixed at compile time, each
  /// element its own spec (with no name) and its own run-time input. The
  /// annotation, not the bracket, says list or tuple. `sizes=int[3]` is
  /// short for `[int, int, int]`.
  bool isContainer = false;
  bool parenthesized = false; // written with ( ), printed back so
  std::vector<ArgSpec> elems;
  /// A container's element written `int`, `float` or `bool`: a run-time
  /// Python scalar. Empty otherwise.
  std::string scalar;

  bool isTensor() const {
    return !str && !runtimeStr && !isContainer && scalar.empty();
  }
};

/// A value or an error message (lower case, no trailing period).
template <typename T> struct SpecResult {
  T value{};
  std::string error;
  bool ok() const { return error.empty(); }
};

/// Parses one spec such as "x=f32[B,784]", "s=i64[]", "m=f32[T,T]?",
/// "mode=str:relu", "mode=str", "xs=[f32[B,3], f32[B,3]]", "hc=(f32[B,H],
/// int)" or "sizes=int[3]".
SpecResult<ArgSpec> parseArgSpec(std::string_view text);
/// Parses "x=f32[B,784], h=f32[B,20]": specs separated by commas outside
/// brackets and parentheses. Stops at the first bad one.
SpecResult<std::vector<ArgSpec>> parseArgSpecList(std::string_view text);

/// "x=f32[B,784]".
std::string printArgSpec(const ArgSpec &spec);
/// "x=f32[B,784], h=f32[B,20]".
std::string printArgSpecList(const std::vector<ArgSpec> &specs);

} // namespace kiln

#endif // KILN_FRONTEND_ARGSPEC_H
