//===- CudaBackend.h - kiln IR to GPU kernels and their host code -*- C++ -*-===//
#ifndef KILN_CODEGEN_CUDA_CUDABACKEND_H
#define KILN_CODEGEN_CUDA_CUDABACKEND_H

#include <functional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class PassManager;
} // namespace mlir

namespace kiln {

/// The GPU architectures kiln compiles for unless told otherwise.
inline const char *const kDefaultCudaArchs = "sm_80,sm_90";

/// Checks a `--cuda-arch` list (sm_NN names, at least sm_52, no
/// repeats) and returns it sorted oldest first; or an error message.
std::string parseCudaArchs(const std::string &list,
                           std::vector<std::string> &archs);

/// The kernels of a CUDA archive.
struct CudaKernels {
  std::vector<std::string> archs;  // oldest first
  std::vector<std::string> cubins; // one per arch, from ptxas
  /// PTX for the oldest arch: the driver JIT-compiles it on a GPU that
  /// no cubin matches but that is at least that arch.
  std::string ptx;
  std::vector<std::string> names; // the kernels, as launches name them
  /// The GPU libraries the host code calls ("cublas", "cudnn"), which the runtime
  /// loads and warms at load rather than in the first call.
  std::vector<std::string> libraries;
  /// --allow-tf32: the libraries may compute f32 products with TF32.
  bool allowTf32 = false;
};

/// Lowers `module` (kiln IR with weights as arguments) in place to CUDA host
/// code (loops on memrefs around calls of kiln_launch__*, ready for
/// buildLlvmLoweringPipeline), and compiles its kernels to PTX and, with
/// ptxas, to a cubin for each of `archs`. `instrument` is applied to each
/// pass manager (the driver's IR dumps). Diagnostics go to the context;
/// on failure returns false with a summary in `error`.
bool compileKernels(mlir::ModuleOp module, unsigned optLevel,
                    const std::vector<std::string> &archs,
                    const std::function<void(mlir::PassManager &)> &instrument,
                    CudaKernels &kernels, std::string &error);

} // namespace kiln

#endif // KILN_CODEGEN_CUDA_CUDABACKEND_H
