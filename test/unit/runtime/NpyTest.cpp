//===- NpyTest.cpp - .npy reading and writing, checked against numpy ------===//
//
// Besides round trips, these tests run the real numpy (KILN_TEST_PYTHON) to
// load what writeNpy wrote, to compare it byte for byte with numpy.save, and
// to write the files (Fortran order, big-endian, versions 2.0 and 3.0) that
// readNpy must accept.
//
//===----------------------------------------------------------------------===//

#include "kiln/Npy.h"
#include "PythonTestUtil.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;
using namespace kiln::test;

namespace {

/// A .npy file with an arbitrary header dict, unpadded (readers must not
/// depend on the padding).
std::string rawNpy(const std::string &dict, int major = 1,
                   const std::string &data = "") {
  std::string header = dict + "\n";
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  int lengthBytes = major == 1 ? 2 : 4;
  for (int i = 0; i < lengthBytes; ++i)
    out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

template <typename T>
Tensor filled(DType dtype, std::vector<int64_t> shape,
              const std::vector<T> &values) {
  Tensor tensor = Tensor::zeros(dtype, std::move(shape));
  REQUIRE(tensor.nbytes() == values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(tensor.data(), values.data(), tensor.nbytes());
  return tensor;
}

template <typename T> std::vector<T> valuesOf(const Tensor &tensor) {
  REQUIRE(tensor.nbytes() == static_cast<size_t>(tensor.numel()) * sizeof(T));
  const T *data = tensor.data<T>();
  return std::vector<T>(data, data + tensor.numel());
}

Tensor readOk(const std::string &path) {
  Result<Tensor> result = readNpy(path);
  INFO(path << ": " << (result ? "" : result.error().message));
  REQUIRE(result.ok());
  return std::move(result).value();
}

/// f16 bit patterns of small exact values, so the test needs no converter.
constexpr uint16_t kHalfOne = 0x3c00, kHalfHalf = 0x3800,
                   kHalfMinusTwo = 0xc000;

/// The tensors the numpy cross-checks write, one per dtype and rank case.
struct Sample {
  const char *name;
  Tensor tensor;
};

std::vector<Sample> samples() {
  return {
      {"f32", filled<float>(DType::F32, {2, 3}, {0, 0.5, 1, 1.5, 2, 2.5})},
      {"f64", filled<double>(DType::F64, {}, {-1.25})},
      {"f16",
       filled<uint16_t>(DType::F16, {3}, {kHalfOne, kHalfHalf, kHalfMinusTwo})},
      {"i32", filled<int32_t>(DType::I32, {5}, {-2, -1, 0, 1, 2})},
      {"i64", filled<int64_t>(DType::I64, {0, 3}, {})},
      {"bool", filled<uint8_t>(DType::Bool, {2, 1, 2}, {1, 0, 0, 1})},
      {"wide", filled<int64_t>(DType::I64, {1234567, 0}, {})},
  };
}

} // namespace

TEST_CASE("writeNpy then readNpy round-trips every numpy dtype", "[npy]") {
  TempDir dir;
  for (const Sample &sample : samples()) {
    INFO("sample " << sample.name);
    std::string path = dir / (std::string(sample.name) + ".npy");
    Result<void> written = writeNpy(path, sample.tensor);
    REQUIRE(written.ok());
    Tensor back = readOk(path);
    CHECK(back.dtype() == sample.tensor.dtype());
    CHECK(back.shape() == sample.tensor.shape());
    REQUIRE(back.nbytes() == sample.tensor.nbytes());
    CHECK(std::memcmp(back.data(), sample.tensor.data(), back.nbytes()) == 0);
    // The data starts on a 64-byte boundary, as numpy guarantees.
    CHECK((readFile(path).size() - back.nbytes()) % 64 == 0);
  }
}

TEST_CASE("writeNpy output is byte-identical to numpy.save", "[npy][python]") {
  TempDir dir;
  for (const Sample &sample : samples())
    REQUIRE(writeNpy(dir / (std::string(sample.name) + ".npy"), sample.tensor)
                .ok());
  runPython(dir, R"(
import sys, numpy as np
d = sys.argv[1]
np.save(d + '/f32_ref.npy', (np.arange(6, dtype='<f4') / 2).reshape(2, 3))
np.save(d + '/f64_ref.npy', np.array(-1.25, dtype='<f8'))
np.save(d + '/f16_ref.npy', np.array([1, 0.5, -2], dtype='<f2'))
np.save(d + '/i32_ref.npy', np.arange(-2, 3, dtype='<i4'))
np.save(d + '/i64_ref.npy', np.zeros((0, 3), dtype='<i8'))
np.save(d + '/bool_ref.npy', np.array([[[True, False]], [[False, True]]]))
np.save(d + '/wide_ref.npy', np.zeros((1234567, 0), dtype='<i8'))
)");
  for (const Sample &sample : samples()) {
    INFO("sample " << sample.name);
    std::string ours = readFile(dir / (std::string(sample.name) + ".npy"));
    std::string theirs =
        readFile(dir / (std::string(sample.name) + "_ref.npy"));
    REQUIRE(!theirs.empty());
    CHECK(ours == theirs);
  }
}

TEST_CASE("numpy.load reads what writeNpy wrote", "[npy][python]") {
  TempDir dir;
  for (const Sample &sample : samples())
    REQUIRE(writeNpy(dir / (std::string(sample.name) + ".npy"), sample.tensor)
                .ok());
  std::string output = runPython(dir, R"(
import sys, numpy as np
for name in ['f32', 'f64', 'f16', 'i32', 'i64', 'bool']:
    a = np.load(sys.argv[1] + '/' + name + '.npy')
    print(name, a.dtype.str, a.shape, a.flags.c_contiguous, a.tolist())
)");
  CHECK(output ==
        "f32 <f4 (2, 3) True [[0.0, 0.5, 1.0], [1.5, 2.0, 2.5]]\n"
        "f64 <f8 () True -1.25\n"
        "f16 <f2 (3,) True [1.0, 0.5, -2.0]\n"
        "i32 <i4 (5,) True [-2, -1, 0, 1, 2]\n"
        "i64 <i8 (0, 3) True []\n"
        "bool |b1 (2, 1, 2) True [[[True, False]], [[False, True]]]\n");
}

TEST_CASE("readNpy reads Fortran-order, big-endian and v2/v3 files from numpy",
          "[npy][python]") {
  TempDir dir;
  runPython(dir, R"(
import sys, numpy as np
from numpy.lib import format
d = sys.argv[1] + '/'
np.save(d + 'c_f4.npy', (np.arange(6, dtype='<f4') / 4).reshape(2, 3))
np.save(d + 'fortran_f8.npy',
        np.asfortranarray(np.arange(24, dtype='<f8').reshape(2, 3, 4)))
np.save(d + 'big_i4.npy', np.arange(-3, 3, dtype='>i4').reshape(3, 2))
np.save(d + 'big_fortran_f2.npy',
        np.asfortranarray(np.arange(6, dtype='>f2').reshape(2, 3)))
np.save(d + 'big_scalar_f8.npy', np.array(-1.25, dtype='>f8'))
np.save(d + 'empty_f4.npy', np.zeros((0, 4), dtype='<f4'))
with open(d + 'v2_i8.npy', 'wb') as f:
    format.write_array(f, np.array([1, -2, 2**40], dtype='<i8'), version=(2, 0))
with open(d + 'v3_b1.npy', 'wb') as f:
    format.write_array(f, np.array([[True, False, True]]), version=(3, 0))
)");
  {
    Tensor t = readOk(dir / "c_f4.npy");
    CHECK(t.dtype() == DType::F32);
    CHECK(t.shape() == std::vector<int64_t>{2, 3});
    CHECK(valuesOf<float>(t) ==
          std::vector<float>{0, 0.25, 0.5, 0.75, 1, 1.25});
  }
  {
    Tensor t = readOk(dir / "fortran_f8.npy");
    CHECK(t.dtype() == DType::F64);
    CHECK(t.shape() == std::vector<int64_t>{2, 3, 4});
    std::vector<double> expected;
    for (int i = 0; i < 24; ++i)
      expected.push_back(i);
    CHECK(valuesOf<double>(t) == expected);
  }
  {
    Tensor t = readOk(dir / "big_i4.npy");
    CHECK(t.dtype() == DType::I32);
    CHECK(t.shape() == std::vector<int64_t>{3, 2});
    CHECK(valuesOf<int32_t>(t) == std::vector<int32_t>{-3, -2, -1, 0, 1, 2});
  }
  {
    // 0, 1, 2, 3, 4, 5 as f16 bit patterns.
    Tensor t = readOk(dir / "big_fortran_f2.npy");
    CHECK(t.dtype() == DType::F16);
    CHECK(t.shape() == std::vector<int64_t>{2, 3});
    CHECK(valuesOf<uint16_t>(t) == std::vector<uint16_t>{0x0000, 0x3c00, 0x4000,
                                                         0x4200, 0x4400,
                                                         0x4500});
  }
  {
    Tensor t = readOk(dir / "big_scalar_f8.npy");
    CHECK(t.rank() == 0);
    CHECK(valuesOf<double>(t) == std::vector<double>{-1.25});
  }
  {
    Tensor t = readOk(dir / "empty_f4.npy");
    CHECK(t.shape() == std::vector<int64_t>{0, 4});
    CHECK(t.numel() == 0);
  }
  {
    Tensor t = readOk(dir / "v2_i8.npy");
    CHECK(t.dtype() == DType::I64);
    CHECK(valuesOf<int64_t>(t) ==
          std::vector<int64_t>{1, -2, int64_t(1) << 40});
  }
  {
    Tensor t = readOk(dir / "v3_b1.npy");
    CHECK(t.dtype() == DType::Bool);
    CHECK(t.shape() == std::vector<int64_t>{1, 3});
    CHECK(valuesOf<uint8_t>(t) == std::vector<uint8_t>{1, 0, 1});
  }
}

TEST_CASE("readNpy accepts header variations numpy accepts", "[npy]") {
  TempDir dir;
  std::string data(12, '\0');
  data[0] = 7; // i4 [7, 0, 0], little-endian
  SECTION("keys in any order, double quotes, Python 2 longs, trailing data") {
    std::string path = dir / "variant.npy";
    writeFile(path, rawNpy("{\"shape\": (3L,), 'fortran_order': False,"
                           "  'descr': '<i4'}",
                           1, data + "garbage"));
    Tensor t = readOk(path);
    CHECK(t.shape() == std::vector<int64_t>{3});
    CHECK(valuesOf<int32_t>(t) == std::vector<int32_t>{7, 0, 0});
  }
  SECTION("bool bytes are normalized to 0 and 1") {
    std::string path = dir / "bools.npy";
    writeFile(path, rawNpy("{'descr': '|b1', 'fortran_order': False, "
                           "'shape': (3,), }",
                           1, std::string("\x00\x02\xff", 3)));
    CHECK(valuesOf<uint8_t>(readOk(path)) == std::vector<uint8_t>{0, 1, 1});
  }
}

TEST_CASE("writeNpy refuses bf16 and reports I/O errors", "[npy]") {
  TempDir dir;
  std::string path = dir / "b.npy";
  Result<void> bf16 = writeNpy(path, Tensor::zeros(DType::BF16, {2}));
  REQUIRE_FALSE(bf16.ok());
  CHECK(bf16.error().message ==
        path + ": cannot write bf16: numpy has no bfloat16 dtype "
               "(convert to f32 first)");
  CHECK_FALSE(std::filesystem::exists(path));

  std::string missing = dir / "no-such-dir/x.npy";
  Result<void> io = writeNpy(missing, Tensor::zeros(DType::F32, {2}));
  REQUIRE_FALSE(io.ok());
  CHECK(io.error().message ==
        missing + ": cannot open for writing: no such file or directory");
}

TEST_CASE("readNpy reports every malformed file with its path", "[npy]") {
  TempDir dir;
  const std::string goodDict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  struct BadFile {
    const char *name;
    std::string bytes;
    std::string message;
  };
  const std::vector<BadFile> cases = {
      {"empty", "", "not a .npy file: bad magic"},
      {"magic", "\x93NUMPZ\x01\x00", "not a .npy file: bad magic"},
      {"text", "hello, world\n", "not a .npy file: bad magic"},
      {"no-version", "\x93NUMPY", "truncated header"},
      {"no-length", std::string("\x93NUMPY\x01\x00\x10", 9),
       "truncated header"},
      {"version", std::string("\x93NUMPY\x04\x00\x10\x00", 10),
       "unsupported .npy version 4.0"},
      {"minor", std::string("\x93NUMPY\x01\x01\x10\x00", 10),
       "unsupported .npy version 1.1"},
      {"short-header", rawNpy(goodDict).substr(0, 30),
       "truncated header: expected 60 bytes, found 20"},
      {"not-dict", rawNpy("[1, 2]"), "malformed header: expected '{'"},
      {"unclosed", rawNpy("{'descr': '<f4', 'shape': (2, 3)"),
       "malformed header: expected ',' or '}'"},
      {"after-dict", rawNpy(goodDict + " x"),
       "malformed header: unexpected text after the dictionary"},
      {"bad-key", rawNpy("{descr: '<f4'}"),
       "malformed header: expected a string key"},
      {"missing-shape", rawNpy("{'descr': '<f4', 'fortran_order': False}"),
       "malformed header: missing key 'shape'"},
      {"extra-key",
       rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (), "
              "'foo': 1}"),
       "malformed header: unexpected key 'foo'"},
      {"shape-int",
       rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (3)}"),
       "malformed header: 'shape' is not a tuple"},
      {"shape-list",
       rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': [3]}"),
       "malformed header: 'shape' is not a tuple"},
      {"shape-negative",
       rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}"),
       "malformed header: 'shape' has a negative dimension"},
      {"shape-float",
       rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1.5,)}"),
       "malformed header: expected ',' or ')' in 'shape'"},
      {"shape-overflow",
       rawNpy("{'descr': '<f8', 'fortran_order': False, "
              "'shape': (4294967296, 4294967296)}"),
       "shape (4294967296, 4294967296) is too large: kiln reads arrays whose "
       "dims, with each 0 counted as 1, span at most 2^47 bytes"},
      // Empty arrays whose other dims are huge: compiled code could derive
      // a non-empty shape from them (x.sum(0)) whose byte size wraps.
      {"zero-by-2-32-by-2-32",
       rawNpy("{'descr': '<f4', 'fortran_order': False, "
              "'shape': (0, 4294967296, 4294967296)}"),
       "shape (0, 4294967296, 4294967296) is too large: kiln reads arrays "
       "whose dims, with each 0 counted as 1, span at most 2^47 bytes"},
      {"zero-by-2-62-plus-1",
       rawNpy("{'descr': '<f4', 'fortran_order': False, "
              "'shape': (0, 4611686018427387905)}"),
       "shape (0, 4611686018427387905) is too large: kiln reads arrays "
       "whose dims, with each 0 counted as 1, span at most 2^47 bytes"},
      {"zero-elements-2-30-by-2-31-by-0",
       rawNpy("{'descr': '<f4', 'fortran_order': False, "
              "'shape': (1073741824, 2147483648, 0)}"),
       "shape (1073741824, 2147483648, 0) is too large: kiln reads arrays "
       "whose dims, with each 0 counted as 1, span at most 2^47 bytes"},
      {"rank-65",
       rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (" +
              [] {
                std::string dims;
                for (int i = 0; i < 65; ++i)
                  dims += "1, ";
                return dims;
              }() +
              ")}"),
       "malformed header: 'shape' has more than 64 dims"},
      {"long-header", rawNpy(goodDict + std::string(10000 - goodDict.size(), ' ')),
       "header of 10001 bytes is longer than the 10000 numpy.load reads"},
      // Bytes that could garble a terminal are escaped, as in the zip
      // reader's messages.
      {"control-key", rawNpy("{'a\x1b[2J\x07': 1}"),
       "malformed header: unexpected key 'a\\x1b[2J\\x07'"},
      {"invalid-utf8-descr",
       rawNpy("{'descr': '\xff\xc3(', 'fortran_order': False, 'shape': ()}"),
       "unsupported dtype '\\xff\\xc3(' (supported: <f2, <f4, <f8, <i4, "
       "<i8, |b1)"},
      {"fortran-value",
       rawNpy("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}"),
       "malformed header: 'fortran_order' is not True or False"},
      {"complex",
       rawNpy("{'descr': '<c8', 'fortran_order': False, 'shape': (2,)}"),
       "unsupported dtype '<c8' (supported: <f2, <f4, <f8, <i4, <i8, |b1)"},
      {"unsigned",
       rawNpy("{'descr': '<u2', 'fortran_order': False, 'shape': (2,)}"),
       "unsupported dtype '<u2' (supported: <f2, <f4, <f8, <i4, <i8, |b1)"},
      {"structured",
       rawNpy("{'descr': [('a', '<f4'), ('b', '<i4')], "
              "'fortran_order': False, 'shape': (2,)}"),
       "unsupported dtype: structured arrays are not supported"},
      {"short-data", rawNpy(goodDict, 1, std::string(12, '\0')),
       "truncated data: expected 24 bytes, found 12"},
      {"huge-data",
       rawNpy("{'descr': '<f4', 'fortran_order': False, "
              "'shape': (100000000000,)}"),
       "truncated data: expected 400000000000 bytes, found 0"},
      {"v2-short-data", rawNpy(goodDict, 2, std::string(23, '\0')),
       "truncated data: expected 24 bytes, found 23"},
  };
  for (const BadFile &bad : cases) {
    INFO("case " << bad.name);
    std::string path = dir / (std::string(bad.name) + ".npy");
    writeFile(path, bad.bytes);
    Result<Tensor> result = readNpy(path);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == path + ": " + bad.message);
  }

  std::string missing = dir / "missing.npy";
  Result<Tensor> result = readNpy(missing);
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().message ==
        missing + ": cannot open: no such file or directory");

  Result<Tensor> directory = readNpy(dir.path());
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.error().message == dir.path() + ": not a regular file");
}

TEST_CASE("readNpy refuses a FIFO without blocking", "[npy]") {
  TempDir dir;
  std::string fifo = dir / "x.npy";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // A regression would block in open() for a writer that never comes.
  alarm(30);
  Result<Tensor> result = readNpy(fifo);
  alarm(0);
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().message == fifo + ": not a regular file");
}
