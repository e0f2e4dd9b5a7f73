//===- CudaPlugin.cpp - Opening the CUDA plugin, and the calls through it -===//

#include "CudaPlugin.h"

#include "HostCall.h"
#include "ThreadPool.h"

#include <dlfcn.h>
#include <unistd.h>

namespace kiln {

namespace {

/// The plugin's file name: the runtime's major version, as its own soname.
constexpr const char *kPluginFile =
    "libkiln_runtime_cuda.so." KILN_VERSION_MAJOR_STRING;

/// The directory of the file this runtime was loaded from, with its '/'.
std::string runtimeDirectory() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void *>(&cudaPlugin), &info) ||
      !info.dli_fname)
    return "";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

struct Opened {
  CudaPlugin *plugin = nullptr;
  std::string error;
};

Opened openPlugin() {
  Opened opened;
  // Next to the runtime first, so that a runtime finds the plugin of its
  // own installation; else the loader's search (LD_LIBRARY_PATH, ...).
  std::string beside = runtimeDirectory() + kPluginFile;
  void *library = dlopen(beside.c_str(), RTLD_NOW | RTLD_LOCAL);
  // A plugin that is there but does not load (a missing symbol, another
  // architecture) is reported as such, not as missing.
  const char *why = library ? nullptr : dlerror();
  std::string besideError = why ? why : "";
  if (!library && access(beside.c_str(), F_OK) == 0) {
    opened.error = "the runtime's CUDA plugin " + beside +
                   " cannot be loaded: " + besideError;
    return opened;
  }
  if (!library)
    library = dlopen(kPluginFile, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    why = dlerror();
    opened.error = std::string("no CUDA support: the runtime's CUDA plugin (") +
                   kPluginFile + ") is not installed beside " +
                   (beside.find('/') == std::string::npos
                        ? std::string("the runtime")
                        : beside.substr(0, beside.rfind('/'))) +
                   (why ? std::string(" (") + why + ")" : "");
    return opened;
  }
  auto entry = reinterpret_cast<CudaPluginEntry>(
      dlsym(library, kCudaPluginEntryName));
  if (!entry) {
    opened.error = std::string("the CUDA plugin ") + kPluginFile +
                   " has no entry point " + kCudaPluginEntryName +
                   ": it is not kiln's";
    return opened;
  }
  static const CudaHostServices services = {
      [](LoopBody body, void *context, int64_t n, int threads) {
        parallelFor(body, context, n, threads);
      }};
  std::string interface =
      std::string(kCudaPluginInterface) + " " + KILN_VERSION_STRING;
  opened.plugin = entry(interface.c_str(), &services, &opened.error);
  if (!opened.plugin && opened.error.empty())
    opened.error = "the CUDA plugin refused this runtime";
  return opened;
}

thread_local CudaCall *running = nullptr;

/// Stores why a device function failed; the raise must come from a frame
/// without strings (HostCall.h).
template <typename T> T orCallError(T value, std::string &error) {
  if (!error.empty())
    setCallError(std::move(error));
  return value;
}

} // namespace

CudaPlugin *cudaPlugin(std::string &error) {
  // Opened once; a failure is final too, as the driver's is (CudaDriver.cpp).
  static const Opened opened = openPlugin();
  if (!opened.plugin)
    error = opened.error;
  return opened.plugin;
}

CudaCall *runningCudaCall() { return running; }

RunningCudaCall::RunningCudaCall(CudaCall &call) { running = &call; }
RunningCudaCall::~RunningCudaCall() { running = nullptr; }

void readFromDevice(void *to, const void *from, size_t bytes) {
  std::string error;
  if (!running->read(to, from, bytes, error))
    throw DeviceError(error);
}

void writeToDevice(void *to, const void *from, size_t bytes) {
  std::string error;
  if (!running->write(to, from, bytes, error))
    throw DeviceError(error);
}

namespace {

// Each returns what the plugin gave, with a failure's reason stored in the
// call state, so that the raise below comes from a frame without strings.
void *alloc(uint64_t bytes) {
  std::string error;
  return orCallError(running->alloc(bytes, error), error);
}

void *checkRecord() {
  std::string error;
  return orCallError(running->checkRecord(error), error);
}

bool launch(const char *kernel, const int64_t grid[3], const int64_t block[3],
            void **params) {
  std::string error;
  return orCallError(running->launch(kernel, grid, block, params, error),
                     error);
}

} // namespace

void *cudaDeviceAlloc(uint64_t bytes) {
  if (void *ptr = alloc(bytes))
    return ptr;
  raiseCallError(-1);
}

void cudaDeviceFree(void *ptr) {
  if (ptr)
    running->free(ptr);
}

void *cudaKernelCheckRecord() {
  if (void *record = checkRecord())
    return record;
  raiseCallError(-1);
}

void cudaLaunchKernel(const char *kernel, int64_t gridX, int64_t gridY,
                      int64_t gridZ, int64_t blockX, int64_t blockY,
                      int64_t blockZ, void **params, int64_t) {
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return;
  const int64_t grid[3] = {gridX, gridY, gridZ};
  const int64_t block[3] = {blockX, blockY, blockZ};
  if (!launch(kernel, grid, block, params))
    raiseCallError(-1);
}

} // namespace kiln
