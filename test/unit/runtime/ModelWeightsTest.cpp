//===- ModelWeightsTest.cpp - Binding an archive's weights at load --------===//
//
// The archives here start from one that the real compiler wrote for a
// small script, and gain a "weights" table and weights/ entries. Until the
// compiler writes modules, the code object that reads the weights is a few
// lines of C, built with the system C compiler, that reports what the
// runtime stored in its weight slots: the check that binding is zero-copy
// and in manifest order. Every damaged archive must be refused with one
// message before any code runs, except for a weight count that disagrees
// with the code object's, which only loading the code can reveal.
//
//===----------------------------------------------------------------------===//

#include "../../../runtime/src/ZipReader.h"
#include "PythonTestUtil.h"
#include "codegen/archive/ZipWriter.h"
#include "kiln/Model.h"
#include "kiln/abi.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>

#ifndef KILN_TEST_KILN
#error "KILN_TEST_KILN must name the kiln compiler binary (see test/CMakeLists.txt)"
#endif
#ifndef KILN_TEST_EXAMPLES
#error "KILN_TEST_EXAMPLES must name the source tree's examples/ directory (see test/CMakeLists.txt)"
#endif

using namespace kiln;
using namespace kiln::test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using json = nlohmann::json;

namespace {

/// Entry points whose signatures the fake code object below implements.
const char *const Script = R"(import torch
from torch import Tensor


# kiln: x=f32[N]
@torch.jit.script
def first(x: Tensor) -> Tensor:
    return x + 1.0


# kiln: x=f32[N]
@torch.jit.script
def addr(x: Tensor, i: int) -> int:
    return i
)";

/// A code object with two weights: `first` returns a copy of weight 0 (an
/// f32[4]) and `addr(x, i)` the address the runtime stored in slot i.
const char *const FakeCode = R"(#include "kiln/abi.h"

static const kiln_host_api *host;
static const void *slots[2];

static void first(void **args, void *results) {
  (void)args;
  int64_t *r = (int64_t *)results;
  float *out = (float *)host->alloc(4 * sizeof(float));
  for (int i = 0; i < 4; ++i)
    out[i] = ((const float *)slots[0])[i];
  r[0] = r[1] = (int64_t)out;
  r[2] = 0;
  r[3] = 4;
  r[4] = 1;
}

static void addr(void **args, void *results) {
  const kiln_memref *i = (const kiln_memref *)args[1];
  int64_t *out = (int64_t *)host->alloc(sizeof(int64_t));
  *out = (int64_t)slots[((const int64_t *)i->aligned)[i->offset]];
  int64_t *r = (int64_t *)results;
  r[0] = r[1] = (int64_t)out;
  r[2] = 0;
}

static const kiln_entry entries[] = {{"first", first, 1, 1},
                                     {"addr", addr, 2, 1}};
__attribute__((visibility("default"))) const kiln_module kiln_module_v1 = {
    KILN_ABI_VERSION, sizeof(kiln_module), 2, 2, entries, &host, slots};
)";

std::string runCommand(const std::string &command) {
  std::FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.append(buffer, got);
  int status = pclose(pipe);
  INFO(command << "\n" << output);
  REQUIRE(status == 0);
  return output;
}

const TempDir &scratch() {
  static TempDir dir;
  return dir;
}

/// The compiled Script, once per test run.
const std::string &compiledArchive() {
  static const std::string path = [] {
    writeFile(scratch() / "weights.py", Script);
    std::string out = scratch() / "weights.kiln";
    runCommand(std::string(KILN_TEST_KILN) + " compile " +
               (scratch() / "weights.py") + " -o " + out);
    return out;
  }();
  return path;
}

/// FakeCode as a shared object claiming ABI version `abi`.
std::string buildFakeCode(int abi) {
  std::string source = FakeCode;
  const std::string current = "KILN_ABI_VERSION, sizeof(kiln_module)";
  source.replace(source.find(current), current.size(),
                 std::to_string(abi) + ", sizeof(kiln_module)");
  std::string name = "fake-abi" + std::to_string(abi);
  writeFile(scratch() / (name + ".c"), source);
  std::string out = scratch() / (name + ".so");
  runCommand("cc -shared -fPIC -O1 -I" + std::string(KILN_TEST_EXAMPLES) +
             "/../runtime/include " + (scratch() / (name + ".c")) + " -o " +
             out);
  return readFile(out);
}

/// FakeCode as a shared object of this runtime's ABI, once per test run.
const std::string &fakeCodeObject() {
  static const std::string bytes = buildFakeCode(KILN_ABI_VERSION);
  return bytes;
}

/// An archive being edited: its manifest and its other entries, in order.
struct Archive {
  json manifest;
  std::vector<std::pair<std::string, std::string>> entries;

  explicit Archive(const std::string &path) {
    std::string bytes = readFile(path);
    std::vector<ZipEntry> zip;
    std::string error;
    REQUIRE(readZipDirectory(reinterpret_cast<const uint8_t *>(bytes.data()),
                             bytes.size(), zip, error));
    for (const ZipEntry &entry : zip) {
      std::string data = bytes.substr(entry.offset, entry.size);
      if (entry.name == "manifest.json")
        manifest = json::parse(data);
      else
        entries.push_back({entry.name, data});
    }
  }

  /// Adds or replaces an entry, and its row in "files".
  void put(const std::string &name, const std::string &data) {
    auto entry = std::find_if(entries.begin(), entries.end(),
                              [&](const auto &e) { return e.first == name; });
    if (entry == entries.end())
      entries.push_back({name, data});
    else
      entry->second = data;
    json row = {
        {"name", name},
        {"size", data.size()},
        {"crc32",
         crc32Of(reinterpret_cast<const uint8_t *>(data.data()), data.size())}};
    json &files = manifest["files"];
    auto listed = std::find_if(files.begin(), files.end(), [&](const json &f) {
      return f["name"] == name;
    });
    if (listed == files.end())
      files.push_back(row);
    else
      *listed = row;
  }

  void addWeight(const std::string &name, const std::string &dtype,
                 const std::vector<int64_t> &dims, const std::string &bytes) {
    manifest["weights"].push_back({{"name", name},
                                   {"dtype", dtype},
                                   {"dims", dims},
                                   {"file", "weights/" + name}});
    put("weights/" + name, bytes);
  }

  void useFakeCode(const std::string &code = fakeCodeObject()) {
    put(manifest["targets"]["cpu"][0]["object"].get<std::string>(), code);
  }

  /// Removes an entry from the zip but not from "files".
  void drop(const std::string &name) {
    entries.erase(std::find_if(entries.begin(), entries.end(),
                               [&](const auto &e) { return e.first == name; }));
  }

  std::string write(const std::string &path) const {
    ZipWriter writer;
    writer.add("manifest.json", manifest.dump(2));
    for (const auto &[name, data] : entries)
      writer.add(name, data);
    writeFile(path, writer.finish());
    return path;
  }
};

template <typename T> std::string bytesOf(const std::vector<T> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

const std::vector<float> FcWeight = {1.5f, -2.0f, 3.25f, 0.0f};

/// The compiled archive with two weights, f32[4] and i64[].
Archive withTwoWeights() {
  Archive archive(compiledArchive());
  archive.addWeight("fc.weight", "f32", {4}, bytesOf(FcWeight));
  archive.addWeight("bn.num_batches_tracked", "i64", {},
                    bytesOf(std::vector<int64_t>{7}));
  return archive;
}

std::string loadError(const std::string &path) {
  Result<Model> model = Model::load(path);
  REQUIRE_FALSE(model.ok());
  return model.error().message;
}

} // namespace

TEST_CASE("weights are bound in place, in manifest order", "[model][weights]") {
  Archive archive = withTwoWeights();
  archive.useFakeCode();
  std::string path = archive.write(scratch() / "bound.kiln");
  Result<Model> loaded = Model::load(path);
  INFO((loaded ? "" : loaded.error().message));
  REQUIRE(loaded.ok());
  const Model &model = *loaded;

  const std::vector<WeightInfo> &weights = model.weights();
  REQUIRE(weights.size() == 2);
  CHECK(weights[0].name == "fc.weight");
  CHECK(weights[0].dtype == DType::F32);
  CHECK(weights[0].shape == std::vector<int64_t>{4});
  CHECK(weights[1].name == "bn.num_batches_tracked");
  CHECK(weights[1].dtype == DType::I64);
  CHECK(weights[1].shape.empty());
  for (const WeightInfo &weight : weights)
    CHECK(reinterpret_cast<uintptr_t>(weight.data) % 64 == 0);
  CHECK(std::memcmp(weights[0].data, FcWeight.data(), 16) == 0);
  CHECK(*static_cast<const int64_t *>(weights[1].data) == 7);

  // The code reads the weight through its slot...
  std::vector<float> x = {0, 0, 0};
  Tensor xt = Tensor::borrow(DType::F32, {3}, x.data());
  Result<std::vector<Tensor>> out = model.run("first", {xt});
  REQUIRE(out.ok());
  REQUIRE((*out)[0].shape() == std::vector<int64_t>{4});
  CHECK(std::memcmp((*out)[0].data(), FcWeight.data(), 16) == 0);
  // ...and each slot holds the address in the mapping, not a copy.
  for (int64_t i = 0; i < 2; ++i) {
    Tensor index = Tensor::zeros(DType::I64, {});
    *index.data<int64_t>() = i;
    Result<std::vector<Tensor>> slot = model.run("addr", {xt, index});
    REQUIRE(slot.ok());
    CHECK(*(*slot)[0].data<int64_t>() ==
          reinterpret_cast<int64_t>(weights[i].data));
  }
}

TEST_CASE("an archive without a weights table has no weights",
          "[model][weights]") {
  Result<Model> model = Model::load(compiledArchive());
  REQUIRE(model.ok());
  CHECK(model->weights().empty());
}

TEST_CASE("load refuses weights that do not fit the archive",
          "[model][weights]") {
  TempDir dir;
  std::string path = dir / "bad.kiln";

  SECTION("more weights in the manifest than in the code") {
    // The compiled code object reads no weights.
    withTwoWeights().write(path);
    CHECK(loadError(path) == path + ": the code object reads 0 weights, but "
                                    "the manifest lists 2: the archive is "
                                    "corrupt");
  }
  SECTION("fewer weights in the manifest than in the code") {
    Archive archive(compiledArchive());
    archive.useFakeCode();
    archive.write(path);
    CHECK(loadError(path) == path + ": the code object reads 2 weights, but "
                                    "the manifest lists 0: the archive is "
                                    "corrupt");
  }
  SECTION("a missing weight entry") {
    Archive archive = withTwoWeights();
    archive.drop("weights/fc.weight");
    archive.write(path);
    CHECK(loadError(path) == path + ": missing entry 'weights/fc.weight'");
  }
  SECTION("a weight entry that \"files\" does not list") {
    Archive archive = withTwoWeights();
    archive.manifest["files"].erase(archive.manifest["files"].size() - 1);
    archive.write(path);
    CHECK(loadError(path) ==
          path + ": corrupt manifest: weight 'bn.num_batches_tracked' is "
                 "stored in 'weights/bn.num_batches_tracked', which \"files\" "
                 "does not list");
  }
  SECTION("a weight entry of the wrong size") {
    Archive archive(compiledArchive());
    archive.addWeight("fc.weight", "f32", {4}, std::string(12, '\0'));
    archive.write(path);
    CHECK(loadError(path) ==
          path + ": weight 'fc.weight' (f32[4]) needs 16 bytes, but entry "
                 "'weights/fc.weight' holds 12: the archive is corrupt");
  }
  SECTION("a weight entry whose checksum fails") {
    Archive archive = withTwoWeights();
    archive.entries.back().second[0] ^= 1;
    archive.write(path);
    CHECK(loadError(path) ==
          path + ": checksum mismatch in entry "
                 "'weights/bn.num_batches_tracked': the archive is corrupt");
  }
  SECTION("a malformed weights table") {
    Archive archive = withTwoWeights();
    json &table = archive.manifest["weights"];
    table[0]["dtype"] = "f8";
    archive.write(path);
    CHECK(loadError(path) == path + ": corrupt manifest: weight 'fc.weight' "
                                    "has unknown dtype 'f8'");
    table[0]["dtype"] = "f32";
    table[0]["dims"] = {2, -2};
    archive.write(path);
    CHECK(loadError(path) == path + ": corrupt manifest: a dim of weight "
                                    "'fc.weight' must be an integer from 0 "
                                    "to 9223372036854775807");
    archive.manifest["weights"] = {{"name", "fc.weight"}};
    archive.write(path);
    CHECK(loadError(path) == path + ": corrupt manifest: \"weights\" is not "
                                    "an array");
  }
}

TEST_CASE("load refuses weights a zip tool has rewritten", "[model][weights]") {
  TempDir dir;
  withTwoWeights().write(dir / "good.kiln");
  // Python's zipfile neither aligns entries nor, when asked, stores them.
  // A short entry after the manifest shifts the rest until the weight's
  // data is off the 64-byte grid.
  std::string offset = runPython(dir, R"(
import sys, zipfile
d = sys.argv[1]
with zipfile.ZipFile(d + "/good.kiln") as src:
    items = [(i.filename, src.read(i)) for i in src.infolist()]
with zipfile.ZipFile(d + "/deflated.kiln", "w") as z:
    for name, data in items:
        z.writestr(name, data, zipfile.ZIP_DEFLATED
                   if name.startswith("weights/") else zipfile.ZIP_STORED)
for pad in range(64):
    with zipfile.ZipFile(d + "/shifted.kiln", "w") as z:
        z.writestr(*items[0])
        z.writestr("pad", b"x" * pad)
        for item in items[1:]:
            z.writestr(*item)
    with zipfile.ZipFile(d + "/shifted.kiln") as z:
        h = z.getinfo("weights/fc.weight").header_offset
    with open(d + "/shifted.kiln", "rb") as f:
        raw = f.read()
    start = h + 30 + int.from_bytes(raw[h + 26:h + 28], "little") + \
        int.from_bytes(raw[h + 28:h + 30], "little")
    if start % 64:
        print(start, end="")
        break
)");
  CHECK(loadError(dir / "deflated.kiln") ==
        dir / "deflated.kiln" +
            ": entry 'weights/fc.weight' is compressed (method 8); kiln "
            "archives store entries uncompressed");
  CHECK(loadError(dir / "shifted.kiln") ==
        dir / "shifted.kiln" + ": weight 'fc.weight' (f32[4]) starts at byte " +
            offset +
            " of the archive, which is not 64-byte aligned; kiln compile "
            "aligns every entry, so the archive was rewritten by another "
            "tool");
}

TEST_CASE("code of the ABI versions this runtime runs loads, and only that",
          "[model][weights]") {
  // Versions from KILN_ABI_MIN_VERSION on only appended host slots, so
  // older code still finds every slot it calls where it expects it.
  for (int abi : {KILN_ABI_MIN_VERSION - 1, KILN_ABI_MIN_VERSION,
                  KILN_ABI_VERSION, KILN_ABI_VERSION + 1}) {
    INFO("ABI version " << abi);
    Archive archive = withTwoWeights();
    archive.useFakeCode(buildFakeCode(abi));
    archive.manifest["abi_version"] = abi;
    std::string path =
        archive.write(scratch() / ("abi" + std::to_string(abi) + ".kiln"));
    bool runs = abi >= KILN_ABI_MIN_VERSION && abi <= KILN_ABI_VERSION;
    std::string range = "this runtime runs ABI versions " +
                        std::to_string(KILN_ABI_MIN_VERSION) + " to " +
                        std::to_string(KILN_ABI_VERSION);
    if (runs) {
      Result<Model> model = Model::load(path);
      INFO((model ? "" : model.error().message));
      REQUIRE(model.ok());
      std::vector<float> x = {0, 0, 0};
      Result<std::vector<Tensor>> out =
          model->run("first", {Tensor::borrow(DType::F32, {3}, x.data())});
      REQUIRE(out.ok());
      CHECK(std::memcmp((*out)[0].data(), FcWeight.data(), 16) == 0);
      continue;
    }
    // The manifest says so first; a code object that disagrees with a
    // runnable manifest is refused when it is loaded.
    CHECK(loadError(path) == path + ": the archive's code uses ABI version " +
                                 std::to_string(abi) + "; " + range);
    archive.manifest["abi_version"] = KILN_ABI_VERSION;
    archive.write(path);
    CHECK(loadError(path) == path + ": the code object uses ABI version " +
                                 std::to_string(abi) + "; " + range);
  }
}
