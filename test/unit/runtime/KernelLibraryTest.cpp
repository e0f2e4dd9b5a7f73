//===- KernelLibraryTest.cpp - matmul and conv2d of kiln_host_api ---------===//
//
// Calls the host table's kernel-library slots as compiled code does (through
// callWithHostApi, which runs them under a real call state) on random data,
// and compares every output element with a naive loop here. The operands
// take the layouts codegen can hand over: transposed and sliced views,
// non-zero offsets, batch dims broadcast by size 1 or by stride 0, and sizes
// of zero. Every output sits inside a larger buffer filled with NaN, so a
// write outside the view shows up. Failures must come back as a site's
// Error, and leave the library usable.
//
//===----------------------------------------------------------------------===//
#include "../../../runtime/src/HostCall.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <thread>

using namespace kiln;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using Dims = std::vector<int64_t>;

/// An MLIR memref descriptor of rank up to 8, laid out as kiln_memref.
struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t dims[16];
};

void forEachIndex(const Dims &sizes,
                  const std::function<void(const Dims &)> &fn) {
  for (int64_t size : sizes)
    if (size == 0)
      return;
  Dims index(sizes.size(), 0);
  while (true) {
    fn(index);
    int64_t d = static_cast<int64_t>(sizes.size()) - 1;
    for (; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

Dims denseStrides(const Dims &sizes) {
  Dims strides(sizes.size(), 1);
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * std::max<int64_t>(sizes[d + 1], 1);
  return strides;
}

float bf16ToFloat(uint16_t bits) {
  uint32_t word = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &word, 4);
  return value;
}

uint16_t floatToBf16(float value) { // rounds to nearest even; keeps NaN
  uint32_t word;
  std::memcpy(&word, &value, 4);
  return static_cast<uint16_t>((word + 0x7fff + ((word >> 16) & 1)) >> 16);
}

/// A strided view of `sizes` into storage of its own, every storage element
/// random (or NaN), as compiled code would describe it to the runtime.
/// Elements are f32, or bf16 kept as uint16_t.
template <typename T> class Strided {
public:
  Strided(Dims sizes, Dims strides, int64_t offset, std::mt19937 &rng,
          bool nan = false)
      : sizes(std::move(sizes)), strides(std::move(strides)), offset(offset) {
    int64_t extent = offset + 1;
    for (size_t d = 0; d < this->sizes.size(); ++d)
      extent += std::max<int64_t>(this->sizes[d] - 1, 0) * this->strides[d];
    std::uniform_real_distribution<float> dist(-1, 1);
    storage.resize(extent);
    for (T &value : storage)
      value =
          fromFloat(nan ? std::numeric_limits<float>::quiet_NaN() : dist(rng));
  }

  static Strided dense(Dims sizes, std::mt19937 &rng, bool nan = false) {
    Dims strides = denseStrides(sizes);
    return Strided(std::move(sizes), std::move(strides), 0, rng, nan);
  }

  int64_t position(const Dims &index) const {
    int64_t at = offset;
    for (size_t d = 0; d < index.size(); ++d)
      at += index[d] * strides[d];
    return at;
  }
  float get(const Dims &index) const {
    return toFloat(storage[position(index)]);
  }

  const kiln_unranked_memref *memref() {
    desc.allocated = desc.aligned = storage.data();
    desc.offset = offset;
    for (size_t d = 0; d < sizes.size(); ++d) {
      desc.dims[d] = sizes[d];
      desc.dims[sizes.size() + d] = strides[d];
    }
    unranked = {static_cast<int64_t>(sizes.size()),
                reinterpret_cast<kiln_memref *>(&desc)};
    return &unranked;
  }

  static float toFloat(float value) { return value; }
  static float toFloat(uint16_t value) { return bf16ToFloat(value); }

  Dims sizes, strides;
  int64_t offset;
  std::vector<T> storage;

private:
  static T fromFloat(float value) {
    if constexpr (std::is_same_v<T, float>)
      return value;
    else
      return floatToBf16(value);
  }

  Descriptor desc;
  kiln_unranked_memref unranked;
};

using F32 = Strided<float>;

//===----------------------------------------------------------------------===//
// Calling the host table
//===----------------------------------------------------------------------===//

struct KernelCall {
  const kiln_unranked_memref *a, *b, *out;
  int64_t params[7]; // conv2d: stride, padding, dilation (h, w), groups
  bool conv = false;
  int32_t dtype = KILN_F32;
  const kiln_unranked_memref *bias = nullptr; // matmul_epilogue's
  int32_t activation = KILN_ACTIVATION_NONE;
};

/// Site 0 of the fake model every call runs in.
const std::vector<Site> Sites = {{"net.py", 3, 5, "unused template"}};

Result<void> call(const KernelCall &kernel) {
  return callWithHostApi(
      Sites,
      [](const kiln_host_api *host, void *context) {
        auto *k = static_cast<const KernelCall *>(context);
        if (k->conv)
          host->conv2d(k->a, k->b, k->out, k->params[0], k->params[1],
                       k->params[2], k->params[3], k->params[4], k->params[5],
                       k->params[6], 0, k->dtype);
        else if (k->bias)
          host->matmul_epilogue(k->a, k->b, k->bias, k->out, k->activation, 0,
                                k->dtype);
        else
          host->matmul(k->a, k->b, k->out, 0, k->dtype);
      },
      const_cast<KernelCall *>(&kernel));
}

template <typename T>
Result<void> callMatmul(Strided<T> &a, Strided<T> &b, Strided<T> &out,
                        int32_t dtype = KILN_F32) {
  KernelCall kernel{a.memref(), b.memref(), out.memref()};
  kernel.dtype = dtype;
  return call(kernel);
}

Result<void> callEpilogue(F32 &a, F32 &b, F32 &bias, F32 &out,
                          int32_t activation) {
  KernelCall kernel{a.memref(), b.memref(), out.memref()};
  kernel.bias = bias.memref();
  kernel.activation = activation;
  return call(kernel);
}

struct ConvSettings {
  int64_t strideH = 1, strideW = 1, padH = 0, padW = 0, dilationH = 1,
          dilationW = 1, groups = 1;
};

template <typename T>
Result<void> callConv(Strided<T> &in, Strided<T> &w, Strided<T> &out,
                      const ConvSettings &p, int32_t dtype = KILN_F32) {
  KernelCall kernel{in.memref(),
                    w.memref(),
                    out.memref(),
                    {p.strideH, p.strideW, p.padH, p.padW, p.dilationH,
                     p.dilationW, p.groups},
                    true,
                    dtype};
  return call(kernel);
}

//===----------------------------------------------------------------------===//
// References and checks
//===----------------------------------------------------------------------===//

/// out[..., m, n] = sum_k a[..., m, k] * b[..., k, n], size-1 batch dims
/// broadcast; in double.
template <typename T>
std::vector<double> referenceMatmul(const Strided<T> &a, const Strided<T> &b,
                                    const Dims &outSizes) {
  size_t rank = outSizes.size();
  int64_t k = a.sizes[rank - 1];
  std::vector<double> ref;
  forEachIndex(outSizes, [&](const Dims &index) {
    Dims ai = index, bi = index;
    for (size_t d = 0; d + 2 < rank; ++d) {
      ai[d] = a.sizes[d] == 1 ? 0 : index[d];
      bi[d] = b.sizes[d] == 1 ? 0 : index[d];
    }
    double sum = 0;
    for (int64_t i = 0; i < k; ++i) {
      ai[rank - 1] = i;
      bi[rank - 2] = i;
      sum += static_cast<double>(a.get(ai)) * b.get(bi);
    }
    ref.push_back(sum);
  });
  return ref;
}

/// torch.nn.functional.conv2d without bias, in double.
std::vector<double> referenceConv(const F32 &in, const F32 &w,
                                  const Dims &outSizes, const ConvSettings &p) {
  int64_t groupOut = w.sizes[0] / p.groups, groupIn = w.sizes[1];
  std::vector<double> ref;
  forEachIndex(outSizes, [&](const Dims &index) {
    int64_t n = index[0], o = index[1], g = o / groupOut;
    double sum = 0;
    for (int64_t c = 0; c < groupIn; ++c)
      for (int64_t kh = 0; kh < w.sizes[2]; ++kh)
        for (int64_t kw = 0; kw < w.sizes[3]; ++kw) {
          int64_t h = index[2] * p.strideH - p.padH + kh * p.dilationH;
          int64_t x = index[3] * p.strideW - p.padW + kw * p.dilationW;
          if (h < 0 || h >= in.sizes[2] || x < 0 || x >= in.sizes[3])
            continue;
          sum += static_cast<double>(in.get({n, g * groupIn + c, h, x})) *
                 w.get({o, c, kh, kw});
        }
    ref.push_back(sum);
  });
  return ref;
}

/// Every element of `out`'s view matches `ref` to `tolerance` (relative to
/// 1 + |ref|), and every storage element outside the view is still NaN.
template <typename T>
void checkOutput(const Strided<T> &out, const std::vector<double> &ref,
                 double tolerance) {
  std::vector<bool> inView(out.storage.size(), false);
  size_t i = 0;
  int mismatches = 0;
  forEachIndex(out.sizes, [&](const Dims &index) {
    inView[out.position(index)] = true;
    double got = out.get(index), want = ref[i++];
    if (!(std::abs(got - want) <= tolerance * (1 + std::abs(want))) &&
        ++mismatches <= 5)
      FAIL_CHECK("element " << i - 1 << ": got " << got << ", want " << want);
  });
  CHECK(i == ref.size());
  CHECK(mismatches == 0);
  int64_t touched = 0;
  for (size_t s = 0; s < out.storage.size(); ++s)
    if (!inView[s] && !std::isnan(Strided<T>::toFloat(out.storage[s])))
      ++touched;
  CHECK(touched == 0);
}

/// Fails the test with the call's error message, if any.
void requireOk(const Result<void> &result) {
  if (!result)
    FAIL(result.error().message);
}

/// Runs a matmul of `a` and `b` into a NaN-filled dense output and checks
/// it against the reference.
void checkMatmul(F32 &a, F32 &b, const Dims &outSizes, std::mt19937 &rng) {
  F32 out = F32::dense(outSizes, rng, /*nan=*/true);
  requireOk(callMatmul(a, b, out));
  checkOutput(out, referenceMatmul(a, b, outSizes), 1e-5);
}

Dims convOutSizes(const Dims &in, const Dims &w, const ConvSettings &p) {
  auto size = [](int64_t x, int64_t k, int64_t s, int64_t pad, int64_t d) {
    return (x + 2 * pad - d * (k - 1) - 1) / s + 1;
  };
  return {in[0], w[0], size(in[2], w[2], p.strideH, p.padH, p.dilationH),
          size(in[3], w[3], p.strideW, p.padW, p.dilationW)};
}

} // namespace

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

TEST_CASE("the host table offers the kernel library", "[kernels]") {
  Result<void> result = callWithHostApi(
      {},
      [](const kiln_host_api *host, void *) {
        CHECK(host->abi_version == KILN_ABI_VERSION);
        CHECK(host->size == sizeof(kiln_host_api));
        CHECK(host->matmul != nullptr);
        CHECK(host->conv2d != nullptr);
        CHECK(host->matmul_epilogue != nullptr);
        // The GPU's functions are there too; they open the CUDA plugin
        // only when a CUDA archive is loaded.
        CHECK(host->launch_kernel != nullptr);
        CHECK(host->device_alloc != nullptr);
        CHECK(host->device_free != nullptr);
      },
      nullptr);
  requireOk(result);
}

TEST_CASE("matmul of dense matrices", "[kernels]") {
  std::mt19937 rng(1);
  for (Dims mkn : {Dims{5, 7, 3}, Dims{1, 9, 4}, Dims{6, 1, 5}, Dims{7, 3, 1},
                   Dims{64, 96, 48}}) {
    INFO("m, k, n = " << mkn[0] << ", " << mkn[1] << ", " << mkn[2]);
    F32 a = F32::dense({mkn[0], mkn[1]}, rng);
    F32 b = F32::dense({mkn[1], mkn[2]}, rng);
    checkMatmul(a, b, {mkn[0], mkn[2]}, rng);
  }
}

TEST_CASE("matmul with batch dims broadcast by size 1", "[kernels]") {
  std::mt19937 rng(2);
  F32 a = F32::dense({4, 1, 5, 7}, rng);
  F32 b = F32::dense({1, 3, 7, 6}, rng);
  checkMatmul(a, b, {4, 3, 5, 6}, rng);
  // Batch dims equal on both sides, and a rank-3 batch.
  F32 c = F32::dense({3, 4, 2}, rng);
  F32 d = F32::dense({3, 2, 5}, rng);
  checkMatmul(c, d, {3, 4, 5}, rng);
}

TEST_CASE("matmul with a batch dim broadcast by stride 0", "[kernels]") {
  // x.expand(3, 5, 7) of a 5x7 matrix, as MLIR describes it.
  std::mt19937 rng(3);
  F32 a({3, 5, 7}, {0, 7, 1}, 0, rng);
  F32 b = F32::dense({3, 7, 4}, rng);
  checkMatmul(a, b, {3, 5, 4}, rng);
}

TEST_CASE("matmul of transposed views", "[kernels]") {
  std::mt19937 rng(4);
  SECTION("x @ w.t(), as nn.Linear computes") {
    F32 x = F32::dense({8, 12}, rng);
    F32 wT({12, 10}, {1, 12}, 0, rng); // w is 10 x 12
    checkMatmul(x, wT, {8, 10}, rng);
  }
  SECTION("a.t() @ b") {
    F32 aT({6, 4}, {1, 6}, 0, rng);
    F32 b = F32::dense({4, 5}, rng);
    checkMatmul(aT, b, {6, 5}, rng);
  }
  SECTION("batched, the last two strides swapped") {
    F32 a = F32::dense({2, 3, 4}, rng);
    F32 bT({2, 4, 5}, {20, 1, 4}, 0, rng);
    checkMatmul(a, bT, {2, 3, 5}, rng);
  }
}

TEST_CASE("matmul of slices with offsets", "[kernels]") {
  std::mt19937 rng(5);
  SECTION("a block of a larger matrix") {
    // big[2:7, 3:10] of a 10 x 20 matrix.
    F32 a({5, 7}, {20, 1}, 2 * 20 + 3, rng);
    F32 b({7, 4}, {9, 2}, 11, rng); // every other column
    checkMatmul(a, b, {5, 4}, rng);
  }
  SECTION("an output written into a block of a larger buffer") {
    F32 a = F32::dense({3, 4}, rng);
    F32 b = F32::dense({4, 5}, rng);
    F32 out({3, 5}, {9, 1}, 13, rng, /*nan=*/true);
    requireOk(callMatmul(a, b, out));
    checkOutput(out, referenceMatmul(a, b, out.sizes), 1e-5);
  }
  SECTION("a transposed output") {
    F32 a = F32::dense({3, 4}, rng);
    F32 b = F32::dense({4, 5}, rng);
    F32 out({3, 5}, {1, 3}, 0, rng, /*nan=*/true);
    requireOk(callMatmul(a, b, out));
    checkOutput(out, referenceMatmul(a, b, out.sizes), 1e-5);
  }
}

TEST_CASE("matmul with sizes of zero", "[kernels]") {
  std::mt19937 rng(6);
  SECTION("k == 0 writes zeros") {
    F32 a = F32::dense({3, 0}, rng);
    F32 b = F32::dense({0, 4}, rng);
    F32 out({3, 4}, {8, 2}, 1, rng, /*nan=*/true);
    requireOk(callMatmul(a, b, out));
    checkOutput(out, std::vector<double>(12, 0.0), 0);
  }
  SECTION("batched, k == 0") {
    F32 a = F32::dense({2, 1, 3, 0}, rng);
    F32 b = F32::dense({1, 2, 0, 4}, rng);
    checkMatmul(a, b, {2, 2, 3, 4}, rng);
  }
  SECTION("empty outputs") {
    for (auto [as, bs, outs] :
         {std::tuple<Dims, Dims, Dims>{{0, 4}, {4, 3}, {0, 3}},
          {{2, 4}, {4, 0}, {2, 0}},
          {{0, 2, 4}, {1, 4, 3}, {0, 2, 3}},
          {{0, 0}, {0, 0}, {0, 0}}}) {
      F32 a = F32::dense(as, rng), b = F32::dense(bs, rng);
      checkMatmul(a, b, outs, rng);
    }
  }
}

TEST_CASE("matmul repeated and on many threads at once", "[kernels]") {
  // Repeats hit the primitive cache; the threads share cached primitives
  // (two shapes, so two at a time) and must not share scratch memory.
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &failures] {
      std::mt19937 rng(100 + t);
      for (int i = 0; i < 20; ++i) {
        int64_t m = t % 2 ? 33 : 17;
        F32 a = F32::dense({m, 40}, rng);
        F32 bT({40, 24}, {1, 40}, 0, rng);
        F32 out = F32::dense({m, 24}, rng, /*nan=*/true);
        if (!callMatmul(a, bT, out).ok()) {
          ++failures[t];
          continue;
        }
        std::vector<double> ref = referenceMatmul(a, bT, out.sizes);
        size_t j = 0;
        forEachIndex(out.sizes, [&](const Dims &index) {
          if (std::abs(out.get(index) - ref[j++]) > 1e-4)
            ++failures[t];
        });
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  CHECK(failures == std::vector<int>(4, 0));
}

TEST_CASE("matmul in bf16", "[kernels]") {
  std::mt19937 rng(7);
  auto a = Strided<uint16_t>::dense({16, 32}, rng);
  Strided<uint16_t> bT({32, 8}, {1, 32}, 0, rng);
  auto out = Strided<uint16_t>::dense({16, 8}, rng, /*nan=*/true);
  Result<void> result = callMatmul(a, bT, out, KILN_BF16);
  if (!result) {
    // A CPU without bf16 support must say so, not crash.
    CHECK_THAT(result.error().message, Contains("no bf16 kernel"));
    return;
  }
  // bf16 keeps 8 bits of mantissa: the output rounding dominates.
  checkOutput(out, referenceMatmul(a, bT, out.sizes), 1e-2);
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

struct ConvCase {
  const char *name;
  Dims input, weight;
  ConvSettings params;
};

TEST_CASE("conv2d against the naive loop", "[kernels]") {
  const ConvCase cases[] = {
      // Fewer than 16 input channels: oneDNN reads the plain input as it
      // lies; 16 and more: a layout of its choosing. Fewer than 16 output
      // channels and 2^16 elements or more: it writes the dense output as
      // it lies.
      {"plain 3x3", {2, 3, 9, 9}, {4, 3, 3, 3}, {}},
      {"LeNet's first layer, large batch", {16, 1, 32, 32}, {6, 1, 3, 3}, {}},
      {"LeNet's first layer, batch 1", {1, 1, 32, 32}, {6, 1, 3, 3}, {}},
      {"16 output channels, blocked", {2, 6, 15, 15}, {16, 6, 3, 3}, {}},
      {"many channels", {2, 32, 7, 6}, {20, 32, 3, 3}, {1, 1, 1, 1}},
      {"stride 2, padding 1", {1, 3, 10, 9}, {5, 3, 3, 3}, {2, 2, 1, 1}},
      {"dilation 2", {2, 2, 11, 10}, {3, 2, 3, 3}, {1, 1, 0, 0, 2, 2}},
      {"groups 2, non-square kernel",
       {2, 4, 8, 11},
       {6, 2, 3, 2},
       {1, 1, 0, 0, 1, 1, 2}},
      {"all together, unequal per axis",
       {2, 4, 13, 12},
       {6, 2, 3, 2},
       {2, 1, 1, 2, 2, 1, 2}},
      {"depthwise", {2, 8, 10, 10}, {8, 1, 3, 3}, {1, 1, 1, 1, 1, 1, 8}},
      {"depthwise, multiplier 2, stride 2",
       {1, 4, 9, 9},
       {8, 1, 3, 3},
       {2, 2, 1, 1, 1, 1, 4}},
      {"1x1", {2, 16, 5, 5}, {24, 16, 1, 1}, {}},
      {"larger, blocked layouts",
       {2, 32, 14, 14},
       {32, 32, 3, 3},
       {1, 1, 1, 1}},
      {"kernel as large as the input", {1, 2, 3, 4}, {2, 2, 3, 4}, {}},
  };
  std::mt19937 rng(8);
  for (const ConvCase &c : cases) {
    INFO(c.name);
    F32 in = F32::dense(c.input, rng);
    F32 w = F32::dense(c.weight, rng);
    F32 out = F32::dense(convOutSizes(c.input, c.weight, c.params), rng,
                         /*nan=*/true);
    requireOk(callConv(in, w, out, c.params));
    checkOutput(out, referenceConv(in, w, out.sizes, c.params), 1e-5);
    // Again: the cached primitive gives the same answer.
    F32 again = F32::dense(out.sizes, rng, /*nan=*/true);
    requireOk(callConv(in, w, again, c.params));
    CHECK(again.storage == out.storage);
  }
}

TEST_CASE("conv2d on strided views", "[kernels]") {
  std::mt19937 rng(9);
  ConvSettings p{2, 1, 1, 1, 1, 2, 2};
  // A channels-last input viewed as N x C x H x W, at an offset; a weight
  // sliced from a larger one; a channels-last output.
  F32 in({2, 4, 9, 7}, {9 * 7 * 4, 1, 7 * 4, 4}, 5, rng);
  F32 w({6, 2, 3, 3}, {2 * 3 * 3 * 2, 3 * 3 * 2, 3 * 2, 2}, 1, rng);
  Dims outSizes = convOutSizes(in.sizes, w.sizes, p);
  Dims nhwc = {outSizes[2] * outSizes[3] * 6, 1, outSizes[3] * 6, 6};
  F32 out(outSizes, nhwc, 3, rng, /*nan=*/true);
  requireOk(callConv(in, w, out, p));
  checkOutput(out, referenceConv(in, w, out.sizes, p), 1e-5);
}

TEST_CASE("conv2d with sizes of zero", "[kernels]") {
  std::mt19937 rng(10);
  SECTION("no input channels writes zeros") {
    F32 in = F32::dense({1, 0, 4, 4}, rng);
    F32 w = F32::dense({3, 0, 1, 1}, rng);
    F32 out = F32::dense({1, 3, 4, 4}, rng, /*nan=*/true);
    requireOk(callConv(in, w, out, {}));
    checkOutput(out, std::vector<double>(48, 0.0), 0);
  }
  SECTION("an empty batch or no output channels") {
    for (auto [is, ws] : {std::pair<Dims, Dims>{{0, 2, 5, 5}, {3, 2, 3, 3}},
                          {{1, 2, 5, 5}, {0, 2, 3, 3}}}) {
      F32 in = F32::dense(is, rng), w = F32::dense(ws, rng);
      F32 out = F32::dense(convOutSizes(is, ws, {}), rng);
      requireOk(callConv(in, w, out, {}));
    }
  }
}

TEST_CASE("conv2d in bf16", "[kernels]") {
  std::mt19937 rng(11);
  auto in = Strided<uint16_t>::dense({1, 8, 6, 6}, rng);
  auto w = Strided<uint16_t>::dense({16, 8, 3, 3}, rng);
  auto out = Strided<uint16_t>::dense({1, 16, 4, 4}, rng, /*nan=*/true);
  Result<void> result = callConv(in, w, out, {}, KILN_BF16);
  if (!result) {
    CHECK_THAT(result.error().message, Contains("no bf16 kernel"));
    return;
  }
  std::vector<double> ref;
  forEachIndex(out.sizes, [&](const Dims &index) {
    double sum = 0;
    for (int64_t c = 0; c < 8; ++c)
      for (int64_t kh = 0; kh < 3; ++kh)
        for (int64_t kw = 0; kw < 3; ++kw)
          sum += static_cast<double>(
                     in.get({0, c, index[2] + kh, index[3] + kw})) *
                 w.get({index[1], c, kh, kw});
    ref.push_back(sum);
  });
  checkOutput(out, ref, 2e-2);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// matmul_epilogue
//===----------------------------------------------------------------------===//

/// activation(ref[i] + bias[column i]) in double, as PyTorch computes it.
std::vector<double> withEpilogue(std::vector<double> ref, const F32 &bias,
                                 int32_t activation) {
  int64_t n = bias.sizes[0];
  for (size_t i = 0; i < ref.size(); ++i) {
    double x = ref[i] + bias.get({static_cast<int64_t>(i) % n});
    if (activation == KILN_ACTIVATION_TANH)
      x = std::tanh(x);
    else if (activation == KILN_ACTIVATION_SIGMOID)
      x = 1 / (1 + std::exp(-x));
    else if (activation == KILN_ACTIVATION_SILU)
      x = x / (1 + std::exp(-x));
    ref[i] = x;
  }
  return ref;
}

TEST_CASE("matmul_epilogue adds the bias and applies the activation",
          "[kernels]") {
  std::mt19937 rng(13);
  for (int32_t activation : {KILN_ACTIVATION_NONE, KILN_ACTIVATION_TANH,
                             KILN_ACTIVATION_SIGMOID, KILN_ACTIVATION_SILU}) {
    INFO("activation " << activation);
    // x @ w.t() + b, as nn.Linear; a batched input over a broadcast
    // weight; a bias that is every other element of a vector.
    F32 x = F32::dense({5, 7}, rng);
    F32 w({7, 6}, {1, 7}, 0, rng);
    F32 bias = F32::dense({6}, rng);
    F32 out = F32::dense({5, 6}, rng, /*nan=*/true);
    requireOk(callEpilogue(x, w, bias, out, activation));
    checkOutput(
        out, withEpilogue(referenceMatmul(x, w, out.sizes), bias, activation),
        1e-5);

    F32 xb = F32::dense({3, 4, 7}, rng);
    F32 wb({1, 7, 6}, {0, 6, 1}, 0, rng);
    F32 outb = F32::dense({3, 4, 6}, rng, /*nan=*/true);
    requireOk(callEpilogue(xb, wb, bias, outb, activation));
    checkOutput(
        outb,
        withEpilogue(referenceMatmul(xb, wb, outb.sizes), bias, activation),
        1e-5);
    F32 strided({6}, {2}, 1, rng);
    F32 out2 = F32::dense({5, 6}, rng, /*nan=*/true);
    requireOk(callEpilogue(x, w, strided, out2, activation));
    checkOutput(
        out2,
        withEpilogue(referenceMatmul(x, w, out2.sizes), strided, activation),
        1e-5);
  }
}

TEST_CASE("matmul_epilogue keeps NaN and sums of nothing", "[kernels]") {
  std::mt19937 rng(14);
  F32 x = F32::dense({3, 4}, rng), w = F32::dense({4, 5}, rng);
  x.storage[0] = std::numeric_limits<float>::quiet_NaN(); // row 0 is NaN
  F32 bias = F32::dense({5}, rng);
  for (int32_t activation :
       {KILN_ACTIVATION_TANH, KILN_ACTIVATION_SIGMOID, KILN_ACTIVATION_SILU}) {
    F32 out = F32::dense({3, 5}, rng);
    requireOk(callEpilogue(x, w, bias, out, activation));
    for (int64_t j = 0; j < 5; ++j) {
      CHECK(std::isnan(out.get({0, j})));
      CHECK_FALSE(std::isnan(out.get({1, j})));
    }
  }
  // K == 0: the output is the activation of the bias.
  F32 a = F32::dense({2, 0}, rng), b = F32::dense({0, 5}, rng);
  for (int32_t activation : {KILN_ACTIVATION_SIGMOID, KILN_ACTIVATION_SILU}) {
    F32 out = F32::dense({2, 5}, rng, /*nan=*/true);
    requireOk(callEpilogue(a, b, bias, out, activation));
    checkOutput(out,
                withEpilogue(std::vector<double>(10, 0.0), bias, activation),
                1e-6);
  }
}

TEST_CASE("matmul_epilogue refuses what the CPU's library cannot do",
          "[kernels]") {
  std::mt19937 rng(15);
  F32 a = F32::dense({2, 3}, rng), b = F32::dense({3, 4}, rng);
  F32 out = F32::dense({2, 4}, rng), bias = F32::dense({4}, rng);
  auto failure = [](const Result<void> &result) {
    REQUIRE_FALSE(result.ok());
    return result.error().message;
  };
  // oneDNN's relu makes NaN 0, so compiled code never asks for it.
  CHECK(failure(callEpilogue(a, b, bias, out, KILN_ACTIVATION_RELU)) ==
        "net.py:3:5: error: matmul_epilogue: activation 1 is not one the "
        "CPU's library computes");
  CHECK_THAT(failure(callEpilogue(a, b, bias, out, 99)),
             Contains("activation 99"));
  F32 short_ = F32::dense({3}, rng);
  CHECK(failure(callEpilogue(a, b, short_, out, KILN_ACTIVATION_NONE)) ==
        "net.py:3:5: error: matmul_epilogue: bias [3] is not a vector of "
        "the output's last dim, 4");
  requireOk(callEpilogue(a, b, bias, out, KILN_ACTIVATION_NONE));
}

TEST_CASE("kernel library failures raise the call's site", "[kernels]") {
  std::mt19937 rng(12);
  F32 a = F32::dense({2, 3}, rng), b = F32::dense({3, 4}, rng);
  F32 out = F32::dense({2, 4}, rng);
  auto failure = [](const Result<void> &result) {
    REQUIRE_FALSE(result.ok());
    return result.error().message;
  };

  // Compiled code converts f16 itself; the library takes f32 and bf16 only.
  std::string message = failure(callMatmul(a, b, out, KILN_F16));
  CHECK(message == "net.py:3:5: error: matmul: the kernel library takes f32 "
                   "or bf16, not f16");
  CHECK_THAT(failure(callMatmul(a, b, out, 42)), Contains("not dtype 42"));

  F32 wrong = F32::dense({4, 4}, rng);
  CHECK(failure(callMatmul(a, wrong, out)) ==
        "net.py:3:5: error: matmul: shapes [2, 3] and [4, 4] cannot be "
        "multiplied into [2, 4]");
  F32 batched = F32::dense({2, 3, 4}, rng);
  CHECK_THAT(failure(callMatmul(a, batched, out)),
             Contains("must have one rank of at least 2"));

  F32 in = F32::dense({1, 4, 5, 5}, rng), w = F32::dense({6, 2, 3, 3}, rng);
  F32 convOut = F32::dense({1, 6, 3, 3}, rng);
  CHECK_THAT(failure(callConv(in, w, convOut, {})),
             Contains("conv2d: weight [6, 2, 3, 3] does not fit input "
                      "[1, 4, 5, 5] with groups=1"));
  ConvSettings grouped;
  grouped.groups = 2;
  F32 badOut = F32::dense({1, 6, 4, 4}, rng);
  CHECK_THAT(failure(callConv(in, w, badOut, grouped)),
             Contains("the output should be [1, 6, 3, 3]"));
  F32 bigW = F32::dense({6, 2, 7, 3}, rng);
  CHECK_THAT(failure(callConv(in, bigW, convOut, grouped)),
             Contains("is larger than the padded input"));
  ConvSettings zeroStride = grouped;
  zeroStride.strideW = 0;
  CHECK_THAT(failure(callConv(in, w, convOut, zeroStride)),
             StartsWith("net.py:3:5: error: conv2d: invalid stride (1, 0)"));

  // The failures left nothing locked or half-built behind.
  F32 fine = F32::dense({2, 4}, rng, /*nan=*/true);
  requireOk(callMatmul(a, b, fine));
  checkOutput(fine, referenceMatmul(a, b, fine.sizes), 1e-5);
  requireOk(callConv(in, w, convOut, grouped));
  checkOutput(convOut, referenceConv(in, w, convOut.sizes, grouped), 1e-5);
}
