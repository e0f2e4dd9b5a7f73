//===- CudaDriver.h - The CUDA driver API, loaded at run time (private) ---===//
//
// The runtime never links libcuda: it is loaded with dlopen when the first
// CUDA archive is loaded, so that a machine without the NVIDIA driver
// still loads and runs CPU archives. The few types and functions kiln
// uses are declared here, with the driver's ABI (cuda.h of CUDA 12 and
// 13, which keep these stable); no CUDA header is needed to build.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_CUDADRIVER_H
#define KILN_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace kiln::cuda {

using Result = int; // CUresult; 0 is CUDA_SUCCESS
using Device = int;
using DevicePtr = unsigned long long;
using Context = struct CUctx_st *;
using Module = struct CUmod_st *;
using Function = struct CUfunc_st *;
using Stream = struct CUstream_st *;
using MemPool = struct CUmemPoolHandle_st *;

constexpr int kComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_...
constexpr int kComputeCapabilityMinor = 76;
constexpr int kStreamNonBlocking = 1;      // CU_STREAM_NON_BLOCKING
constexpr int kPoolReleaseThreshold = 4;   // CU_MEMPOOL_ATTR_RELEASE_THRESHOLD

/// The driver's entry points, resolved once.
struct Driver {
  Result (*init)(unsigned);
  Result (*deviceGetCount)(int *);
  Result (*deviceGet)(Device *, int);
  Result (*deviceGetAttribute)(int *, int, Device);
  Result (*deviceGetName)(char *, int, Device);
  Result (*primaryCtxRetain)(Context *, Device);
  Result (*ctxSetCurrent)(Context);
  Result (*deviceGetDefaultMemPool)(MemPool *, Device);
  Result (*memPoolSetAttribute)(MemPool, int, void *);
  Result (*moduleLoadData)(Module *, const void *);
  Result (*moduleUnload)(Module);
  Result (*moduleGetFunction)(Function *, Module, const char *);
  Result (*launchKernel)(Function, unsigned, unsigned, unsigned, unsigned,
                         unsigned, unsigned, unsigned, Stream, void **,
                         void **);
  Result (*memAlloc)(DevicePtr *, size_t);
  Result (*memFree)(DevicePtr);
  Result (*memAllocAsync)(DevicePtr *, size_t, Stream);
  Result (*memFreeAsync)(DevicePtr, Stream);
  Result (*memcpyHtoD)(DevicePtr, const void *, size_t);
  Result (*memcpyHtoDAsync)(DevicePtr, const void *, size_t, Stream);
  Result (*memcpyDtoHAsync)(void *, DevicePtr, size_t, Stream);
  Result (*memcpyDtoH)(void *, DevicePtr, size_t);
  Result (*memcpyDtoDAsync)(DevicePtr, DevicePtr, size_t, Stream);
  Result (*memsetD32Async)(DevicePtr, unsigned, size_t, Stream);
  Result (*memHostAlloc)(void **, size_t, unsigned);
  Result (*memFreeHost)(void *);
  Result (*streamCreate)(Stream *, unsigned);
  Result (*streamSynchronize)(Stream);
  Result (*getErrorName)(Result, const char **);
  Result (*getErrorString)(Result, const char **);
  /// CUDA 12.4 and later; null before. Loads a kernel now rather than at
  /// its first launch (the driver loads modules lazily by default).
  Result (*funcLoad)(Function);
};

/// The driver, loaded and initialized on first use, with device 0's
/// primary context; null with the reason in `error` ("no CUDA device: ...")
/// when there is no driver or no GPU.
const Driver *driver(std::string &error);

/// "CUDA_ERROR_X (what it means)" for a failed call.
std::string describe(Result result);

/// Device 0's primary context, made current on the calling thread.
Context currentContext();

/// The GPU's compute capability as an arch name ("sm_90"), its name, and
/// its default memory pool.
const std::string &deviceArch();
const std::string &deviceName();

} // namespace kiln::cuda

#endif // KILN_RUNTIME_CUDADRIVER_H
