//===- WarmupTest.cpp - LoadOptions::warmup builds the primitives ---------===//
//
// A model loaded with a warm-up call at the shapes it will serve builds
// every oneDNN primitive at load: its first call builds none. Counted
// through the kernel library's plan cache (kernelPrimitivesBuilt).
//
//===----------------------------------------------------------------------===//
#include "ModelTestUtil.h"

#include "../../../runtime/src/KernelLibrary.h"

#include <catch2/catch.hpp>

using namespace kiln;
using namespace kiln::test;

namespace {

const char *const ConvAndLinear = R"(# kiln: x=f32[B,3,12,12], w=f32[8,3,3,3], v=f32[800,10]
@torch.jit.script
def features(x: Tensor, w: Tensor, v: Tensor) -> Tensor:
    y = torch.relu(torch.nn.functional.conv2d(x, w))
    return y.flatten(1) @ v
)";

Result<std::vector<Tensor>> callOnes(const Model &model, int64_t batch) {
  std::vector<Tensor> in = {Tensor::zeros(DType::F32, {batch, 3, 12, 12}),
                            Tensor::zeros(DType::F32, {8, 3, 3, 3}),
                            Tensor::zeros(DType::F32, {800, 10})};
  for (Tensor &t : in)
    std::fill(t.data<float>(), t.data<float>() + t.numel(), 1.0f);
  return model.run("features", in);
}

} // namespace

TEST_CASE("a warm load builds the primitives its first call needs",
          "[warmup]") {
  const std::string &path = archive("warmup_features", ConvAndLinear);
  LoadOptions options;
  options.warmup = true;
  options.warmupDims = {{"B", 5}};
  Result<Model> model = Model::load(path, options);
  REQUIRE(model.ok());
  uint64_t built = kernelPrimitivesBuilt();
  Result<std::vector<Tensor>> out = callOnes(*model, 5);
  REQUIRE(out.ok());
  CHECK(kernelPrimitivesBuilt() == built);
  // The result is the real one: every output is 3*3*3 ones summed, then
  // 800 of those.
  CHECK(out->at(0).data<float>()[0] == 27.0f * 800.0f);

  // Another batch size is a new shape: its first call builds plans, which
  // shows that the count sees them.
  REQUIRE(callOnes(*model, 6).ok());
  CHECK(kernelPrimitivesBuilt() > built);
}

TEST_CASE("a warm load needs every symbolic dim's size", "[warmup]") {
  LoadOptions options;
  options.warmup = true;
  Result<Model> model =
      Model::load(archive("warmup_features", ConvAndLinear), options);
  REQUIRE(!model.ok());
  CHECK(model.error().kind == ErrorKind::InvalidArgument);
  CHECK_THAT(model.error().message,
             Catch::Matchers::EndsWith(
                 "warm-up call of entry point 'features': input 'x' has dim "
                 "'B', whose size LoadOptions::warmupDims does not give"));
}
