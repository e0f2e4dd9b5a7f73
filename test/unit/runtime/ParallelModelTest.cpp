//===- ParallelModelTest.cpp - Compiled tiles on the runtime's threads ----===//
//
// Archives whose fused groups are tiled and handed to the runtime's team
// of threads (docs/codegen.md): the same bits for every thread count,
// concurrent calls that share the team, and the thread-count settings.
//
//===----------------------------------------------------------------------===//

#include "ModelTestUtil.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <thread>
#include <vector>

using namespace kiln;
using namespace kiln::test;

namespace {

/// Softmax's row reductions fused into tiles, a column reduction before
/// them, and elementwise math; static rows and dynamic rows (whose last
/// tile is partial).
const char *const TiledScript = R"(# kiln: x=f32[512,1024]
@torch.jit.script
def rows(x: Tensor) -> Tensor:
    return torch.softmax(x, -1) + torch.tanh(x) * x.mean(0, keepdim=True)


# kiln: x=f32[N,4097]
@torch.jit.script
def dynamic_rows(x: Tensor) -> Tensor:
    return torch.softmax(x * 3.0, -1) + x.sum(-1, keepdim=True)
)";

Model loadWithThreads(int threads) {
  LoadOptions options;
  options.numThreads = threads;
  Result<Model> model = Model::load(archive("tiled", TiledScript), options);
  INFO((model ? "" : model.error().message));
  REQUIRE(model.ok());
  REQUIRE(model->numThreads() == threads);
  return std::move(model).value();
}

std::vector<float> input(int64_t n) { return ramp(n, -3.0f, 0.0007f); }

bool sameBits(const Tensor &t, const std::vector<float> &expected) {
  return t.numel() == static_cast<int64_t>(expected.size()) &&
         std::memcmp(t.data(), expected.data(),
                     expected.size() * sizeof(float)) == 0;
}

} // namespace

TEST_CASE("tiles give the same bits on 1, 2 and 3 threads", "[parallel]") {
  // Each tile reduces whole rows, so even the reductions add in the same
  // order whichever thread runs a tile.
  std::vector<float> x = input(512 * 1024), y = input(37 * 4097);
  Model one = loadWithThreads(1);
  std::vector<float> rows = valuesOf<float>(
      runOk(one, "rows", {Tensor::borrow(DType::F32, {512, 1024}, x.data())})[0]);
  std::vector<float> dynamic = valuesOf<float>(runOk(
      one, "dynamic_rows", {Tensor::borrow(DType::F32, {37, 4097}, y.data())})[0]);
  for (int threads : {2, 3}) {
    INFO(threads << " threads");
    Model model = loadWithThreads(threads);
    CHECK(sameBits(runOk(model, "rows",
                         {Tensor::borrow(DType::F32, {512, 1024}, x.data())})[0],
                   rows));
    CHECK(sameBits(runOk(model, "dynamic_rows",
                         {Tensor::borrow(DType::F32, {37, 4097}, y.data())})[0],
                   dynamic));
  }
}

TEST_CASE("8 concurrent calls share the team", "[parallel]") {
  Model model = loadWithThreads(2);
  std::vector<float> x = input(512 * 1024);
  Tensor in = Tensor::borrow(DType::F32, {512, 1024}, x.data());
  std::vector<float> reference = valuesOf<float>(runOk(model, "rows", {in})[0]);
  // Catch's macros are not thread-safe: the threads count, this one checks.
  constexpr int Threads = 8, Calls = 20;
  std::vector<int> wrong(Threads, 0);
  std::vector<std::thread> callers;
  for (int t = 0; t < Threads; ++t)
    callers.emplace_back([&, t] {
      for (int i = 0; i < Calls; ++i) {
        Result<std::vector<Tensor>> out = model.run("rows", {in});
        wrong[t] += !out || !sameBits((*out)[0], reference);
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  for (int t = 0; t < Threads; ++t) {
    INFO("caller " << t);
    CHECK(wrong[t] == 0);
  }
}

TEST_CASE("the thread count comes from LoadOptions or KILN_NUM_THREADS",
          "[parallel]") {
  const std::string &path = archive("tiled", TiledScript);
  setenv("KILN_NUM_THREADS", "3", 1);
  CHECK(loadOk(path).numThreads() == 3);
  // An explicit count wins over the environment.
  LoadOptions options;
  options.numThreads = 5;
  Result<Model> five = Model::load(path, options);
  REQUIRE(five.ok());
  CHECK(five->numThreads() == 5);
  setenv("KILN_NUM_THREADS", "lots", 1);
  CHECK(loadError(path) ==
        path + ": KILN_NUM_THREADS='lots': expected a whole number of threads "
               "from 1 to 256");
  unsetenv("KILN_NUM_THREADS");
  options.numThreads = -1;
  Result<Model> negative = Model::load(path, options);
  REQUIRE(!negative.ok());
  CHECK(negative.error().message ==
        path + ": LoadOptions::numThreads is -1; expected 0 (the default) or "
               "a thread count");
}
