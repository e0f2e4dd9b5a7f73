//===- LargeBuffers.cpp - Memory that a call will touch in full -----------===//

#include "LargeBuffers.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>

namespace kiln {

void *allocateBuffer(size_t bytes) {
  constexpr size_t kHugePage = size_t(2) << 20;
  constexpr size_t kPage = 4096;
  if (bytes < kHugePage)
    return std::aligned_alloc(64, (std::max<size_t>(bytes, 1) + 63) / 64 * 64);
  // posix_memalign, not aligned_alloc, which wants a size that is a
  // multiple of the alignment (AddressSanitizer enforces it). glibc maps a
  // chunk this large on its own, so the advice covers no other allocation.
  size_t size = (bytes + kPage - 1) / kPage * kPage;
  void *data = nullptr;
  if (posix_memalign(&data, kHugePage, size) != 0)
    return nullptr;
  // Only advice: without huge pages the buffer is the same, on small ones.
  madvise(data, size, MADV_HUGEPAGE);
  return data;
}

void faultIn(void *data, size_t bytes) {
  constexpr size_t kPage = 4096;
  if (bytes == 0)
    return;
  volatile char *memory = static_cast<char *>(data);
  for (size_t at = 0; at < bytes; at += kPage)
    memory[at] = 0;
  memory[bytes - 1] = 0;
}

} // namespace kiln
