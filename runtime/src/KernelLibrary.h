//===- KernelLibrary.h - GEMM and convolution for compiled code -----------===//
//
// The kernel library's slots of kiln_host_api (kiln/abi.h states their
// contracts). KernelLibrary.cpp implements them with oneDNN.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_KERNELLIBRARY_H
#define KILN_RUNTIME_KERNELLIBRARY_H

#include "kiln/abi.h"

#include <cstdint>

namespace kiln {

/// How many oneDNN plans (a primitive, with the reorders around it) the
/// kernel library has built in this process: a call whose shapes were seen
/// before, or warmed up at load (LoadOptions::warmup), builds none.
/// Exported for the runtime's tests.
__attribute__((visibility("default"))) uint64_t kernelPrimitivesBuilt();

void kernelMatmul(const kiln_unranked_memref *a, const kiln_unranked_memref *b,
                  const kiln_unranked_memref *out, int64_t site, int32_t dtype);

void kernelMatmulEpilogue(const kiln_unranked_memref *a,
                          const kiln_unranked_memref *b,
                          const kiln_unranked_memref *bias,
                          const kiln_unranked_memref *out, int32_t activation,
                          int64_t site, int32_t dtype);

void kernelConv2d(const kiln_unranked_memref *input,
                  const kiln_unranked_memref *weight,
                  const kiln_unranked_memref *out, int64_t strideH,
                  int64_t strideW, int64_t padH, int64_t padW,
                  int64_t dilationH, int64_t dilationW, int64_t groups,
                  int64_t site, int32_t dtype);

} // namespace kiln

#endif // KILN_RUNTIME_KERNELLIBRARY_H
