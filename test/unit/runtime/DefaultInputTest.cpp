//===- DefaultInputTest.cpp - Defaults, Optional scalars, named results ---===//
//
// A scalar entry parameter with a Python default (`k: int = 2`) is in
// entries() with its value, and run() passes it for the input left out or
// given as Tensor::none(); an Optional scalar takes None too; a returned
// dict's results are named by its keys. Compiled with the real compiler
// (ModelTestUtil.h); values are small dyadic numbers, so results are exact.
//
//===----------------------------------------------------------------------===//

#include "ModelTestUtil.h"

using namespace kiln;
using namespace kiln::test;

namespace {

const char *const DefaultScript = R"(
# kiln: x=f32[N]
@torch.jit.script
def affine(x: Tensor, k: int = 2, shift: float = -0.5, neg: bool = False) -> Tensor:
    y = x * k + shift
    if neg:
        y = -y
    return y
)";

} // namespace

TEST_CASE("entries() give each input's default", "[model][defaults]") {
  Model model = loadOk(archive("defaults", DefaultScript));
  const EntryInfo *entry = model.entry("affine");
  REQUIRE(entry);
  REQUIRE(entry->args.size() == 4);
  CHECK_FALSE(entry->args[0].hasDefault());
  REQUIRE(entry->args[1].hasDefault());
  CHECK(entry->args[1].defaultValue.dtype() == DType::I64);
  CHECK(entry->args[1].defaultValue.rank() == 0);
  CHECK(*entry->args[1].defaultValue.data<int64_t>() == 2);
  REQUIRE(entry->args[2].hasDefault());
  CHECK(*entry->args[2].defaultValue.data<double>() == -0.5);
  REQUIRE(entry->args[3].hasDefault());
  CHECK(*entry->args[3].defaultValue.data<uint8_t>() == 0);
  CHECK_FALSE(entry->args[1].optional);
}

TEST_CASE("run passes the default of an input left out or None",
          "[model][defaults]") {
  Model model = loadOk(archive("defaults", DefaultScript));
  Tensor x = filled<float>(DType::F32, {3}, {1.0f, 2.0f, 3.0f});
  Tensor k3 = scalar<int64_t>(DType::I64, 3);
  Tensor yes = scalar<uint8_t>(DType::Bool, 1);
  Tensor none = Tensor::none();
  CHECK(valuesOf<float>(runOk(model, "affine", {x})[0]) ==
        std::vector<float>{1.5f, 3.5f, 5.5f});
  CHECK(valuesOf<float>(runOk(model, "affine", {x, k3})[0]) ==
        std::vector<float>{2.5f, 5.5f, 8.5f});
  CHECK(valuesOf<float>(runOk(model, "affine", {x, none, none, yes})[0]) ==
        std::vector<float>{-1.5f, -3.5f, -5.5f});
  CHECK(runError(model, "affine", {}) ==
        "'affine' takes 1 to 4 inputs (x, k (has a default), shift (has a "
        "default), neg (has a default)), got 0");
  CHECK(runError(model, "affine", {none}) ==
        "input 'x' of 'affine' is required, but got None (only an "
        "Optional input may be None)");
  // A given input is checked as always.
  CHECK(runError(model, "affine", {x, scalar<double>(DType::F64, 1.0)}) ==
        "input 'k' of 'affine' must be i64, got f64");
}

namespace {

const char *const OptionalScalarScript = R"(from typing import Optional


# kiln: x=f32[N]
@torch.jit.script
def shift_scale(x: Tensor, shift: Optional[int] = None,
                scale: Optional[float] = 1.5) -> Tensor:
    if shift is not None:
        x = x + shift
    if scale is not None:
        x = x * scale
    return x
)";

} // namespace

TEST_CASE("an Optional scalar takes a value, None, or its default",
          "[model][defaults][optional]") {
  Model model = loadOk(archive("optional-scalars", OptionalScalarScript));
  const EntryInfo *entry = model.entry("shift_scale");
  REQUIRE(entry);
  REQUIRE(entry->args.size() == 3);
  CHECK(entry->args[1].optional);
  CHECK(entry->args[1].scalar);
  CHECK_FALSE(entry->args[1].hasDefault());
  CHECK(entry->args[2].optional);
  REQUIRE(entry->args[2].hasDefault());
  CHECK(*entry->args[2].defaultValue.data<double>() == 1.5);

  Tensor x = filled<float>(DType::F32, {2}, {1.0f, 2.0f});
  Tensor two = scalar<int64_t>(DType::I64, 2);
  Tensor none = Tensor::none();
  // Left out, scale is 1.5; given as None, it is None.
  CHECK(valuesOf<float>(runOk(model, "shift_scale", {x})[0]) ==
        std::vector<float>{1.5f, 3.0f});
  CHECK(valuesOf<float>(runOk(model, "shift_scale", {x, two})[0]) ==
        std::vector<float>{4.5f, 6.0f});
  CHECK(valuesOf<float>(runOk(model, "shift_scale", {x, two, none})[0]) ==
        std::vector<float>{3.0f, 4.0f});
  CHECK(valuesOf<float>(runOk(model, "shift_scale", {x, none, none})[0]) ==
        std::vector<float>{1.0f, 2.0f});
  CHECK(runError(model, "shift_scale", {x, scalar<double>(DType::F64, 1.0)}) ==
        "input 'shift' of 'shift_scale' must be i64, got f64");
}

TEST_CASE("a dict's results are named by its keys", "[model][results]") {
  Model model = loadOk(archive("dict-results", R"(from typing import Dict


# kiln: x=f32[N]
@torch.jit.script
def heads(x: Tensor) -> Dict[str, Tensor]:
    return {"logits": x * 2.0, "hidden": x + 1.0}
)"));
  const EntryInfo *entry = model.entry("heads");
  REQUIRE(entry);
  REQUIRE(entry->results.size() == 2);
  CHECK(entry->results[0].name == "logits");
  CHECK(entry->results[1].name == "hidden");
  CHECK(entry->resultIndex("hidden") == 1);
  CHECK(entry->resultIndex("result0") == -1);
  std::vector<Tensor> out =
      runOk(model, "heads", {filled<float>(DType::F32, {2}, {1.0f, 2.0f})});
  CHECK(valuesOf<float>(out[entry->resultIndex("logits")]) ==
        std::vector<float>{2.0f, 4.0f});
  CHECK(valuesOf<float>(out[entry->resultIndex("hidden")]) ==
        std::vector<float>{2.0f, 3.0f});
}
