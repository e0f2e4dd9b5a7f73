//===- PreparedCallsTest.cpp - static-shaped library calls ready at load --===//
//
// A model of static shapes has its products' and convolutions' oneDNN
// plans built and their weights packed while it loads (LoadOptions::
// prepare, runtime/src/PreparedCalls.cpp): its first call builds and packs
// nothing. Counted through the kernel library's statistics
// (kernelPrimitivesBuilt, kernelWeightsPacked). The results are those of
// the same archive loaded without preparing, whose first call does that
// work itself, bit for bit: the same plans run on the same packed layout.
//
//===----------------------------------------------------------------------===//
#include "ModelTestUtil.h"

#include "../../../runtime/src/BlockCache.h"
#include "../../../runtime/src/KernelLibrary.h"
#include "../../../runtime/src/PreparedCalls.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

using namespace kiln;
using namespace kiln::test;

namespace {

// A convolution whose weight oneDNN reads blocked (packed), then a Linear
// read transposed (packed) with its bias and tanh inside the product; at
// shapes no other test uses, since the plans are the process's.
const char *const StaticNet = R"(import torch.nn as nn


class StaticNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(5, 17, 3, bias=False)
        self.fc = nn.Linear(17 * 9 * 9, 11)

    # kiln: x=f32[3,5,11,11]
    def forward(self, x: Tensor) -> Tensor:
        return torch.tanh(self.fc(self.conv(x).flatten(1)))
)";

Tensor input() {
  Tensor x = Tensor::zeros(DType::F32, {3, 5, 11, 11});
  for (int64_t i = 0; i < x.numel(); ++i)
    x.data<float>()[i] = float(i % 7) * 0.25f - 0.75f;
  return x;
}

Model load(const std::string &path, bool prepare) {
  LoadOptions options;
  options.prepare = prepare;
  return loadOk(path, options);
}

} // namespace

TEST_CASE("a static-shaped model is ready for its first call at load",
          "[prepared-calls]") {
  const std::string &path =
      archive("prepared_static_net", StaticNet,
              "--entry StaticNet --random-weights");

  uint64_t builtBefore = kernelPrimitivesBuilt();
  uint64_t packedBefore = kernelWeightsPacked();
  Model prepared = load(path, true);
  // Both plans were built, and both weights packed, while loading.
  CHECK(kernelPrimitivesBuilt() - builtBefore == 2);
  CHECK(kernelWeightsPacked() - packedBefore == 2);

  uint64_t built = kernelPrimitivesBuilt();
  uint64_t packed = kernelWeightsPacked();
  std::vector<Tensor> first = runOk(prepared, "forward", {input()});
  CHECK(kernelPrimitivesBuilt() == built);
  CHECK(kernelWeightsPacked() == packed);

  // Loaded without preparing, the first call packs the model's own copies
  // (the plans, keyed by shape, are the process's and already built).
  Model unprepared = load(path, false);
  CHECK(kernelWeightsPacked() == packed);
  std::vector<Tensor> reference = runOk(unprepared, "forward", {input()});
  CHECK(kernelWeightsPacked() - packed == 2);

  REQUIRE(first.at(0).shape() == std::vector<int64_t>{3, 11});
  REQUIRE(reference.at(0).shape() == first.at(0).shape());
  CHECK(std::memcmp(first.at(0).data<float>(), reference.at(0).data<float>(),
                    33 * sizeof(float)) == 0);
  // tanh of something: not all zeros, nor NaN.
  bool nonzero = false;
  for (int64_t i = 0; i < 33; ++i) {
    float y = first.at(0).data<float>()[i];
    CHECK(std::abs(y) <= 1.0f);
    nonzero = nonzero || y != 0.0f;
  }
  CHECK(nonzero);
}

namespace {

// Elementwise work whose temporaries and result are page-sized blocks of
// sizes no other test asks for (the cache keeps small blocks by powers of
// two, which any test may have left behind): 3 x R x 67 f32.
std::string elementwise(int rows) {
  return "import torch\n\n\n"
         "# kiln: x=f32[3," + std::to_string(rows) + ",67]\n"
         "def f(x: Tensor) -> Tensor:\n"
         "    return torch.tanh(torch.exp(x) * 2.0 - x) + x\n";
}

/// x[b, r, c] depends on b, r and c alone, whatever the rows.
Tensor ramp(int rows) {
  Tensor x = Tensor::zeros(DType::F32, {3, rows, 67});
  float *data = x.data<float>();
  for (int64_t b = 0; b < 3; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < 67; ++c)
        *data++ = float((b * 7 + r * 3 + c) % 11) * 0.125f - 0.5f;
  return x;
}

} // namespace

TEST_CASE("a static-shaped model's first call finds its memory faulted in",
          "[prepared-calls]") {
  // Without preparing, the first call allocates its blocks itself.
  const std::string unpreparedScript = elementwise(101);
  Model unprepared = load(
      archive("blocks_unprepared", unpreparedScript.c_str(), "--entry f"),
      false);
  uint64_t before = runtimeBlocksAllocated();
  std::vector<Tensor> reference = runOk(unprepared, "f", {ramp(101)});
  CHECK(runtimeBlocksAllocated() > before);

  // Prepared, the load allocates them, and the first call takes them from
  // the cache. (Under AddressSanitizer nothing is cached, so that a read
  // after release is caught: every call allocates.)
  before = runtimeBlocksAllocated();
  const std::string preparedScript = elementwise(103);
  Model prepared = load(
      archive("blocks_prepared", preparedScript.c_str(), "--entry f"), true);
  uint64_t stocked = runtimeBlocksAllocated() - before;
  before = runtimeBlocksAllocated();
  std::vector<Tensor> first = runOk(prepared, "f", {ramp(103)});
  if (kBlockCacheEnabled) {
    CHECK(stocked > 0);
    CHECK(runtimeBlocksAllocated() == before);
  } else {
    CHECK(stocked == 0);
    CHECK(runtimeBlocksAllocated() > before);
  }

  // The stocked blocks are only memory: the results are those of the same
  // code run without them, bit for bit, on the rows both inputs share.
  REQUIRE(first.at(0).shape() == std::vector<int64_t>{3, 103, 67});
  REQUIRE(reference.at(0).shape() == std::vector<int64_t>{3, 101, 67});
  for (int64_t b = 0; b < 3; ++b)
    CHECK(std::memcmp(first.at(0).data<float>() + b * 103 * 67,
                      reference.at(0).data<float>() + b * 101 * 67,
                      101 * 67 * sizeof(float)) == 0);
}
