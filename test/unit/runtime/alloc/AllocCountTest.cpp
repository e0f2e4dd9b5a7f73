//===- AllocCountTest.cpp - A warm Function::run allocates nothing --------===//
//
// This program replaces malloc and its relatives (the C++ operator new
// ends in malloc) with counting wrappers around glibc's own, so every heap
// allocation in the process is seen: the runtime's, the pool workers', and
// the compiled code's. It is built only without sanitizers, which replace
// the same functions (test/unit/runtime/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#define CATCH_CONFIG_MAIN
#include "../ModelTestUtil.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cerrno>
#include <cstddef>

extern "C" {
void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void __libc_free(void *);
}

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
void count() {
  if (counting.load(std::memory_order_relaxed))
    allocations.fetch_add(1, std::memory_order_relaxed);
}
} // namespace

extern "C" {
void *malloc(size_t n) {
  count();
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t size) {
  count();
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n) {
  count();
  return __libc_realloc(p, n);
}
void *memalign(size_t alignment, size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
void *aligned_alloc(size_t alignment, size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void **out, size_t alignment, size_t n) {
  count();
  *out = __libc_memalign(alignment, n);
  return *out ? 0 : ENOMEM;
}
void free(void *p) { __libc_free(p); }
}

using namespace kiln;
using namespace kiln::test;

namespace {

const char *const Scripts = R"(# kiln: x=f32[N]
@torch.jit.script
def squares(x: Tensor) -> Tensor:
    for i in range(10):
        x = x * x
    return x


# kiln: x=f32[512,1024]
@torch.jit.script
def rows(x: Tensor) -> Tensor:
    return torch.softmax(x, -1) + torch.tanh(x) * x.mean(0, keepdim=True)


# kiln: x=f32[64,256], w=f32[256,128]
@torch.jit.script
def product(x: Tensor, w: Tensor) -> Tensor:
    return torch.relu(x @ w)


# kiln: x=f32[2,32,12,12], w=f32[32,32,3,3]
@torch.jit.script
def convolve(x: Tensor, w: Tensor) -> Tensor:
    return torch.nn.functional.conv2d(x, w, padding=1)
)";

/// Heap allocations in `calls` warm calls of `fn` (after 10 unmeasured).
long allocationsIn(const Function &fn, const std::vector<Tensor> &inputs,
                   std::vector<Tensor> &outputs, int calls) {
  for (int i = 0; i < 10; ++i)
    REQUIRE(fn.run(inputs, outputs).ok());
  int failures = 0;
  allocations = 0;
  counting = true;
  for (int i = 0; i < calls; ++i)
    failures += !fn.run(inputs, outputs).ok();
  counting = false;
  CHECK(failures == 0);
  return allocations;
}

} // namespace

TEST_CASE("the counting malloc sees allocations", "[alloc]") {
  allocations = 0;
  counting = true;
  std::vector<int> *v = new std::vector<int>(100);
  counting = false;
  delete v;
  CHECK(allocations == 2);
  // Those inside the runtime too: Model::run makes its outputs.
  Model model = loadOk(archive("alloc", Scripts));
  std::vector<float> five(5, 1.0f);
  std::vector<Tensor> in = {Tensor::borrow(DType::F32, {5}, five.data())};
  REQUIRE(model.run("squares", in).ok());
  allocations = 0;
  counting = true;
  Result<std::vector<Tensor>> out = model.run("squares", in);
  counting = false;
  REQUIRE(out.ok());
  CHECK(allocations > 0);
}

TEST_CASE("1000 warm Function::run calls allocate nothing", "[alloc]") {
  LoadOptions options;
  options.numThreads = 2;
  Result<Model> model = Model::load(archive("alloc", Scripts), options);
  REQUIRE(model.ok());

  // The seed's func: x[5], one thread, the path the ABI's overhead shows.
  std::vector<float> five = {0.99f, 1.0f, 1.001f, 0.995f, 1.0f};
  std::vector<Tensor> in = {Tensor::borrow(DType::F32, {5}, five.data())};
  std::vector<Tensor> out = {Tensor::zeros(DType::F32, {5})};
  CHECK(allocationsIn(functionOf(*model, "squares"), in, out, 1000) == 0);
  // The result is the computed one, not left alone.
  CHECK(valuesOf<float>(out[0])[1] == 1.0f);

  // Softmax rows on the thread pool, with stack buffers in the tiles.
  std::vector<float> x = ramp(512 * 1024, -3.0f, 0.0007f);
  in = {Tensor::borrow(DType::F32, {512, 1024}, x.data())};
  out = {Tensor::zeros(DType::F32, {512, 1024})};
  CHECK(allocationsIn(functionOf(*model, "rows"), in, out, 1000) == 0);
}

TEST_CASE("a warm matmul allocates only inside oneDNN's execute",
          "[alloc]") {
  LoadOptions options;
  options.numThreads = 1;
  Result<Model> model = Model::load(archive("alloc", Scripts), options);
  REQUIRE(model.ok());
  std::vector<float> a = ramp(64 * 256, -1.0f, 0.0001f);
  std::vector<float> w = ramp(256 * 128, -1.0f, 0.00006f);
  std::vector<Tensor> in = {Tensor::borrow(DType::F32, {64, 256}, a.data()),
                            Tensor::borrow(DType::F32, {256, 128}, w.data())};
  std::vector<Tensor> out = {Tensor::zeros(DType::F32, {64, 128})};
  // The kernel library reuses the thread's views, key, memory objects and
  // argument table (OneDnnMatmul.cpp, boundFor): it allocates nothing. But
  // dnnl_primitive_execute itself builds its execution context on the
  // heap, 6 allocations per call in Debian's oneDNN 2.6 (seen in a
  // backtrace of each); a matmul once made 37, and 7 while the C++ API
  // copied the argument map into a table.
  constexpr long kOneDnnExecute = 6;
  CHECK(allocationsIn(functionOf(*model, "product"), in, out, 1000) <=
        1000 * kOneDnnExecute);
  // relu(x @ w) at [0][0], the dot product of row 0 and column 0.
  float expected = 0;
  for (int k = 0; k < 256; ++k)
    expected += a[k] * w[k * 128];
  CHECK(valuesOf<float>(out[0])[0] ==
        Approx(std::max(expected, 0.0f)).epsilon(1e-4));
}

TEST_CASE("a warm conv2d allocates only inside oneDNN's execute",
          "[alloc]") {
  LoadOptions options;
  options.numThreads = 1;
  Result<Model> model = Model::load(archive("alloc", Scripts), options);
  REQUIRE(model.ok());
  std::vector<float> x = ramp(2 * 32 * 12 * 12, -1.0f, 0.0002f);
  std::vector<float> w = ramp(32 * 32 * 3 * 3, -1.0f, 0.0002f);
  std::vector<Tensor> in = {
      Tensor::borrow(DType::F32, {2, 32, 12, 12}, x.data()),
      Tensor::borrow(DType::F32, {32, 32, 3, 3}, w.data())};
  std::vector<Tensor> out = {Tensor::zeros(DType::F32, {2, 32, 12, 12})};
  // Up to four primitives (the reorders into and out of the blocked
  // layouts oneDNN chose, and the convolution), each run from the thread's
  // bound memory objects and argument tables (OneDnnConv.cpp, boundFor):
  // only oneDNN's execute allocates, 6 times per primitive. The kernel
  // library made 30 to 40 allocations of its own per call before.
  constexpr long kOneDnnExecute = 6, kPrimitives = 4;
  CHECK(allocationsIn(functionOf(*model, "convolve"), in, out, 1000) <=
        1000 * kOneDnnExecute * kPrimitives);
  // out[0][0][5][5], the 3x3 window around x[0][:][5][5] against w[0].
  float expected = 0;
  for (int c = 0; c < 32; ++c)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        expected += x[(c * 12 + 4 + i) * 12 + 4 + j] * w[(c * 3 + i) * 3 + j];
  CHECK(valuesOf<float>(out[0])[5 * 12 + 5] ==
        Approx(expected).epsilon(1e-4));
}

TEST_CASE("Function::run refuses outputs that do not fit", "[alloc]") {
  Model model = loadOk(archive("alloc", Scripts));
  Function squares = functionOf(model, "squares");
  std::vector<float> five(5, 1.0f);
  std::vector<Tensor> in = {Tensor::borrow(DType::F32, {5}, five.data())};
  std::vector<Tensor> out = {Tensor::zeros(DType::F32, {4})};
  Result<void> wrongShape = squares.run(in, out);
  REQUIRE(!wrongShape.ok());
  CHECK(wrongShape.error().message ==
        "output 0 of 'squares' has shape [4], but result 'result0' has "
        "shape [5]");
  out = {Tensor::zeros(DType::F64, {5})};
  Result<void> wrongType = squares.run(in, out);
  REQUIRE(!wrongType.ok());
  CHECK(wrongType.error().message ==
        "output 0 of 'squares' must be a f32 tensor for result 'result0'");
  out.clear();
  Result<void> none = squares.run(in, out);
  REQUIRE(!none.ok());
  CHECK(none.error().message ==
        "'squares' has 1 result, got 0 output tensors");
  // Inputs are checked as Model::run checks them.
  out = {Tensor::zeros(DType::F32, {5})};
  std::vector<Tensor> badIn = {Tensor::zeros(DType::F32, {2, 2})};
  Result<void> badInput = squares.run(badIn, out);
  REQUIRE(!badInput.ok());
  CHECK_THAT(badInput.error().message,
             Catch::Matchers::StartsWith("input 'x' of 'squares' must have rank 1"));
  CHECK(!model.function("nothing").ok());
}
