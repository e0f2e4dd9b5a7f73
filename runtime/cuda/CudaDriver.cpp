//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"

#include <dlfcn.h>

#include <mutex>

namespace kiln::cuda {

namespace {

struct Loaded {
  Driver api{};
  std::string error;
  Context context = nullptr;
  std::string arch, name;
};

template <typename F> bool resolve(void *library, const char *symbol, F &slot,
                                   std::string &error) {
  slot = reinterpret_cast<F>(dlsym(library, symbol));
  if (!slot)
    error = std::string("no CUDA device: the driver (libcuda.so.1) has no ") +
            symbol + "; it is older than CUDA 11.2";
  return slot != nullptr;
}

bool resolveAll(void *lib, Driver &d, std::string &e) {
  return resolve(lib, "cuInit", d.init, e) &&
         resolve(lib, "cuDeviceGetCount", d.deviceGetCount, e) &&
         resolve(lib, "cuDeviceGet", d.deviceGet, e) &&
         resolve(lib, "cuDeviceGetAttribute", d.deviceGetAttribute, e) &&
         resolve(lib, "cuDeviceGetName", d.deviceGetName, e) &&
         resolve(lib, "cuDevicePrimaryCtxRetain", d.primaryCtxRetain, e) &&
         resolve(lib, "cuCtxSetCurrent", d.ctxSetCurrent, e) &&
         resolve(lib, "cuDeviceGetDefaultMemPool", d.deviceGetDefaultMemPool,
                 e) &&
         resolve(lib, "cuMemPoolSetAttribute", d.memPoolSetAttribute, e) &&
         resolve(lib, "cuModuleLoadData", d.moduleLoadData, e) &&
         resolve(lib, "cuModuleUnload", d.moduleUnload, e) &&
         resolve(lib, "cuModuleGetFunction", d.moduleGetFunction, e) &&
         resolve(lib, "cuLaunchKernel", d.launchKernel, e) &&
         resolve(lib, "cuMemAlloc_v2", d.memAlloc, e) &&
         resolve(lib, "cuMemFree_v2", d.memFree, e) &&
         resolve(lib, "cuMemAllocAsync", d.memAllocAsync, e) &&
         resolve(lib, "cuMemFreeAsync", d.memFreeAsync, e) &&
         resolve(lib, "cuMemcpyHtoD_v2", d.memcpyHtoD, e) &&
         resolve(lib, "cuMemcpyHtoDAsync_v2", d.memcpyHtoDAsync, e) &&
         resolve(lib, "cuMemcpyDtoHAsync_v2", d.memcpyDtoHAsync, e) &&
         resolve(lib, "cuMemcpyDtoH_v2", d.memcpyDtoH, e) &&
         resolve(lib, "cuMemcpyDtoDAsync_v2", d.memcpyDtoDAsync, e) &&
         resolve(lib, "cuMemsetD32Async", d.memsetD32Async, e) &&
         resolve(lib, "cuMemHostAlloc", d.memHostAlloc, e) &&
         resolve(lib, "cuMemFreeHost", d.memFreeHost, e) &&
         resolve(lib, "cuStreamCreate", d.streamCreate, e) &&
         resolve(lib, "cuStreamSynchronize", d.streamSynchronize, e) &&
         resolve(lib, "cuGetErrorName", d.getErrorName, e) &&
         resolve(lib, "cuGetErrorString", d.getErrorString, e);
}

void load(Loaded &out) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    out.error = std::string("no CUDA device: the NVIDIA driver "
                            "(libcuda.so.1) cannot be loaded: ") +
                (why ? why : "not found");
    return;
  }
  Driver &d = out.api;
  if (!resolveAll(lib, d, out.error))
    return;
  d.funcLoad = reinterpret_cast<Result (*)(Function)>(dlsym(lib, "cuFuncLoad"));
  auto check = [&](Result r, const char *what) {
    if (r != 0)
      out.error = std::string("no CUDA device: ") + what + " failed: " +
                  describe(r);
    return r == 0;
  };
  int count = 0;
  Device device = 0;
  if (!check(d.init(0), "cuInit") ||
      !check(d.deviceGetCount(&count), "cuDeviceGetCount"))
    return;
  if (count == 0) {
    out.error = "no CUDA device: the driver sees no GPU";
    return;
  }
  int major = 0, minor = 0;
  char name[256] = {};
  if (!check(d.deviceGet(&device, 0), "cuDeviceGet") ||
      !check(d.deviceGetAttribute(&major, kComputeCapabilityMajor, device),
             "cuDeviceGetAttribute") ||
      !check(d.deviceGetAttribute(&minor, kComputeCapabilityMinor, device),
             "cuDeviceGetAttribute") ||
      !check(d.deviceGetName(name, sizeof name - 1, device),
             "cuDeviceGetName") ||
      !check(d.primaryCtxRetain(&out.context, device),
             "cuDevicePrimaryCtxRetain") ||
      !check(d.ctxSetCurrent(out.context), "cuCtxSetCurrent"))
    return;
  // Freed blocks stay in the pool for the next call, as PyTorch's caching
  // allocator keeps them, instead of going back to the driver at each
  // synchronization.
  MemPool pool = nullptr;
  uint64_t keep = UINT64_MAX;
  if (!check(d.deviceGetDefaultMemPool(&pool, device),
             "cuDeviceGetDefaultMemPool") ||
      !check(d.memPoolSetAttribute(pool, kPoolReleaseThreshold, &keep),
             "cuMemPoolSetAttribute"))
    return;
  out.arch = "sm_" + std::to_string(major * 10 + minor);
  out.name = name;
}

Loaded &instance() {
  static Loaded state;
  return state;
}

/// The state, loaded on first use. (describe() reads instance() directly:
/// load() calls it.)
Loaded &loaded() {
  static std::once_flag once;
  std::call_once(once, [] { load(instance()); });
  return instance();
}

} // namespace

const Driver *driver(std::string &error) {
  Loaded &l = loaded();
  error = l.error;
  return l.error.empty() ? &l.api : nullptr;
}

std::string describe(Result result) {
  const Loaded &l = instance();
  const char *name = nullptr, *text = nullptr;
  if (l.api.getErrorName)
    l.api.getErrorName(result, &name);
  if (l.api.getErrorString)
    l.api.getErrorString(result, &text);
  return std::string(name ? name : "CUDA error " + std::to_string(result)) +
         (text ? std::string(" (") + text + ")" : "");
}

Context currentContext() {
  Loaded &l = loaded();
  thread_local Context current = nullptr;
  if (current != l.context) {
    l.api.ctxSetCurrent(l.context);
    current = l.context;
  }
  return l.context;
}

const std::string &deviceArch() { return loaded().arch; }
const std::string &deviceName() { return loaded().name; }

} // namespace kiln::cuda
