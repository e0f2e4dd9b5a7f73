//===- FormatTest.cpp - formatTensor/formatFloat against PyTorch 1.13 -----===//
//
// Every expected string was printed by PyTorch 1.13 (/usr/bin/python3) as
//   str(torch.tensor(values, dtype=torch.float64).to(dtype).reshape(shape))
// and, for scalars, repr(float). Values are chosen to be exact in every
// dtype they are used with, so the C++ and Python tensors hold the same bits.
//
//===----------------------------------------------------------------------===//

#include "kiln/Format.h"
#include "PythonTestUtil.h"
#include "kiln/Npy.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace kiln;
using namespace kiln::test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// start, start + step, ... computed as Python's `start + i * step`.
std::vector<double> ramp(int n, double start, double step) {
  std::vector<double> values;
  for (int i = 0; i < n; ++i)
    values.push_back(start + i * step);
  return values;
}

/// IEEE binary16 bits of `value`, rounded to nearest even straight from the
/// double (no detour through float, which could round twice). Written out
/// rather than cast through `_Float16`, which needs a compiler-specific type
/// and a libgcc or compiler-rt helper for double -> half.
uint16_t toHalfBits(double value) {
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  double magnitude = std::fabs(value);
  if (std::isnan(value))
    return sign | 0x7e00;
  // 65520 is halfway between the largest half (65504) and 2^16; ties go to
  // the even side, which is infinity.
  if (magnitude >= 65520.0)
    return sign | 0x7c00;
  // Subnormals count units of 2^-24; a result of 1024 is the smallest
  // normal, whose encoding is the same number.
  if (magnitude < 0x1p-14)
    return sign | static_cast<uint16_t>(std::nearbyint(magnitude * 0x1p24));
  int exponent;
  std::frexp(magnitude, &exponent); // magnitude = m * 2^exponent, m in [0.5, 1)
  --exponent;                       // magnitude = 1.f * 2^exponent
  double fraction = std::ldexp(magnitude, -exponent) - 1.0;
  // A fraction that rounds up to 1024 carries into the exponent field.
  auto rounded = static_cast<uint32_t>(std::nearbyint(fraction * 1024.0));
  return sign | static_cast<uint16_t>(((exponent + 15) << 10) + rounded);
}

uint16_t toBFloat16Bits(double value) {
  float single = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &single, sizeof bits);
  if (std::isnan(single))
    return 0x7fc0;
  // Round to nearest even, as torch's float -> bfloat16 conversion does.
  return static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

Tensor makeTensor(DType dtype, std::vector<int64_t> shape,
                  const std::vector<double> &values) {
  Tensor tensor = Tensor::zeros(dtype, std::move(shape));
  REQUIRE(static_cast<size_t>(tensor.numel()) == values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    double value = values[i];
    switch (dtype) {
    case DType::F32:
      tensor.data<float>()[i] = static_cast<float>(value);
      break;
    case DType::F64:
      tensor.data<double>()[i] = value;
      break;
    case DType::F16:
      tensor.data<uint16_t>()[i] = toHalfBits(value);
      break;
    case DType::BF16:
      tensor.data<uint16_t>()[i] = toBFloat16Bits(value);
      break;
    case DType::I32:
      tensor.data<int32_t>()[i] = static_cast<int32_t>(value);
      break;
    case DType::I64:
      tensor.data<int64_t>()[i] = static_cast<int64_t>(value);
      break;
    case DType::Bool:
      tensor.data<uint8_t>()[i] = value != 0;
      break;
    }
  }
  return tensor;
}

struct TensorCase {
  const char *name;
  DType dtype;
  std::vector<int64_t> shape;
  std::vector<double> values;
  const char *expected;
};

} // namespace

TEST_CASE("formatTensor matches str(tensor) in PyTorch 1.13", "[format]") {
  // Golden strings are pasted verbatim from Python, so keep them unwrapped.
  // clang-format off
  const std::vector<TensorCase> cases = {
    {"int64 vector", DType::I64, {4}, {1.0, -22.0, 333.0, 4.0},
     R"(tensor([  1, -22, 333,   4]))"},
    {"int32 matrix", DType::I32, {3, 4}, ramp(12, -5.0, 1.0),
     R"(tensor([[-5, -4, -3, -2],
        [-1,  0,  1,  2],
        [ 3,  4,  5,  6]], dtype=torch.int32))"},
    {"bool vector", DType::Bool, {3}, {1.0, 0.0, 1.0},
     R"(tensor([ True, False,  True]))"},
    {"bool matrix", DType::Bool, {2, 2}, {1.0, 0.0, 0.0, 1.0},
     R"(tensor([[ True, False],
        [False,  True]]))"},
    {"float fixed", DType::F32, {3}, {1.0, 2.5, -3.25},
     R"(tensor([ 1.0000,  2.5000, -3.2500]))"},
    {"float rounding", DType::F32, {4}, {0.1, 0.123456, 99.99999, -0.00015},
     R"(tensor([ 1.0000e-01,  1.2346e-01,  1.0000e+02, -1.5000e-04]))"},
    {"float integral", DType::F32, {3}, {1.0, -2.0, 30.0},
     R"(tensor([ 1., -2., 30.]))"},
    {"float integral sci", DType::F32, {2}, {1.0, 1000000000.0},
     R"(tensor([1.0000e+00, 1.0000e+09]))"},
    {"float integral ratio sci", DType::F32, {3}, {1.0, 2.0, 5000.0},
     R"(tensor([1.0000e+00, 2.0000e+00, 5.0000e+03]))"},
    {"float small sci", DType::F32, {3}, {1e-05, 1.0, 123.5},
     R"(tensor([1.0000e-05, 1.0000e+00, 1.2350e+02]))"},
    {"float ratio sci", DType::F32, {2}, {0.001, 2.5},
     R"(tensor([1.0000e-03, 2.5000e+00]))"},
    {"float large sci", DType::F64, {2}, {15000000000.0, 25000000000.0},
     R"(tensor([1.5000e+10, 2.5000e+10], dtype=torch.float64))"},
    {"float nan inf", DType::F32, {4}, {kNaN, kInf, -kInf, 1.5},
     R"(tensor([   nan,    inf,   -inf, 1.5000]))"},
    {"float integral nan inf", DType::F32, {3}, {1.0, kNaN, -kInf},
     R"(tensor([1., nan, -inf]))"},
    {"float only nonfinite", DType::F32, {3}, {kNaN, kInf, -kInf},
     R"(tensor([nan, inf, -inf]))"},
    {"float sci nan", DType::F32, {3}, {1e-07, kNaN, 2.0},
     R"(tensor([1.0000e-07,        nan, 2.0000e+00]))"},
    {"float zeros", DType::F32, {3}, {0.0, -0.0, 0.0},
     R"(tensor([0., -0., 0.]))"},
    {"float zeros and fraction", DType::F32, {3}, {0.0, -0.0, 0.5},
     R"(tensor([0.0000, -0.0000, 0.5000]))"},
    {"float scalar", DType::F32, {}, {3.5},
     R"(tensor(3.5000))"},
    {"float scalar integral", DType::F32, {}, {-2.0},
     R"(tensor(-2.))"},
    {"float scalar nan", DType::F32, {}, {kNaN},
     R"(tensor(nan))"},
    {"float scalar sci", DType::F32, {}, {1.25e-09},
     R"(tensor(1.2500e-09))"},
    {"double scalar", DType::F64, {}, {2.0},
     R"(tensor(2., dtype=torch.float64))"},
    {"int scalar", DType::I64, {}, {7.0},
     R"(tensor(7))"},
    {"int32 scalar", DType::I32, {}, {-7.0},
     R"(tensor(-7, dtype=torch.int32))"},
    {"bool scalar", DType::Bool, {}, {1.0},
     R"(tensor(True))"},
    {"empty float", DType::F32, {0}, {},
     R"(tensor([]))"},
    {"empty float 2-D", DType::F32, {0, 3}, {},
     R"(tensor([], size=(0, 3)))"},
    {"empty int64", DType::I64, {0}, {},
     R"(tensor([], dtype=torch.int64))"},
    {"empty bool 3-D", DType::Bool, {2, 0, 3}, {},
     R"(tensor([], size=(2, 0, 3), dtype=torch.bool))"},
    {"empty double", DType::F64, {3, 0}, {},
     R"(tensor([], size=(3, 0), dtype=torch.float64))"},
    {"float 2-D", DType::F32, {2, 3}, {1.5, -2.25, 3.0, 4.0, 5.125, -6.0},
     R"(tensor([[ 1.5000, -2.2500,  3.0000],
        [ 4.0000,  5.1250, -6.0000]]))"},
    {"float 3-D", DType::F32, {2, 3, 4}, ramp(24, -6.0, 0.75),
     R"(tensor([[[-6.0000, -5.2500, -4.5000, -3.7500],
         [-3.0000, -2.2500, -1.5000, -0.7500],
         [ 0.0000,  0.7500,  1.5000,  2.2500]],

        [[ 3.0000,  3.7500,  4.5000,  5.2500],
         [ 6.0000,  6.7500,  7.5000,  8.2500],
         [ 9.0000,  9.7500, 10.5000, 11.2500]]]))"},
    {"int 4-D", DType::I64, {2, 1, 2, 3}, ramp(12, 0.0, 7.0),
     R"(tensor([[[[ 0,  7, 14],
          [21, 28, 35]]],


        [[[42, 49, 56],
          [63, 70, 77]]]]))"},
    {"float wrapping row", DType::F32, {30}, ramp(30, 0.0, 1.1),
     R"(tensor([ 0.0000,  1.1000,  2.2000,  3.3000,  4.4000,  5.5000,  6.6000,  7.7000,
         8.8000,  9.9000, 11.0000, 12.1000, 13.2000, 14.3000, 15.4000, 16.5000,
        17.6000, 18.7000, 19.8000, 20.9000, 22.0000, 23.1000, 24.2000, 25.3000,
        26.4000, 27.5000, 28.6000, 29.7000, 30.8000, 31.9000]))"},
    {"int wrapping rows", DType::I64, {2, 40}, ramp(80, -1000.0, 37.0),
     R"(tensor([[-1000,  -963,  -926,  -889,  -852,  -815,  -778,  -741,  -704,  -667,
          -630,  -593,  -556,  -519,  -482,  -445,  -408,  -371,  -334,  -297,
          -260,  -223,  -186,  -149,  -112,   -75,   -38,    -1,    36,    73,
           110,   147,   184,   221,   258,   295,   332,   369,   406,   443],
        [  480,   517,   554,   591,   628,   665,   702,   739,   776,   813,
           850,   887,   924,   961,   998,  1035,  1072,  1109,  1146,  1183,
          1220,  1257,  1294,  1331,  1368,  1405,  1442,  1479,  1516,  1553,
          1590,  1627,  1664,  1701,  1738,  1775,  1812,  1849,  1886,  1923]]))"},
    {"float 2000 summarized", DType::F32, {2000}, ramp(2000, 0.0, 0.5),
     R"(tensor([0.0000e+00, 5.0000e-01, 1.0000e+00,  ..., 9.9850e+02, 9.9900e+02,
        9.9950e+02]))"},
    {"int 2000 summarized 2-D", DType::I64, {40, 50}, ramp(2000, 0.0, 3.0),
     R"(tensor([[   0,    3,    6,  ...,  141,  144,  147],
        [ 150,  153,  156,  ...,  291,  294,  297],
        [ 300,  303,  306,  ...,  441,  444,  447],
        ...,
        [5550, 5553, 5556,  ..., 5691, 5694, 5697],
        [5700, 5703, 5706,  ..., 5841, 5844, 5847],
        [5850, 5853, 5856,  ..., 5991, 5994, 5997]]))"},
    {"float 2000 summarized 3-D", DType::F32, {250, 2, 4}, ramp(2000, -1.0, 0.25),
     R"(tensor([[[-1.0000e+00, -7.5000e-01, -5.0000e-01, -2.5000e-01],
         [ 0.0000e+00,  2.5000e-01,  5.0000e-01,  7.5000e-01]],

        [[ 1.0000e+00,  1.2500e+00,  1.5000e+00,  1.7500e+00],
         [ 2.0000e+00,  2.2500e+00,  2.5000e+00,  2.7500e+00]],

        [[ 3.0000e+00,  3.2500e+00,  3.5000e+00,  3.7500e+00],
         [ 4.0000e+00,  4.2500e+00,  4.5000e+00,  4.7500e+00]],

        ...,

        [[ 4.9300e+02,  4.9325e+02,  4.9350e+02,  4.9375e+02],
         [ 4.9400e+02,  4.9425e+02,  4.9450e+02,  4.9475e+02]],

        [[ 4.9500e+02,  4.9525e+02,  4.9550e+02,  4.9575e+02],
         [ 4.9600e+02,  4.9625e+02,  4.9650e+02,  4.9675e+02]],

        [[ 4.9700e+02,  4.9725e+02,  4.9750e+02,  4.9775e+02],
         [ 4.9800e+02,  4.9825e+02,  4.9850e+02,  4.9875e+02]]]))"},
    {"int 2000 summarized 3-D", DType::I32, {2, 100, 10}, ramp(2000, -50.0, 1.0),
     R"(tensor([[[ -50,  -49,  -48,  ...,  -43,  -42,  -41],
         [ -40,  -39,  -38,  ...,  -33,  -32,  -31],
         [ -30,  -29,  -28,  ...,  -23,  -22,  -21],
         ...,
         [ 920,  921,  922,  ...,  927,  928,  929],
         [ 930,  931,  932,  ...,  937,  938,  939],
         [ 940,  941,  942,  ...,  947,  948,  949]],

        [[ 950,  951,  952,  ...,  957,  958,  959],
         [ 960,  961,  962,  ...,  967,  968,  969],
         [ 970,  971,  972,  ...,  977,  978,  979],
         ...,
         [1920, 1921, 1922,  ..., 1927, 1928, 1929],
         [1930, 1931, 1932,  ..., 1937, 1938, 1939],
         [1940, 1941, 1942,  ..., 1947, 1948, 1949]]], dtype=torch.int32))"},
    {"deep indent wraps", DType::F32, {1, 1, 1, 1, 1, 1, 12}, ramp(12, 100.0, 0.5),
     R"(tensor([[[[[[[100.0000, 100.5000, 101.0000, 101.5000, 102.0000, 102.5000,
              103.0000, 103.5000, 104.0000, 104.5000, 105.0000, 105.5000]]]]]]]))"},
    {"summarized inner only", DType::F32, {2, 1000}, ramp(2000, 0.0, 1.0),
     R"(tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 9.9700e+02, 9.9800e+02,
         9.9900e+02],
        [1.0000e+03, 1.0010e+03, 1.0020e+03,  ..., 1.9970e+03, 1.9980e+03,
         1.9990e+03]]))"},
    {"double suffix", DType::F64, {3}, {1.0, 2.5, 3.0},
     R"(tensor([1.0000, 2.5000, 3.0000], dtype=torch.float64))"},
    {"double suffix wraps", DType::F64, {9}, ramp(9, 1.5, 1.0),
     R"(tensor([1.5000, 2.5000, 3.5000, 4.5000, 5.5000, 6.5000, 7.5000, 8.5000, 9.5000],
       dtype=torch.float64))"},
    {"double long line suffix", DType::F64, {2, 9}, ramp(18, 1.5, 1.0),
     R"(tensor([[ 1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,  8.5000,
          9.5000],
        [10.5000, 11.5000, 12.5000, 13.5000, 14.5000, 15.5000, 16.5000, 17.5000,
         18.5000]], dtype=torch.float64))"},
    {"int32 suffix", DType::I32, {3}, {1.0, 2.0, 3.0},
     R"(tensor([1, 2, 3], dtype=torch.int32))"},
    {"half suffix", DType::F16, {3}, {1.0, 0.5, -2.75},
     R"(tensor([ 1.0000,  0.5000, -2.7500], dtype=torch.float16))"},
    {"half integral", DType::F16, {2}, {1.0, 2.0},
     R"(tensor([1., 2.], dtype=torch.float16))"},
    {"bfloat16 suffix", DType::BF16, {3}, {1.0, 0.5, -2.75},
     R"(tensor([ 1.0000,  0.5000, -2.7500], dtype=torch.bfloat16))"},
    {"half subnormal", DType::F16, {2}, {5.960464477539063e-08, 1.0},
     R"(tensor([5.9605e-08, 1.0000e+00], dtype=torch.float16))"},
    {"double precise", DType::F64, {3}, {0.1, 0.3333333333333333, 0.6666666666666666},
     R"(tensor([0.1000, 0.3333, 0.6667], dtype=torch.float64))"},
  };
  // clang-format on
  for (const TensorCase &c : cases) {
    INFO("case: " << c.name);
    CHECK(formatTensor(makeTensor(c.dtype, c.shape, c.values)) == c.expected);
  }
}

TEST_CASE("formatTensor matches PyTorch on generated tensors",
          "[format][python]") {
  // Pseudo-random tensors across dtypes, shapes and magnitudes (including
  // nan, inf, zeros and summarized sizes) go to PyTorch through .npy files,
  // so both sides print exactly the same bits. bf16 has no .npy dtype and is
  // covered by the golden cases above.
  const DType dtypes[] = {DType::F32, DType::F64, DType::F16,
                          DType::I32, DType::I64, DType::Bool};
  const std::vector<std::vector<int64_t>> shapes = {
      {},      {1},      {5},       {0},         {3, 4}, {2, 3, 4},
      {1200},  {30, 40}, {7, 1, 9}, {2, 0},      {13},   {1, 2, 1, 3},
      {4, 25}, {250, 5}, {11, 1},   {3, 3, 3, 3}};
  const double scales[] = {1, 1e-3, 1e-6, 123.456, 1e7, 1e12, 0.5, 3e-5};
  std::mt19937_64 rng(20240611);
  TempDir dir;
  std::vector<std::string> printed;
  const int count = 120;
  for (int i = 0; i < count; ++i) {
    DType dtype = dtypes[i % 6];
    const std::vector<int64_t> &shape = shapes[rng() % shapes.size()];
    double scale = scales[rng() % 8];
    bool integral = rng() % 3 == 0, nonFinite = rng() % 4 == 0;
    int64_t numel = 1;
    for (int64_t dim : shape)
      numel *= dim;
    std::vector<double> values;
    for (int64_t k = 0; k < numel; ++k) {
      double value =
          static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000);
      if (dtype == DType::Bool)
        value = static_cast<double>(rng() % 2);
      else if (dtype == DType::I32 || dtype == DType::I64 || integral)
        value *= integral ? std::floor(scale + 1) : 1;
      else
        value *= scale / 7;
      if (nonFinite && rng() % 5 == 0 && dtype != DType::Bool &&
          dtype != DType::I32 && dtype != DType::I64)
        value = rng() % 2 ? kNaN : (rng() % 2 ? kInf : -kInf);
      values.push_back(value);
    }
    Tensor tensor = makeTensor(dtype, shape, values);
    REQUIRE(writeNpy(dir / (std::to_string(i) + ".npy"), tensor).ok());
    printed.push_back(formatTensor(tensor));
  }
  std::string output = runPython(dir, R"(
import sys, numpy as np, torch
for i in range()" + std::to_string(count) +
                                          R"():
    print(str(torch.from_numpy(np.load(f'{sys.argv[1]}/{i}.npy'))))
    print('<end>')
)");
  size_t pos = 0;
  for (int i = 0; i < count; ++i) {
    size_t end = output.find("\n<end>\n", pos);
    REQUIRE(end != std::string::npos);
    INFO("generated tensor " << i);
    CHECK(printed[i] == output.substr(pos, end - pos));
    pos = end + 7;
  }
}

TEST_CASE("formatTensor prints int64 values beyond double precision",
          "[format]") {
  // torch.tensor([2**62 + 1, -2**63, 5])
  std::vector<int64_t> values = {(int64_t(1) << 62) + 1,
                                 std::numeric_limits<int64_t>::min(), 5};
  Tensor tensor = Tensor::borrow(DType::I64, {3}, values.data());
  CHECK(formatTensor(tensor) ==
        "tensor([ 4611686018427387905, -9223372036854775808,"
        "                    5])");
}

TEST_CASE("formatTensor reads bool bytes as Python bools", "[format]") {
  uint8_t values[] = {1, 0, 0, 1, 1, 1};
  CHECK(formatTensor(Tensor::borrow(DType::Bool, {3, 2}, values)) ==
        "tensor([[ True, False],\n"
        "        [False,  True],\n"
        "        [ True,  True]])");
}

TEST_CASE("formatTensor names the device of a CUDA tensor's values",
          "[format]") {
  // str() of CUDA tensors in PyTorch: the device comes first among the
  // suffixes, then an empty tensor's size and a dtype other than the
  // default ones. (The GPU differential test compares such prints with
  // eager PyTorch on CUDA.)
  float floats[] = {1.5f, 2.0f};
  CHECK(formatTensor(Tensor::borrow(DType::F32, {2}, floats), Device::CUDA) ==
        "tensor([1.5000, 2.0000], device='cuda:0')");
  CHECK(formatTensor(Tensor::borrow(DType::F32, {}, floats), Device::CUDA) ==
        "tensor(1.5000, device='cuda:0')");
  int32_t ints[] = {1, 2};
  CHECK(formatTensor(Tensor::borrow(DType::I32, {2}, ints), Device::CUDA) ==
        "tensor([1, 2], device='cuda:0', dtype=torch.int32)");
  CHECK(formatTensor(Tensor::zeros(DType::F32, {2, 0}), Device::CUDA) ==
        "tensor([], device='cuda:0', size=(2, 0))");
  CHECK(formatTensor(Tensor::borrow(DType::F32, {2}, floats), Device::CPU) ==
        "tensor([1.5000, 2.0000])");
}

TEST_CASE("formatTensor of a default-constructed tensor", "[format]") {
  CHECK(formatTensor(Tensor()) == "tensor([])");
}

TEST_CASE("formatFloat matches Python repr", "[format]") {
  const std::vector<std::pair<double, const char *>> cases = {
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {1.0, "1.0"},
      {-2.0, "-2.0"},
      {0.1, "0.1"},
      {2.5, "2.5"},
      {0.3333333333333333, "0.3333333333333333"},
      {100.0, "100.0"},
      {1000000000000000.0, "1000000000000000.0"},
      {1e+16, "1e+16"},
      {9999999999999998.0, "9999999999999998.0"},
      {1.2345678901234568e+17, "1.2345678901234568e+17"},
      {1e+22, "1e+22"},
      {12345678.9, "12345678.9"},
      {0.0001, "0.0001"},
      {1e-05, "1e-05"},
      {0.00012345, "0.00012345"},
      {-1.5e-07, "-1.5e-07"},
      {5e-324, "5e-324"},
      {1.7976931348623157e+308, "1.7976931348623157e+308"},
      {kNaN, "nan"},
      {kInf, "inf"},
      {-kInf, "-inf"},
      {3.14159, "3.14159"},
      {1.5e+300, "1.5e+300"},
      {9.5367431640625e-07, "9.5367431640625e-07"},
      {-123.456, "-123.456"},
  };
  for (const auto &[value, expected] : cases) {
    INFO("value: " << expected);
    CHECK(formatFloat(value) == expected);
  }
}

TEST_CASE("formatInt and formatBool match Python str", "[format]") {
  CHECK(formatInt(0) == "0");
  CHECK(formatInt(-42) == "-42");
  CHECK(formatInt(std::numeric_limits<int64_t>::min()) ==
        "-9223372036854775808");
  CHECK(formatBool(true) == "True");
  CHECK(formatBool(false) == "False");
}
