//===- BlockCache.h - Memory for the buffers compiled code allocates ------===//
//
// Every buffer compiled code allocates (its temporaries and its results)
// comes from here. Blocks are kept when freed and handed out again:
// without that, glibc returns a freed multi-megabyte block to the kernel
// (its trim and mmap thresholds), and the next call pays a page fault per
// 4 KiB to get it back, several times the cost of the arithmetic (softmax
// over 512x1024: 1.6 ms instead of 0.16 ms). ONNX Runtime's arena and
// PyTorch's CUDA allocator cache for the same reason. Small blocks are
// kept too, so that a warm call makes no heap allocation at all
// (Function::run).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_BLOCKCACHE_H
#define KILN_RUNTIME_BLOCKCACHE_H

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define KILN_BLOCK_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_BLOCK_CACHE 0
#endif
#endif
#ifndef KILN_BLOCK_CACHE
#define KILN_BLOCK_CACHE 1
#endif

namespace kiln {

/// Under AddressSanitizer (./dev test --sanitize) nothing is cached, so
/// that compiled code reading a buffer after its release is still caught.
inline constexpr bool kBlockCacheEnabled = KILN_BLOCK_CACHE;
/// Blocks below this size are served in powers of two, larger ones in
/// whole pages.
inline constexpr size_t kCachedBlockBytes = 64 * 1024;
/// The most bytes the cache keeps; a block released beyond it is freed.
inline constexpr size_t kBlockCacheBytes = size_t(256) << 20;

/// A 64-byte aligned block of at least `bytes` bytes, or null when out of
/// memory. Thread-safe.
void *acquireBlock(size_t bytes);
/// Gives back a block from acquireBlock (null is ignored), from any thread.
void releaseBlock(void *block);
/// The bytes the cache holds now.
size_t cachedBytes();

/// `count` blocks of `bytes` each, as compiled code will ask for them.
struct BlockStock {
  uint64_t bytes;
  uint64_t count;
};
/// Allocates the blocks `stock` lists, writes to every page of each, and
/// caches them, so that the calls that ask for them find them faulted in
/// (LoadOptions::prepare). Stops where the cache would overflow, or memory
/// runs out: the blocks are only ever a head start.
void stockBlocks(const std::vector<BlockStock> &stock);
/// How many blocks the cache has allocated from the system: a call that
/// finds every block it needs cached allocates none.
uint64_t blocksAllocated();

} // namespace kiln

#endif // KILN_RUNTIME_BLOCKCACHE_H
