//===- WeightsTest.cpp - Reading safetensors, and random weights ----------===//
//
// Good files come from real PyTorch and the real `safetensors` package
// (installed by `./dev deps` into BUILD/python-deps), written through
// test/Inputs/save_state_dict.py, so that kiln reads what users' tools
// write. Broken files are made byte by byte here: every one must give one
// message naming the file, never a crash and never partial output.
//
//===----------------------------------------------------------------------===//

#include "codegen/archive/Weights.h"
#include "PythonTestUtil.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>

#include <sys/stat.h>
#include <unistd.h>

#ifndef KILN_TEST_KILN
#error "KILN_TEST_KILN must name the kiln compiler binary (see test/CMakeLists.txt)"
#endif
#ifndef KILN_TEST_EXAMPLES
#error "KILN_TEST_EXAMPLES must name the source tree's examples/ directory (see test/CMakeLists.txt)"
#endif

using namespace kiln;
using namespace kiln::test;
using Catch::Matchers::StartsWith;

namespace {

/// The build tree is where KILN_TEST_KILN lives (BUILD/bin/kiln); ./dev
/// deps installs safetensors into BUILD/python-deps.
std::string pythonDeps() {
  return (std::filesystem::path(KILN_TEST_KILN).parent_path().parent_path() /
          "python-deps")
      .string();
}

std::string inputsDir() {
  return std::string(KILN_TEST_EXAMPLES) + "/../test/Inputs";
}

/// A Python script that can use torch and save_state_dict; its output
/// directory is `out`.
std::string withTorch(const std::string &body) {
  return "import sys\n"
         "sys.path.insert(0, '" +
         inputsDir() +
         "')\n"
         "import save_state_dict\n"
         "save_state_dict.add_python_deps('" +
         pythonDeps() +
         "')\n"
         "import torch\n"
         "out = sys.argv[1]\n" +
         body;
}

/// A safetensors file: the header's length, the header, the data.
std::string safetensors(const std::string &header, const std::string &data) {
  std::string out;
  for (int i = 0; i < 8; ++i)
    out.push_back(char(uint64_t(header.size()) >> (8 * i)));
  return out + header + data;
}

std::string readError(const std::string &path,
                      const std::vector<WeightSpec> &expected) {
  std::vector<WeightData> out = {{"stale", "f32", {}, "xxxx"}};
  std::string error = readSafetensors(path, expected, out);
  CHECK(out.empty());
  return error;
}

std::vector<WeightData> readOk(const std::string &path,
                               const std::vector<WeightSpec> &expected) {
  std::vector<WeightData> out;
  std::string error = readSafetensors(path, expected, out);
  INFO(error);
  REQUIRE(error.empty());
  REQUIRE(out.size() == expected.size());
  return out;
}

std::vector<float> floatsOf(const WeightData &data) {
  std::vector<float> values(data.bytes.size() / 4);
  std::memcpy(values.data(), data.bytes.data(), values.size() * 4);
  return values;
}

} // namespace

//===----------------------------------------------------------------------===//
// Files written by PyTorch
//===----------------------------------------------------------------------===//

TEST_CASE("readSafetensors returns torch's bytes for every dtype",
          "[weights]") {
  TempDir dir;
  runPython(dir, withTorch(R"(
torch.manual_seed(0)
state = {
    "layer.0.weight": torch.randn(2, 3),
    "h": torch.randn(5).half(),
    "b": torch.randn(2, 2).bfloat16(),
    "d": torch.randn(3, dtype=torch.float64),
    "i": torch.tensor([-5, 1 << 40]),
    "j": torch.tensor([1, -2, 3, 7], dtype=torch.int32),
    "m": torch.tensor([True, False, True]),
    "s": torch.tensor(2.5),
    "e": torch.zeros(0, 4),
}
save_state_dict.save(state, out + "/w.safetensors")
for name, t in state.items():
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)  # numpy has no bfloat16
    with open(out + "/" + name + ".bin", "wb") as f:
        f.write(t.numpy().tobytes())
)"));
  // Not in the file's order: the result follows `expected`.
  std::vector<WeightSpec> expected = {
      {"s", "f32", {}, ""},
      {"e", "f32", {0, 4}, ""},
      {"m", "bool", {3}, ""},
      {"j", "i32", {4}, ""},
      {"i", "i64", {2}, ""},
      {"d", "f64", {3}, ""},
      {"b", "bf16", {2, 2}, ""},
      {"h", "f16", {5}, ""},
      {"layer.0.weight", "f32", {2, 3}, "net.py:3:5"},
  };
  std::vector<WeightData> out = readOk(dir / "w.safetensors", expected);
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO(expected[i].name);
    CHECK(out[i].name == expected[i].name);
    CHECK(out[i].dtype == expected[i].dtype);
    CHECK(out[i].shape == expected[i].shape);
    CHECK(out[i].bytes == readFile(dir / (expected[i].name + ".bin")));
  }
  CHECK(floatsOf(out[0]) == std::vector<float>{2.5f});
  CHECK(out[1].bytes.empty());
}

TEST_CASE("save_state_dict.py saves a module's state_dict", "[weights]") {
  TempDir dir;
  writeFile(dir / "net.py", R"(import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.bn = nn.BatchNorm2d(6)
        self.fc = nn.Linear(24, 10)
        self.tied = self.fc  # shares storage, which save_file refuses

    def forward(self, x):
        return self.fc(self.bn(self.conv1(x)).flatten(1))
)");
  runPython(dir, withTorch(R"(
import subprocess
subprocess.check_call([sys.executable, ")" +
                           inputsDir() + R"(/save_state_dict.py",
                       out + "/net.py", "Net", out + "/net.safetensors",
                       "--seed", "5", "--deps", ")" +
                           pythonDeps() + R"("])
sys.path.insert(0, out)
import net
torch.manual_seed(5)
with open(out + "/conv1.weight.bin", "wb") as f:
    f.write(net.Net().conv1.weight.detach().numpy().tobytes())
)"));
  std::vector<WeightSpec> expected = {
      {"conv1.weight", "f32", {6, 1, 3, 3}, ""},
      {"conv1.bias", "f32", {6}, ""},
      {"bn.weight", "f32", {6}, ""},
      {"bn.bias", "f32", {6}, ""},
      {"bn.running_mean", "f32", {6}, ""},
      {"bn.running_var", "f32", {6}, ""},
      {"bn.num_batches_tracked", "i64", {}, ""},
      {"fc.weight", "f32", {10, 24}, ""},
      {"fc.bias", "f32", {10}, ""},
      {"tied.weight", "f32", {10, 24}, ""},
      {"tied.bias", "f32", {10}, ""},
  };
  std::vector<WeightData> out = readOk(dir / "net.safetensors", expected);
  CHECK(out[0].bytes == readFile(dir / "conv1.weight.bin"));
  CHECK(out[7].bytes == out[9].bytes);
  CHECK(floatsOf(out[5]) == std::vector<float>(6, 1.0f));
}

TEST_CASE("one message lists every mismatched weight, sorted by name",
          "[weights]") {
  TempDir dir;
  runPython(dir, withTorch(R"(
save_state_dict.save({
    "conv1.weight": torch.zeros(6, 1, 3, 3),
    "conv1.bias": torch.zeros(6).half(),
    "fc1.weight": torch.zeros(120, 400),
    "fc1.bias": torch.zeros(120),
    "fc2.weight": torch.zeros(84, 120, dtype=torch.float64),
    "fc4.weight": torch.zeros(10, 84),
    "aa.extra": torch.zeros(2, dtype=torch.int64),
}, out + "/net.safetensors")
)"));
  std::vector<WeightSpec> expected = {
      {"conv1.weight", "f32", {6, 1, 3, 3}, "lenet.py:8:22"},
      {"conv1.bias", "f32", {6}, "lenet.py:8:22"},
      {"fc1.weight", "f32", {120, 576}, "lenet.py:9:20"},
      {"fc1.bias", "f32", {120}, "lenet.py:9:20"},
      {"fc2.weight", "f32", {84, 576}, "lenet.py:10:20"},
      {"fc3.weight", "f32", {10, 84}, ""},
      {"fc3.bias", "f32", {10}, "lenet.py:11:20"},
  };
  std::string path = dir / "net.safetensors";
  CHECK(readError(path, expected) ==
        path + " does not match the weights of the model:\n"
               "  unexpected aa.extra: found i64[2]\n"
               "  wrong dtype for conv1.bias: expected f32[6], found f16[6] "
               "(declared at lenet.py:8:22)\n"
               "  wrong shape for fc1.weight: expected f32[120, 576], found "
               "f32[120, 400] (declared at lenet.py:9:20)\n"
               "  wrong dtype and shape for fc2.weight: expected f32[84, 576], "
               "found f64[84, 120] (declared at lenet.py:10:20)\n"
               "  missing fc3.bias: expected f32[10] (declared at "
               "lenet.py:11:20)\n"
               "  missing fc3.weight: expected f32[10, 84]\n"
               "  unexpected fc4.weight: found f32[10, 84]");

  // A model without weights takes only an empty file.
  CHECK(readError(path, {}) ==
        path + " does not match the weights of the model:\n"
               "  unexpected aa.extra: found i64[2]\n"
               "  unexpected conv1.bias: found f16[6]\n"
               "  unexpected conv1.weight: found f32[6, 1, 3, 3]\n"
               "  unexpected fc1.bias: found f32[120]\n"
               "  unexpected fc1.weight: found f32[120, 400]\n"
               "  unexpected fc2.weight: found f64[84, 120]\n"
               "  unexpected fc4.weight: found f32[10, 84]");
}

TEST_CASE("every truncation of a torch file is reported as truncated",
          "[weights]") {
  TempDir dir;
  runPython(dir, withTorch(R"(
save_state_dict.save({"a": torch.ones(3, 5), "b": torch.ones(7).half()},
                     out + "/w.safetensors")
)"));
  std::string bytes = readFile(dir / "w.safetensors");
  std::vector<WeightSpec> expected = {{"a", "f32", {3, 5}, ""},
                                      {"b", "f16", {7}, ""}};
  readOk(dir / "w.safetensors", expected);
  for (size_t size = 0; size < bytes.size(); ++size) {
    INFO("truncated to " << size << " of " << bytes.size() << " bytes");
    std::string path = dir / "cut.safetensors";
    writeFile(path, bytes.substr(0, size));
    CHECK_THAT(readError(path, expected), StartsWith(path + ": truncated "));
  }
}

//===----------------------------------------------------------------------===//
// Broken files, byte by byte
//===----------------------------------------------------------------------===//

TEST_CASE("readSafetensors refuses a broken file with one message",
          "[weights]") {
  TempDir dir;
  std::string path = dir / "w.safetensors";
  std::vector<WeightSpec> w4 = {{"w", "f32", {4}, ""}};
  std::string data16(16, '\0');
  auto error = [&](const std::string &bytes,
                   const std::vector<WeightSpec> &expected) {
    writeFile(path, bytes);
    return readError(path, expected);
  };
  auto tensor = [](const std::string &name, const std::string &dtype,
                   const std::string &shape, const std::string &offsets) {
    return "\"" + name + "\": {\"dtype\": \"" + dtype +
           "\", \"shape\": " + shape + ", \"data_offsets\": " + offsets + "}";
  };

  SECTION("a file that is not there") {
    CHECK(readError(dir / "none.safetensors", w4) ==
          dir / "none.safetensors" +
              ": cannot open: no such file or directory");
    CHECK(readError(dir.path(), w4) == dir.path() + ": not a regular file");
  }
  SECTION("shorter than the header length") {
    CHECK(error("", w4) == path + ": truncated or not a safetensors file: it "
                                  "has 0 bytes, fewer than the 8 of its header "
                                  "length");
    CHECK(error("12345", w4) == path + ": truncated or not a safetensors "
                                       "file: it has 5 bytes, fewer than the "
                                       "8 of its header length");
  }
  SECTION("a header length past the end") {
    std::string bytes = safetensors("{}", "");
    bytes[0] = 100;
    CHECK(error(bytes, w4) == path + ": truncated or not a safetensors file: "
                                     "its header length is 100 bytes, but "
                                     "only 2 bytes follow it");
    // Eight bytes of text make a length past the 100 MB cap, which is
    // checked first, as the safetensors library does.
    CHECK_THAT(error("import torch\n", w4),
               StartsWith(path + ": not a safetensors file: its header "
                                 "length is "));
  }
  SECTION("data offsets past the end") {
    std::string header = "{" + tensor("w", "F32", "[8]", "[0, 32]") + "}";
    CHECK(error(safetensors(header, data16), {{"w", "f32", {8}, ""}}) ==
          path + ": truncated or corrupt: tensor 'w' has data_offsets "
                 "[0, 32], past the end of the data, which holds 16 bytes");
    header = "{" + tensor("w", "F32", "[4]", "[0, 16]") + "}";
    CHECK(error(safetensors(header, data16.substr(3)), w4) ==
          path + ": truncated or corrupt: tensor 'w' has data_offsets "
                 "[0, 16], past the end of the data, which holds 13 bytes");
  }
  SECTION("offsets that end before they begin") {
    std::string header = "{" + tensor("w", "F32", "[4]", "[16, 0]") + "}";
    CHECK(error(safetensors(header, data16), w4) ==
          path + ": not a safetensors file: tensor 'w' has data_offsets "
                 "[16, 0], which end before they begin");
  }
  SECTION("offsets that disagree with the shape") {
    std::string header = "{" + tensor("w", "F32", "[3]", "[0, 16]") + "}";
    CHECK(error(safetensors(header, data16), w4) ==
          path + ": not a safetensors file: tensor 'w' is f32[3], 12 bytes, "
                 "but its data_offsets [0, 16] hold 16");
    header =
        "{" + tensor("w", "F32", "[4294967296, 4294967296]", "[0, 16]") + "}";
    CHECK(error(safetensors(header, data16), w4) ==
          path + ": not a safetensors file: tensor 'w' is "
                 "f32[4294967296, 4294967296], too large to address");
  }
  SECTION("overlapping tensors") {
    std::string header = "{" + tensor("a", "F32", "[8]", "[0, 32]") + ", " +
                         tensor("b", "F32", "[1]", "[24, 28]") + ", " +
                         tensor("c", "F32", "[1]", "[8, 12]") + "}";
    CHECK(error(safetensors(header, std::string(32, '\0')), w4) ==
          path + ": not a safetensors file: tensors 'a' and 'c' overlap: they "
                 "hold bytes [0, 32) and [8, 12) of the data");
  }
  SECTION("bad JSON") {
    CHECK_THAT(error(safetensors("{\"w\": ", data16), w4),
               StartsWith(path + ": not a safetensors file: its header is "
                                 "not valid JSON: parse error at "));
    CHECK(error(safetensors("[1, 2]", ""), w4) ==
          path + ": not a safetensors file: its header is not a JSON object");
    CHECK(error(safetensors("{\"w\": 3}", ""), w4) ==
          path + ": not a safetensors file: tensor 'w' is not a JSON object");
    CHECK(error(safetensors("{\"w\": {\"shape\": [4], \"data_offsets\": [0, "
                            "16]}}",
                            data16),
                w4) == path + ": not a safetensors file: tensor 'w' has no "
                              "\"dtype\" string");
    CHECK(error(safetensors("{\"w\": {\"dtype\": \"F32\", \"data_offsets\": "
                            "[0, 16]}}",
                            data16),
                w4) == path + ": not a safetensors file: tensor 'w' has no "
                              "\"shape\" array");
    CHECK(error(safetensors("{\"w\": {\"dtype\": \"F32\", \"shape\": [4], "
                            "\"data_offsets\": [0]}}",
                            data16),
                w4) == path + ": not a safetensors file: tensor 'w' has no "
                              "\"data_offsets\" pair [begin, end]");
    CHECK(error(safetensors("{" + tensor("w", "F32", "[-4]", "[0, 16]") + "}",
                            data16),
                w4) == path + ": not a safetensors file: tensor 'w' has a dim "
                              "that is not a non-negative integer");
    CHECK(error(safetensors("{" + tensor("w", "F32", "[4]", "[0, 1.6e1]") + "}",
                            data16),
                w4) == path + ": not a safetensors file: tensor 'w' has "
                              "data_offsets that are not non-negative "
                              "integers");
  }
  SECTION("an unsupported dtype") {
    for (const char *dtype : {"I8", "U8", "F8_E4M3"}) {
      INFO(dtype);
      std::string header = "{" + tensor("w", dtype, "[4]", "[0, 4]") + "}";
      CHECK(error(safetensors(header, std::string(4, '\0')), w4) ==
            path + ": tensor 'w' has dtype " + dtype +
                ", which kiln does not support (it supports F32, F16, BF16, "
                "F64, I64, I32, BOOL)");
    }
  }
  SECTION("a bool that is neither 0 nor 1") {
    // After a good tensor, which must not be returned either.
    std::string header = "{" + tensor("a", "BOOL", "[1]", "[0, 1]") + ", " +
                         tensor("m", "BOOL", "[3]", "[1, 4]") + "}";
    CHECK(error(safetensors(header, std::string("\1\1\2\0", 4)),
                {{"a", "bool", {1}, ""}, {"m", "bool", {3}, ""}}) ==
          path + ": tensor 'm' is bool but holds 2 at element 1; bools must "
                 "be 0 or 1");
  }
}

TEST_CASE("readSafetensors accepts what the format allows", "[weights]") {
  TempDir dir;
  std::string path = dir / "w.safetensors";
  // __metadata__ is ignored; empty tensors overlap nothing; tensors may
  // touch; the header may be padded with spaces, as writers align the data.
  writeFile(path, safetensors("{\"__metadata__\": {\"format\": \"pt\"}, "
                              "\"e\": {\"dtype\": \"F32\", \"shape\": [0, 2], "
                              "\"data_offsets\": [4, 4]}, "
                              "\"b\": {\"dtype\": \"I32\", \"shape\": [1], "
                              "\"data_offsets\": [4, 8]}, "
                              "\"a\": {\"dtype\": \"F32\", \"shape\": [], "
                              "\"data_offsets\": [0, 4]}}    ",
                              std::string("\0\0\x80\x3f\7\0\0\0", 8)));
  std::vector<WeightData> out = readOk(
      path,
      {{"a", "f32", {}, ""}, {"b", "i32", {1}, ""}, {"e", "f32", {0, 2}, ""}});
  CHECK(floatsOf(out[0]) == std::vector<float>{1.0f});
  CHECK(out[1].bytes == std::string("\7\0\0\0", 4));
  CHECK(out[2].bytes.empty());
}

TEST_CASE("readSafetensors takes a tied weight under any of its names",
          "[weights]") {
  TempDir dir;
  // state_dict() of a GPT with a tied lm_head holds the tensor twice.
  std::string one = std::string("\0\0\x80\x3f", 4);
  std::string path = dir / "both.safetensors";
  writeFile(path, safetensors("{\"wte\": {\"dtype\": \"F32\", \"shape\": [1], "
                              "\"data_offsets\": [0, 4]}, "
                              "\"head\": {\"dtype\": \"F32\", \"shape\": [1], "
                              "\"data_offsets\": [4, 8]}}",
                              one + one));
  WeightSpec tied{"wte", "f32", {1}, "", {"head"}};
  CHECK(floatsOf(readOk(path, {tied})[0]) == std::vector<float>{1.0f});
  // Only the later name: its values serve.
  std::string later = dir / "later.safetensors";
  writeFile(later, safetensors("{\"head\": {\"dtype\": \"F32\", "
                               "\"shape\": [1], \"data_offsets\": [0, 4]}}",
                               one));
  CHECK(floatsOf(readOk(later, {tied})[0]) == std::vector<float>{1.0f});
  // An alias of another shape is not the same tensor.
  std::string bad = dir / "bad.safetensors";
  writeFile(bad, safetensors("{\"wte\": {\"dtype\": \"F32\", \"shape\": [1], "
                             "\"data_offsets\": [0, 4]}, "
                             "\"head\": {\"dtype\": \"F32\", \"shape\": [2], "
                             "\"data_offsets\": [4, 12]}}",
                             one + one + one));
  CHECK_THAT(readError(bad, {tied}),
             Catch::Matchers::Contains(
                 "wrong dtype or shape for head, the same tensor as wte: "
                 "expected f32[1], found f32[2]"));
}

//===----------------------------------------------------------------------===//
// Random weights
//===----------------------------------------------------------------------===//

TEST_CASE("randomWeights is deterministic", "[weights]") {
  std::vector<WeightSpec> specs = {{"fc.weight", "f32", {3, 4}, ""},
                                   {"fc.bias", "f32", {3}, ""}};
  std::vector<WeightData> a = randomWeights(specs, 42);
  REQUIRE(a.size() == 2);
  CHECK(a[0].name == "fc.weight");
  CHECK(a[0].dtype == "f32");
  CHECK(a[0].shape == std::vector<int64_t>{3, 4});
  CHECK(a[0].bytes.size() == 48);
  CHECK(a[1].bytes.size() == 12);

  std::vector<WeightData> again = randomWeights(specs, 42);
  CHECK(a[0].bytes == again[0].bytes);
  CHECK(a[1].bytes == again[1].bytes);
  CHECK(a[0].bytes != randomWeights(specs, 43)[0].bytes);

  // The same on every machine and in every release: these bits are pinned.
  std::vector<float> first = floatsOf(a[0]);
  std::vector<uint32_t> bits(4);
  std::memcpy(bits.data(), first.data(), 16);
  CHECK(bits ==
        std::vector<uint32_t>{0x3e70ece2, 0xbee19bb9, 0x3db93e7c, 0xbee861be});

  // Each tensor has its own stream: a new weight changes no other.
  specs.insert(specs.begin(), {"conv.weight", "f32", {2, 2}, ""});
  std::vector<WeightData> grown = randomWeights(specs, 42);
  CHECK(grown[1].bytes == a[0].bytes);
  CHECK(grown[2].bytes == a[1].bytes);
}

TEST_CASE("randomWeights draws from PyTorch's ranges", "[weights]") {
  std::vector<WeightSpec> specs = {
      {"conv1.weight", "f32", {64, 16, 3, 3}, ""}, // fan_in 144
      {"conv1.bias", "f32", {64}, ""},             // its weight's fan_in
      {"bn.weight", "f32", {400}, ""},
      {"bn.bias", "f32", {400}, ""}, // its weight is 1-D: own size
      {"bn.running_mean", "f64", {400}, ""},
      {"bn.running_var", "f32", {400}, ""},
      {"bn.num_batches_tracked", "i64", {}, ""},
      {"mask", "bool", {5, 3}, ""},
      {"index", "i32", {7}, ""},
      {"scale", "f64", {}, ""},
      {"empty", "f32", {0, 9}, ""},
  };
  std::vector<WeightData> out = randomWeights(specs, 1);
  REQUIRE(out.size() == specs.size());
  auto values = [](const WeightData &data) {
    std::vector<double> result;
    if (data.dtype == "f64") {
      result.resize(data.bytes.size() / 8);
      std::memcpy(result.data(), data.bytes.data(), data.bytes.size());
    } else {
      for (float value : floatsOf(data))
        result.push_back(value);
    }
    return result;
  };
  // Uniform in [lo, hi): every value inside, and the extremes approached.
  auto checkRange = [&](size_t i, double lo, double hi) {
    INFO(specs[i].name);
    std::vector<double> v = values(out[i]);
    REQUIRE(!v.empty());
    double min = *std::min_element(v.begin(), v.end());
    double max = *std::max_element(v.begin(), v.end());
    CHECK(min >= lo);
    CHECK(max < hi);
    CHECK(min < lo + (hi - lo) * 0.1);
    CHECK(max > hi - (hi - lo) * 0.1);
  };
  checkRange(0, -1 / 12.0, 1 / 12.0);
  checkRange(1, -1 / 12.0, 1 / 12.0);
  checkRange(2, 0.9, 1.1);
  checkRange(3, -0.05, 0.05);
  checkRange(4, -0.05, 0.05);
  checkRange(5, 0.9, 1.1);
  CHECK(values(out[9]).size() == 1);
  CHECK(std::abs(values(out[9])[0]) <= 1.0);

  CHECK(out[6].bytes == std::string(8, '\0'));
  CHECK(out[7].bytes == std::string(15, '\0'));
  CHECK(out[8].bytes == std::string(28, '\0'));
  CHECK(out[10].bytes.empty());
}

TEST_CASE("randomWeights rounds f16 and bf16 as torch does", "[weights]") {
  // fan_in 65536 gives values within 2^-8, so about one in sixty is an f16
  // subnormal, and some hundred land on a rounding tie.
  std::vector<int64_t> shape = {4, 65536};
  std::vector<WeightData> f32 = randomWeights({{"w", "f32", shape, ""}}, 9);
  std::vector<WeightData> f16 = randomWeights({{"w", "f16", shape, ""}}, 9);
  std::vector<WeightData> bf16 = randomWeights({{"w", "bf16", shape, ""}}, 9);
  REQUIRE(f16[0].bytes.size() == f32[0].bytes.size() / 2);
  size_t subnormals = 0;
  for (size_t i = 0; i < f16[0].bytes.size(); i += 2) {
    uint16_t half;
    std::memcpy(&half, f16[0].bytes.data() + i, 2);
    subnormals += (half & 0x7c00) == 0 && (half & 0x3ff) != 0;
  }
  CHECK(subnormals > 1000);

  TempDir dir;
  writeFile(dir / "w.f32", f32[0].bytes);
  runPython(dir, withTorch(R"(
import numpy
x = torch.from_numpy(numpy.fromfile(out + "/w.f32", dtype=numpy.float32))
with open(out + "/w.f16", "wb") as f:
    f.write(x.half().numpy().tobytes())
with open(out + "/w.bf16", "wb") as f:
    f.write(x.bfloat16().view(torch.int16).numpy().tobytes())
)"));
  CHECK(f16[0].bytes == readFile(dir / "w.f16"));
  CHECK(bf16[0].bytes == readFile(dir / "w.bf16"));
}

TEST_CASE("readSafetensors refuses hostile headers", "[weights]") {
  TempDir dir;
  std::string path = dir / "w.safetensors";
  std::vector<WeightSpec> w4 = {{"w", "f32", {4}, ""}};
  std::string data16(16, '\0');
  auto error = [&](const std::string &bytes) {
    writeFile(path, bytes);
    return readError(path, w4);
  };
  std::string tensor =
      "\"w\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0, 16]}";

  SECTION("a header over the 100 MB the safetensors library reads") {
    // Only the length is read: nothing near 100 MB is allocated.
    std::string length(8, '\0');
    uint64_t claimed = 100'000'001;
    for (int i = 0; i < 8; ++i)
      length[i] = char(claimed >> (8 * i));
    CHECK(error(length + "{}") ==
          path + ": not a safetensors file: its header length is 100000001 "
                 "bytes, more than the 100000000 safetensors reads");
  }
  SECTION("__metadata__ that is not a map of strings to strings") {
    CHECK(error(safetensors("{\"__metadata__\": [1], " + tensor + "}",
                            data16)) ==
          path + ": not a safetensors file: \"__metadata__\" is not a JSON "
                 "object");
    CHECK(error(safetensors(
              "{\"__metadata__\": {\"format\": \"pt\", \"n\": 3}, " + tensor +
                  "}",
              data16)) == path + ": not a safetensors file: \"__metadata__\" "
                                 "maps 'n' to a value that is not a string");
    std::vector<WeightData> out;
    writeFile(path, safetensors("{\"__metadata__\": {\"format\": \"pt\"}, " +
                                    tensor + "}",
                                data16));
    CHECK(readSafetensors(path, w4, out) == "");
  }
  SECTION("a shape nested 200,000 deep") {
    // Printing it would recurse 200,000 frames deep; parsing and freeing
    // it do not recurse.
    std::string deep = std::string(200000, '[') + std::string(200000, ']');
    CHECK(error(safetensors("{\"w\": {\"dtype\": \"F32\", \"shape\": [" + deep +
                                "], \"data_offsets\": [0, 16]}}",
                            data16)) ==
          path + ": not a safetensors file: tensor 'w' has a dim that is not a "
                 "non-negative integer");
    CHECK(error(safetensors("{\"w\": {\"dtype\": \"F32\", \"shape\": [4], "
                            "\"data_offsets\": [" +
                                deep + ", 16]}}",
                            data16)) ==
          path + ": not a safetensors file: tensor 'w' has data_offsets that "
                 "are not non-negative integers");
  }
  SECTION("control bytes and invalid UTF-8 are escaped") {
    // JSON escapes make control bytes; raw bytes 0xff are not UTF-8.
    CHECK(error(safetensors("{\"w\\u001b[2J\": 1}", data16)) ==
          path + ": not a safetensors file: tensor 'w\\x1b[2J' is not a JSON "
                 "object");
    CHECK_THAT(error(safetensors("{\"w\": \xff}", data16)),
               StartsWith(path + ": not a safetensors file: its header is not "
                                 "valid JSON: "));
    CHECK(error(safetensors("{\"w\": \xff}", data16)).find('\xff') ==
          std::string::npos);
    CHECK(error(safetensors("{\"w\": {\"dtype\": \"\\u001b\", \"shape\": [4], "
                            "\"data_offsets\": [0, 16]}}",
                            data16))
              .find("has dtype \\x1b, which kiln does not support") !=
          std::string::npos);
  }
  SECTION("a FIFO, without blocking") {
    std::string fifo = dir / "fifo.safetensors";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    alarm(30); // a regression blocks in open() for a writer
    CHECK(readError(fifo, w4) == fifo + ": not a regular file");
    alarm(0);
  }
}
