//===- MemrefView.h - A tensor as compiled code passes it (private) -------===//
//
// The kernel library's slots (matmul, conv2d) receive memref descriptors;
// both implementations, oneDNN's on the CPU and cuDNN's on the GPU, read
// them as sizes, element strides and the first element's address.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_MEMREFVIEW_H
#define KILN_RUNTIME_MEMREFVIEW_H

#include "kiln/abi.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kiln {

struct View {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  void *data; // the first element: aligned + offset
};

/// Fills `view` from `memref`, whose elements are `element` bytes.
/// Assigning into an existing view reuses its vectors' memory, which a warm
/// call needs (OneDnnMatmul.cpp).
inline void setView(View &view, const kiln_unranked_memref &memref,
                    size_t element) {
  const kiln_memref *desc = memref.desc;
  int64_t rank = memref.rank;
  view.sizes.assign(desc->dims, desc->dims + rank);
  view.strides.assign(desc->dims + rank, desc->dims + 2 * rank);
  view.data = static_cast<uint8_t *>(desc->aligned) +
              desc->offset * static_cast<int64_t>(element);
}

/// Whether `rank` dims of `sizes` at element `strides` are dense
/// row-major; a size-1 dim's stride is never used, so any will do.
inline bool isDenseRowMajor(const int64_t *sizes, const int64_t *strides,
                            int64_t rank) {
  int64_t step = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != step)
      return false;
    step *= sizes[d];
  }
  return true;
}

inline View viewOf(const kiln_unranked_memref &memref, size_t element) {
  View view;
  setView(view, memref, element);
  return view;
}

} // namespace kiln

#endif // KILN_RUNTIME_MEMREFVIEW_H
