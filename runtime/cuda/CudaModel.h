//===- CudaModel.h - The CUDA plugin's models and calls (plugin-private) --===//
//
// A CUDA archive's code object is host code: it computes shapes, allocates
// device memory and launches the archive's kernels through kiln/abi.h,
// which the runtime forwards here (src/CudaPlugin.h). This file holds the
// GPU side of that: the kernels loaded into the driver, the weights copied
// to the GPU at load, and the per-call state (stream and device buffers).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_CUDA_CUDAMODEL_H
#define KILN_RUNTIME_CUDA_CUDAMODEL_H

#include "CudaDriver.h"
#include "CudaPlugin.h"

#include <string_view>

namespace kiln {

class CudaModelImpl final : public CudaModel {
public:
  static std::unique_ptr<CudaModel> load(const CudaTarget &target,
                                         const EntryBytes &entry,
                                         const std::vector<WeightInfo> &weights,
                                         std::string &error);
  ~CudaModelImpl() override;

  const std::vector<void *> &weights() const override { return deviceWeights; }
  const std::string &code() const override { return loaded; }
  /// The kernel named `name`, or null.
  cuda::Function kernel(std::string_view name) const;
  /// Whether the archive was compiled with --allow-tf32.
  bool allowTf32() const { return tf32; }

private:
  CudaModelImpl() = default;
  cuda::Module module = nullptr;
  std::vector<std::pair<std::string, cuda::Function>> kernels;
  std::vector<void *> deviceWeights;
  std::string loaded;
  bool tf32 = false;
};

class CudaCallImpl final : public CudaCall {
public:
  CudaCallImpl(const CudaModelImpl &model, int threads);
  ~CudaCallImpl() override;

  void *upload(const void *data, size_t bytes, std::string &error) override;
  bool takeResult(DType dtype, std::vector<int64_t> shape, void *allocated,
                  const void *data, size_t bytes, Tensor &out,
                  std::string &error) override;
  bool copyOut(void *to, Device device, const void *from, size_t bytes,
               std::string &error) override;
  bool finish(int64_t check[5], std::string &error) override;
  void *alloc(uint64_t bytes, std::string &error) override;
  void free(void *ptr) override;
  void *checkRecord(std::string &error) override;
  bool launch(const char *kernel, const int64_t grid[3],
              const int64_t block[3], void **params,
              std::string &error) override;
  bool read(void *to, const void *from, size_t bytes,
            std::string &error) override;
  bool write(void *to, const void *from, size_t bytes,
             std::string &error) override;
  std::string matmul(const kiln_unranked_memref &a,
                     const kiln_unranked_memref &b,
                     const kiln_unranked_memref *bias,
                     const kiln_unranked_memref &out, int32_t activation,
                     int32_t dtype) override;
  std::string conv2d(const kiln_unranked_memref &input,
                     const kiln_unranked_memref &weight,
                     const kiln_unranked_memref &out, const ConvParams &params,
                     int32_t dtype) override;

  const CudaModelImpl &model;
  int threads;
  cuda::Stream stream = nullptr;
  std::vector<void *> buffers; // live device allocations, oldest first
  void *record = nullptr;      // the check record, once asked for
  bool finished = false;       // finish() saw the call's work done
};

/// Releases a device buffer that a CUDA tensor owns.
void releaseDeviceBuffer(void *ptr);

/// `tensor` copied to the other device (kiln::copyTo).
Tensor copyAcrossDevices(const Tensor &tensor, Device device,
                         std::string &error);

/// The runtime's thread pool, as it lent it (CudaHostServices).
void hostParallelFor(void (*body)(void *, int64_t, int64_t), void *context,
                     int64_t n, int threads);

/// The stream of the running CUDA call; null when none is running.
cuda::Stream currentCudaStream();
/// Whether the running CUDA call's archive allows TF32 (--allow-tf32).
bool currentCallAllowsTf32();

} // namespace kiln

#endif // KILN_RUNTIME_CUDA_CUDAMODEL_H
