//===- CudaModel.h - A CUDA archive's kernels, weights and calls (private) ===//
//
// A CUDA archive's code object is host code: it computes shapes, allocates
// device memory and launches the archive's kernels through kiln/abi.h.
// This file holds the GPU side of that: the kernels loaded into the
// driver, the weights copied to the GPU at load, and the per-call state
// (stream and device buffers) behind device_alloc, device_free and
// launch_kernel.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_CUDAMODEL_H
#define KILN_RUNTIME_CUDAMODEL_H

#include "CpuFeatures.h"
#include "CudaDriver.h"
#include "Site.h"

#include "kiln/Model.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln {

/// The manifest's targets.cuda (docs/archive.md).
struct CudaTarget {
  std::vector<CpuVariant> host; // the code objects that launch the kernels
  std::vector<std::string> kernels;
  std::string ptxArch, ptxFile;
  std::vector<std::pair<std::string, std::string>> cubins; // arch, entry
  std::vector<std::string> libraries; // "cublas": loaded and warmed at load
  bool allowTf32 = false; // --allow-tf32: cuBLAS and cuDNN may use TF32
  /// The host code's print formats and run-time check sites.
  std::vector<std::string> strings;
  std::vector<Site> sites;
};

class CudaModel {
public:
  /// Loads `target`'s kernels (the cubin for this GPU's arch, else the
  /// PTX, which the driver compiles) and copies every weight to the GPU.
  /// `entry` returns an archive entry's bytes. On failure returns null
  /// with the reason in `error`.
  static std::unique_ptr<CudaModel>
  load(const CudaTarget &target,
       const std::function<std::string_view(const std::string &)> &entry,
       const std::vector<WeightInfo> &weights, std::string &error);
  ~CudaModel();

  /// The kernel named `name`, or null.
  cuda::Function kernel(std::string_view name) const;
  /// The device address of each weight, in the manifest's order.
  const std::vector<void *> &weights() const { return deviceWeights; }
  /// What was loaded: "cubin sm_90", or "PTX sm_80, compiled for sm_100".
  const std::string &code() const { return loaded; }
  /// Whether the archive was compiled with --allow-tf32.
  bool allowTf32() const { return tf32; }

private:
  CudaModel() = default;
  cuda::Module module = nullptr;
  std::vector<std::pair<std::string, cuda::Function>> kernels;
  std::vector<void *> deviceWeights;
  std::string loaded;
  bool tf32 = false;
};

/// One call's work on the GPU, on the calling thread's stream. While it
/// lives, compiled code's device_alloc, device_free and launch_kernel
/// work on it. Its destructor frees every device buffer still held.
class CudaCall {
public:
  /// A call of `impl`'s CUDA archive (impl.cuda is loaded).
  explicit CudaCall(const Model::Impl &impl);
  ~CudaCall();
  CudaCall(const CudaCall &) = delete;
  CudaCall &operator=(const CudaCall &) = delete;

  /// A device copy of `bytes` at host `data`, owned by the call, copied
  /// through the thread's pinned staging buffer (up to 256 MiB); null
  /// (with `error` set) on failure. An empty tensor gets no buffer.
  void *upload(const void *data, size_t bytes, std::string &error);
  /// Waits for the call's work. A kernel's failure shows here, and so
  /// does a run-time check that failed in a kernel (the check record),
  /// reported at its site as the CPU reports it.
  bool finish(Error &error);
  /// The device address of the call's check record (kiln/abi.h's
  /// kernel_check_record), zeroed on the call's stream when first asked
  /// for; null with `error` set on failure.
  void *checkRecord(std::string &error);
  /// The result of the call at `data` (`bytes` long, inside the buffer
  /// `allocated`) as a CUDA tensor: the buffer itself when the result
  /// starts it and no other result took it, else a copy.
  bool takeResult(DType dtype, std::vector<int64_t> shape, void *allocated,
                  const void *data, size_t bytes, Tensor &out,
                  std::string &error);
  /// Copies `bytes` at device address `from` to `to`, on the device when
  /// `device` is CUDA, else to host memory; false with `error` set.
  bool copyOut(void *to, Device device, const void *from, size_t bytes,
               std::string &error);

  const Model::Impl &impl;
  const CudaModel &model;
  cuda::Stream stream = nullptr;
  std::vector<void *> buffers; // live device allocations, oldest first
  void *record = nullptr;      // the check record, once asked for
  bool finished = false;       // finish() saw the call's work done
};

/// `tensor` copied to the other device (kiln::copyTo); on failure `error`
/// says why.
Tensor copyAcrossDevices(const Tensor &tensor, Device device,
                         std::string &error);

/// Releases a device buffer that a CUDA tensor owns.
void releaseDeviceBuffer(void *ptr);

/// The stream of the running CUDA call; null when none is running.
cuda::Stream currentCudaStream();
/// Whether the running CUDA call's archive allows TF32 (--allow-tf32).
bool currentCallAllowsTf32();

/// kiln_host_api's device functions; they raise through the running call.
void *cudaDeviceAlloc(uint64_t bytes);
void cudaDeviceFree(void *ptr);
void *cudaKernelCheckRecord();

/// A failure of the copies below; the host API reports it as the call's
/// error.
struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// Whether the running call is a CUDA archive's, whose tensors are on the
/// GPU: the kernel library's slots then go to the GPU's libraries, and the
/// host API's tensor reads and writes are copies.
bool inCudaCall();
/// Copies `bytes` at device address `from` of the running call to host
/// memory `to`, once the call's work so far is done.
void readFromDevice(void *to, const void *from, size_t bytes);
/// Copies `bytes` at host `from` to device address `to` in the order of
/// the running call's work; `from` may be reused at once.
void writeToDevice(void *to, const void *from, size_t bytes);
void cudaLaunchKernel(const char *kernel, int64_t gridX, int64_t gridY,
                      int64_t gridZ, int64_t blockX, int64_t blockY,
                      int64_t blockZ, void **params, int64_t numParams);

} // namespace kiln

#endif // KILN_RUNTIME_CUDAMODEL_H
