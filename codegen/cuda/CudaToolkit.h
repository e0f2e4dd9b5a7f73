//===- CudaToolkit.h - The CUDA toolkit that --target=cuda needs -*- C++ -*-===//
#ifndef KILN_CODEGEN_CUDA_CUDATOOLKIT_H
#define KILN_CODEGEN_CUDA_CUDATOOLKIT_H

#include <string>

namespace kiln {

/// The CUDA toolkit --target=cuda compiles with: its ptxas assembles the
/// kernels and its libdevice supplies their math functions.
struct CudaToolkit {
  std::string root;
  std::string ptxas;     // root/bin/ptxas
  std::string libdevice; // root/nvvm/libdevice/libdevice.10.bc
};

/// Finds the toolkit: $KILN_CUDA_PATH when it is set, else the first of
/// $CUDA_PATH, $CUDA_HOME, /usr/local/cuda and the folder above the ptxas
/// on PATH that has both ptxas and libdevice. Returns an error message or
/// "".
std::string findCudaToolkit(CudaToolkit &toolkit);

/// Assembles `ptx` into a cubin for `arch` (sm_90, ...) with the toolkit's
/// ptxas. Returns false with ptxas's own message (or why it could not run)
/// in `error`.
bool assemblePtx(const CudaToolkit &toolkit, const std::string &ptx,
                 const std::string &arch, std::string &cubin,
                 std::string &error);

} // namespace kiln

#endif // KILN_CODEGEN_CUDA_CUDATOOLKIT_H
