//===- HalfFloatTest.cpp - kiln/HalfFloat.h against torch -----------------===//
//
// Every f16 and bf16 bit pattern widened to float, and 200,000 floats
// (every exponent, both signs, ties, subnormals, overflow, NaN) narrowed,
// each compared bit for bit with torch on the same values.
//
//===----------------------------------------------------------------------===//
#include "PythonTestUtil.h"
#include "kiln/HalfFloat.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace kiln;
using namespace kiln::test;

namespace {

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// Floats that exercise the rounding: random bit patterns over the whole
/// range, and the halfway points between neighbouring halves and bfloat16s.
std::vector<float> probes() {
  std::vector<float> values;
  std::mt19937 rng(7);
  for (int i = 0; i < 100000; ++i) {
    uint32_t bits = rng();
    float value;
    std::memcpy(&value, &bits, sizeof value);
    values.push_back(value);
  }
  for (uint32_t h = 0; h < 0x7c00; h += 7) {
    float low = halfToFloat(uint16_t(h)), high = halfToFloat(uint16_t(h + 1));
    values.push_back((low + high) / 2);
    values.push_back(-(low + high) / 2);
  }
  for (uint32_t b = 0; b < 0x7f80; b += 3) {
    float low = bfloat16ToFloat(uint16_t(b));
    float high = bfloat16ToFloat(uint16_t(b + 1));
    values.push_back(low + (high - low) / 2);
  }
  for (float v : {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, 1e-8f,
                  2.98e-8f, 5.96e-8f, INFINITY, -INFINITY, NAN})
    values.push_back(v);
  return values;
}

} // namespace

TEST_CASE("f16 and bf16 convert bit for bit as torch does", "[half]") {
  TempDir dir;
  std::vector<float> floats = probes();
  writeFile(dir / "floats.bin",
            std::string(reinterpret_cast<const char *>(floats.data()),
                        floats.size() * sizeof(float)));
  std::string out = runPython(dir, R"(
import sys, numpy as np, torch
d = sys.argv[1]
f = torch.from_numpy(np.fromfile(d + "/floats.bin", dtype=np.float32))
f.half().view(torch.int16).numpy().tofile(d + "/half.bin")
f.bfloat16().view(torch.int16).numpy().tofile(d + "/bf16.bin")
bits = torch.arange(65536, dtype=torch.int32).to(torch.int16)
bits.view(torch.float16).float().numpy().tofile(d + "/from_half.bin")
bits.view(torch.bfloat16).float().numpy().tofile(d + "/from_bf16.bin")
print("ok")
)");
  REQUIRE(out == "ok\n");
  auto read16 = [&](const char *name) {
    std::string bytes = readFile(dir / name);
    std::vector<uint16_t> values(bytes.size() / 2);
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  };
  auto read32 = [&](const char *name) {
    std::string bytes = readFile(dir / name);
    std::vector<float> values(bytes.size() / 4);
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  };

  std::vector<uint16_t> half = read16("half.bin"), bf16 = read16("bf16.bin");
  REQUIRE(half.size() == floats.size());
  REQUIRE(bf16.size() == floats.size());
  size_t halfWrong = 0, bf16Wrong = 0;
  for (size_t i = 0; i < floats.size(); ++i) {
    // A NaN only has to stay a NaN: torch's payload bits are its own.
    bool nan = std::isnan(floats[i]);
    uint16_t h = floatToHalf(floats[i]), b = floatToBFloat16(floats[i]);
    halfWrong += nan ? !std::isnan(halfToFloat(h)) : h != half[i];
    bf16Wrong += nan ? !std::isnan(bfloat16ToFloat(b)) : b != bf16[i];
  }
  CHECK(halfWrong == 0);
  CHECK(bf16Wrong == 0);

  std::vector<float> fromHalf = read32("from_half.bin");
  std::vector<float> fromBf16 = read32("from_bf16.bin");
  REQUIRE(fromHalf.size() == 65536);
  REQUIRE(fromBf16.size() == 65536);
  size_t widenWrong = 0;
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    float h = halfToFloat(uint16_t(bits)), b = bfloat16ToFloat(uint16_t(bits));
    widenWrong += std::isnan(fromHalf[bits]) ? !std::isnan(h)
                                             : bitsOf(h) != bitsOf(fromHalf[bits]);
    widenWrong += std::isnan(fromBf16[bits]) ? !std::isnan(b)
                                             : bitsOf(b) != bitsOf(fromBf16[bits]);
  }
  CHECK(widenWrong == 0);
}
