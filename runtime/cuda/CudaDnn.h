//===- CudaDnn.h - conv2d on the GPU through cuDNN (private) --------------===//
#ifndef KILN_RUNTIME_CUDADNN_H
#define KILN_RUNTIME_CUDADNN_H

#include "kiln/abi.h"

#include <string>

namespace kiln {

struct ConvParams;

/// kiln_host_api.conv2d (its contract is in kiln/abi.h) on the running
/// CUDA call's stream, through cuDNN in f32 with TF32 off. Returns an error
/// message or "".
std::string cudaConv2d(const kiln_unranked_memref &input,
                       const kiln_unranked_memref &weight,
                       const kiln_unranked_memref &out,
                       const ConvParams &params, int32_t dtype);

/// Loads cuDNN, creates the calling thread's handle on `stream` and runs
/// one tiny convolution (in TF32 math when `tf32`), which loads cuDNN's
/// engines, so that a model's first call does not pay for that. Returns an
/// error or "".
std::string prepareCudnn(void *stream, bool tf32);

} // namespace kiln

#endif // KILN_RUNTIME_CUDADNN_H
