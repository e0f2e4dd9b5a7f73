//===- DeviceTensorTest.cpp - CUDA tensors where the CPU is the device ----===//
//
// What a machine without a GPU (CI's) can check of the CUDA tensors: a CPU
// archive refuses them as inputs and outputs before reading them, writeNpy
// and the tensor printer never read their elements, and copyTo to the GPU
// fails with the "no CUDA device" message. The pointers here are not
// addresses of anything, so a read of one would crash the test.
//
//===----------------------------------------------------------------------===//
#include "ModelTestUtil.h"

#include "kiln/Format.h"
#include "kiln/Npy.h"

using namespace kiln;
using namespace kiln::test;

namespace {

void *const NotHostMemory = reinterpret_cast<void *>(0x10);

bool cudaDriverPresent() {
  Result<Tensor> copy =
      copyTo(Tensor::zeros(DType::F32, {2}), Device::CUDA);
  return copy.ok();
}

} // namespace

TEST_CASE("a tensor knows its device", "[device]") {
  CHECK(Tensor::zeros(DType::F32, {2}).device() == Device::CPU);
  Tensor gpu = Tensor::borrow(DType::F32, {2}, NotHostMemory, Device::CUDA);
  CHECK(gpu.device() == Device::CUDA);
  CHECK(deviceName(Device::CUDA) == "cuda");
  CHECK(deviceName(Device::CPU) == "cpu");
  // A copy to where it is already is the tensor itself.
  Result<Tensor> same = copyTo(gpu, Device::CUDA);
  REQUIRE(same.ok());
  CHECK(same->data() == NotHostMemory);
}

TEST_CASE("a CPU archive refuses CUDA tensors", "[device]") {
  Model model = loadOk(archive("sig", SigScript));
  CHECK(model.device() == Device::CPU);
  Tensor gpu = Tensor::borrow(DType::F32, {2}, NotHostMemory, Device::CUDA);
  std::vector<float> y = {1, 2};
  Tensor cpu = Tensor::borrow(DType::F32, {2}, y.data());
  Result<std::vector<Tensor>> out = model.run("f", {gpu, cpu});
  REQUIRE_FALSE(out.ok());
  CHECK(out.error().kind == ErrorKind::InvalidArgument);
  CHECK(out.error().message ==
        "input 'x' of 'f' is a CUDA tensor, but this archive runs on the "
        "CPU (compile it with --target=cuda, or copy the input with "
        "kiln::copyTo)");

  Result<Function> f = model.function("f");
  REQUIRE(f.ok());
  std::vector<Tensor> outputs = {gpu};
  Result<void> into = f->run({cpu, cpu}, outputs);
  REQUIRE_FALSE(into.ok());
  CHECK(into.error().message ==
        "output 0 of 'f' is a CUDA tensor, but this archive runs on the CPU");
}

TEST_CASE("CUDA tensors are never read as host memory", "[device]") {
  Tensor gpu = Tensor::borrow(DType::F32, {2}, NotHostMemory, Device::CUDA);
  CHECK(formatTensor(gpu) == "tensor(<on cuda>)");
  Result<void> written = writeNpy("/nonexistent/x.npy", gpu);
  REQUIRE_FALSE(written.ok());
  CHECK(written.error().message ==
        "/nonexistent/x.npy: a CUDA tensor's elements are on the GPU; copy "
        "it to the CPU first (kiln::copyTo)");
}

TEST_CASE("copyTo without a GPU says so", "[device]") {
  if (cudaDriverPresent())
    SUCCEED("this machine has the NVIDIA driver; test/gpu covers it");
  else {
    Result<Tensor> copy =
        copyTo(Tensor::zeros(DType::F32, {2}), Device::CUDA);
    REQUIRE_FALSE(copy.ok());
    CHECK(copy.error().kind == ErrorKind::Unsupported);
    CHECK(copy.error().message.rfind("no CUDA device: ", 0) == 0);
  }
}
