//===- CudaBlas.h - matmul on the GPU through cuBLAS (private) ------------===//
#ifndef KILN_RUNTIME_CUDABLAS_H
#define KILN_RUNTIME_CUDABLAS_H

#include "kiln/abi.h"

#include <string>

namespace kiln {

/// kiln_host_api.matmul, and with a `bias` matmul_epilogue (their contracts
/// are in kiln/abi.h), on the running CUDA call's stream, through cuBLAS
/// (cuBLASLt for an epilogue) in f32 with TF32 off, as PyTorch's default.
/// Returns an error message or "".
std::string cudaMatmul(const kiln_unranked_memref &a,
                       const kiln_unranked_memref &b,
                       const kiln_unranked_memref *bias,
                       const kiln_unranked_memref &out, int32_t activation,
                       int32_t dtype);

/// Loads cuBLAS and readies it for the calling thread on `stream` (its
/// handle, and one small product with cuBLAS and one with cuBLASLt, in
/// TF32 math when `tf32`, which load their heuristics and first kernels),
/// so that a model's first call does not pay for that. Returns an error
/// or "".
std::string prepareCublas(void *stream, bool tf32);

} // namespace kiln

#endif // KILN_RUNTIME_CUDABLAS_H
