//===- PackedWeightsTest.cpp - a model's GEMM weights are packed once -----===//
//
// A Linear's weight lies in the model's archive mapping, so the kernel
// library packs it into oneDNN's preferred layout at the first product
// that reads it and reuses that copy (PackedWeights, OneDnnSupport.h).
// Counted through kernelWeightsPacked; the results are checked against the
// same product computed here, and a second model of the same archive packs
// its own copy (the copies live and die with their model).
//
//===----------------------------------------------------------------------===//
#include "ModelTestUtil.h"

#include "../../../runtime/src/KernelLibrary.h"
#include "../../../runtime/src/PackedLayout.h"

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
  // Four rows: a product of one may read its weight as it lies
  // (packedLayout), whatever the CPU.
  checkForward(model, 4);
  uint64_t first = kernelWeightsPacked() - before;
  // Each Linear's weight, read transposed (x @ w.t()), is packed.
  CHECK(first == 2);
  checkForward(model, 4);
  CHECK(kernelWeightsPacked() - before == first);

  // Another model of the same archive has weights of its own to pack.
  Model other = loadOk(path);
  checkForward(other, 4);
  CHECK(kernelWeightsPacked() - before == 2 * first);
}

namespace {

const char *const Conv = R"(import torch.nn as nn


class Conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(6, 16, 3, bias=False)

    # kiln: x=f32[B,6,9,9]
    def forward(self, x: Tensor) -> Tensor:
        return self.conv(x)
)";

} // namespace

TEST_CASE("a model's convolution weights are packed once, at first use",
          "[packed-weights]") {
  Model model = loadOk(archive("packed_conv", Conv,
                               "--entry Conv --random-weights"));
  const auto *w = static_cast<const float *>(model.weights().at(0).data);
  Tensor x = Tensor::zeros(DType::F32, {2, 6, 9, 9});
  for (int64_t i = 0; i < x.numel(); ++i)
    x.data<float>()[i] = float(i % 5) - 2;
  uint64_t before = kernelWeightsPacked();
  for (int call = 0; call < 2; ++call) {
    std::vector<Tensor> out = runOk(model, "forward", {x});
    // oneDNN reads this convolution's weight blocked (nChw16c-style), so
    // it is packed, once.
    CHECK(kernelWeightsPacked() - before == 1);
    const float *y = out.at(0).data<float>();
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t o = 0; o < 16; ++o)
        for (int64_t h = 0; h < 7; ++h)
          for (int64_t v = 0; v < 7; ++v) {
            double sum = 0;
            for (int64_t c = 0; c < 6; ++c)
              for (int64_t i = 0; i < 3; ++i)
                for (int64_t j = 0; j < 3; ++j)
                  sum += double(x.data<float>()[((n * 6 + c) * 9 + h + i) * 9 +
                                                v + j]) *
                         w[((o * 6 + c) * 3 + i) * 3 + j];
            CHECK(std::abs(y[((n * 16 + o) * 7 + h) * 7 + v] - sum) <=
                  1e-4 * (1 + std::abs(sum)));
          }
  }
}

TEST_CASE("a weight is packed plain with rows off 4 KiB multiples, or not "
          "at all for one row",
          "[packed-weights]") {
  using dnnl::memory;
  constexpr auto f32 = memory::data_type::f32;
  // A Linear's [N, K] weight, read as K x N.
  auto stored = [](int64_t k, int64_t n) {
    return memory::desc({k, n}, f32, memory::dims{1, k});
  };
  memory::desc plain1024({1024, 1024}, f32, memory::format_tag::ab);
  memory::desc padded = onednn::packedLayout(
      plain1024, stored(1024, 1024), /*rows=*/256, f32);
  // One cache line (16 floats) more a row; the same dims.
  CHECK(padded.dims() == memory::dims{1024, 1024});
  CHECK(padded.data.format_desc.blocking.strides[0] == 1040);
  CHECK(padded.data.format_desc.blocking.strides[1] == 1);
  CHECK(padded.get_size() == size_t(1024 * 1040 * 4));

  // 784 floats a row are not a multiple of 4 KiB: as the library prefers.
  memory::desc plain784({1024, 784}, f32, memory::format_tag::ab);
  CHECK(onednn::packedLayout(plain784, stored(1024, 784), 256, f32) ==
        plain784);
  // A batch of matrices pads each row; each matrix then starts a padded
  // matrix further on.
  memory::desc batched({3, 64, 2048}, f32, memory::format_tag::abc);
  memory::desc paddedBatch = onednn::packedLayout(
      batched, memory::desc({3, 64, 2048}, f32, memory::format_tag::acb), 8,
      f32);
  CHECK(paddedBatch.data.format_desc.blocking.strides[2] == 1);
  CHECK(paddedBatch.data.format_desc.blocking.strides[1] == 2064);
  CHECK(paddedBatch.data.format_desc.blocking.strides[0] == 64 * 2064);

  // One row reads each weight element once: the weight stays as it lies.
  CHECK(onednn::packedLayout(plain1024, stored(1024, 1024), 1, f32) ==
        stored(1024, 1024));
  // Unless neither dim of it is dense (w[::2, ::2].t() of a [1024, 2048]
  // w): packed.
  memory::desc everyOther({1024, 512}, f32, memory::dims{2, 4096});
  memory::desc plain512({1024, 512}, f32, memory::format_tag::ab);
  CHECK(onednn::packedLayout(plain512, everyOther, 1, f32) == plain512);
  // A blocked layout (AVX-512's brgemm) is kept, for one row too.
  memory::desc blocked({1024, 1024}, f32, memory::format_tag::BA16a64b);
  CHECK(onednn::packedLayout(blocked, stored(1024, 1024), 1, f32) == blocked);
  CHECK(onednn::packedLayout(blocked, stored(1024, 1024), 256, f32) ==
        blocked);
}

namespace {

const char *const Wide = R"(import torch.nn as nn


class Wide(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(1024, 1024)

    # kiln: x=f32[B,1024]
    def forward(self, x: Tensor) -> Tensor:
        return self.a(x)
)";

} // namespace

TEST_CASE("a product whose packed weight has padded rows computes the same",
          "[packed-weights]") {
  // On AVX2 the 1024-float rows are packed 1040 floats apart; on AVX-512,
  // blocked. Either way against the product computed here.
  Model model = loadOk(archive("packed_wide", Wide,
                               "--entry Wide --random-weights"));
  const float *w = nullptr, *b = nullptr;
  for (const WeightInfo &weight : model.weights())
    (weight.name == "a.weight" ? w : b) =
        static_cast<const float *>(weight.data);
  REQUIRE((w && b));
  for (int64_t batch : {1, 5}) {
    Tensor x = Tensor::zeros(DType::F32, {batch, 1024});
    for (int64_t i = 0; i < x.numel(); ++i)
      x.data<float>()[i] = float(i % 11) - 5;
    std::vector<Tensor> out = runOk(model, "forward", {x});
    REQUIRE(out.size() == 1);
    int64_t wrong = 0;
    for (int64_t i = 0; i < batch; ++i)
      for (int64_t j = 0; j < 1024; ++j) {
        double sum = b[j];
        for (int64_t k = 0; k < 1024; ++k)
          sum += double(x.data<float>()[i * 1024 + k]) * w[j * 1024 + k];
        // f32 sums of 1024 products: within 1e-4 relative to the terms.
        wrong += std::abs(out[0].data<float>()[i * 1024 + j] - sum) >
                 1e-4 * (1 + std::abs(sum));
      }
    CHECK(wrong == 0);
  }
}
