//===- ResultBuffersTest.cpp - Function::run writes results in place -----===//
//
// Compiled code asks for the buffer of each result it returns whole
// through kiln_host_api.alloc_result, and Function::run lends its outputs
// there when it safely can (codegen/cpu/ResultBuffers.cpp,
// runtime/src/EntryCall.cpp). What shows the lending from outside is a
// call that fails after its result is computed: a lent output holds the
// result, written in place, while one that was not lent is left as it
// was, since results are copied only after a call succeeds.
//
//===----------------------------------------------------------------------===//
#include "ModelTestUtil.h"

#include <catch2/catch.hpp>

using namespace kiln;
using namespace kiln::test;

namespace {

// `y[n]` is checked after y is computed: n = 100 fails with y written.
// `t` transposes, so writing it in place over x would read overwritten
// elements.
const char *const Scripts = R"(# kiln: x=f32[64]
@torch.jit.script
def scaled(x: Tensor, n: int) -> Tuple[Tensor, Tensor]:
    y = x * 2.0
    return y, y[n]


# kiln: x=f32[64,64]
@torch.jit.script
def pair(x: Tensor) -> Tuple[Tensor, Tensor]:
    return x.t() * 2.0, x + 1.0


# kiln: x=f32[N]
@torch.jit.script
def scaled_n(x: Tensor, n: int) -> Tuple[Tensor, Tensor]:
    y = x * 2.0
    return y, y[n]


# kiln: x=f32[R,C]
@torch.jit.script
def scaled_rc(x: Tensor, n: int) -> Tuple[Tensor, Tensor]:
    y = x * 2.0
    return y, y[0, n]
)";

std::vector<float> times(const std::vector<float> &x, float k) {
  std::vector<float> out;
  for (float v : x)
    out.push_back(v * k);
  return out;
}

} // namespace

TEST_CASE("Function::run lends an output that is safe to write in place",
          "[result-buffers]") {
  Model model = loadOk(archive("result-buffers", Scripts));
  Function scaled = functionOf(model, "scaled");
  std::vector<float> x = ramp(64, -1.0f, 0.125f);
  Tensor n = scalar<int64_t>(DType::I64, 3);
  std::vector<Tensor> in = {Tensor::borrow(DType::F32, {64}, x.data()), n};

  // A good call: both results right.
  std::vector<Tensor> out = {Tensor::zeros(DType::F32, {64}),
                             Tensor::zeros(DType::F32, {})};
  REQUIRE(scaled.run(in, out).ok());
  CHECK(valuesOf<float>(out[0]) == times(x, 2.0f));
  CHECK(valuesOf<float>(out[1])[0] == 2.0f * x[3]);

  // A call that fails after computing y wrote y into its output.
  in[1] = scalar<int64_t>(DType::I64, 100);
  out = {Tensor::zeros(DType::F32, {64}), Tensor::zeros(DType::F32, {})};
  Result<void> failed = scaled.run(in, out);
  REQUIRE_FALSE(failed.ok());
  CHECK_THAT(failed.error().message,
             Catch::Matchers::Contains("index 100 is out of bounds"));
  CHECK(valuesOf<float>(out[0]) == times(x, 2.0f));

  SECTION("not an output that is not 64-byte aligned") {
    std::vector<float> storage(64 + 16 + 1, 0.0f);
    float *aligned = reinterpret_cast<float *>(
        (reinterpret_cast<uintptr_t>(storage.data()) + 63) / 64 * 64);
    out[0] = Tensor::borrow(DType::F32, {64}, aligned + 1);
    REQUIRE_FALSE(scaled.run(in, out).ok());
    CHECK(valuesOf<float>(out[0]) == std::vector<float>(64, 0.0f));
  }
  SECTION("not an output that overlaps an input") {
    std::vector<float> both(128, 0.0f);
    std::copy(x.begin(), x.end(), both.begin());
    Tensor shared = Tensor::borrow(DType::F32, {64}, both.data());
    std::vector<Tensor> aliased = {shared, in[1]};
    out[0] = shared;
    REQUIRE_FALSE(scaled.run(aliased, out).ok());
    CHECK(valuesOf<float>(out[0]) == x);
  }
}

TEST_CASE("Function::run stays right when outputs alias inputs or each other",
          "[result-buffers]") {
  Model model = loadOk(archive("result-buffers", Scripts));
  Function pair = functionOf(model, "pair");
  std::vector<float> x = ramp(64 * 64, -2.0f, 0.0625f);
  std::vector<float> transposed(x.size()), plusOne(x.size());
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      transposed[i * 64 + j] = 2.0f * x[j * 64 + i];
      plusOne[i * 64 + j] = x[i * 64 + j] + 1.0f;
    }

  SECTION("the transpose written over its own input") {
    Tensor input = Tensor::zeros(DType::F32, {64, 64});
    std::memcpy(input.data(), x.data(), input.nbytes());
    std::vector<Tensor> out = {input, Tensor::zeros(DType::F32, {64, 64})};
    REQUIRE(pair.run({input}, out).ok());
    CHECK(valuesOf<float>(out[0]) == transposed);
    CHECK(valuesOf<float>(out[1]) == plusOne);
  }
  SECTION("one tensor for both results: the last one written wins") {
    Tensor both = Tensor::zeros(DType::F32, {64, 64});
    std::vector<Tensor> out = {both, both};
    REQUIRE(pair.run({Tensor::borrow(DType::F32, {64, 64}, x.data())}, out)
                .ok());
    CHECK(valuesOf<float>(both) == plusOne);
  }
  SECTION("separate outputs, called again and again") {
    std::vector<Tensor> out = {Tensor::zeros(DType::F32, {64, 64}),
                               Tensor::zeros(DType::F32, {64, 64})};
    for (int call = 0; call < 3; ++call) {
      REQUIRE(pair.run({Tensor::borrow(DType::F32, {64, 64}, x.data())}, out)
                  .ok());
      CHECK(valuesOf<float>(out[0]) == transposed);
      CHECK(valuesOf<float>(out[1]) == plusOne);
    }
  }
}

TEST_CASE("an output is lent when its bytes fix its result's one unknown size",
          "[result-buffers]") {
  Model model = loadOk(archive("result-buffers", Scripts));
  std::vector<float> x = ramp(64, -1.0f, 0.125f);
  Tensor past = scalar<int64_t>(DType::I64, 100);

  // x[N]: the byte count fixes N, so the output is lent, and a call that
  // fails after computing y has written it.
  Function n = functionOf(model, "scaled_n");
  std::vector<Tensor> out = {Tensor::zeros(DType::F32, {64}),
                             Tensor::zeros(DType::F32, {})};
  REQUIRE_FALSE(
      n.run({Tensor::borrow(DType::F32, {64}, x.data()), past}, out).ok());
  CHECK(valuesOf<float>(out[0]) == times(x, 2.0f));

  // x[R, C]: 8 x 8 and 4 x 16 have the same bytes, so a [4, 16] output for
  // an [8, 8] result could be taken before the mismatch shows: it is never
  // lent, and the call's refusal leaves it alone.
  Function rc = functionOf(model, "scaled_rc");
  std::vector<Tensor> in = {Tensor::borrow(DType::F32, {8, 8}, x.data()),
                            scalar<int64_t>(DType::I64, 3)};
  out = {Tensor::zeros(DType::F32, {4, 16}), Tensor::zeros(DType::F32, {})};
  Result<void> mismatch = rc.run(in, out);
  REQUIRE_FALSE(mismatch.ok());
  CHECK_THAT(mismatch.error().message, Catch::Matchers::Contains("shape"));
  CHECK(valuesOf<float>(out[0]) == std::vector<float>(64, 0.0f));
  // Of the right shape it runs, and is right.
  out = {Tensor::zeros(DType::F32, {8, 8}), Tensor::zeros(DType::F32, {})};
  REQUIRE(rc.run(in, out).ok());
  CHECK(valuesOf<float>(out[0]) == times(x, 2.0f));
  CHECK(valuesOf<float>(out[1])[0] == 2.0f * x[3]);
}
