//===- OptionalInputTest.cpp - Optional[Tensor] inputs of Model::run ------===//
//
// An entry point's Optional[Tensor] input takes a tensor or Tensor::none(),
// and trailing optional inputs may be left out. Compiled with the real
// compiler (ModelTestUtil.h); values are small dyadic numbers, so every
// result is exact.
//
//===----------------------------------------------------------------------===//

#include "ModelTestUtil.h"

using namespace kiln;
using namespace kiln::test;
using Catch::Matchers::Contains;

namespace {

const char *const OptionalScript = R"(from typing import Optional


# kiln: x=f32[N], b=f32[N]?, s=f32[2]
@torch.jit.script
def opt(x: Tensor, b: Optional[Tensor], s: Optional[Tensor] = None) -> Tensor:
    y = x * 2.0
    if b is not None:
        y = y + b
    if s is None:
        return y
    return y * s[1]
)";

} // namespace

TEST_CASE("entries() mark Optional[Tensor] inputs", "[model][optional]") {
  Model model = loadOk(archive("optional", OptionalScript));
  const EntryInfo *entry = model.entry("opt");
  REQUIRE(entry);
  REQUIRE(entry->args.size() == 3);
  CHECK_FALSE(entry->args[0].optional);
  CHECK(entry->args[1].optional);
  CHECK(entry->args[1].dims[0].symbol == "N");
  CHECK(entry->args[2].optional);
  CHECK(entry->args[2].dims[0].size == 2);
}

TEST_CASE("run takes a tensor or Tensor::none() for an optional input",
          "[model][optional]") {
  Model model = loadOk(archive("optional", OptionalScript));
  Tensor x = filled<float>(DType::F32, {3}, {1.0f, 2.0f, 3.0f});
  Tensor b = filled<float>(DType::F32, {3}, {0.5f, 0.25f, 0.125f});
  Tensor s = filled<float>(DType::F32, {2}, {7.0f, 4.0f});
  Tensor none = Tensor::none();
  CHECK(none.isNone());
  CHECK_FALSE(Tensor().isNone());
  CHECK(none.numel() == 0);

  CHECK(valuesOf<float>(runOk(model, "opt", {x, b, s})[0]) ==
        std::vector<float>{10.0f, 17.0f, 24.5f});
  CHECK(valuesOf<float>(runOk(model, "opt", {x, none, s})[0]) ==
        std::vector<float>{8.0f, 16.0f, 24.0f});
  CHECK(valuesOf<float>(runOk(model, "opt", {x, b, none})[0]) ==
        std::vector<float>{2.5f, 4.25f, 6.125f});
  CHECK(valuesOf<float>(runOk(model, "opt", {x, none, none})[0]) ==
        std::vector<float>{2.0f, 4.0f, 6.0f});
  // Trailing optional inputs may be left out, as Python's defaults.
  CHECK(valuesOf<float>(runOk(model, "opt", {x, b})[0]) ==
        std::vector<float>{2.5f, 4.25f, 6.125f});
  CHECK(valuesOf<float>(runOk(model, "opt", {x})[0]) ==
        std::vector<float>{2.0f, 4.0f, 6.0f});
  // An absent input binds no dim symbol: x alone decides N.
  Tensor x5 = filled<float>(DType::F32, {5}, {1, 1, 1, 1, 1});
  CHECK(runOk(model, "opt", {x5, none})[0].shape() ==
        std::vector<int64_t>{5});
}

TEST_CASE("an optional input given a tensor is checked as a required one",
          "[model][optional]") {
  Model model = loadOk(archive("optional", OptionalScript));
  Tensor x = filled<float>(DType::F32, {3}, {1.0f, 2.0f, 3.0f});
  Tensor b4 = filled<float>(DType::F32, {4}, {1, 2, 3, 4});
  Tensor bi = filled<int64_t>(DType::I64, {3}, {1, 2, 3});
  Tensor s3 = filled<float>(DType::F32, {3}, {1, 2, 3});
  CHECK(runError(model, "opt", {x, b4}) ==
        "input 'b' of 'opt' has N = 4 in dim 0, but input 'x' has N = 3");
  CHECK(runError(model, "opt", {x, bi}) ==
        "input 'b' of 'opt' must be f32, got i64");
  CHECK_THAT(runError(model, "opt", {x, Tensor::none(), s3}),
             Contains("input 's' of 'opt' must have shape [2]"));
}

TEST_CASE("None for a required input is refused, naming it",
          "[model][optional]") {
  Model model = loadOk(archive("optional", OptionalScript));
  Result<std::vector<Tensor>> out =
      model.run("opt", {Tensor::none(), Tensor::none()});
  REQUIRE_FALSE(out.ok());
  CHECK(out.error().kind == ErrorKind::InvalidArgument);
  CHECK(out.error().message ==
        "input 'x' of 'opt' is required, but got None (only an "
        "Optional input may be None)");
  CHECK(runError(model, "opt", {}) ==
        "'opt' takes 1 to 3 inputs (x, b (optional), s (optional)), got 0");
  // A default-constructed Tensor is an empty f32[0] tensor, not None.
  CHECK(runOk(model, "opt", {Tensor()})[0].shape() ==
        std::vector<int64_t>{0});
}
