//===- ThreadPoolTest.cpp - The team compiled code's tiles run on ---------===//
//
// ThreadPool.cpp is compiled into this test (CMakeLists.txt), as the
// runtime keeps it hidden. Catch2's assertions are not thread-safe, so
// chunks only count what they see; the test thread checks the counts.

#include "runtime/src/ThreadPool.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace kiln;

namespace {

/// Runs a loop over n iterations on `threads` threads and checks that
/// every iteration ran exactly once.
void coversOnce(int64_t n, int threads) {
  std::vector<std::atomic<int>> hits(n);
  std::atomic<int> badRanges{0};
  parallelFor(n, threads, [&](int64_t begin, int64_t end) {
    badRanges += !(0 <= begin && begin < end && end <= n);
    for (int64_t i = begin; i < end; ++i)
      ++hits[i];
  });
  REQUIRE(badRanges == 0);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    wrong += hits[i] != 1;
  REQUIRE(wrong == 0);
}

} // namespace

TEST_CASE("every iteration runs exactly once", "[threadpool]") {
  for (int threads : {1, 2, 3, 8})
    for (int64_t n : {0, 1, 2, 7, 64, 1000, 4097})
      coversOnce(n, threads);
}

TEST_CASE("the work is shared among threads", "[threadpool]") {
  // Chunks that wait for each other can only finish if two threads run
  // them at once: a team that ran everything on the caller would hang
  // here, so the wait is bounded and the test fails instead.
  std::atomic<int> arrived{0};
  std::atomic<bool> together{false};
  parallelFor(2, 2, [&](int64_t, int64_t) {
    ++arrived;
    for (int spin = 0; spin < 2000 && arrived < 2; ++spin)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (arrived == 2)
      together = true;
  });
  CHECK(together);
}

TEST_CASE("a loop inside a chunk runs inline", "[threadpool]") {
  std::atomic<int64_t> total{0};
  std::atomic<int> moved{0};
  parallelFor(16, 4, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      std::thread::id outer = std::this_thread::get_id();
      parallelFor(100, 4, [&](int64_t b, int64_t e) {
        moved += std::this_thread::get_id() != outer;
        total += e - b;
      });
    }
  });
  CHECK(total == 1600);
  CHECK(moved == 0);
}

TEST_CASE("an exception in a chunk reaches the caller after all chunks ran",
          "[threadpool]") {
  std::atomic<int64_t> ran{0};
  CHECK_THROWS_WITH(parallelFor(64, 4,
                                [&](int64_t begin, int64_t end) {
                                  ran += end - begin;
                                  if (begin == 0)
                                    throw std::runtime_error("chunk 0");
                                }),
                    "chunk 0");
  CHECK(ran == 64);
  coversOnce(1000, 4); // the team still works
}

TEST_CASE("concurrent loops from 8 threads share the team", "[threadpool]") {
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t)
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round) {
        std::vector<int> seen(257, 0);
        parallelFor(257, 3, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i)
            ++seen[i];
        });
        for (int v : seen)
          failures += v != 1;
      }
    });
  for (std::thread &t : callers)
    t.join();
  CHECK(failures == 0);
}

TEST_CASE("concurrent loops add at most one team's threads", "[threadpool]") {
  // 8 callers, each asking for 3 threads: one loop at a time has the
  // team, the others run on their callers, so at most 8 + 2 threads run
  // chunks at once, not 2 more per caller (24 in all).
  std::atomic<int> running{0}, most{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 8; ++t)
    callers.emplace_back([&] {
      for (int round = 0; round < 20; ++round)
        parallelFor(64, 3, [&](int64_t, int64_t) {
          int now = ++running;
          for (int seen = most;
               now > seen && !most.compare_exchange_weak(seen, now);)
            ;
          std::this_thread::sleep_for(std::chrono::microseconds(50));
          --running;
        });
    });
  for (std::thread &t : callers)
    t.join();
  CHECK(most <= 8 + 2);
  CHECK(most >= 2);
}

TEST_CASE("one claim at a time has the team", "[threadpool]") {
  {
    TeamClaim first(4);
    CHECK(first.threads() == 4);
    int other = 0;
    std::thread([&] { other = TeamClaim(4).threads(); }).join();
    CHECK(other == 1); // busy: the other thread runs alone
    // A loop started while this thread holds the team runs inline.
    std::atomic<int> moved{0};
    std::thread::id self = std::this_thread::get_id();
    parallelFor(100, 4, [&](int64_t, int64_t) {
      moved += std::this_thread::get_id() != self;
    });
    CHECK(moved == 0);
  }
  CHECK(TeamClaim(3).threads() == 3); // released
  CHECK(TeamClaim(1).threads() == 1);
}

TEST_CASE("KILN_NUM_THREADS sets the default thread count", "[threadpool]") {
  std::string error;
  setenv("KILN_NUM_THREADS", "3", 1);
  CHECK(defaultThreadCount(&error) == 3);
  CHECK(error.empty());
  for (const char *bad : {"0", "-2", "many", "4x", "100000", ""}) {
    setenv("KILN_NUM_THREADS", bad, 1);
    error.clear();
    CHECK(defaultThreadCount(&error) >= 1);
    CHECK(error == "KILN_NUM_THREADS='" + std::string(bad) +
                       "': expected a whole number of threads from 1 to 256");
  }
  unsetenv("KILN_NUM_THREADS");
  error.clear();
  CHECK(defaultThreadCount(&error) >= 1);
  CHECK(error.empty());
}
