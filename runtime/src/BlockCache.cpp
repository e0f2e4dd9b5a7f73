//===- BlockCache.cpp - Memory for the buffers compiled code allocates ----===//
//
// Each block has a 64-byte header before it that records its size, so a
// block can be released without the caller knowing it (a result's deleter,
// the clean-up after a failed call). Cached blocks are kept by size class
// (sizeClass): a model calls with the same shapes again and again, so the
// same classes repeat, and a warm call takes every block from the cache.
//
//===----------------------------------------------------------------------===//
#include "BlockCache.h"
#include "LargeBuffers.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

namespace kiln {
namespace {

constexpr size_t kHeader = 64;
constexpr size_t kPage = 4096;
/// The most blocks stockBlocks allocates, whatever an archive says: far
/// more than the buffers of any one call.
constexpr size_t kMaxStockedBlocks = size_t(1) << 16;

struct Cache {
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<void *>> free;
  size_t bytes = 0;
};

Cache &cache() {
  // Never destroyed: results may be released after static destructors ran.
  static Cache *instance = new Cache;
  return *instance;
}

std::atomic<uint64_t> allocated{0};

size_t &sizeOf(void *base) { return *static_cast<size_t *>(base); }

/// The size a request is served with: a power of two from 64 bytes below
/// kCachedBlockBytes, whole pages above, so that sizes repeat.
size_t sizeClass(size_t bytes) {
  if (bytes >= kCachedBlockBytes)
    return (bytes + kPage - 1) / kPage * kPage;
  size_t size = 64;
  while (size < bytes)
    size *= 2;
  return size;
}

} // namespace

void *acquireBlock(size_t bytes) {
  size_t size = sizeClass(bytes);
  if (kBlockCacheEnabled) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto found = c.free.find(size);
    if (found != c.free.end() && !found->second.empty()) {
      void *base = found->second.back();
      found->second.pop_back();
      c.bytes -= size;
      return static_cast<char *>(base) + kHeader;
    }
  }
  void *base = allocateBuffer(size + kHeader);
  if (!base)
    return nullptr;
  allocated.fetch_add(1, std::memory_order_relaxed);
  sizeOf(base) = size;
  return static_cast<char *>(base) + kHeader;
}

void releaseBlock(void *block) {
  if (!block)
    return;
  void *base = static_cast<char *>(block) - kHeader;
  size_t size = sizeOf(base);
  if (kBlockCacheEnabled) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.bytes + size <= kBlockCacheBytes) {
      try {
        c.free[size].push_back(base);
        c.bytes += size;
        return;
      } catch (const std::bad_alloc &) {
        // No room to remember it: free it instead.
      }
    }
  }
  std::free(base);
}

size_t cachedBytes() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.bytes;
}

void stockBlocks(const std::vector<BlockStock> &stock) {
  if (!kBlockCacheEnabled)
    return;
  // All held at once, as one call may hold them, then all given back.
  std::vector<void *> held;
  size_t room = kBlockCacheBytes - std::min(kBlockCacheBytes, cachedBytes());
  for (const BlockStock &blocks : stock) {
    size_t size = sizeClass(blocks.bytes);
    for (uint64_t i = 0; i < blocks.count; ++i) {
      if (size + kHeader > room || held.size() >= kMaxStockedBlocks)
        break;
      void *block = acquireBlock(blocks.bytes);
      if (!block)
        break;
      try {
        held.push_back(block);
      } catch (const std::bad_alloc &) {
        releaseBlock(block);
        break;
      }
      room -= size + kHeader;
      faultIn(block, size);
    }
  }
  for (void *block : held)
    releaseBlock(block);
}

uint64_t blocksAllocated() {
  return allocated.load(std::memory_order_relaxed);
}

} // namespace kiln
