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

/// Bytes per element.
size_t dtypeSize(DType dtype);
/// The manifest and CLI spelling: "f32", "f64", "f16", "bf16", "i32", "i64",
/// "bool".
std::string_view dtypeName(DType dtype);
/// The inverse of dtypeName; returns false for an unknown name.
bool parseDType(std::string_view name, DType &dtype);

class Tensor {
public:
  /// An empty f32 tensor of shape [0].
  Tensor();

  /// Allocates zero-filled, 64-byte aligned storage that the tensor owns
  /// (a real allocation even for zero elements). Like std::vector, it throws
  /// std::bad_alloc when memory runs out.
  static Tensor zeros(DType dtype, std::vector<int64_t> shape);
  /// Wraps `data` without copying. The caller keeps ownership and must keep
  /// the buffer alive and unchanged while any copy of this Tensor is in use.
  static Tensor borrow(DType dtype, std::vector<int64_t> shape, void *data);
  /// Takes ownership of `data`, released with `release(data)` once the last
  /// copy of the Tensor is gone.
  static Tensor adopt(DType dtype, std::vector<int64_t> shape, void *data,
                      void (*release)(void *));

  DType dtype() const { return type; }
  const std::vector<int64_t> &shape() const { return dims; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  int64_t numel() const;
  size_t nbytes() const { return static_cast<size_t>(numel()) * dtypeSize(type); }
  /// True when the storage belongs to this tensor rather than the caller.
  bool ownsData() const { return owner != nullptr; }

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
};

} // namespace kiln

#pragma GCC visibility pop

#endif // KILN_TENSOR_H
