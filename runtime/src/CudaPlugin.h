//===- CudaPlugin.h - The runtime's boundary to its CUDA plugin (private) -===//
//
// libkiln_runtime has no GPU code. A CUDA archive's kernels, device memory
// and library calls live in the CUDA plugin, libkiln_runtime_cuda.so, which
// the runtime opens (dlopen) the first time a CUDA archive is loaded or a
// tensor is copied to the GPU. An app that runs CPU archives never maps it,
// and a deployment without GPUs can leave it out. The plugin itself opens
// the driver, cuBLAS(Lt) and cuDNN with dlopen (runtime/cuda/).
//
// Both sides are built from one tree by one compiler and share this header,
// so the boundary is a C++ interface; the plugin refuses a runtime of
// another build (kCudaPluginInterface). No exception and no longjmp crosses
// it: failures come back as messages, and the runtime raises them.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_CUDAPLUGIN_H
#define KILN_RUNTIME_CUDAPLUGIN_H

#include "CpuFeatures.h"
#include "Site.h"

#include "kiln/Model.h"
#include "kiln/abi.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln {

struct ConvParams;

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

/// The GPU side of a loaded CUDA archive: its kernels and its weights'
/// copies in device memory, freed with it.
class CudaModel {
public:
  virtual ~CudaModel() = default;
  /// The device address of each weight, in the manifest's order.
  virtual const std::vector<void *> &weights() const = 0;
  /// What was loaded: "cubin sm_90", or "PTX sm_80, compiled for sm_100".
  virtual const std::string &code() const = 0;
};

/// One call's work on the GPU, on the calling thread's stream. Its
/// destructor frees every device buffer it still holds. Each function that
/// can fail returns false (or null) with the reason in `error`.
class CudaCall {
public:
  virtual ~CudaCall() = default;

  /// A device copy of `bytes` at host `data`, owned by the call, copied
  /// through the thread's pinned staging buffer (up to 256 MiB). An empty
  /// tensor gets no buffer (null, `error` empty).
  virtual void *upload(const void *data, size_t bytes, std::string &error) = 0;
  /// The result at `data` (`bytes` long, inside the buffer `allocated`) as
  /// a CUDA tensor: the buffer itself when the result starts it and no
  /// other result took it, else a copy.
  virtual bool takeResult(DType dtype, std::vector<int64_t> shape,
                          void *allocated, const void *data, size_t bytes,
                          Tensor &out, std::string &error) = 0;
  /// Copies `bytes` at device address `from` to `to`, on the device when
  /// `device` is CUDA, else to host memory.
  virtual bool copyOut(void *to, Device device, const void *from,
                       size_t bytes, std::string &error) = 0;
  /// Waits for the call's work. A kernel's failure is an error; a
  /// run-time check that failed inside a kernel leaves its record in
  /// `check`: its site + 1 (0 when none failed) and its four values.
  virtual bool finish(int64_t check[5], std::string &error) = 0;

  // kiln_host_api's device functions (kiln/abi.h), for the compiled code.
  virtual void *alloc(uint64_t bytes, std::string &error) = 0;
  /// Frees a buffer of the call's; any other pointer is left alone.
  virtual void free(void *ptr) = 0;
  /// The device address of the check record, zeroed on the call's stream
  /// when first asked for.
  virtual void *checkRecord(std::string &error) = 0;
  virtual bool launch(const char *kernel, const int64_t grid[3],
                      const int64_t block[3], void **params,
                      std::string &error) = 0;
  /// Copies device memory of the call to the host once the call's work so
  /// far is done.
  virtual bool read(void *to, const void *from, size_t bytes,
                    std::string &error) = 0;
  /// Copies host memory to the device in the order of the call's work;
  /// `from` may be reused at once.
  virtual bool write(void *to, const void *from, size_t bytes,
                     std::string &error) = 0;
  /// kiln_host_api.matmul_epilogue and conv2d through cuBLAS(Lt) and cuDNN;
  /// they return an error message or "".
  virtual std::string matmul(const kiln_unranked_memref &a,
                             const kiln_unranked_memref &b,
                             const kiln_unranked_memref *bias,
                             const kiln_unranked_memref &out,
                             int32_t activation, int32_t dtype) = 0;
  virtual std::string conv2d(const kiln_unranked_memref &input,
                             const kiln_unranked_memref &weight,
                             const kiln_unranked_memref &out,
                             const ConvParams &params, int32_t dtype) = 0;
};

/// An archive entry's bytes, by name.
using EntryBytes = std::function<std::string_view(const std::string &)>;

class CudaPlugin {
public:
  virtual ~CudaPlugin() = default;
  /// Loads `target`'s kernels (the cubin for this GPU's arch, else the PTX,
  /// which the driver compiles), copies every weight to the GPU, and
  /// readies the libraries it names. Null with the reason in `error`
  /// ("no CUDA device: ..." without a driver or GPU).
  virtual std::unique_ptr<CudaModel>
  load(const CudaTarget &target, const EntryBytes &entry,
       const std::vector<WeightInfo> &weights, std::string &error) = 0;
  /// A call of `model` on the calling thread, whose host inputs are copied
  /// on up to `threads` threads.
  virtual std::unique_ptr<CudaCall> beginCall(const CudaModel &model,
                                              int threads) = 0;
  /// `tensor` copied to the other device (kiln::copyTo).
  virtual Tensor copyAcrossDevices(const Tensor &tensor, Device device,
                                   std::string &error) = 0;
};

/// What the runtime lends its plugin: its team of threads (ThreadPool.h).
struct CudaHostServices {
  void (*parallelFor)(void (*body)(void *, int64_t, int64_t), void *context,
                      int64_t n, int threads);
};

/// The interface's name and version, which the plugin's entry point checks
/// together with the runtime's version: this header changes between builds.
constexpr const char *kCudaPluginInterface = "kiln-cuda-plugin/1";
/// The plugin's one exported symbol, of type CudaPluginEntry. It returns
/// the plugin (which lives as long as the process), or null with the
/// reason in `error` when `interface` is not its own.
constexpr const char *kCudaPluginEntryName = "kiln_cuda_plugin";
using CudaPluginEntry = CudaPlugin *(*)(const char *interface,
                                        const CudaHostServices *services,
                                        std::string *error);

//===----------------------------------------------------------------------===//
// The runtime's side (CudaPlugin.cpp)
//===----------------------------------------------------------------------===//

/// The plugin, opened on first use: libkiln_runtime_cuda.so.N next to
/// libkiln_runtime, else wherever the loader finds it. Null with the reason
/// in `error` when it is missing or of another build.
CudaPlugin *cudaPlugin(std::string &error);

/// The CUDA call running on this thread, or null.
CudaCall *runningCudaCall();
inline bool inCudaCall() { return runningCudaCall() != nullptr; }

/// Makes `call` the thread's running CUDA call while it lives.
class RunningCudaCall {
public:
  explicit RunningCudaCall(CudaCall &call);
  ~RunningCudaCall();
  RunningCudaCall(const RunningCudaCall &) = delete;
  RunningCudaCall &operator=(const RunningCudaCall &) = delete;
};

/// A failure of readFromDevice or writeToDevice; the host API reports it
/// as the call's error.
struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// The running call's copies between host and device; they throw
/// DeviceError on failure.
void readFromDevice(void *to, const void *from, size_t bytes);
void writeToDevice(void *to, const void *from, size_t bytes);

/// kiln_host_api's device functions; they raise through the running call.
void *cudaDeviceAlloc(uint64_t bytes);
void cudaDeviceFree(void *ptr);
void *cudaKernelCheckRecord();
void cudaLaunchKernel(const char *kernel, int64_t gridX, int64_t gridY,
                      int64_t gridZ, int64_t blockX, int64_t blockY,
                      int64_t blockZ, void **params, int64_t numParams);

} // namespace kiln

#endif // KILN_RUNTIME_CUDAPLUGIN_H
