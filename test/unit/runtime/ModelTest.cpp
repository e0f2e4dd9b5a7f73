//===- ModelTest.cpp - kiln::Model on archives from the real compiler -----===//
//
// Every archive here comes from running KILN_TEST_KILN on a small script
// written to a scratch directory, so these tests exercise the runtime on
// what the compiler really produces: loading and the manifest's
// signatures, running with borrowed inputs, input checks, run-time errors
// raised inside compiled code, and concurrent runs. The scripts and
// helpers live in ModelTestUtil.h; ModelLoadTest.cpp holds the archives
// loading must refuse and the choice of code object.
//
//===----------------------------------------------------------------------===//

#include "ModelTestUtil.h"

#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

using namespace kiln;
using namespace kiln::test;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

//===----------------------------------------------------------------------===//
// Loading and signatures
//===----------------------------------------------------------------------===//

TEST_CASE("entries() mirror the manifest's signatures", "[model]") {
  Model model = loadOk(archive("sig", SigScript));
  const std::vector<EntryInfo> &entries = model.entries();
  REQUIRE(entries.size() == 2);

  const EntryInfo &f = entries[0];
  CHECK(f.name == "f");
  REQUIRE(f.args.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    CHECK(f.args[i].name == (i == 0 ? "x" : "y"));
    CHECK(f.args[i].dtype == DType::F32);
    CHECK_FALSE(f.args[i].scalar);
    REQUIRE(f.args[i].dims.size() == 1);
    CHECK(f.args[i].dims[0].symbol == "N");
    CHECK(f.args[i].dims[0].size == -1);
  }
  REQUIRE(f.results.size() == 1);
  CHECK(f.results[0].name == "result0");
  CHECK(f.results[0].dtype == DType::F32);
  REQUIRE(f.results[0].dims.size() == 1);
  CHECK(f.results[0].dims[0].symbol == "?");

  const EntryInfo &g = entries[1];
  CHECK(g.name == "g");
  REQUIRE(g.args.size() == 5);
  CHECK(g.args[0].name == "m");
  CHECK(g.args[0].dtype == DType::F32);
  REQUIRE(g.args[0].dims.size() == 2);
  CHECK(g.args[0].dims[0].symbol == "B");
  CHECK(g.args[0].dims[0].size == -1);
  CHECK(g.args[0].dims[1].symbol.empty());
  CHECK(g.args[0].dims[1].size == 3);
  CHECK(g.args[1].name == "v");
  CHECK(g.args[1].dtype == DType::F64);
  REQUIRE(g.args[1].dims.size() == 1);
  CHECK(g.args[1].dims[0].symbol.empty());
  CHECK(g.args[1].dims[0].size == 4);
  const std::pair<const char *, DType> scalars[] = {
      {"s", DType::F64}, {"k", DType::I64}, {"flag", DType::Bool}};
  for (size_t i = 0; i < 3; ++i) {
    const ValueInfo &arg = g.args[2 + i];
    CHECK(arg.name == scalars[i].first);
    CHECK(arg.dtype == scalars[i].second);
    CHECK(arg.scalar);
    CHECK(arg.dims.empty());
  }
  REQUIRE(g.results.size() == 3);
  CHECK(g.results[0].name == "result0");
  REQUIRE(g.results[0].dims.size() == 2);
  CHECK(g.results[0].dims[0].symbol == "?");
  CHECK(g.results[0].dims[1].size == 3);
  CHECK(g.results[1].dtype == DType::F64);
  CHECK(g.results[2].name == "result2");
  CHECK(g.results[2].dtype == DType::I64);
  CHECK(g.results[2].scalar);

  CHECK(model.entry("g") == &entries[1]);
  CHECK(model.entry("h") == nullptr);
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

TEST_CASE("run reads borrowed inputs in place and computes exact values",
          "[model]") {
  Model model = loadOk(archive("sig", SigScript));
  std::vector<float> x = ramp(7, -3.0f, 0.5f), y = ramp(7, 1.0f, 0.25f);
  const std::vector<float> xBefore = x, yBefore = y;
  Tensor xt = Tensor::borrow(DType::F32, {7}, x.data());
  Tensor yt = Tensor::borrow(DType::F32, {7}, y.data());
  CHECK_FALSE(xt.ownsData());
  CHECK(xt.data() == x.data());

  std::vector<Tensor> out = runOk(model, "f", {xt, yt});
  REQUIRE(out.size() == 1);
  CHECK(out[0].dtype() == DType::F32);
  CHECK(out[0].shape() == std::vector<int64_t>{7});
  CHECK(out[0].ownsData());
  std::vector<float> expected(7);
  for (size_t i = 0; i < 7; ++i)
    expected[i] = x[i] * y[i] + 1.0f;
  CHECK(valuesOf<float>(out[0]) == expected);
  // The inputs are read, never written.
  CHECK(x == xBefore);
  CHECK(y == yBefore);
}

TEST_CASE("run passes static dims and Python scalars", "[model]") {
  Model model = loadOk(archive("sig", SigScript));
  Tensor m = filled<float>(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor v = filled<double>(DType::F64, {4}, {0.5, 1.5, -2, 8});
  std::vector<Tensor> out =
      runOk(model, "g",
            {m, v, scalar<double>(DType::F64, 2.5),
             scalar<int64_t>(DType::I64, 41), scalar<uint8_t>(DType::Bool, 1)});
  REQUIRE(out.size() == 3);
  CHECK(out[0].shape() == std::vector<int64_t>{2, 3});
  CHECK(valuesOf<float>(out[0]) ==
        std::vector<float>{2.5f, 5, 7.5f, 10, 12.5f, 15});
  CHECK(out[1].shape() == std::vector<int64_t>{4});
  CHECK(valuesOf<double>(out[1]) == std::vector<double>{1.5, 2.5, -1, 9});
  CHECK(out[2].rank() == 0);
  CHECK(valuesOf<int64_t>(out[2]) == std::vector<int64_t>{42});
}

TEST_CASE("one archive runs with several sizes of a dim symbol", "[model]") {
  Model model = loadOk(archive("sig", SigScript));
  for (int64_t n : {1, 5, 1000, 3, 0}) {
    INFO("N = " << n);
    std::vector<float> x = ramp(n, 2.0f, -0.125f), y = ramp(n, -1.0f, 0.5f);
    std::vector<Tensor> out =
        runOk(model, "f",
              {Tensor::borrow(DType::F32, {n}, x.data()),
               Tensor::borrow(DType::F32, {n}, y.data())});
    REQUIRE(out.size() == 1);
    CHECK(out[0].shape() == std::vector<int64_t>{n});
    std::vector<float> expected(static_cast<size_t>(n));
    for (size_t i = 0; i < expected.size(); ++i)
      expected[i] = x[i] * y[i] + 1.0f;
    CHECK(valuesOf<float>(out[0]) == expected);
  }
}

TEST_CASE("results own their memory and outlive the Model", "[model]") {
  std::vector<Tensor> out;
  std::vector<float> x = {1, 2, 3}, y = {4, 5, 6};
  {
    Model model = loadOk(archive("sig", SigScript));
    {
      // A copy shares the loaded archive; the original can go first.
      Model copy = model;
      out = runOk(copy, "f",
                  {Tensor::borrow(DType::F32, {3}, x.data()),
                   Tensor::borrow(DType::F32, {3}, y.data())});
    }
    Model other = loadOk(archive("sig", SigScript));
    model = other; // drops the first load
  }
  // The Models and their code are gone; the results are not.
  REQUIRE(out.size() == 1);
  CHECK(out[0].ownsData());
  CHECK(valuesOf<float>(out[0]) == std::vector<float>{5, 11, 19});
  Tensor copy = out[0];
  out.clear();
  CHECK(valuesOf<float>(copy) == std::vector<float>{5, 11, 19});
}

TEST_CASE("results never alias the inputs or each other", "[model]") {
  Model model = loadOk(archive("alias", AliasScript));
  std::vector<float> x = {1, 2, 3, 4};
  std::vector<Tensor> out =
      runOk(model, "ident", {Tensor::borrow(DType::F32, {4}, x.data())});
  REQUIRE(out.size() == 1);
  CHECK(out[0].ownsData());
  CHECK(out[0].data() != static_cast<void *>(x.data()));
  x[0] = 100; // the caller's buffer is its own again
  CHECK(valuesOf<float>(out[0]) == std::vector<float>{1, 2, 3, 4});

  out = runOk(model, "both", {Tensor::borrow(DType::F32, {4}, x.data())});
  REQUIRE(out.size() == 2);
  CHECK(out[0].ownsData());
  CHECK(out[1].ownsData());
  CHECK(out[0].data() != out[1].data());
  CHECK(valuesOf<float>(out[0]) == std::vector<float>{101, 3, 4, 5});
  CHECK(valuesOf<float>(out[1]) == std::vector<float>{101, 3, 4, 5});
}

TEST_CASE("two archives are loaded at once", "[model]") {
  // Both code objects come from memfds; each Model must run its own code.
  Model sig = loadOk(archive("sig", SigScript));
  Model alias = loadOk(archive("alias", AliasScript));
  Model sig2 = loadOk(archive("sig", SigScript));
  std::vector<float> x = {1, 2}, y = {3, 4};
  Tensor xt = Tensor::borrow(DType::F32, {2}, x.data());
  Tensor yt = Tensor::borrow(DType::F32, {2}, y.data());
  CHECK(valuesOf<float>(runOk(sig, "f", {xt, yt})[0]) ==
        std::vector<float>{4, 9});
  CHECK(valuesOf<float>(runOk(alias, "ident", {xt})[0]) ==
        std::vector<float>{1, 2});
  CHECK(valuesOf<float>(runOk(sig2, "f", {yt, yt})[0]) ==
        std::vector<float>{10, 17});
}

//===----------------------------------------------------------------------===//
// Input checks, before any code runs
//===----------------------------------------------------------------------===//

TEST_CASE("run checks inputs against the signature", "[model]") {
  Model model = loadOk(archive("sig", SigScript));
  Tensor x3 = Tensor::zeros(DType::F32, {3});
  Tensor x4 = Tensor::zeros(DType::F32, {4});

  SECTION("sizes that could wrap in compiled code") {
    // Each 0 counts as 1: x.sum(0) of a [0, M] input would be [M].
    const int64_t huge = (int64_t(1) << 62) + 1;
    Tensor empty = Tensor::borrow(DType::F32, {0}, nullptr);
    CHECK(runError(model, "f", {Tensor::borrow(DType::F32, {huge}, nullptr),
                                x3}) ==
          "input 'x' of 'f' has shape [4611686018427387905]: kiln refuses "
          "inputs whose dims, with each 0 counted as 1, span more than 2^47 "
          "bytes");
    CHECK(runError(model, "f", {x3, Tensor::borrow(DType::F32, {-3}, nullptr)}) ==
          "input 'y' of 'f' has shape [-3]: a dim is negative");
    CHECK(runError(model, "f", {Tensor::borrow(DType::F32, {3}, nullptr), x3}) ==
          "input 'x' of 'f' has shape [3]: it has no data");
    CHECK(runOk(model, "f", {empty, empty})[0].numel() == 0);
  }
  SECTION("count") {
    CHECK(runError(model, "f", {x3}) == "'f' takes 2 inputs (x, y), got 1");
    CHECK(runError(model, "f", {x3, x3, x3}) ==
          "'f' takes 2 inputs (x, y), got 3");
    CHECK(runError(model, "g", {}) ==
          "'g' takes 5 inputs (m, v, s, k, flag), got 0");
  }
  SECTION("dtype") {
    CHECK(runError(model, "f", {x3, Tensor::zeros(DType::I64, {3})}) ==
          "input 'y' of 'f' must be f32, got i64");
    CHECK(runError(model, "f", {Tensor::zeros(DType::F64, {3}), x3}) ==
          "input 'x' of 'f' must be f32, got f64");
  }
  SECTION("rank") {
    CHECK(runError(model, "f", {Tensor::zeros(DType::F32, {2, 3}), x3}) ==
          "input 'x' of 'f' must have rank 1 (shape [N]), got rank 2 "
          "(shape [2, 3])");
    CHECK(runError(model, "f", {x3, Tensor::zeros(DType::F32, {})}) ==
          "input 'y' of 'f' must have rank 1 (shape [N]), got rank 0 "
          "(shape [])");
  }
  SECTION("static dim") {
    Tensor v = Tensor::zeros(DType::F64, {4});
    Tensor s = Tensor::zeros(DType::F64, {});
    Tensor k = Tensor::zeros(DType::I64, {});
    Tensor flag = Tensor::zeros(DType::Bool, {});
    CHECK(runError(model, "g",
                   {Tensor::zeros(DType::F32, {2, 4}), v, s, k, flag}) ==
          "input 'm' of 'g' must have shape [B, 3], got [2, 4] (dim 1 must "
          "be 3)");
    CHECK(runError(model, "g",
                   {Tensor::zeros(DType::F32, {2, 3}),
                    Tensor::zeros(DType::F64, {5}), s, k, flag}) ==
          "input 'v' of 'g' must have shape [4], got [5] (dim 0 must be 4)");
    // A Python scalar is a rank-0 tensor, not a one-element vector.
    CHECK(runError(model, "g",
                   {Tensor::zeros(DType::F32, {2, 3}), v,
                    Tensor::zeros(DType::F64, {1}), k, flag}) ==
          "input 's' of 'g' must have rank 0 (shape []), got rank 1 "
          "(shape [1])");
  }
  SECTION("one size per dim symbol") {
    CHECK(runError(model, "f", {x3, x4}) ==
          "input 'y' of 'f' has N = 4 in dim 0, but input 'x' has N = 3");
  }
  SECTION("unknown entry point") {
    CHECK(runError(model, "h", {x3, x3}) ==
          "no entry point 'h' in this archive (it has: f, g)");
  }
  // A refused call changes nothing.
  CHECK(valuesOf<float>(runOk(model, "f", {x3, x3})[0]) ==
        std::vector<float>{1, 1, 1});
}

//===----------------------------------------------------------------------===//
// Errors raised inside compiled code
//===----------------------------------------------------------------------===//

TEST_CASE("a failed run-time check returns the located error", "[model]") {
  Model model = loadOk(archive("fail", FailScript));
  std::string path = scriptPath("fail");
  Tensor x3 = Tensor::zeros(DType::F32, {3});
  Tensor x4 = Tensor::zeros(DType::F32, {4});

  CHECK(runError(model, "add", {x3, x4}) ==
        path + ":9:14: error: the size of tensor a (3) must match the size "
               "of tensor b (4) at non-singleton dimension 0\n"
               "    return x + y\n"
               "             ^");
  CHECK(runError(model, "pick", {x3, scalar<int64_t>(DType::I64, 3)}) ==
        path + ":15:14: error: index 3 is out of bounds for dimension 0 with "
               "size 3\n"
               "    return x[i]\n"
               "             ^");
  CHECK(runError(model, "stk", {x3, x4}) ==
        path + ":21:12: error: stack expects each tensor to be equal size, "
               "but got [3] at entry 0 and [4] at entry 1\n"
               "    return torch.stack([x, y])\n"
               "           ^");
  CHECK(runError(model, "cat",
                 {Tensor::zeros(DType::F32, {3, 2}),
                  Tensor::zeros(DType::F32, {4, 3})}) ==
        path + ":27:12: error: Sizes of tensors must match except in "
               "dimension 0. Expected size 2 but got size 3 for tensor "
               "number 1 in the list.\n"
               "    return torch.cat([x, y])\n"
               "           ^");

  // The Model is as good as before.
  std::vector<float> a = {1, 2, 3}, b = {10, 20, 30};
  CHECK(valuesOf<float>(runOk(model, "add",
                              {Tensor::borrow(DType::F32, {3}, a.data()),
                               Tensor::borrow(DType::F32, {3}, b.data())})[0]) ==
        std::vector<float>{11, 22, 33});
  CHECK(valuesOf<float>(
            runOk(model, "pick",
                  {Tensor::borrow(DType::F32, {3}, a.data()),
                   scalar<int64_t>(DType::I64, -1)})[0]) ==
        std::vector<float>{3});
}

TEST_CASE("a failed run-time check leaks nothing", "[model]") {
  Model model = loadOk(archive("fail", FailScript));
  Tensor x3 = Tensor::zeros(DType::F32, {3, 2});
  Tensor x4 = Tensor::zeros(DType::F32, {4, 3});
  Tensor v3 = Tensor::zeros(DType::F32, {3});
  Tensor v4 = Tensor::zeros(DType::F32, {4});
  struct Case {
    const char *entry;
    std::vector<Tensor> inputs;
  } cases[] = {
      {"add", {v3, v4}},
      {"pick", {v3, scalar<int64_t>(DType::I64, 7)}},
      {"stk", {v3, v4}},
      {"cat", {x3, x4}},
  };
  for (const Case &c : cases) {
    INFO(c.entry);
    // Warm up, so that one-time allocations are not counted.
    for (int i = 0; i < 5; ++i)
      (void)model.run(c.entry, c.inputs);
    size_t before = heapInUse();
    int succeeded = 0;
    for (int i = 0; i < 1000; ++i)
      succeeded += model.run(c.entry, c.inputs).ok();
    size_t after = heapInUse();
    CHECK(succeeded == 0);
    // A leak of even one small buffer per call would be 16000+ bytes.
    CHECK(after <= before + 4096);
  }
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

TEST_CASE("threads run one Model concurrently", "[model]") {
  Model model = loadOk(archive("loop", LoopScript));
  constexpr int Threads = 8, Iterations = 40;
  constexpr int64_t Trips = 20000;
  // Each thread has its own input (and size), and its reference result from
  // a single-threaded run; a second entry fails on every other iteration,
  // so error state is exercised concurrently too.
  std::vector<std::vector<float>> inputs(Threads);
  std::vector<std::vector<float>> reference(Threads);
  for (int t = 0; t < Threads; ++t) {
    int64_t n = 16 + 7 * t;
    inputs[t] = ramp(n, -0.5f + 0.0625f * t, 0.015625f);
    reference[t] = valuesOf<float>(
        runOk(model, "work",
              {Tensor::borrow(DType::F32, {n}, inputs[t].data()),
               scalar<int64_t>(DType::I64, Trips)})[0]);
  }
  Tensor a = Tensor::zeros(DType::F32, {2});
  Tensor b = Tensor::zeros(DType::F32, {5});
  const std::string expectedError =
      scriptPath("loop") +
      ":18:14: error: the size of tensor a (2) must match the size of tensor "
      "b (5) at non-singleton dimension 0\n"
      "    return x + y\n"
      "             ^";

  // Catch's macros are not thread-safe: the threads only count, and the
  // main thread checks the counts.
  Tensor trips = scalar<int64_t>(DType::I64, Trips);
  std::vector<int> mismatches(Threads, 0), failures(Threads, 0),
      wrongErrors(Threads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < Threads; ++t) {
    threads.emplace_back([&, t] {
      int64_t n = static_cast<int64_t>(inputs[t].size());
      Tensor x = Tensor::borrow(DType::F32, {n}, inputs[t].data());
      for (int i = 0; i < Iterations; ++i) {
        Result<std::vector<Tensor>> out = model.run("work", {x, trips});
        if (!out || out->size() != 1)
          ++failures[t];
        else if ((*out)[0].shape() != std::vector<int64_t>{n} ||
                 std::memcmp((*out)[0].data(), reference[t].data(),
                             reference[t].size() * sizeof(float)) != 0)
          ++mismatches[t];
        if (i % 2 == 0) {
          Result<std::vector<Tensor>> bad = model.run("add", {a, b});
          if (bad.ok() || bad.error().message != expectedError)
            ++wrongErrors[t];
        }
      }
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < Threads; ++t) {
    INFO("thread " << t);
    CHECK(failures[t] == 0);
    CHECK(mismatches[t] == 0);
    CHECK(wrongErrors[t] == 0);
  }
}

TEST_CASE("threads load and run archives concurrently", "[model]") {
  // Each thread loads its own Models (two archives, so two code objects
  // each) while the others load and drop theirs.
  const std::string &sig = archive("sig", SigScript);
  const std::string &alias = archive("alias", AliasScript);
  constexpr int Threads = 6, Iterations = 10;
  std::vector<int> failures(Threads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < Threads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<float> x = {float(t), 2}, y = {3, float(t)};
      Tensor xt = Tensor::borrow(DType::F32, {2}, x.data());
      Tensor yt = Tensor::borrow(DType::F32, {2}, y.data());
      for (int i = 0; i < Iterations; ++i) {
        Result<Model> a = Model::load(sig), b = Model::load(alias);
        if (!a || !b) {
          ++failures[t];
          continue;
        }
        Result<std::vector<Tensor>> f = a->run("f", {xt, yt});
        Result<std::vector<Tensor>> ident = b->run("ident", {yt});
        if (!f || !ident || f->at(0).data<float>()[0] != 3 * float(t) + 1 ||
            f->at(0).data<float>()[1] != 2 * float(t) + 1 ||
            ident->at(0).data<float>()[1] != float(t))
          ++failures[t];
      }
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < Threads; ++t) {
    INFO("thread " << t);
    CHECK(failures[t] == 0);
  }
}
