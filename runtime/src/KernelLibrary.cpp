//===- KernelLibrary.cpp - GEMM and convolution for compiled code ---------===//
//
// Compiled code hands its matrix products and convolutions to the kernel
// library, which outruns generated loops on them: oneDNN on the CPU
// (OneDnnMatmul.cpp, OneDnnConv.cpp), cuBLAS, cuBLASLt and cuDNN in a CUDA
// call (the CUDA plugin, runtime/cuda/). This file holds the host table's slots
// and the threads oneDNN may use.
//
// Every failure (a shape that breaks abi.h's contract, an unsupported
// dtype, an exception from oneDNN, out of memory) becomes a message, and
// the host functions at the bottom raise it at the caller's site once
// nothing with a destructor is left in their frame (see HostCall.h).
//
//===----------------------------------------------------------------------===//

#include "KernelLibrary.h"

#include "CudaPlugin.h"
#include "HostCall.h"
#include "LargeBuffers.h"
#include "OneDnnSupport.h"
#include "ThreadPool.h"

#include <algorithm>
#include <cstdlib>

namespace kiln {
namespace {

using onednn::typeName;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// Runs `body`, turning any exception into the message it returns.
template <typename Body>
std::string guarded(const char *op, int32_t dtype, Body body) {
  try {
    return body();
  } catch (const dnnl::error &e) {
    if (e.status == dnnl_unimplemented)
      return std::string(op) + ": oneDNN has no " + typeName(dtype) +
             " kernel for these shapes on this cpu";
    return std::string(op) + ": oneDNN failed: " + e.what();
  } catch (const std::bad_alloc &) {
    return std::string(op) + ": out of memory";
  } catch (const std::exception &e) {
    return std::string(op) + ": " + e.what();
  }
}

/// Below this many multiply-adds a kernel runs on one thread: OpenMP's
/// fork and join (several microseconds) would cost more than the second
/// thread saves, as in the RNN's [8, 128] x [128, 128] steps.
constexpr int64_t kMinParallelMacs = int64_t(1) << 20;

/// The product of dims [begin, end) of `memref` (negative ones as 0),
/// times `factor`; saturates rather than wraps.
int64_t extentProduct(const kiln_unranked_memref &memref, int64_t begin,
                      int64_t end, int64_t factor = 1) {
  int64_t total = std::max<int64_t>(factor, 0);
  for (int64_t d = begin; d < end; ++d) {
    int64_t size = std::max<int64_t>(memref.desc->dims[d], 0);
    total = size > 0 && total > INT64_MAX / size ? INT64_MAX : total * size;
  }
  return total;
}

/// Stores a non-empty `message` as the call's error. The argument dies at
/// the end of the caller's condition, before the caller raises.
bool failed(std::string message) {
  if (message.empty())
    return false;
  setCallError(std::move(message));
  return true;
}

/// Runs `kernel` (a oneDNN call returning an error message or "") on the
/// team the tiles run on (ThreadPool.h): Debian's oneDNN runs its kernels
/// on OpenMP's threads, so the model's count (LoadOptions,
/// KILN_NUM_THREADS, else the cores) governs them too, one policy for the
/// process where OMP_NUM_THREADS would be a second. A kernel of fewer than
/// kMinParallelMacs multiply-adds, or one that finds another thread's call
/// on the team, runs on the calling thread. omp_set_num_threads sets the
/// count of the regions the calling thread starts, so it is set on every
/// call. Returns whether the kernel failed; the claim ends before the
/// caller raises, which longjmps past any destructor.
template <typename Kernel> std::string onTeam(int64_t macs, Kernel kernel) {
  TeamClaim team(macs < kMinParallelMacs ? 1 : callThreads());
  team.lendToOpenMp();
  return kernel();
}

template <typename Kernel> bool failedOnTeam(int64_t macs, Kernel kernel) {
  return failed(onTeam(macs, kernel));
}

/// Each output element sums K products, K being a's last dim.
int64_t matmulMacs(const kiln_unranked_memref &a,
                   const kiln_unranked_memref &out) {
  return extentProduct(out, 0, out.rank,
                       extentProduct(a, a.rank - 1, a.rank));
}

/// Each output element sums C/groups x KH x KW products: the weight's dims
/// after the first.
int64_t convMacs(const kiln_unranked_memref &weight,
                 const kiln_unranked_memref &out) {
  return extentProduct(out, 0, out.rank,
                       extentProduct(weight, 1, weight.rank));
}

} // namespace

uint64_t kernelPrimitivesBuilt() {
  return onednn::plansBuilt.load(std::memory_order_relaxed);
}

uint64_t kernelWeightsPacked() {
  return onednn::weightsPacked.load(std::memory_order_relaxed);
}

std::atomic<uint64_t> PackedWeights::nextSerial{0};

const void *PackedWeights::get(const std::vector<int64_t> &key, size_t bytes,
                               const std::function<void(void *)> &pack) {
  std::lock_guard<std::mutex> lock(mutex);
  auto found = copies.find(key);
  if (found != copies.end())
    return found->second.get();
  std::unique_ptr<void, void (*)(void *)> copy(allocateBuffer(bytes),
                                               std::free);
  if (!copy)
    throw std::bad_alloc();
  pack(copy.get());
  const void *data = copy.get();
  copies.emplace(key, std::move(copy));
  total += bytes;
  return data;
}

size_t PackedWeights::bytes() const {
  std::lock_guard<std::mutex> lock(mutex);
  return total;
}

void kernelMatmul(const kiln_unranked_memref *a, const kiln_unranked_memref *b,
                  const kiln_unranked_memref *out, int64_t site,
                  int32_t dtype) {
  kernelMatmulEpilogue(a, b, nullptr, out, KILN_ACTIVATION_NONE, site, dtype);
}

void kernelMatmulEpilogue(const kiln_unranked_memref *a,
                          const kiln_unranked_memref *b,
                          const kiln_unranked_memref *bias,
                          const kiln_unranked_memref *out, int32_t activation,
                          int64_t site, int32_t dtype) {
  // A CUDA archive's tensors are on the GPU: cuBLAS multiplies them, or
  // cuBLASLt with an epilogue.
  if (inCudaCall()) {
    if (failed(guarded("matmul", dtype, [&] {
          return runningCudaCall()->matmul(*a, *b, bias, *out, activation,
                                          dtype);
        })))
      raiseCallError(site);
    return;
  }
  if (failedOnTeam(matmulMacs(*a, *out), [&] {
        return guarded("matmul", dtype, [&] {
          return onednn::matmul(*a, *b, bias, *out, activation, dtype);
        });
      }))
    raiseCallError(site);
}

void kernelConv2d(const kiln_unranked_memref *input,
                  const kiln_unranked_memref *weight,
                  const kiln_unranked_memref *out, int64_t strideH,
                  int64_t strideW, int64_t padH, int64_t padW,
                  int64_t dilationH, int64_t dilationW, int64_t groups,
                  int64_t site, int32_t dtype) {
  ConvParams params = {strideH,   strideW,   padH,  padW,
                       dilationH, dilationW, groups};
  // A CUDA archive's tensors are on the GPU: cuDNN convolves them.
  if (inCudaCall()) {
    if (failed(guarded("conv2d", dtype, [&] {
          return runningCudaCall()->conv2d(*input, *weight, *out, params,
                                          dtype);
        })))
      raiseCallError(site);
    return;
  }
  if (failedOnTeam(convMacs(*weight, *out), [&] {
        return guarded("conv2d", dtype, [&] {
          return onednn::conv2d(*input, *weight, *out, params, dtype);
        });
      }))
    raiseCallError(site);
}

// On the team a call of these shapes would run on: oneDNN fixes a
// primitive's threading when it builds it.
std::string prepareMatmul(const kiln_unranked_memref &a,
                          const kiln_unranked_memref &b,
                          const kiln_unranked_memref *bias,
                          const kiln_unranked_memref &out,
                          int32_t activation) {
  return onTeam(matmulMacs(a, out), [&] {
    return guarded("matmul", KILN_F32, [&] {
      return onednn::matmul(a, b, bias, out, activation, KILN_F32,
                            onednn::Mode::Prepare);
    });
  });
}

std::string prepareConv2d(const kiln_unranked_memref &input,
                          const kiln_unranked_memref &weight,
                          const kiln_unranked_memref &out,
                          const ConvParams &params) {
  return onTeam(convMacs(weight, out), [&] {
    return guarded("conv2d", KILN_F32, [&] {
      return onednn::conv2d(input, weight, out, params, KILN_F32,
                            onednn::Mode::Prepare);
    });
  });
}

} // namespace kiln
