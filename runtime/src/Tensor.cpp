//===- Tensor.cpp - Dense tensors and their element types -----------------===//

#include "kiln/Tensor.h"
#include "kiln/abi.h"

#include <cstdlib>
#include <cstring>
#include <new>

using namespace kiln;

namespace {
// A cache line; also the widest vector load compiled code may issue on an
// owned buffer, so its storage is aligned and padded to it.
constexpr size_t kStorageAlign = 64;
} // namespace

size_t kiln::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::Bool:
    return 1;
  }
  return 0;
}

std::string_view kiln::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::Bool:
    return "bool";
  }
  return "?";
}

bool kiln::parseDType(std::string_view name, DType &dtype) {
  static constexpr DType all[] = {DType::F32,  DType::F64, DType::F16,
                                  DType::BF16, DType::I32, DType::I64,
                                  DType::Bool};
  for (DType candidate : all) {
    if (dtypeName(candidate) == name) {
      dtype = candidate;
      return true;
    }
  }
  return false;
}

std::string_view kiln::deviceName(Device device) {
  return device == Device::CUDA ? "cuda" : "cpu";
}

Tensor::Tensor() : dims{0} {}

Tensor Tensor::zeros(DType dtype, std::vector<int64_t> shape) {
  Tensor result;
  result.type = dtype;
  result.dims = std::move(shape);
  uint64_t bytes;
  if (!checkedByteSize(result.dims, dtypeSize(dtype), bytes))
    throw std::bad_alloc();
  // aligned_alloc wants a multiple of the alignment, and a zero-element
  // tensor still gets a real (unique, non-null) pointer so that ownsData()
  // and data() behave the same for every owned tensor.
  size_t rounded = (bytes + kStorageAlign - 1) / kStorageAlign * kStorageAlign;
  if (rounded == 0)
    rounded = kStorageAlign;
  void *storage = std::aligned_alloc(kStorageAlign, rounded);
  if (!storage)
    throw std::bad_alloc();
  std::memset(storage, 0, rounded);
  result.ptr = storage;
  result.owner = std::shared_ptr<void>(storage, std::free);
  return result;
}

Tensor Tensor::borrow(DType dtype, std::vector<int64_t> shape, void *data,
                      Device device) {
  Tensor result;
  result.type = dtype;
  result.dims = std::move(shape);
  result.ptr = data;
  result.where = device;
  return result;
}

Tensor Tensor::none() {
  Tensor result;
  result.absent = true;
  return result;
}

Tensor Tensor::adopt(DType dtype, std::vector<int64_t> shape, void *data,
                     void (*release)(void *), Device device) {
  Tensor result;
  result.type = dtype;
  result.dims = std::move(shape);
  result.ptr = data;
  result.where = device;
  if (release)
    result.owner = std::shared_ptr<void>(data, release);
  else
    result.owner = std::shared_ptr<void>(data, [](void *) {});
  return result;
}

bool kiln::checkedByteSize(const int64_t *dims, size_t rank,
                           uint64_t elementSize, uint64_t &bytes,
                           bool zeroAsOne) {
  // A zero dim empties the tensor however large the others are, so it is
  // found first: multiplying left to right could overflow before reaching
  // it.
  bool empty = false;
  for (size_t i = 0; i < rank; ++i) {
    if (dims[i] < 0)
      return false;
    empty |= dims[i] == 0;
  }
  if (empty && !zeroAsOne) {
    bytes = 0;
    return true;
  }
  bytes = elementSize;
  for (size_t i = 0; i < rank; ++i) {
    uint64_t dim = dims[i] == 0 ? 1 : static_cast<uint64_t>(dims[i]);
    if (__builtin_mul_overflow(bytes, dim, &bytes) ||
        bytes > KILN_MAX_TENSOR_BYTES)
      return false;
  }
  return bytes <= KILN_MAX_TENSOR_BYTES;
}

int64_t Tensor::numel() const {
  uint64_t size = dtypeSize(type), bytes;
  // dtypeSize is 0 only for a value outside the enum.
  if (size == 0 || !checkedByteSize(dims, size, bytes))
    return -1;
  return static_cast<int64_t>(bytes / size);
}

size_t Tensor::nbytes() const {
  uint64_t bytes;
  return checkedByteSize(dims, dtypeSize(type), bytes) ? bytes : 0;
}
