//===- LargeBuffers.h - Memory that a call will touch in full (private) ---===//
//
// A buffer the runtime keeps and reuses (a block of compiled code's, a
// packed weight) is touched in full the first time it is written: one page
// fault per 4 KiB, about a microsecond each on this kind of machine, so
// that packing the MLP's 7 MB of weights at load took twice as long as it
// does on 2 MiB pages. Buffers of 2 MiB and more therefore start on a 2 MiB
// boundary and ask for transparent huge pages (madvise, which Debian's
// kernels honor by default); the kernel backs their whole 2 MiB stretches
// with huge pages, faulted once each, and the rest with small ones. Fewer
// pages also mean fewer TLB misses in the kernels that read them.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_LARGEBUFFERS_H
#define KILN_RUNTIME_LARGEBUFFERS_H

#include <cstddef>

namespace kiln {

/// At least `bytes` of memory, 64-byte aligned (2 MiB aligned and on huge
/// pages where the kernel has them, from 2 MiB on); null when out of
/// memory. Freed with std::free.
void *allocateBuffer(size_t bytes);

/// Writes one byte a page of [data, data + bytes), so that the memory is
/// mapped now (at load) rather than a fault at a time inside a call. Only
/// for memory whose contents nobody holds yet: it writes zeros.
void faultIn(void *data, size_t bytes);

} // namespace kiln

#endif // KILN_RUNTIME_LARGEBUFFERS_H
