//===- BlockCacheTest.cpp - Reusing the blocks compiled code frees --------===//
//
// BlockCache.cpp is compiled into this test (CMakeLists.txt): the runtime
// keeps it hidden, and this tests the cache itself, not a model.

#include "runtime/src/BlockCache.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

using namespace kiln;

TEST_CASE("blocks are 64-byte aligned and come back when freed",
          "[blockcache]") {
  for (size_t bytes : {size_t(1), size_t(100), size_t(5000), size_t(1) << 20}) {
    void *block = acquireBlock(bytes);
    REQUIRE(block);
    CHECK(reinterpret_cast<uintptr_t>(block) % 64 == 0);
    std::memset(block, 0xab, bytes);
    releaseBlock(block);
  }
  if (!kBlockCacheEnabled)
    return; // AddressSanitizer: every block is freed (BlockCache.h)
  // A call that repeats allocates the same sizes: it gets the same pages,
  // already mapped, instead of faulting in fresh ones.
  void *first = acquireBlock(3 << 20);
  releaseBlock(first);
  void *second = acquireBlock(3 << 20);
  CHECK(second == first);
  releaseBlock(second);
  releaseBlock(nullptr);
  // Small ones too, by power-of-two class: 20 bytes and 40 share one.
  void *small = acquireBlock(20);
  releaseBlock(small);
  void *again = acquireBlock(40);
  CHECK(again == small);
  releaseBlock(again);
}

TEST_CASE("a block released on another thread is reused", "[blockcache]") {
  if (!kBlockCacheEnabled)
    return;
  void *block = acquireBlock(1 << 20);
  std::thread([block] { releaseBlock(block); }).join();
  void *again = acquireBlock(1 << 20);
  CHECK(again == block);
  releaseBlock(again);
}

TEST_CASE("the cache keeps at most kBlockCacheBytes", "[blockcache]") {
  // Five blocks of 64 MiB (never touched, so never backed by memory) are
  // more than the 256 MiB the cache keeps: four are kept, one is freed.
  if (!kBlockCacheEnabled)
    return;
  const size_t size = size_t(64) << 20;
  REQUIRE(5 * size > kBlockCacheBytes);
  size_t before = cachedBytes();
  std::vector<void *> blocks;
  for (int i = 0; i < 5; ++i)
    blocks.push_back(acquireBlock(size));
  std::set<void *> released(blocks.begin(), blocks.end());
  for (void *block : blocks)
    releaseBlock(block);
  size_t kept = (kBlockCacheBytes - before) / size;
  CHECK(cachedBytes() == before + kept * size);
  blocks.clear();
  for (size_t i = 0; i < kept; ++i) {
    blocks.push_back(acquireBlock(size));
    CHECK(released.count(blocks.back()) == 1);
  }
  CHECK(cachedBytes() == before);
  for (void *block : blocks)
    releaseBlock(block);
}
