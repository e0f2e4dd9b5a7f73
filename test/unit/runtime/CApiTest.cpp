//===- CApiTest.cpp - The C API (kiln/kiln.h) -----------------------------===//
//
// What test/runtime-c/run_archive.c cannot reach from a single archive:
// every status code, NULL handles everywhere, the tensor constructors'
// refusals, a run-time error raised in compiled code, several outputs of
// which some are the caller's, scalar inputs, and one model run from
// several threads at once. Archives come from KILN_TEST_KILN, as in
// ModelTest.
//
//===----------------------------------------------------------------------===//

#include "PythonTestUtil.h"
#include "kiln/kiln.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#ifndef KILN_TEST_KILN
#error                                                                         \
    "KILN_TEST_KILN must name the kiln compiler binary (see test/CMakeLists.txt)"
#endif

// TSan's allocator aborts on a huge request instead of failing it.
#if defined(__SANITIZE_THREAD__)
#define KILN_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KILN_TEST_TSAN 1
#endif
#endif

using namespace kiln::test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const char *const Script = R"(import torch
from torch import Tensor
from typing import Tuple


# kiln: x=f32[N], y=f32[M]
@torch.jit.script
def add(x: Tensor, y: Tensor) -> Tensor:
    return x + y


# kiln: m=f32[B, 3]
@torch.jit.script
def two(m: Tensor, s: float) -> Tuple[Tensor, Tensor]:
    return m * s, m + 1.0
)";

/// The archive compiled from Script, once per test run.
const std::string &archive() {
  static TempDir dir;
  static std::string path;
  if (!path.empty())
    return path;
  writeFile(dir / "capi.py", Script);
  std::string command = std::string(KILN_TEST_KILN) + " compile " +
                        (dir / "capi.py") + " -o " + (dir / "capi.kiln") +
                        " 2>&1";
  std::FILE *pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::string output;
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.append(buffer, got);
  INFO(output);
  REQUIRE(pclose(pipe) == 0);
  return path = dir / "capi.kiln";
}

/// Owns a status for the duration of a check.
struct Status {
  explicit Status(kiln_status *status) : status(status) {}
  ~Status() { kiln_status_free(status); }
  Status(const Status &) = delete;
  Status &operator=(const Status &) = delete;
  kiln_status_code code() const { return kiln_status_get_code(status); }
  std::string message() const { return kiln_status_message(status); }
  kiln_status *status;
};

struct ModelDeleter {
  void operator()(kiln_model *model) const { kiln_model_free(model); }
};
struct TensorDeleter {
  void operator()(kiln_tensor *tensor) const { kiln_tensor_free(tensor); }
};
using ModelPtr = std::unique_ptr<kiln_model, ModelDeleter>;
using TensorPtr = std::unique_ptr<kiln_tensor, TensorDeleter>;

ModelPtr loadOk() {
  kiln_model *model = nullptr;
  Status status(kiln_model_load(archive().c_str(), &model));
  INFO(status.message());
  REQUIRE(status.status == nullptr);
  return ModelPtr(model);
}

TensorPtr wrap(std::vector<float> &data, std::vector<int64_t> shape) {
  kiln_tensor *tensor = nullptr;
  Status status(kiln_tensor_wrap(KILN_F32, shape.data(), shape.size(),
                                 data.data(), data.size() * sizeof(float),
                                 &tensor));
  REQUIRE(status.status == nullptr);
  return TensorPtr(tensor);
}

/// A Python float: an f64 tensor of rank 0.
TensorPtr scalar(double &value) {
  kiln_tensor *tensor = nullptr;
  Status status(
      kiln_tensor_wrap(KILN_F64, nullptr, 0, &value, sizeof value, &tensor));
  REQUIRE(status.status == nullptr);
  return TensorPtr(tensor);
}

std::vector<float> values(const kiln_tensor *tensor) {
  const auto *data = static_cast<const float *>(kiln_tensor_const_data(tensor));
  return {data, data + kiln_tensor_element_count(tensor)};
}

} // namespace

TEST_CASE("C API: versions", "[capi]") {
  CHECK(kiln_c_api_version() == KILN_C_API_VERSION);
  CHECK(std::count(kiln_version(), kiln_version() + std::strlen(kiln_version()),
                   '.') == 2);
#ifdef KILN_VERSION_STRING
  CHECK(std::string(kiln_version()) == KILN_VERSION_STRING); // kiln --version
#endif
}

TEST_CASE("C API: a NULL status is success, and every code has a name",
          "[capi]") {
  CHECK(kiln_status_get_code(nullptr) == KILN_STATUS_OK);
  CHECK(std::string(kiln_status_message(nullptr)).empty());
  kiln_status_free(nullptr);
  std::set<std::string> names;
  for (int code = KILN_STATUS_OK; code <= KILN_STATUS_UNSUPPORTED; ++code)
    names.insert(kiln_status_code_name(static_cast<kiln_status_code>(code)));
  CHECK(names.size() == size_t(KILN_STATUS_UNSUPPORTED) + 1);
  CHECK(names.count("KILN_STATUS_UNKNOWN") == 0);
  CHECK(std::string(kiln_status_code_name(static_cast<kiln_status_code>(99))) ==
        "KILN_STATUS_UNKNOWN");
}

TEST_CASE("C API: NULL handles get defaults, never a crash", "[capi]") {
  kiln_model_free(nullptr);
  kiln_tensor_free(nullptr);
  CHECK(kiln_model_entry_count(nullptr) == 0);
  CHECK(kiln_model_entry(nullptr, 0) == nullptr);
  CHECK(kiln_entry_name(nullptr) == nullptr);
  CHECK(kiln_entry_input_count(nullptr) == 0);
  CHECK(kiln_entry_output_count(nullptr) == 0);
  CHECK(kiln_entry_input(nullptr, 0) == nullptr);
  CHECK(kiln_entry_output(nullptr, 0) == nullptr);
  CHECK(kiln_entry_find_input(nullptr, "x") == -1);
  CHECK(kiln_entry_find_output(nullptr, "result0") == -1);
  CHECK(kiln_value_name(nullptr) == nullptr);
  CHECK(kiln_value_rank(nullptr) == 0);
  CHECK(kiln_value_dim(nullptr, 0) == -1);
  CHECK(kiln_value_dim_symbol(nullptr, 0) == nullptr);
  CHECK(kiln_tensor_rank(nullptr) == 0);
  CHECK(kiln_tensor_shape(nullptr) == nullptr);
  CHECK(kiln_tensor_data(nullptr) == nullptr);
  CHECK(kiln_tensor_const_data(nullptr) == nullptr);
  CHECK(kiln_tensor_element_count(nullptr) == 0);
  CHECK(kiln_tensor_byte_size(nullptr) == 0);
  CHECK(kiln_tensor_capacity(nullptr) == 0);

  // Every fallible call refuses a NULL it needs, by name.
  kiln_model *model = nullptr;
  kiln_tensor *tensor = nullptr;
  const kiln_entry_point *entry = nullptr;
  int64_t dims[] = {2};
  auto refused = [](kiln_status *raw, const std::string &message) {
    Status status(raw);
    CHECK(status.code() == KILN_STATUS_INVALID_ARGUMENT);
    CHECK(status.message() == message);
  };
  refused(kiln_model_load(nullptr, &model), "path is NULL");
  refused(kiln_model_load(archive().c_str(), nullptr), "out is NULL");
  refused(kiln_model_load_from_memory(nullptr, 10, &model), "data is NULL");
  refused(kiln_model_find_entry(nullptr, "add", &entry), "model is NULL");
  refused(kiln_tensor_create(KILN_F32, dims, 1, nullptr), "out is NULL");
  refused(kiln_tensor_create(KILN_F32, nullptr, 1, &tensor),
          "shape is NULL, rank is 1");
  refused(kiln_model_run(nullptr, "add", nullptr, 0, nullptr, 0),
          "model is NULL");
  ModelPtr loaded = loadOk();
  refused(kiln_model_find_entry(loaded.get(), nullptr, &entry), "name is NULL");
  refused(kiln_model_run(loaded.get(), nullptr, nullptr, 0, nullptr, 0),
          "entry name is NULL");
  refused(kiln_model_run(loaded.get(), "add", nullptr, 2, nullptr, 1),
          "inputs is NULL");
  CHECK(model == nullptr);
  CHECK(tensor == nullptr);
  CHECK(entry == nullptr);
}

TEST_CASE("C API: tensors", "[capi]") {
  SECTION("create: zero-filled, aligned, owning") {
    int64_t dims[] = {2, 3};
    kiln_tensor *raw = nullptr;
    Status status(kiln_tensor_create(KILN_I64, dims, 2, &raw));
    REQUIRE(status.status == nullptr);
    TensorPtr tensor(raw);
    CHECK(kiln_tensor_dtype(raw) == KILN_I64);
    CHECK(kiln_tensor_rank(raw) == 2);
    CHECK(kiln_tensor_shape(raw)[1] == 3);
    CHECK(kiln_tensor_element_count(raw) == 6);
    CHECK(kiln_tensor_byte_size(raw) == 48);
    CHECK(kiln_tensor_capacity(raw) == 48);
    CHECK(reinterpret_cast<uintptr_t>(kiln_tensor_data(raw)) % 64 == 0);
    const auto *data =
        static_cast<const int64_t *>(kiln_tensor_const_data(raw));
    for (int i = 0; i < 6; ++i)
      CHECK(data[i] == 0);
  }
  SECTION("a rank-0 tensor has one element") {
    kiln_tensor *raw = nullptr;
    Status status(kiln_tensor_create(KILN_BOOL, nullptr, 0, &raw));
    REQUIRE(status.status == nullptr);
    TensorPtr tensor(raw);
    CHECK(kiln_tensor_element_count(raw) == 1);
    CHECK(kiln_tensor_byte_size(raw) == 1);
  }
  SECTION("shapes no tensor can have") {
    kiln_tensor *raw = nullptr;
    int64_t negative[] = {2, -1};
    Status neg(kiln_tensor_create(KILN_F32, negative, 2, &raw));
    CHECK(neg.code() == KILN_STATUS_INVALID_ARGUMENT);
    CHECK(neg.message() == "shape [2, -1] has a negative dim");
    int64_t huge[] = {int64_t(1) << 40, int64_t(1) << 10};
    Status big(kiln_tensor_create(KILN_F32, huge, 2, &raw));
    CHECK(big.code() == KILN_STATUS_INVALID_ARGUMENT);
    CHECK_THAT(big.message(), Contains("spans more than 2^47 bytes"));
    Status dtype(kiln_tensor_create(static_cast<kiln_dtype>(7), huge, 0, &raw));
    CHECK(dtype.code() == KILN_STATUS_INVALID_ARGUMENT);
    CHECK(dtype.message() == "unknown dtype 7");
    std::vector<int64_t> deep(KILN_MAX_RANK + 1, 1);
    Status rank(kiln_tensor_create(KILN_F32, deep.data(), deep.size(), &raw));
    CHECK(rank.code() == KILN_STATUS_INVALID_ARGUMENT);
    CHECK(raw == nullptr);
  }
#ifndef KILN_TEST_TSAN
  SECTION("running out of memory is a status") {
    kiln_tensor *raw = nullptr;
    int64_t dims[] = {int64_t(1) << 44}; // 2^46 bytes: within the limit
    Status status(kiln_tensor_create(KILN_F32, dims, 1, &raw));
    CHECK(status.code() == KILN_STATUS_OUT_OF_MEMORY);
    CHECK(status.message() == "out of memory");
    CHECK(raw == nullptr);
  }
#endif
  SECTION("wrap borrows, and refuses a buffer too small") {
    std::vector<float> data(6, 1.5f);
    int64_t dims[] = {2, 3};
    kiln_tensor *raw = nullptr;
    Status small(kiln_tensor_wrap(KILN_F32, dims, 2, data.data(), 20, &raw));
    CHECK(small.code() == KILN_STATUS_BUFFER_TOO_SMALL);
    CHECK(small.message() ==
          "a f32[2, 3] tensor needs 24 bytes, but the buffer holds 20");
    Status null(kiln_tensor_wrap(KILN_F32, dims, 2, nullptr, 24, &raw));
    CHECK(null.code() == KILN_STATUS_INVALID_ARGUMENT);
    CHECK(raw == nullptr);
    int64_t empty[] = {0, 3};
    Status none(kiln_tensor_wrap(KILN_F32, empty, 2, nullptr, 0, &raw));
    CHECK(none.status == nullptr);
    TensorPtr emptyTensor(raw);
    Status ok(kiln_tensor_wrap(KILN_F32, dims, 2, data.data(), 24, &raw));
    REQUIRE(ok.status == nullptr);
    TensorPtr tensor(raw);
    CHECK(kiln_tensor_data(raw) == data.data());
  }
  CHECK(kiln_dtype_size(KILN_BF16) == 2);
  CHECK(std::string(kiln_dtype_name(KILN_BOOL)) == "bool");
  CHECK(kiln_dtype_name(static_cast<kiln_dtype>(-1)) == nullptr);
  CHECK(kiln_dtype_size(static_cast<kiln_dtype>(42)) == 0);
}

TEST_CASE("C API: loading refuses with the right code", "[capi]") {
  kiln_model *model = nullptr;
  TempDir dir;
  Status missing(kiln_model_load((dir / "nothere.kiln").c_str(), &model));
  CHECK(missing.code() == KILN_STATUS_IO_ERROR);
  CHECK(missing.message() ==
        dir / "nothere.kiln: cannot open: no such file or directory");
  Status directory(kiln_model_load(dir.path().c_str(), &model));
  CHECK(directory.code() == KILN_STATUS_IO_ERROR);
  CHECK_THAT(directory.message(), Contains("not a regular file"));
  writeFile(dir / "junk.kiln", "PK but not really");
  Status junk(kiln_model_load((dir / "junk.kiln").c_str(), &model));
  CHECK(junk.code() == KILN_STATUS_INVALID_ARCHIVE);
  CHECK_THAT(junk.message(), StartsWith(dir / "junk.kiln: "));
  Status empty(kiln_model_load_from_memory("", 0, &model));
  CHECK(empty.code() == KILN_STATUS_INVALID_ARCHIVE);
  CHECK(empty.message() ==
        "<memory>: truncated or not a zip archive: the file is empty");
  // A truncated copy of a real archive, from memory.
  std::string bytes = readFile(archive());
  Status truncated(
      kiln_model_load_from_memory(bytes.data(), bytes.size() / 2, &model));
  CHECK(truncated.code() == KILN_STATUS_INVALID_ARCHIVE);
  // A sound archive whose code this CPU (as KILN_CPU_DISABLE makes it
  // look) cannot run, from a path and from memory.
  setenv("KILN_CPU_DISABLE", "sse3", 1);
  Status oldCpu(kiln_model_load(archive().c_str(), &model));
  Status oldCpuMemory(
      kiln_model_load_from_memory(bytes.data(), bytes.size(), &model));
  unsetenv("KILN_CPU_DISABLE");
  CHECK(oldCpu.code() == KILN_STATUS_UNSUPPORTED);
  CHECK_THAT(oldCpu.message(), Contains("needs sse3, which this CPU lacks; "
                                        "recompile with kiln compile "
                                        "--target-cpu=host"));
  CHECK(oldCpuMemory.code() == KILN_STATUS_UNSUPPORTED);
  CHECK(model == nullptr);
}

TEST_CASE("C API: the signature, from a model loaded from memory", "[capi]") {
  std::string bytes = readFile(archive());
  kiln_model *raw = nullptr;
  Status status(kiln_model_load_from_memory(bytes.data(), bytes.size(), &raw));
  REQUIRE(status.status == nullptr);
  ModelPtr model(raw);
  bytes.assign(bytes.size(), '\0'); // the model keeps its own copy
  REQUIRE(kiln_model_entry_count(raw) == 2);
  CHECK(kiln_model_entry(raw, 2) == nullptr);
  const kiln_entry_point *two = nullptr;
  Status found(kiln_model_find_entry(raw, "two", &two));
  REQUIRE(found.status == nullptr);
  CHECK(std::string(kiln_entry_name(two)) == "two");
  CHECK(kiln_entry_input_count(two) == 2);
  CHECK(kiln_entry_output_count(two) == 2);
  const kiln_value *m = kiln_entry_input(two, 0);
  CHECK(std::string(kiln_value_name(m)) == "m");
  CHECK(kiln_value_rank(m) == 2);
  CHECK(kiln_value_dim(m, 0) == -1);
  CHECK(std::string(kiln_value_dim_symbol(m, 0)) == "B");
  CHECK(kiln_value_dim(m, 1) == 3);
  CHECK(kiln_value_dim_symbol(m, 1) == nullptr);
  CHECK(kiln_value_dim(m, 2) == -1);
  const kiln_value *s = kiln_entry_input(two, 1);
  CHECK(kiln_value_rank(s) == 0);
  CHECK(kiln_value_dtype(s) == KILN_F64);
  CHECK(std::string(kiln_value_name(kiln_entry_output(two, 1))) == "result1");
  CHECK(kiln_entry_output(two, 2) == nullptr);
  // Inputs and outputs by name (C API version 4).
  CHECK(kiln_entry_find_input(two, "s") == 1);
  CHECK(kiln_entry_find_input(two, "result0") == -1);
  CHECK(kiln_entry_find_input(two, nullptr) == -1);
  CHECK(kiln_entry_find_output(two, "result1") == 1);
  CHECK(kiln_entry_find_output(two, "m") == -1);
  const kiln_entry_point *none = nullptr;
  Status missing(kiln_model_find_entry(raw, "forward", &none));
  CHECK(missing.code() == KILN_STATUS_NOT_FOUND);
  CHECK(missing.message() ==
        "no entry point 'forward' in this archive (it has: add, two)");

  // It runs, with the copy's code and data.
  std::vector<float> x = {1, 2, 3}, y = {10, 20, 30};
  TensorPtr tx = wrap(x, {3}), ty = wrap(y, {3});
  const kiln_tensor *inputs[] = {tx.get(), ty.get()};
  kiln_tensor *out = nullptr;
  Status ran(kiln_model_run(raw, "add", inputs, 2, &out, 1));
  REQUIRE(ran.status == nullptr);
  TensorPtr result(out);
  CHECK(values(out) == std::vector<float>{11, 22, 33});
}

TEST_CASE("C API: runs, with outputs of either kind", "[capi]") {
  ModelPtr model = loadOk();
  std::vector<float> m = {1, 2, 3, 4, 5, 6};
  double s = 2;
  TensorPtr tm = wrap(m, {2, 3}), ts = scalar(s);
  const kiln_tensor *inputs[] = {tm.get(), ts.get()};

  SECTION("one allocated, one the caller's") {
    std::vector<float> mine(8, -1);
    TensorPtr second = wrap(mine, {8});
    kiln_tensor *outputs[] = {nullptr, second.get()};
    Status status(kiln_model_run(model.get(), "two", inputs, 2, outputs, 2));
    INFO(status.message());
    REQUIRE(status.status == nullptr);
    TensorPtr first(outputs[0]);
    CHECK(outputs[1] == second.get());
    CHECK(values(outputs[0]) == std::vector<float>{2, 4, 6, 8, 10, 12});
    CHECK(kiln_tensor_rank(second.get()) == 2);
    CHECK(kiln_tensor_shape(second.get())[0] == 2);
    CHECK(kiln_tensor_shape(second.get())[1] == 3);
    CHECK(kiln_tensor_capacity(second.get()) == 32);
    CHECK(kiln_tensor_byte_size(second.get()) == 24);
    CHECK(std::vector<float>(mine.begin(), mine.begin() + 6) ==
          std::vector<float>{2, 3, 4, 5, 6, 7});
    CHECK(mine[6] == -1);
  }
  SECTION("a buffer too small: nothing is written") {
    std::vector<float> big(6, -1), tiny(5, -1);
    TensorPtr first = wrap(big, {6}), second = wrap(tiny, {5});
    kiln_tensor *outputs[] = {first.get(), second.get()};
    Status status(kiln_model_run(model.get(), "two", inputs, 2, outputs, 2));
    CHECK(status.code() == KILN_STATUS_BUFFER_TOO_SMALL);
    CHECK(status.message() ==
          "output 1 ('result1') of 'two' has shape [2, 3] (24 bytes), but "
          "the tensor given for it holds 20 bytes");
    CHECK(big == std::vector<float>(6, -1));
    CHECK(kiln_tensor_shape(first.get())[0] == 6);
  }
  SECTION("an output of the wrong dtype") {
    kiln_tensor *ints = nullptr;
    int64_t dims[] = {6};
    Status created(kiln_tensor_create(KILN_I32, dims, 1, &ints));
    TensorPtr owned(ints);
    kiln_tensor *outputs[] = {ints, nullptr};
    Status status(kiln_model_run(model.get(), "two", inputs, 2, outputs, 2));
    CHECK(status.code() == KILN_STATUS_INVALID_ARGUMENT);
    CHECK(status.message() == "output 0 ('result0') of 'two' is f32, but the "
                              "tensor given for it is i32");
    CHECK(outputs[1] == nullptr);
  }
  SECTION("the output count, and a NULL input") {
    kiln_tensor *outputs[] = {nullptr, nullptr, nullptr};
    Status count(kiln_model_run(model.get(), "two", inputs, 2, outputs, 3));
    CHECK(count.code() == KILN_STATUS_INVALID_ARGUMENT);
    CHECK(count.message() == "'two' has 2 outputs, got 3");
    const kiln_tensor *holes[] = {tm.get(), nullptr};
    Status hole(kiln_model_run(model.get(), "two", holes, 2, outputs, 2));
    CHECK(hole.code() == KILN_STATUS_INVALID_ARGUMENT);
    // NULL is None, which only an Optional[Tensor] input takes.
    CHECK(hole.message() == "input 's' of 'two' is required, but got None "
                            "(only an Optional input may be None)");
  }
}

TEST_CASE("C API: an error raised in compiled code", "[capi]") {
  ModelPtr model = loadOk();
  std::vector<float> x = {1, 2, 3}, y = {1, 2, 3, 4};
  TensorPtr tx = wrap(x, {3}), ty = wrap(y, {4});
  const kiln_tensor *inputs[] = {tx.get(), ty.get()};
  kiln_tensor *out = nullptr;
  Status status(kiln_model_run(model.get(), "add", inputs, 2, &out, 1));
  CHECK(status.code() == KILN_STATUS_RUNTIME_ERROR);
  CHECK_THAT(status.message(), Contains("capi.py:9:14: error: the size of "
                                        "tensor a (3) must match"));
  CHECK_THAT(status.message(), Contains("return x + y"));
  CHECK(out == nullptr);
  // The model stays usable.
  std::vector<float> z = {1, 1, 1};
  TensorPtr tz = wrap(z, {3});
  const kiln_tensor *good[] = {tx.get(), tz.get()};
  Status ok(kiln_model_run(model.get(), "add", good, 2, &out, 1));
  REQUIRE(ok.status == nullptr);
  TensorPtr result(out);
  CHECK(values(out) == std::vector<float>{2, 3, 4});
}

TEST_CASE("C API: one model, several threads", "[capi][threads]") {
  ModelPtr model = loadOk();
  const kiln_model *shared = model.get();
  constexpr int Threads = 4, Runs = 50;
  std::vector<int> wrong(Threads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < Threads; ++t)
    threads.emplace_back([&, t] {
      // Each thread its own length, so that mixed-up results would show.
      std::vector<float> x(t + 1, float(t)), y(t + 1, 1.0f), out(t + 1);
      int64_t dims[] = {t + 1};
      kiln_tensor *tx = nullptr, *ty = nullptr, *to = nullptr;
      kiln_status_free(
          kiln_tensor_wrap(KILN_F32, dims, 1, x.data(), x.size() * 4, &tx));
      kiln_status_free(
          kiln_tensor_wrap(KILN_F32, dims, 1, y.data(), y.size() * 4, &ty));
      kiln_status_free(
          kiln_tensor_wrap(KILN_F32, dims, 1, out.data(), out.size() * 4, &to));
      const kiln_tensor *inputs[] = {tx, ty};
      for (int run = 0; run < Runs; ++run) {
        kiln_tensor *allocated = nullptr;
        kiln_status *a =
            kiln_model_run(shared, "add", inputs, 2, &allocated, 1);
        kiln_status *b = kiln_model_run(shared, "add", inputs, 2, &to, 1);
        bool good = !a && !b && out == std::vector<float>(t + 1, t + 1.0f) &&
                    values(allocated) == out;
        wrong[t] += !good;
        kiln_status_free(a);
        kiln_status_free(b);
        kiln_tensor_free(allocated);
      }
      kiln_tensor_free(to);
      kiln_tensor_free(ty);
      kiln_tensor_free(tx);
    });
  for (std::thread &thread : threads)
    thread.join();
  CHECK(wrong == std::vector<int>(Threads, 0));
}
