//===- ModelTestUtil.h - Archives from the real compiler for Model tests -===//
//
// The scripts the Model tests compile with KILN_TEST_KILN, the once-per-run
// archive cache, the corrupt_archive.py wrapper, and small helpers for
// loading, running and filling tensors, shared by ModelTest.cpp and
// ModelLoadTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TEST_UNIT_RUNTIME_MODELTESTUTIL_H
#define KILN_TEST_UNIT_RUNTIME_MODELTESTUTIL_H

#include "kiln/Model.h"
#include "PythonTestUtil.h"

#include <catch2/catch.hpp>

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#ifndef KILN_TEST_KILN
#error "KILN_TEST_KILN must name the kiln compiler binary (see test/CMakeLists.txt)"
#endif
#ifndef KILN_TEST_EXAMPLES
#error "KILN_TEST_EXAMPLES must name the source tree's examples/ directory (see test/CMakeLists.txt)"
#endif

namespace kiln::test {

//===----------------------------------------------------------------------===//
// The scripts, and archives compiled from them once per test run
//===----------------------------------------------------------------------===//

inline const char *const Header = "import torch\n"
                           "from torch import Tensor\n"
                           "from typing import List, Tuple\n"
                           "\n\n";

/// Signatures with symbols, static dims, several dtypes and Python scalars.
inline const char *const SigScript = R"(# kiln: x=f32[N], y=f32[N]
@torch.jit.script
def f(x: Tensor, y: Tensor) -> Tensor:
    return x * y + 1.0


# kiln: m=f32[B, 3], v=f64[4]
@torch.jit.script
def g(m: Tensor, v: Tensor, s: float, k: int, flag: bool) -> Tuple[Tensor, Tensor, int]:
    return m * s, v + 1.0, k + 1
)";

/// Run-time checks that fail: a broadcast of two unrelated dynamic dims, an
/// index out of range, and the host list functions' shape checks.
inline const char *const FailScript = R"(# kiln: x=f32[N], y=f32[M]
@torch.jit.script
def add(x: Tensor, y: Tensor) -> Tensor:
    return x + y


# kiln: x=f32[N]
@torch.jit.script
def pick(x: Tensor, i: int) -> Tensor:
    return x[i]


# kiln: x=f32[N], y=f32[M]
@torch.jit.script
def stk(x: Tensor, y: Tensor) -> Tensor:
    return torch.stack([x, y])


# kiln: x=f32[N, K], y=f32[M, L]
@torch.jit.script
def cat(x: Tensor, y: Tensor) -> Tensor:
    return torch.cat([x, y])
)";

/// A loop whose trip count is an input, so that a call takes a while; and
/// an entry that fails on demand, to interleave errors with good runs.
inline const char *const LoopScript = R"(# kiln: x=f32[N]
@torch.jit.script
def work(x: Tensor, n: int) -> Tensor:
    y = x
    for i in range(n):
        y = torch.tanh(y * 1.5 + float(i) * 0.001)
    return y


# kiln: x=f32[N], y=f32[M]
@torch.jit.script
def add(x: Tensor, y: Tensor) -> Tensor:
    return x + y
)";

/// Results that could alias an input, or each other.
inline const char *const AliasScript = R"(# kiln: x=f32[N]
@torch.jit.script
def ident(x: Tensor) -> Tensor:
    return x


# kiln: x=f32[N]
@torch.jit.script
def both(x: Tensor) -> Tuple[Tensor, Tensor]:
    y = x + 1.0
    return y, y
)";

struct Command {
  int status = -1;
  std::string output;
};

inline Command runCommand(const std::string &command) {
  Command result;
  std::FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    result.output.append(buffer, got);
  result.status = pclose(pipe);
  return result;
}

/// The scratch directory every archive of this test run lives in.
inline const TempDir &scratch() {
  static TempDir dir;
  return dir;
}

/// Compiles `script` (after the common imports) as NAME.py into NAME.kiln,
/// with the extra `kiln compile` flags, once per test run, and returns the
/// archive's path.
inline const std::string &archive(const std::string &name, const char *script,
                           const std::string &flags = "") {
  static std::map<std::string, std::string> compiled;
  auto it = compiled.find(name);
  if (it != compiled.end())
    return it->second;
  std::string source = scratch() / (name + ".py");
  std::string out = scratch() / (name + ".kiln");
  writeFile(source, std::string(Header) + script);
  Command compile = runCommand(std::string(KILN_TEST_KILN) + " compile " +
                               source + " -o " + out + " " + flags);
  INFO(compile.output);
  REQUIRE(compile.status == 0);
  return compiled[name] = out;
}

/// Writes a damaged copy of `in` with test/Inputs/corrupt_archive.py.
inline std::string corrupt(const std::string &mode, const std::string &in,
                    const std::string &out, const std::string &args) {
  Command command = runCommand(
      std::string(KILN_TEST_PYTHON) + " " + KILN_TEST_EXAMPLES +
      "/../test/Inputs/corrupt_archive.py " + mode + " " + in + " " + out +
      " " + args);
  INFO(command.output);
  REQUIRE(command.status == 0);
  return out;
}

inline Model loadOk(const std::string &path,
                    const LoadOptions &options = {}) {
  Result<Model> model = Model::load(path, options);
  INFO(path << ": " << (model ? "" : model.error().message));
  REQUIRE(model.ok());
  return std::move(model).value();
}

inline std::string loadError(const std::string &path) {
  Result<Model> model = Model::load(path);
  REQUIRE_FALSE(model.ok());
  return model.error().message;
}

/// The entry `name` of `model`, looked up once, as an app on a hot path
/// holds it.
inline Function functionOf(const Model &model, const char *name) {
  Result<Function> fn = model.function(name);
  INFO(name << ": " << (fn ? "" : fn.error().message));
  REQUIRE(fn.ok());
  return std::move(fn).value();
}

inline std::vector<Tensor> runOk(const Model &model, std::string_view entry,
                          const std::vector<Tensor> &inputs) {
  Result<std::vector<Tensor>> outputs = model.run(entry, inputs);
  INFO(entry << ": " << (outputs ? "" : outputs.error().message));
  REQUIRE(outputs.ok());
  return std::move(outputs).value();
}

inline std::string runError(const Model &model, std::string_view entry,
                     const std::vector<Tensor> &inputs) {
  Result<std::vector<Tensor>> outputs = model.run(entry, inputs);
  REQUIRE_FALSE(outputs.ok());
  return outputs.error().message;
}

template <typename T>
inline Tensor filled(DType dtype, std::vector<int64_t> shape, std::vector<T> values) {
  Tensor tensor = Tensor::zeros(dtype, std::move(shape));
  REQUIRE(tensor.nbytes() == values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(tensor.data(), values.data(), tensor.nbytes());
  return tensor;
}

template <typename T> inline Tensor scalar(DType dtype, T value) {
  return filled<T>(dtype, {}, {value});
}

template <typename T> inline std::vector<T> valuesOf(const Tensor &tensor) {
  REQUIRE(tensor.nbytes() == static_cast<size_t>(tensor.numel()) * sizeof(T));
  const T *data = tensor.data<T>();
  return std::vector<T>(data, data + tensor.numel());
}

/// Dyadic values with few significant bits: their products and sums are
/// exact in f32, so the expected results do not depend on FMA contraction.
inline std::vector<float> ramp(int64_t n, float start, float step) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    out[static_cast<size_t>(i)] = start + step * static_cast<float>(i % 64);
  return out;
}

/// Where archive(NAME, ...) wrote NAME.py; run-time errors start with it.
inline std::string scriptPath(const std::string &name) {
  return scratch() / (name + ".py");
}

/// Bytes glibc's malloc has handed out and not yet taken back. (Under a
/// sanitizer, whose allocator mallinfo2 does not see, this is always 0 and
/// LeakSanitizer does the job instead.)
inline size_t heapInUse() { return mallinfo2().uordblks; }

} // namespace kiln::test

#endif // KILN_TEST_UNIT_RUNTIME_MODELTESTUTIL_H
