//===- ModelLoadTest.cpp - Archives kiln::Model must refuse, and CPU choice ===//
//
// Loading what is not an archive, a truncated archive, and corrupt or
// incompatible archives (damaged copies made by test/Inputs/corrupt_archive.py,
// the helper the lit tests use too); picking the best code object this CPU
// runs; and the kind every load or run error names.
//
//===----------------------------------------------------------------------===//

#include "ModelTestUtil.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace kiln;
using namespace kiln::test;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

//===----------------------------------------------------------------------===//
// Archives the runtime must refuse
//===----------------------------------------------------------------------===//

TEST_CASE("load refuses what is not an archive", "[model]") {
  TempDir dir;
  std::string missing = dir / "missing.kiln";
  CHECK(loadError(missing) ==
        missing + ": cannot open: no such file or directory");
  CHECK(loadError(dir.path()) == dir.path() + ": not a regular file");
  std::string empty = dir / "empty.kiln";
  writeFile(empty, "");
  CHECK(loadError(empty) ==
        empty + ": truncated or not a zip archive: the file is empty");
  std::string text = dir / "text.kiln";
  writeFile(text, "def f(x):\n    return x\n");
  CHECK(loadError(text) == text + ": truncated or not a zip archive: no "
                                  "end-of-central-directory record");
}

TEST_CASE("load refuses a truncated archive", "[model]") {
  TempDir dir;
  const std::string &good = archive("sig", SigScript);
  std::string bytes = readFile(good);
  REQUIRE(bytes.size() > 1000);
  std::vector<size_t> sizes;
  for (size_t i = 0; i < 10; ++i)
    sizes.push_back(bytes.size() * i / 10);
  sizes.push_back(bytes.size() - 1);
  for (size_t size : sizes) {
    INFO("truncated to " << size << " of " << bytes.size() << " bytes");
    std::string path = dir / ("cut" + std::to_string(size) + ".kiln");
    writeFile(path, bytes.substr(0, size));
    CHECK(loadError(path) ==
          path + (size == 0 ? ": truncated or not a zip archive: the file is "
                              "empty"
                            : ": truncated or not a zip archive: no "
                              "end-of-central-directory record"));
  }
}

TEST_CASE("load refuses a corrupt or incompatible archive", "[model]") {
  TempDir dir;
  const std::string &good = archive("sig", SigScript);

  SECTION("a flipped byte in the code object") {
    std::string path =
        corrupt("flip", good, dir / "flip.kiln", "cpu/host.so");
    CHECK(loadError(path) == path + ": checksum mismatch in entry "
                                    "'cpu/host.so': the archive is corrupt");
  }
  SECTION("a flipped byte in the manifest") {
    std::string path =
        corrupt("flip", good, dir / "flip.kiln", "manifest.json");
    CHECK(loadError(path) == path + ": checksum mismatch in entry "
                                    "'manifest.json': the archive is corrupt");
  }
  SECTION("an unknown major format version") {
    std::string path = corrupt("version", good, dir / "v5.kiln", "5 0");
    std::string message = loadError(path);
    CHECK_THAT(message,
               StartsWith(path + ": archive format version 5.0 is not "
                                 "supported: this runtime (kiln "));
    CHECK_THAT(message, EndsWith(") reads format versions 1.x to 4.x"));
  }
  SECTION("a newer minor format version loads") {
    // Minor versions only add fields. The rebuilt zip is not 64-byte
    // aligned either, which only weights need.
    std::string path = corrupt("version", good, dir / "v2.kiln", "2 7");
    Model model = loadOk(path);
    Tensor x = filled<float>(DType::F32, {2}, {2, 3});
    CHECK(valuesOf<float>(runOk(model, "f", {x, x})[0]) ==
          std::vector<float>{5, 10});
  }
  SECTION("a missing entry") {
    for (const char *entry :
         {"ir/optimized.mlir", "cpu/host.so", "manifest.json"}) {
      INFO(entry);
      std::string path = corrupt("delete", good, dir / "deleted.kiln", entry);
      CHECK(loadError(path) ==
            path + ": missing entry '" + std::string(entry) + "'");
    }
  }
  SECTION("a format 1 archive, with one code object") {
    std::string path = corrupt("format1", good, dir / "format1.kiln", "");
    Model model = loadOk(path);
    CHECK(model.cpuTarget() == "code");
    Tensor x = filled<float>(DType::F32, {2}, {2, 3});
    CHECK(valuesOf<float>(runOk(model, "f", {x, x})[0]) ==
          std::vector<float>{5, 10});
  }
  const std::string recompile =
      "; recompile with kiln compile --target-cpu=host on this machine, or "
      "--target-cpu=x86-64, which runs on every x86-64 CPU (a list such as "
      "x86-64,x86-64-v3 keeps the faster code for the CPUs that have it)";
  SECTION("an unknown CPU feature") {
    std::string path =
        corrupt("features", good, dir / "feature.kiln", "sse3,avx9000");
    CHECK(loadError(path) ==
          path + ": the archive's code needs avx9000, which this runtime "
                 "cannot check; use a newer kiln runtime, or" +
              recompile.substr(1));
  }
  SECTION("a CPU that lacks a feature") {
    std::string path =
        corrupt("features", good, dir / "feature.kiln", "sse3,avx2");
    setenv("KILN_CPU_DISABLE", "fma,avx2", 1);
    std::string message = loadError(path);
    unsetenv("KILN_CPU_DISABLE");
    CHECK(message == path + ": the archive's code needs avx2, which this CPU "
                            "lacks" + recompile);
  }
}

TEST_CASE("load picks the best code object this CPU runs", "[model]") {
  const std::string &levels =
      archive("levels", SigScript, "--target-cpu=x86-64,x86-64-v3,x86-64-v2");
  // The features KILN_CPU_DISABLE hides, and the level that must load.
  const std::pair<const char *, const char *> cases[] = {
      {"", __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                   __builtin_cpu_supports("bmi2")
               ? "x86-64-v3"
               : "x86-64-v2"},
      {"avx2", "x86-64-v2"},
      {"bmi2,movbe", "x86-64-v2"},
      {"sse4.2", "x86-64"},
      {"popcnt,avx512f", "x86-64"}};
  for (const auto &[disabled, expected] : cases) {
    INFO("KILN_CPU_DISABLE=" << disabled);
    setenv("KILN_CPU_DISABLE", disabled, 1);
    Result<Model> model = Model::load(levels);
    unsetenv("KILN_CPU_DISABLE");
    REQUIRE(model);
    CHECK(model->cpuTarget() == expected);
    Tensor x = filled<float>(DType::F32, {2}, {2, 3});
    CHECK(valuesOf<float>(runOk(*model, "f", {x, x})[0]) ==
          std::vector<float>{5, 10});
  }
  SECTION("and names what each one lacks when none runs") {
    TempDir dir;
    std::string message = loadError(
        corrupt("features", levels, dir / "none.kiln", "sse3,sse9"));
    CHECK_THAT(message, Contains(
                            ": no code object of the archive runs on this "
                            "CPU: x86-64-v3 needs sse9, which this runtime "
                            "cannot check; x86-64-v2 needs sse9"));
  }
}

TEST_CASE("every error says what kind it is", "[model]") {
  TempDir dir;
  auto loadKind = [](const std::string &path) {
    Result<Model> model = Model::load(path);
    REQUIRE_FALSE(model.ok());
    return model.error().kind;
  };
  auto runKind = [](const Model &model, std::string_view entry,
                    const std::vector<Tensor> &inputs) {
    Result<std::vector<Tensor>> outputs = model.run(entry, inputs);
    REQUIRE_FALSE(outputs.ok());
    return outputs.error().kind;
  };
  const std::string &good = archive("sig", SigScript);
  CHECK(loadKind(dir / "nothere.kiln") == ErrorKind::Io);
  CHECK(loadKind(corrupt("flip", good, dir / "flip.kiln", "manifest.json")) ==
        ErrorKind::InvalidArchive);
  CHECK(loadKind(corrupt("version", good, dir / "v5.kiln", "5 0")) ==
        ErrorKind::Unsupported);
  CHECK(loadKind(corrupt("features", good, dir / "f.kiln", "sse3,avx9000")) ==
        ErrorKind::Unsupported);

  Model sig = loadOk(good);
  Tensor x3 = Tensor::zeros(DType::F32, {3});
  Tensor x4 = Tensor::zeros(DType::F32, {4});
  CHECK(runKind(sig, "nothere", {x3, x3}) == ErrorKind::NotFound);
  CHECK(runKind(sig, "f", {x3}) == ErrorKind::InvalidArgument);
  CHECK(runKind(sig, "f", {x3, x4}) == ErrorKind::InvalidArgument);
  Model fail = loadOk(archive("fail", FailScript));
  CHECK(runKind(fail, "add", {x3, x4}) == ErrorKind::Runtime);
}
