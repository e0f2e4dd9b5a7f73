//===- kiln/Tensor.h - A dense tensor passed to and from compiled code ---===//
//
// A Tensor is a dtype, a shape and contiguous row-major storage. It either
// owns its storage (shared between copies of the Tensor, like a
// torch.Tensor) or borrows a caller's buffer, which must outlive it; a
// borrowed input is handed to compiled code without a copy.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TENSOR_H
#define KILN_TENSOR_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

// The runtime is built with hidden visibility; its API is what this exports.
#pragma GCC visibility push(default)

namespace kiln {

/// Element types. The numbering matches kiln_dtype in kiln/abi.h.
enum class DType : uint8_t { F32, F64, F16, BF16, I32, I64, Bool };

/// Where a tensor's elements live: host memory, or the memory of the GPU
/// that CUDA archives run on (the driver's device 0).
enum class Device : uint8_t { CPU, CUDA };
/// "cpu" or "cuda", as PyTorch names them.
std::string_view deviceName(Device device);

/// Bytes per element.
size_t dtypeSize(DType dtype);
/// The manifest and CLI spelling: "f32", "f64", "f16", "bf16", "i32", "i64",
/// "bool".
std::string_view dtypeName(DType dtype);
/// The inverse of dtypeName; returns false for an unknown name.
bool parseDType(std::string_view name, DType &dtype);

/// The one place a size is computed from a shape. Sets `bytes` to the size
/// of a dense tensor of dims[0, rank) with `elementSize`-byte elements and
/// returns true; returns false, leaving `bytes` unspecified, when a dim is
/// negative or the size exceeds KILN_MAX_TENSOR_BYTES (kiln/abi.h), so no
/// caller ever sees a product that wrapped. With `zeroAsOne`, each zero dim
/// counts as one: that bounds every size compiled code may derive from the
/// shape (x.sum(0) of a [0, M, N] tensor has M * N elements), and is the
/// rule Model::run applies to its inputs.
bool checkedByteSize(const int64_t *dims, size_t rank, uint64_t elementSize,
                     uint64_t &bytes, bool zeroAsOne = false);
inline bool checkedByteSize(const std::vector<int64_t> &shape,
                            uint64_t elementSize, uint64_t &bytes,
                            bool zeroAsOne = false) {
  return checkedByteSize(shape.data(), shape.size(), elementSize, bytes,
                         zeroAsOne);
}

class Tensor {
public:
  /// An empty f32 tensor of shape [0].
  Tensor();

  /// Allocates zero-filled, 64-byte aligned storage that the tensor owns
  /// (a real allocation even for zero elements). Like std::vector, it throws
  /// std::bad_alloc when memory runs out, and also when no such tensor can
  /// be allocated: a negative dim, or more than KILN_MAX_TENSOR_BYTES.
  static Tensor zeros(DType dtype, std::vector<int64_t> shape);
  /// Wraps `data` without copying. The caller keeps ownership and must keep
  /// the buffer alive and unchanged while any copy of this Tensor is in use.
  /// With Device::CUDA, `data` is a device pointer (a CUdeviceptr, or what
  /// torch.Tensor.data_ptr() gives for a CUDA tensor).
  static Tensor borrow(DType dtype, std::vector<int64_t> shape, void *data,
                       Device device = Device::CPU);
  /// Takes ownership of `data`, released with `release(data)` once the last
  /// copy of the Tensor is gone.
  static Tensor adopt(DType dtype, std::vector<int64_t> shape, void *data,
                      void (*release)(void *), Device device = Device::CPU);
  /// Python's None, for an Optional input of Model::run: no data,
  /// shape [0] like Tensor(), and isNone() true. A required input refuses it.
  static Tensor none();

  /// True only for Tensor::none().
  bool isNone() const { return absent; }

  DType dtype() const { return type; }
  const std::vector<int64_t> &shape() const { return dims; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  /// The element count and byte size, computed by checkedByteSize. A shape
  /// with a negative dim or over KILN_MAX_TENSOR_BYTES describes no tensor
  /// that can exist (only borrow and adopt make one, and Model::run and
  /// writeNpy refuse it): its numel() is -1 and its nbytes() 0, so that a
  /// loop or copy driven by them does nothing.
  int64_t numel() const;
  size_t nbytes() const;
  /// True when the storage belongs to this tensor rather than the caller.
  bool ownsData() const { return owner != nullptr; }
  /// Where data() points; a CUDA tensor's elements are read with
  /// kiln::copyTo(tensor, Device::CPU) (kiln/Model.h).
  Device device() const { return where; }

  void *data() { return ptr; }
  const void *data() const { return ptr; }
  template <typename T> T *data() { return static_cast<T *>(ptr); }
  template <typename T> const T *data() const {
    return static_cast<const T *>(ptr);
  }

private:
  DType type = DType::F32;
  std::vector<int64_t> dims;
  void *ptr = nullptr;
  std::shared_ptr<void> owner;
  bool absent = false;
  Device where = Device::CPU;
};

} // namespace kiln

#pragma GCC visibility pop

#endif // KILN_TENSOR_H
