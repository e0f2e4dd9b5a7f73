//===- PackedLayout.cpp - The layout a model's GEMM weight is packed in --===//

#include "PackedLayout.h"

#include <algorithm>

namespace kiln::onednn {

using dnnl::memory;

memory::desc packedLayout(const memory::desc &preferred,
                          const memory::desc &stored, int64_t rows,
                          memory::data_type type) {
  const dnnl_memory_desc_t &d = preferred.data;
  if (d.format_kind != dnnl_blocked ||
      d.format_desc.blocking.inner_nblks != 0 || d.ndims < 2)
    return preferred;
  // As stored only where that is a matrix oneDNN reads, with one of its
  // last two dims dense (a Linear's [N, K] read as K x N is); a strided
  // slice of a weight is packed.
  const dnnl_dims_t &storedStrides = stored.data.format_desc.blocking.strides;
  if (rows == 1 && stored.data.format_kind == dnnl_blocked &&
      (storedStrides[d.ndims - 1] == 1 || storedStrides[d.ndims - 2] == 1))
    return stored;
  memory::dims sizes = preferred.dims();
  const dnnl_dims_t &strides = d.format_desc.blocking.strides;
  int rank = d.ndims;
  // Row-major and dense: each dim's stride is the product of the later
  // dims' sizes.
  memory::dims padded(rank, 1);
  for (int dim = rank - 2; dim >= 0; --dim)
    padded[dim] = padded[dim + 1] * sizes[dim + 1];
  int64_t element = int64_t(memory::data_type_size(type));
  if (!std::equal(padded.begin(), padded.end(), strides) ||
      sizes.back() * element % kCacheWayBytes != 0)
    return preferred;
  padded[rank - 2] = sizes.back() + kCacheLineBytes / element;
  for (int dim = rank - 3; dim >= 0; --dim)
    padded[dim] = padded[dim + 1] * sizes[dim + 1];
  return memory::desc(sizes, type, padded);
}

} // namespace kiln::onednn
