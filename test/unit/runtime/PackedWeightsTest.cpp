//===- PackedWeightsTest.cpp - a model's GEMM weights are packed once -----===//
//
// A Linear's weight lies in the model's archive mapping, so the kernel
// library packs it into oneDNN's preferred layout at the first product
// that reads it and reuses that copy (PackedWeights, KernelLibrary.cpp).
// Counted through kernelWeightsPacked; the results are checked against the
// same product computed here, and a second model of the same archive packs
// its own copy (the copies live and die with their model).
//
//===----------------------------------------------------------------------===//
#include "ModelTestUtil.h"

#include "../../../runtime/src/KernelLibrary.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace kiln;
using namespace kiln::test;

namespace {

const char *const TwoLinears = R"(import torch.nn as nn


class TwoLinears(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(64, 48)
        self.b = nn.Linear(48, 40, bias=False)

    # kiln: x=f32[B,64]
    def forward(self, x: Tensor) -> Tensor:
        return self.b(torch.tanh(self.a(x)))
)";

/// forward(x) of `model` for x[i][k] = (i + k) % 7 - 3, and the same
/// computed here from the weights the archive holds.
void checkForward(const Model &model, int64_t batch) {
  Tensor x = Tensor::zeros(DType::F32, {batch, 64});
  for (int64_t i = 0; i < batch; ++i)
    for (int64_t k = 0; k < 64; ++k)
      x.data<float>()[i * 64 + k] = float((i + k) % 7 - 3);
  std::vector<Tensor> out = runOk(model, "forward", {x});
  REQUIRE(out.size() == 1);
  const float *wa = nullptr, *ba = nullptr, *wb = nullptr;
  for (const WeightInfo &weight : model.weights()) {
    const auto *data = static_cast<const float *>(weight.data);
    if (weight.name == "a.weight")
      wa = data;
    else if (weight.name == "a.bias")
      ba = data;
    else if (weight.name == "b.weight")
      wb = data;
  }
  REQUIRE((wa && ba && wb));
  for (int64_t i = 0; i < batch; ++i) {
    std::vector<double> h(48);
    for (int64_t j = 0; j < 48; ++j) {
      double sum = ba[j];
      for (int64_t k = 0; k < 64; ++k)
        sum += double(x.data<float>()[i * 64 + k]) * wa[j * 64 + k];
      h[j] = std::tanh(sum);
    }
    for (int64_t j = 0; j < 40; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < 48; ++k)
        sum += h[k] * wb[j * 48 + k];
      CHECK(std::abs(out[0].data<float>()[i * 40 + j] - sum) <=
            1e-4 * (1 + std::abs(sum)));
    }
  }
}

} // namespace

TEST_CASE("a model's GEMM weights are packed once, at first use",
          "[packed-weights]") {
  const std::string &path =
      archive("packed_two_linears", TwoLinears,
              "--entry TwoLinears --random-weights");
  Model model = loadOk(path);
  uint64_t before = kernelWeightsPacked();
  checkForward(model, 1);
  uint64_t first = kernelWeightsPacked() - before;
  // Each Linear's weight, read transposed (x @ w.t()), is packed.
  CHECK(first == 2);
  checkForward(model, 1);
  CHECK(kernelWeightsPacked() - before == first);

  // Another model of the same archive has weights of its own to pack.
  Model other = loadOk(path);
  checkForward(other, 1);
  CHECK(kernelWeightsPacked() - before == 2 * first);
}
