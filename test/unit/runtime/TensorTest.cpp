//===- TensorTest.cpp - kiln::Tensor storage and dtypes -------------------===//

#include "kiln/Tensor.h"
#include "kiln/abi.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <new>

using namespace kiln;

TEST_CASE("dtype sizes and names", "[tensor]") {
  struct Row {
    DType dtype;
    size_t size;
    const char *name;
  };
  const Row rows[] = {{DType::F32, 4, "f32"},  {DType::F64, 8, "f64"},
                      {DType::F16, 2, "f16"},  {DType::BF16, 2, "bf16"},
                      {DType::I32, 4, "i32"},  {DType::I64, 8, "i64"},
                      {DType::Bool, 1, "bool"}};
  for (const Row &row : rows) {
    INFO("dtype " << row.name);
    CHECK(dtypeSize(row.dtype) == row.size);
    CHECK(dtypeName(row.dtype) == row.name);
    DType parsed = DType::Bool == row.dtype ? DType::F32 : DType::Bool;
    CHECK(parseDType(row.name, parsed));
    CHECK(parsed == row.dtype);
  }
}

TEST_CASE("parseDType rejects unknown names and leaves the output alone",
          "[tensor]") {
  DType dtype = DType::I32;
  CHECK_FALSE(parseDType("float32", dtype));
  CHECK_FALSE(parseDType("", dtype));
  CHECK_FALSE(parseDType("F32", dtype));
  CHECK_FALSE(parseDType("f32 ", dtype));
  CHECK(dtype == DType::I32);
}

TEST_CASE("a default tensor is an empty f32 vector", "[tensor]") {
  Tensor tensor;
  CHECK(tensor.dtype() == DType::F32);
  CHECK(tensor.shape() == std::vector<int64_t>{0});
  CHECK(tensor.rank() == 1);
  CHECK(tensor.numel() == 0);
  CHECK(tensor.nbytes() == 0);
  CHECK_FALSE(tensor.ownsData());
}

TEST_CASE("zeros allocates aligned, zero-filled, owned storage", "[tensor]") {
  Tensor tensor = Tensor::zeros(DType::F64, {3, 5, 7});
  CHECK(tensor.dtype() == DType::F64);
  CHECK(tensor.rank() == 3);
  CHECK(tensor.numel() == 105);
  CHECK(tensor.nbytes() == 840);
  CHECK(tensor.ownsData());
  REQUIRE(tensor.data() != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(tensor.data()) % 64 == 0);
  const auto *bytes = tensor.data<unsigned char>();
  bool allZero = true;
  for (size_t i = 0; i < tensor.nbytes(); ++i)
    allZero &= bytes[i] == 0;
  CHECK(allZero);
}

TEST_CASE("zeros handles scalars and empty shapes", "[tensor]") {
  Tensor scalar = Tensor::zeros(DType::I32, {});
  CHECK(scalar.rank() == 0);
  CHECK(scalar.numel() == 1);
  CHECK(scalar.nbytes() == 4);
  CHECK(*scalar.data<int32_t>() == 0);

  Tensor empty = Tensor::zeros(DType::Bool, {4, 0, 2});
  CHECK(empty.numel() == 0);
  CHECK(empty.nbytes() == 0);
  CHECK(empty.ownsData());
  CHECK(empty.data() != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(empty.data()) % 64 == 0);
}

TEST_CASE("copies of an owning tensor share its storage", "[tensor]") {
  Tensor original = Tensor::zeros(DType::F32, {4});
  Tensor copy = original;
  copy.data<float>()[2] = 1.5f;
  CHECK(original.data<float>()[2] == 1.5f);
  CHECK(copy.data() == original.data());
  CHECK(copy.ownsData());
}

TEST_CASE("borrow wraps a caller's buffer without copying", "[tensor]") {
  int64_t buffer[6] = {1, 2, 3, 4, 5, 6};
  Tensor tensor = Tensor::borrow(DType::I64, {2, 3}, buffer);
  CHECK_FALSE(tensor.ownsData());
  CHECK(tensor.data() == buffer);
  CHECK(tensor.numel() == 6);
  tensor.data<int64_t>()[5] = 60;
  CHECK(buffer[5] == 60);
  const Tensor &constView = tensor;
  CHECK(constView.data<int64_t>()[0] == 1);
}

namespace {
int releaseCount = 0;
void *releasedPointer = nullptr;
void countingRelease(void *data) {
  ++releaseCount;
  releasedPointer = data;
  std::free(data);
}
} // namespace

TEST_CASE("adopt releases the buffer once, after the last copy", "[tensor]") {
  releaseCount = 0;
  releasedPointer = nullptr;
  void *buffer = std::malloc(8 * sizeof(float));
  {
    Tensor first = Tensor::adopt(DType::F32, {2, 4}, buffer, countingRelease);
    CHECK(first.ownsData());
    CHECK(first.data() == buffer);
    {
      Tensor second = first;
      Tensor third = second;
      CHECK(third.data() == buffer);
    }
    CHECK(releaseCount == 0);
    Tensor moved = std::move(first);
    CHECK(releaseCount == 0);
    moved = Tensor::zeros(DType::F32, {1});
    CHECK(releaseCount == 1);
  }
  CHECK(releaseCount == 1);
  CHECK(releasedPointer == buffer);
}

TEST_CASE("checkedByteSize never returns a size that wrapped", "[tensor]") {
  uint64_t bytes = 0;
  CHECK(checkedByteSize({2, 3}, 4, bytes));
  CHECK(bytes == 24);
  CHECK(checkedByteSize({}, 8, bytes));
  CHECK(bytes == 8);
  // The limit itself fits; one element more does not.
  CHECK(checkedByteSize({int64_t(1) << 45}, 4, bytes));
  CHECK(bytes == KILN_MAX_TENSOR_BYTES);
  CHECK_FALSE(checkedByteSize({(int64_t(1) << 45) + 1}, 4, bytes));
  // Products that wrap 64 bits, to 0 and to 4.
  CHECK_FALSE(checkedByteSize({int64_t(1) << 32, int64_t(1) << 32}, 4, bytes));
  CHECK_FALSE(checkedByteSize({(int64_t(1) << 62) + 1}, 4, bytes));
  CHECK_FALSE(checkedByteSize({2, -3}, 4, bytes));
  CHECK_FALSE(checkedByteSize({0, -3}, 4, bytes));

  // A zero dim empties the tensor wherever it is...
  CHECK(checkedByteSize({int64_t(1) << 32, int64_t(1) << 32, 0}, 4, bytes));
  CHECK(bytes == 0);
  CHECK(checkedByteSize({0, (int64_t(1) << 62) + 1}, 4, bytes));
  CHECK(bytes == 0);
  // ...but counted as one it bounds what compiled code may derive.
  CHECK_FALSE(checkedByteSize({0, (int64_t(1) << 62) + 1}, 4, bytes,
                              /*zeroAsOne=*/true));
  CHECK_FALSE(checkedByteSize({0, int64_t(1) << 32, int64_t(1) << 32}, 4,
                              bytes, /*zeroAsOne=*/true));
  CHECK(checkedByteSize({0, 5, 0}, 4, bytes, /*zeroAsOne=*/true));
  CHECK(bytes == 20);
}

TEST_CASE("a shape no tensor can have is refused, never wrapped", "[tensor]") {
  // Tensor::zeros throws as std::vector does when it cannot allocate.
  CHECK_THROWS_AS(Tensor::zeros(DType::F32, {(int64_t(1) << 62) + 1}),
                  std::bad_alloc);
  CHECK_THROWS_AS(Tensor::zeros(DType::F32, {int64_t(1) << 32,
                                             int64_t(1) << 32}),
                  std::bad_alloc);
  CHECK_THROWS_AS(Tensor::zeros(DType::F32, {-1}), std::bad_alloc);
  // An empty tensor is fine however large its other dims.
  Tensor empty = Tensor::zeros(DType::F32, {0, (int64_t(1) << 62) + 1});
  CHECK(empty.numel() == 0);
  CHECK(empty.nbytes() == 0);

  // A borrowed tensor can claim anything; its sizes say it is no tensor.
  float dummy = 0;
  Tensor huge = Tensor::borrow(DType::F32, {(int64_t(1) << 62) + 1}, &dummy);
  CHECK(huge.numel() == -1);
  CHECK(huge.nbytes() == 0);
  Tensor negative = Tensor::borrow(DType::F32, {2, -3}, &dummy);
  CHECK(negative.numel() == -1);
  CHECK(negative.nbytes() == 0);
}
