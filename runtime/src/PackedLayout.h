//===- PackedLayout.h - The layout a model's GEMM weight is packed in ----===//
//
// Private to the runtime: OneDnnMatmul.cpp packs a model's weight once
// (OneDnnSupport.h, packedWeight) into the layout this picks.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_PACKEDLAYOUT_H
#define KILN_RUNTIME_PACKEDLAYOUT_H

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>

namespace kiln::onednn {

/// Bytes of the L1 data cache that one way covers: 4 KiB on every x86-64
/// core (32 KiB in 8 ways, 48 KiB in 12). Rows this far apart (or a
/// multiple of it) fall into the same cache sets.
inline constexpr int64_t kCacheWayBytes = 4096;
inline constexpr int64_t kCacheLineBytes = 64;

/// The layout to pack a model's weight `stored` into, for a product of
/// `rows` rows whose library prefers `preferred`:
/// - a blocked layout as it is (brgemm's, on AVX-512);
/// - a plain one (AVX2's gemm:jit reads any strides) for a single row not
///   at all, where `stored` has one of its last two dims dense: the
///   product reads each weight element once however it lies,
///   and PyTorch's [N, K] is what its dot products want; transposing at
///   load would only cost time (239 ms for the 98 MB MLP's 5000 x 4096
///   weight, one Zen 3 core);
/// - else the plain layout, but where its rows are a multiple of
///   kCacheWayBytes long, one cache line longer each. For a short A, the
///   kernel reads the weight in place, many rows at one column: on 4 KiB
///   rows those all fall into one cache set and evict each other. Measured
///   on a Zen 3 core (the MLP's 256 x 1024 x 1024 layer, one thread):
///   14.6 ms on 1024-float rows, 7.1-7.9 ms on 1040-float rows, 8.3-9.6
///   as stored.
dnnl::memory::desc packedLayout(const dnnl::memory::desc &preferred,
                                const dnnl::memory::desc &stored, int64_t rows,
                                dnnl::memory::data_type type);

} // namespace kiln::onednn

#endif // KILN_RUNTIME_PACKEDLAYOUT_H
