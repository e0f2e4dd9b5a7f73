//===- KernelLibrary.h - GEMM and convolution for compiled code -----------===//
//
// The kernel library's slots of kiln_host_api (kiln/abi.h states their
// contracts). KernelLibrary.cpp implements them with oneDNN (OneDnn*.cpp)
// on the CPU and the CUDA libraries in a CUDA call.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_KERNELLIBRARY_H
#define KILN_RUNTIME_KERNELLIBRARY_H

#include "ConvShape.h"

#include "kiln/abi.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kiln {

/// How many oneDNN plans (a primitive, with the reorders around it) the
/// kernel library has built in this process: a call whose shapes were seen
/// before, or warmed up at load (LoadOptions::warmup), builds none.
/// Exported for the runtime's tests.
__attribute__((visibility("default"))) uint64_t kernelPrimitivesBuilt();

/// How many weights the kernel library has packed in this process
/// (PackedWeights): once per weight and layout, whatever the calls.
/// Exported for the runtime's tests.
__attribute__((visibility("default"))) uint64_t kernelWeightsPacked();

/// A model's GEMM weights reordered into the layout oneDNN's kernels read
/// fastest (blocked), each at the first product that reads it, then kept
/// as long as the model (Model::Impl::packedWeights): without them oneDNN
/// packs the weight inside every call, which dominates a small batch's
/// product. Any thread may ask; the first to ask packs.
class PackedWeights {
public:
  /// The packed copy for `key` (the weight's address, layout and plan):
  /// `bytes` that `pack(buffer)` fills, the first time.
  const void *get(const std::vector<int64_t> &key, size_t bytes,
                  const std::function<void(void *)> &pack);
  /// The memory the packed copies take.
  size_t bytes() const;
  /// A number no other PackedWeights of the process has had, so that a
  /// thread's memo of a packed copy (onednn::PackedMemo) cannot outlive
  /// its model into another loaded at the same address.
  uint64_t serial() const { return serialNumber; }

private:
  static std::atomic<uint64_t> nextSerial;
  const uint64_t serialNumber = ++nextSerial;
  mutable std::mutex mutex;
  std::map<std::vector<int64_t>, std::unique_ptr<void, void (*)(void *)>>
      copies;
  size_t total = 0;
};

void kernelMatmul(const kiln_unranked_memref *a, const kiln_unranked_memref *b,
                  const kiln_unranked_memref *out, int64_t site, int32_t dtype);

void kernelMatmulEpilogue(const kiln_unranked_memref *a,
                          const kiln_unranked_memref *b,
                          const kiln_unranked_memref *bias,
                          const kiln_unranked_memref *out, int32_t activation,
                          int64_t site, int32_t dtype);

void kernelConv2d(const kiln_unranked_memref *input,
                  const kiln_unranked_memref *weight,
                  const kiln_unranked_memref *out, int64_t strideH,
                  int64_t strideW, int64_t padH, int64_t padW,
                  int64_t dilationH, int64_t dilationW, int64_t groups,
                  int64_t site, int32_t dtype);

/// Gets an f32 matmul (with `bias`, matmul_epilogue) or conv2d of these
/// operands ready without running it: builds its plan and packs its model
/// weight, reading no other tensor (PreparedCalls.cpp). Only inside a call
/// of the model (invokeEntry). Returns an error message or "".
std::string prepareMatmul(const kiln_unranked_memref &a,
                          const kiln_unranked_memref &b,
                          const kiln_unranked_memref *bias,
                          const kiln_unranked_memref &out,
                          int32_t activation);
std::string prepareConv2d(const kiln_unranked_memref &input,
                          const kiln_unranked_memref &weight,
                          const kiln_unranked_memref &out,
                          const ConvParams &params);

} // namespace kiln

#endif // KILN_RUNTIME_KERNELLIBRARY_H
