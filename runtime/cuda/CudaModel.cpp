//===- CudaModel.cpp - A CUDA archive's kernels, weights and calls --------===//

#include "CudaModel.h"

#include "CudaBlas.h"
#include "CudaDnn.h"
#include "Untrusted.h"

#include <algorithm>
#include <cstring>

namespace kiln {

namespace {

thread_local CudaCallImpl *currentCall = nullptr;

/// The check record's words: site + 1, then the check's four values.
constexpr size_t kCheckRecordWords = 5;

/// The calling thread's stream: each thread's calls are ordered, and calls
/// from several threads run concurrently.
cuda::Stream threadStream(const cuda::Driver &d, std::string &error) {
  thread_local cuda::Stream stream = nullptr;
  if (!stream) {
    cuda::Result r = d.streamCreate(&stream, cuda::kStreamNonBlocking);
    if (r != 0) {
      error = "cannot create a CUDA stream: " + cuda::describe(r);
      stream = nullptr;
    }
  }
  return stream;
}

const cuda::Driver &api() {
  std::string unused;
  return *cuda::driver(unused); // loaded before any CudaModel exists
}

/// The calling thread's pinned staging buffer for inputs in host memory.
/// A copy from pageable memory is staged by the driver, piece by piece,
/// while the host waits; one from pinned memory is a DMA the host need not
/// wait for, as PyTorch's pin_memory() and non_blocking=True make it. The
/// thread's calls reuse it, one after another (its stream orders them): it
/// grows to hold the largest call's inputs, up to kMaxStagingBytes; larger
/// inputs are copied from where they are.
struct Staging {
  void *data = nullptr;
  size_t capacity = 0;
  size_t used = 0; // by the running call
  ~Staging() {
    if (data)
      api().memFreeHost(data);
  }
};
thread_local Staging staging;
constexpr size_t kMaxStagingBytes = size_t(256) << 20;
constexpr size_t kMinStagingBytes = size_t(1) << 20;
/// The host copies an input into the staging buffer in pieces, and each
/// piece's DMA starts as soon as it is there, so that only the last
/// piece's DMA is not hidden. A piece is an eighth of the input, at least
/// 2 MiB (each costs a driver call and a parallel loop). One core copies
/// at about 10 GB/s, no faster than the driver stages pageable memory, so
/// the model's threads copy each piece together, in blocks of
/// kStagingBlockBytes.
size_t stagingPiece(size_t bytes) {
  return std::max(size_t(2) << 20, bytes / 8);
}
constexpr size_t kStagingBlockBytes = size_t(256) << 10;

/// memcpy on up to `threads` threads.
void parallelCopy(uint8_t *to, const uint8_t *from, size_t bytes,
                  int threads) {
  struct Copy {
    uint8_t *to;
    const uint8_t *from;
    size_t bytes;
  } copy = {to, from, bytes};
  int64_t blocks = (bytes + kStagingBlockBytes - 1) / kStagingBlockBytes;
  hostParallelFor(
      [](void *context, int64_t begin, int64_t end) {
        const Copy &c = *static_cast<const Copy *>(context);
        size_t first = begin * kStagingBlockBytes;
        size_t last = std::min(c.bytes, size_t(end) * kStagingBlockBytes);
        std::memcpy(c.to + first, c.from + first, last - first);
      },
      &copy, blocks, threads);
}

/// Where `bytes` of the running call's inputs can be staged, or null to
/// copy them from pageable memory. Growing the buffer waits for the call's
/// earlier copies out of it, on `stream`.
void *stagingFor(size_t bytes, cuda::Stream stream) {
  size_t padded = (bytes + 63) / 64 * 64;
  if (padded > kMaxStagingBytes)
    return nullptr;
  if (staging.used + padded > staging.capacity) {
    const cuda::Driver &d = api();
    size_t want = std::max(kMinStagingBytes, staging.used + padded);
    size_t capacity = kMinStagingBytes;
    while (capacity < want && capacity < kMaxStagingBytes)
      capacity *= 2;
    if (capacity < want || d.streamSynchronize(stream) != 0)
      return nullptr;
    if (staging.data)
      d.memFreeHost(staging.data);
    staging.data = nullptr;
    staging.capacity = staging.used = 0;
    if (d.memHostAlloc(&staging.data, capacity, 0) != 0) {
      staging.data = nullptr;
      return nullptr;
    }
    staging.capacity = capacity;
  }
  void *at = static_cast<uint8_t *>(staging.data) + staging.used;
  staging.used += padded;
  return at;
}

} // namespace

std::unique_ptr<CudaModel>
CudaModelImpl::load(const CudaTarget &target, const EntryBytes &entry,
                    const std::vector<WeightInfo> &weights,
                    std::string &error) {
  const cuda::Driver *d = cuda::driver(error);
  if (!d)
    return nullptr;
  cuda::currentContext();
  std::unique_ptr<CudaModelImpl> model(new CudaModelImpl);
  model->tf32 = target.allowTf32;
  const std::string &arch = cuda::deviceArch();
  std::string code;
  for (const auto &[cubinArch, file] : target.cubins)
    if (cubinArch == arch) {
      code = std::string(entry(file));
      model->loaded = "cubin " + arch;
    }
  auto number = [](const std::string &a) { return std::atoi(a.c_str() + 3); };
  if (code.empty()) {
    if (number(arch) < number(target.ptxArch)) {
      std::string archs;
      for (const auto &cubin : target.cubins)
        archs += (archs.empty() ? "" : ", ") + cubin.first;
      error = "the archive's kernels are for " + archs + " (PTX " +
              target.ptxArch + "), but this GPU (" + cuda::deviceName() +
              ") is " + arch + "; compile with --cuda-arch=" + arch;
      return nullptr;
    }
    // The driver takes PTX as NUL-terminated text and compiles it.
    code = std::string(entry(target.ptxFile));
    model->loaded = "PTX " + target.ptxArch + ", compiled for " + arch;
  }
  cuda::Result r = d->moduleLoadData(&model->module, code.c_str());
  if (r != 0) {
    error = "cannot load the CUDA kernels (" + model->loaded +
            "): " + cuda::describe(r);
    return nullptr;
  }
  for (const std::string &name : target.kernels) {
    cuda::Function fn = nullptr;
    r = d->moduleGetFunction(&fn, model->module, name.c_str());
    if (r != 0) {
      error = "the CUDA kernels have no kernel " + inQuotes(name) +
              ": the archive is corrupt";
      return nullptr;
    }
    // Loaded now, not at its first launch, so that the first call is as
    // fast as the next.
    if (d->funcLoad && (r = d->funcLoad(fn)) != 0) {
      error = "cannot load CUDA kernel " + inQuotes(name) + ": " +
              cuda::describe(r);
      return nullptr;
    }
    model->kernels.push_back({name, fn});
  }
  for (const WeightInfo &weight : weights) {
    uint64_t bytes = 0;
    checkedByteSize(weight.shape, dtypeSize(weight.dtype), bytes);
    cuda::DevicePtr ptr = 0;
    if (bytes > 0 && ((r = d->memAlloc(&ptr, bytes)) != 0 ||
                      (r = d->memcpyHtoD(ptr, weight.data, bytes)) != 0)) {
      error = "cannot copy weight " + inQuotes(weight.name) + " (" +
              std::to_string(bytes) + " bytes) to the GPU: " +
              cuda::describe(r);
      return nullptr;
    }
    model->deviceWeights.push_back(reinterpret_cast<void *>(ptr));
  }
  // The loading thread, which most often runs the model too, gets its
  // stream now, and the memory pool its first block.
  cuda::Stream stream = threadStream(*d, error);
  cuda::DevicePtr warm = 0;
  if (!stream || (r = d->memAllocAsync(&warm, 1 << 20, stream)) != 0 ||
      (r = d->memFreeAsync(warm, stream)) != 0) {
    if (error.empty())
      error = "cannot use the GPU's memory pool: " + cuda::describe(r);
    return nullptr;
  }
  for (const std::string &library : target.libraries) {
    if (library == "cublas")
      error = prepareCublas(stream, model->allowTf32());
    else if (library == "cudnn")
      error = prepareCudnn(stream, model->allowTf32());
    else
      error = "the archive needs GPU library " + inQuotes(library) +
              ", which this runtime does not know";
    if (!error.empty())
      return nullptr;
  }
  if ((r = d->streamSynchronize(stream)) != 0) {
    error = "the GPU failed while loading: " + cuda::describe(r);
    return nullptr;
  }
  return model;
}

CudaModelImpl::~CudaModelImpl() {
  const cuda::Driver &d = api();
  cuda::currentContext();
  for (void *ptr : deviceWeights)
    if (ptr)
      d.memFree(reinterpret_cast<cuda::DevicePtr>(ptr));
  if (module)
    d.moduleUnload(module);
}

cuda::Function CudaModelImpl::kernel(std::string_view name) const {
  for (const auto &[kernelName, fn] : kernels)
    if (kernelName == name)
      return fn;
  return nullptr;
}

CudaCallImpl::CudaCallImpl(const CudaModelImpl &model, int threads)
    : model(model), threads(threads) {
  cuda::currentContext();
  std::string ignored; // a failure shows at the first use of the stream
  stream = threadStream(api(), ignored);
  currentCall = this;
  staging.used = 0;
}

CudaCallImpl::~CudaCallImpl() {
  const cuda::Driver &d = api();
  // A call that failed part way may still be copying from the thread's
  // staging buffer, or writing its check record: the next call must not
  // reuse them before that is done.
  if (!finished)
    d.streamSynchronize(stream);
  for (void *ptr : buffers)
    d.memFreeAsync(reinterpret_cast<cuda::DevicePtr>(ptr), stream);
  currentCall = nullptr;
}

void *CudaCallImpl::upload(const void *data, size_t bytes, std::string &error) {
  if (bytes == 0)
    return nullptr;
  const cuda::Driver &d = api();
  cuda::DevicePtr ptr = 0;
  cuda::Result r = d.memAllocAsync(&ptr, bytes, stream);
  if (r == 0) {
    buffers.push_back(reinterpret_cast<void *>(ptr));
    if (auto *staged = static_cast<uint8_t *>(stagingFor(bytes, stream))) {
      // In pieces, each sent while the host copies the next, so that the
      // DMA hides behind the host's copy but for the last piece.
      const auto *from = static_cast<const uint8_t *>(data);
      size_t step = stagingPiece(bytes);
      for (size_t at = 0; at < bytes && r == 0; at += step) {
        size_t piece = std::min(step, bytes - at);
        parallelCopy(staged + at, from + at, piece, threads);
        r = d.memcpyHtoDAsync(ptr + at, staged + at, piece, stream);
      }
    } else {
      r = d.memcpyHtoDAsync(ptr, data, bytes, stream);
    }
  }
  if (r != 0) {
    error = "cannot copy an input of " + std::to_string(bytes) +
            " bytes to the GPU: " + cuda::describe(r);
    return nullptr;
  }
  return reinterpret_cast<void *>(ptr);
}

bool CudaCallImpl::copyOut(void *to, Device device, const void *from,
                       size_t bytes, std::string &error) {
  if (bytes == 0)
    return true;
  auto source = reinterpret_cast<cuda::DevicePtr>(from);
  cuda::Result r =
      device == Device::CUDA
          ? api().memcpyDtoDAsync(reinterpret_cast<cuda::DevicePtr>(to),
                                  source, bytes, stream)
          : api().memcpyDtoHAsync(to, source, bytes, stream);
  if (r != 0)
    error = "CUDA error while running on the GPU: " + cuda::describe(r);
  return r == 0;
}

bool CudaCallImpl::takeResult(DType dtype, std::vector<int64_t> shape,
                          void *allocated, const void *data, size_t bytes,
                          Tensor &out, std::string &error) {
  auto owned = std::find(buffers.begin(), buffers.end(), allocated);
  if (owned != buffers.end() && data == allocated) {
    buffers.erase(owned);
    out = Tensor::adopt(dtype, std::move(shape), allocated,
                        releaseDeviceBuffer, Device::CUDA);
    return true;
  }
  // Returned twice, or a view into a buffer: a buffer of its own.
  cuda::DevicePtr copy = 0;
  cuda::Result r = api().memAllocAsync(&copy, bytes ? bytes : 1, stream);
  if (r != 0) {
    error = "cannot allocate " + std::to_string(bytes) +
            " bytes on the GPU: " + cuda::describe(r);
    return false;
  }
  auto *ptr = reinterpret_cast<void *>(copy);
  out = Tensor::adopt(dtype, std::move(shape), ptr, releaseDeviceBuffer,
                      Device::CUDA);
  return copyOut(ptr, Device::CUDA, data, bytes, error);
}

void *CudaCallImpl::checkRecord(std::string &error) {
  if (record)
    return record;
  const cuda::Driver &d = api();
  cuda::DevicePtr ptr = 0;
  cuda::Result r = d.memAllocAsync(&ptr, kCheckRecordWords * 8, stream);
  if (r == 0) {
    buffers.push_back(reinterpret_cast<void *>(ptr));
    r = d.memsetD32Async(ptr, 0, kCheckRecordWords * 2, stream); // 32-bit
  }
  if (r != 0) {
    error = "cannot set up the GPU's run-time checks: " + cuda::describe(r);
    return nullptr;
  }
  record = reinterpret_cast<void *>(ptr);
  return record;
}

bool CudaCallImpl::finish(int64_t check[5], std::string &error) {
  static_assert(kCheckRecordWords == 5, "CudaCall::finish's check record");
  const cuda::Driver &d = api();
  std::fill(check, check + kCheckRecordWords, 0);
  cuda::Result r = 0;
  if (record)
    r = d.memcpyDtoHAsync(check, reinterpret_cast<cuda::DevicePtr>(record),
                          kCheckRecordWords * sizeof(int64_t), stream);
  if (r == 0)
    r = d.streamSynchronize(stream);
  finished = r == 0;
  if (r != 0)
    error = "CUDA error while running on the GPU: " + cuda::describe(r);
  return finished;
}

cuda::Stream currentCudaStream() {
  return currentCall ? currentCall->stream : nullptr;
}

bool CudaCallImpl::read(void *to, const void *from, size_t bytes,
                        std::string &error) {
  const cuda::Driver &d = api();
  cuda::Result r = d.memcpyDtoHAsync(
      to, reinterpret_cast<cuda::DevicePtr>(from), bytes, stream);
  if (r == 0)
    r = d.streamSynchronize(stream);
  if (r != 0)
    error = "cannot read " + std::to_string(bytes) +
            " bytes of a tensor on the GPU: " + cuda::describe(r);
  return r == 0;
}

bool CudaCallImpl::write(void *to, const void *from, size_t bytes,
                         std::string &error) {
  // From pageable memory the driver stages the bytes before it returns.
  cuda::Result r = api().memcpyHtoDAsync(reinterpret_cast<cuda::DevicePtr>(to),
                                         from, bytes, stream);
  if (r != 0)
    error = "cannot write " + std::to_string(bytes) +
            " bytes of a tensor on the GPU: " + cuda::describe(r);
  return r == 0;
}

bool currentCallAllowsTf32() {
  return currentCall && currentCall->model.allowTf32();
}

void releaseDeviceBuffer(void *ptr) {
  // The call that made it has synchronized, so no work of kiln's uses it.
  // Freed on this thread's stream, the pool hands the block straight to
  // this thread's next call (most often the one that made it).
  std::string ignored;
  cuda::currentContext();
  api().memFreeAsync(reinterpret_cast<cuda::DevicePtr>(ptr),
                     threadStream(api(), ignored));
}

Tensor copyAcrossDevices(const Tensor &tensor, Device device,
                         std::string &error) {
  const cuda::Driver *d = cuda::driver(error);
  if (!d)
    return {};
  cuda::currentContext();
  size_t bytes = tensor.nbytes();
  cuda::Result r = 0;
  if (device == Device::CPU) {
    Tensor host = Tensor::zeros(tensor.dtype(), tensor.shape());
    if (bytes > 0)
      r = d->memcpyDtoH(host.data(),
                        reinterpret_cast<cuda::DevicePtr>(tensor.data()),
                        bytes);
    if (r == 0)
      return host;
  } else {
    cuda::DevicePtr ptr = 0;
    // From the pool, as every CUDA tensor's buffer, so that one release
    // (releaseDeviceBuffer) fits them all.
    r = d->memAllocAsync(&ptr, bytes ? bytes : 1, nullptr);
    if (r == 0) {
      Tensor copy = Tensor::adopt(tensor.dtype(), tensor.shape(),
                                  reinterpret_cast<void *>(ptr),
                                  releaseDeviceBuffer, Device::CUDA);
      // From pageable memory the copy may still be in flight when it
      // returns; the stream it ran on is waited for, so that a call on
      // another stream sees the data.
      if (bytes == 0 || ((r = d->memcpyHtoD(ptr, tensor.data(), bytes)) == 0 &&
                         (r = d->streamSynchronize(nullptr)) == 0))
        return copy;
    }
  }
  error = "cannot copy a tensor of " + std::to_string(bytes) + " bytes " +
          (device == Device::CPU ? "from" : "to") +
          " the GPU: " + cuda::describe(r);
  return {};
}

void *CudaCallImpl::alloc(uint64_t bytes, std::string &error) {
  cuda::DevicePtr ptr = 0;
  cuda::Result r = bytes > KILN_MAX_TENSOR_BYTES + 64
                       ? 2 // CUDA_ERROR_OUT_OF_MEMORY
                       : api().memAllocAsync(&ptr, bytes, stream);
  if (r != 0) {
    error = "cannot allocate " + std::to_string(bytes) +
            " bytes on the GPU: " + cuda::describe(r);
    return nullptr;
  }
  buffers.push_back(reinterpret_cast<void *>(ptr));
  return reinterpret_cast<void *>(ptr);
}

void CudaCallImpl::free(void *ptr) {
  auto it = std::find(buffers.rbegin(), buffers.rend(), ptr);
  if (it == buffers.rend())
    return; // not the call's: an input's or a weight's, never freed here
  buffers.erase(std::next(it).base());
  api().memFreeAsync(reinterpret_cast<cuda::DevicePtr>(ptr), stream);
}

bool CudaCallImpl::launch(const char *kernel, const int64_t grid[3],
                          const int64_t block[3], void **params,
                          std::string &error) {
  cuda::Function fn = model.kernel(kernel);
  if (!fn) {
    error = std::string("the code launches kernel '") + kernel +
            "', which the archive's kernels lack: the archive is corrupt";
  } else if (grid[0] > INT32_MAX || grid[1] > 65535 || grid[2] > 65535) {
    error = std::string("kernel '") + kernel + "' needs a grid of " +
            std::to_string(grid[0]) + " x " + std::to_string(grid[1]) +
            " x " + std::to_string(grid[2]) + " blocks, more than CUDA allows";
  } else if (cuda::Result r = api().launchKernel(
                 fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                 0, stream, params, nullptr);
             r != 0) {
    error = std::string("cannot launch kernel '") + kernel +
            "': " + cuda::describe(r);
  }
  return error.empty();
}

std::string CudaCallImpl::matmul(const kiln_unranked_memref &a,
                                 const kiln_unranked_memref &b,
                                 const kiln_unranked_memref *bias,
                                 const kiln_unranked_memref &out,
                                 int32_t activation, int32_t dtype) {
  return cudaMatmul(a, b, bias, out, activation, dtype);
}

std::string CudaCallImpl::conv2d(const kiln_unranked_memref &input,
                                 const kiln_unranked_memref &weight,
                                 const kiln_unranked_memref &out,
                                 const ConvParams &params, int32_t dtype) {
  return cudaConv2d(input, weight, out, params, dtype);
}

} // namespace kiln
