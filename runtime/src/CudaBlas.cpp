//===- CudaBlas.cpp - matmul on the GPU through cuBLAS --------------------===//
//
// cuBLAS is loaded with dlopen on the first matmul of a CUDA archive, as
// the driver is (CudaDriver.cpp): the runtime links no CUDA library. Its
// matrices are column-major, so a row-major product C = A B is computed as
// C^T = B^T A^T, each operand passed as it lies in memory: a row-major
// view is its transpose in column-major order (op N), and a transposed
// view (x.t(), a Linear's weight) is the matrix itself (op T). Batch dims
// go to cublasSgemmStridedBatched when they merge into one stride, and to
// cublasSgemmBatched, with every product's addresses, when they do not; a
// broadcast operand has batch stride 0. Each matmul is one cuBLAS call, in
// f32 (TF32 only for an archive compiled with --allow-tf32).
//
//===----------------------------------------------------------------------===//

#include "CudaBlas.h"

#include "CudaModel.h"
#include "DynamicLibrary.h"

#include <algorithm>
#include <climits>
#include <mutex>
#include <vector>

namespace kiln {

namespace {

using Handle = struct cublasContext *;
using Status = int; // cublasStatus_t; 0 is CUBLAS_STATUS_SUCCESS
constexpr int kOpN = 0, kOpT = 1; // cublasOperation_t
constexpr int kDefaultMath = 0;   // CUBLAS_DEFAULT_MATH: no TF32
constexpr int kTf32Math = 3;      // CUBLAS_TF32_TENSOR_OP_MATH

struct Blas {
  Status (*create)(Handle *);
  Status (*setStream)(Handle, cuda::Stream);
  Status (*setMathMode)(Handle, int);
  Status (*sgemmStridedBatched)(Handle, int, int, int, int, int,
                                const float *, const float *, int, long long,
                                const float *, int, long long, const float *,
                                float *, int, long long, int);
  Status (*sgemmBatched)(Handle, int, int, int, int, int, const float *,
                         const float *const *, int, const float *const *, int,
                         const float *, float *const *, int, int);
  std::string error;
};

const Blas &blas() {
  static Blas b;
  static std::once_flag once;
  std::call_once(once, [] {
    // The toolkit's major versions that kiln's driver API matches, on the
    // loader's path or in the toolkit's usual place.
    void *lib = openFirst({"libcublas.so.13", "libcublas.so.12",
                           "/usr/local/cuda/lib64/libcublas.so.13",
                           "/usr/local/cuda/lib64/libcublas.so.12"});
    if (!lib) {
      b.error = "matmul on the GPU needs cuBLAS (libcublas.so.13 or .12), "
                "which is not on the library path";
      return;
    }
    if (!resolve(lib, "cublasCreate_v2", b.create) ||
        !resolve(lib, "cublasSetStream_v2", b.setStream) ||
        !resolve(lib, "cublasSetMathMode", b.setMathMode) ||
        !resolve(lib, "cublasSgemmStridedBatched", b.sgemmStridedBatched) ||
        !resolve(lib, "cublasSgemmBatched", b.sgemmBatched))
      b.error = "the cuBLAS found lacks cublasSgemm(Strided)Batched";
  });
  return b;
}

/// This thread's cuBLAS handle, bound to `stream`, its math TF32 when the
/// running call's archive allows it (one thread may run archives of both
/// kinds, so it is set per call).
Handle threadHandle(const Blas &b, cuda::Stream stream, std::string &error) {
  thread_local Handle handle = nullptr;
  if (!handle) {
    if (Status s = b.create(&handle); s != 0) {
      error = "cannot start cuBLAS (status " + std::to_string(s) + ")";
      handle = nullptr;
      return nullptr;
    }
  }
  if (Status s = b.setStream(handle, stream); s != 0) {
    error = "cublasSetStream failed (status " + std::to_string(s) + ")";
    return nullptr;
  }
  int math = currentCallAllowsTf32() ? kTf32Math : kDefaultMath;
  if (Status s = b.setMathMode(handle, math); s != 0) {
    error = "cublasSetMathMode failed (status " + std::to_string(s) + ")";
    return nullptr;
  }
  return handle;
}

/// A rows x cols matrix at strides (rowStride, colStride) as cuBLAS takes
/// its transpose: op N with ld the row stride when rows are contiguous, op
/// T with ld the column stride when columns are. A size-1 dim's stride
/// is never used, so it is whatever fits. False when neither is.
bool transposeOperand(int64_t rows, int64_t cols, int64_t rowStride,
                      int64_t colStride, int &op, int64_t &ld) {
  if (cols == 1 || colStride == 1) {
    op = kOpN;
    ld = rows == 1 ? std::max<int64_t>(cols, 1) : rowStride;
    if (ld >= std::max<int64_t>(cols, 1))
      return true;
  }
  if (rows == 1 || rowStride == 1) {
    op = kOpT;
    ld = cols == 1 ? std::max<int64_t>(rows, 1) : colStride;
    return ld >= std::max<int64_t>(rows, 1);
  }
  return false;
}

struct Matrix {
  const kiln_memref *desc;
  int64_t rank;
  const int64_t *sizes() const { return desc->dims; }
  const int64_t *strides() const { return desc->dims + rank; }
  float *data() const {
    return static_cast<float *>(desc->aligned) + desc->offset;
  }
};

} // namespace

std::string prepareCublas(void *stream) {
  const Blas &b = blas();
  if (!b.error.empty())
    return b.error;
  std::string error;
  Handle handle =
      threadHandle(b, static_cast<cuda::Stream>(stream), error);
  if (!handle)
    return error;
  // A 1x1x1 product on a scratch float of the pool.
  const cuda::Driver *d = cuda::driver(error);
  cuda::DevicePtr scratch = 0;
  auto s = static_cast<cuda::Stream>(stream);
  if (!d || d->memAllocAsync(&scratch, 64, s) != 0)
    return "cannot warm cuBLAS: " + (error.empty() ? "no memory" : error);
  auto *f = reinterpret_cast<float *>(scratch);
  const float one = 1.0f, zero = 0.0f;
  Status status = b.sgemmStridedBatched(handle, kOpN, kOpN, 1, 1, 1, &one, f,
                                        1, 0, f + 1, 1, 0, &zero, f + 2, 1, 0,
                                        1);
  d->memFreeAsync(scratch, s);
  if (status != 0)
    return "cannot warm cuBLAS (status " + std::to_string(status) + ")";
  return "";
}

namespace {

/// The shape of one product, as cuBLAS takes it (C^T = op(B^T) op(A^T)).
struct Gemm {
  int opB, opA;
  int64_t n, m, k, ldb, lda, ldc;
};

struct BatchDim {
  int64_t size, a, b, c; // and each operand's stride (0: broadcast)
};

/// A batch whose dims do not merge into one stride (attention's [B, heads]
/// over transposed views) as one cublasSgemmBatched call: the address of
/// every product's operands, uploaded to the GPU on the call's stream.
std::string batchedByAddress(const Blas &b, Handle handle, const Gemm &g,
                             const float *w, const float *a, float *c,
                             const std::vector<BatchDim> &outer,
                             const BatchDim &inner) {
  int64_t count = inner.size;
  for (const BatchDim &dim : outer)
    count *= dim.size;
  if (count > INT_MAX)
    return "matmul: a batch of over 2^31 - 1 products, more than cuBLAS takes";
  std::vector<const float *> addresses(3 * count);
  std::vector<int64_t> index(outer.size(), 0);
  for (int64_t p = 0; p < count; p += inner.size) {
    int64_t offA = 0, offB = 0, offC = 0;
    for (size_t d = 0; d < outer.size(); ++d) {
      offA += index[d] * outer[d].a;
      offB += index[d] * outer[d].b;
      offC += index[d] * outer[d].c;
    }
    for (int64_t j = 0; j < inner.size; ++j) {
      addresses[p + j] = w + offB + j * inner.b;
      addresses[count + p + j] = a + offA + j * inner.a;
      addresses[2 * count + p + j] = c + offC + j * inner.c;
    }
    for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
      if (++index[d] < outer[d].size)
        break;
      index[d] = 0;
    }
  }
  std::string error;
  const cuda::Driver *d = cuda::driver(error);
  cuda::Stream stream = currentCudaStream();
  size_t bytes = addresses.size() * sizeof(float *);
  cuda::DevicePtr table = 0;
  // From pageable memory, the copy has taken the addresses once it returns.
  if (d->memAllocAsync(&table, bytes, stream) != 0 ||
      d->memcpyHtoDAsync(table, addresses.data(), bytes, stream) != 0)
    return "matmul: cannot pass the batch's addresses to the GPU";
  auto *device = reinterpret_cast<const float *const *>(table);
  const float one = 1.0f, zero = 0.0f;
  Status s = b.sgemmBatched(
      handle, g.opB, g.opA, int(g.n), int(g.m), int(g.k), &one, device,
      int(std::max<int64_t>(g.ldb, 1)), device + count,
      int(std::max<int64_t>(g.lda, 1)), &zero,
      const_cast<float *const *>(device + 2 * count),
      int(std::max<int64_t>(g.ldc, 1)), int(count));
  d->memFreeAsync(table, stream);
  if (s != 0)
    return "matmul: cublasSgemmBatched failed (status " + std::to_string(s) +
           ")";
  return "";
}

} // namespace

std::string cudaMatmul(const kiln_unranked_memref &am,
                       const kiln_unranked_memref &bm,
                       const kiln_unranked_memref &outm, int32_t dtype) {
  if (dtype != KILN_F32)
    return "matmul: the GPU's matmul takes f32 tensors for now";
  const Blas &b = blas();
  if (!b.error.empty())
    return "matmul: " + b.error;
  Matrix a{am.desc, am.rank}, w{bm.desc, bm.rank}, c{outm.desc, outm.rank};
  int64_t rank = c.rank;
  int64_t m = c.sizes()[rank - 2], n = c.sizes()[rank - 1],
          k = a.sizes()[rank - 1];
  for (int64_t d = 0; d < rank; ++d)
    if (c.sizes()[d] == 0)
      return "";
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
    return "matmul: a dim over 2^31 - 1, more than cuBLAS takes";
  int opA, opB, opC;
  int64_t lda, ldb, ldc;
  if (!transposeOperand(m, k, a.strides()[rank - 2], a.strides()[rank - 1],
                        opA, lda) ||
      !transposeOperand(k, n, w.strides()[rank - 2], w.strides()[rank - 1],
                        opB, ldb) ||
      !transposeOperand(m, n, c.strides()[rank - 2], c.strides()[rank - 1],
                        opC, ldc) ||
      opC != kOpN)
    return "matmul: an operand whose rows and columns are both strided is "
           "not supported on the GPU yet";
  std::string error;
  Handle handle = threadHandle(b, currentCudaStream(), error);
  if (!handle)
    return "matmul: " + error;

  // The batch dims, with each operand's stride (0 where it broadcasts),
  // merged where one stride steps over the next dim for all three (a
  // [B, H] batch of dense tensors is one of B * H), so that most products
  // are one cuBLAS call.
  std::vector<BatchDim> batch;
  for (int64_t d = 0; d < rank - 2; ++d) {
    BatchDim dim = {c.sizes()[d], a.sizes()[d] == 1 ? 0 : a.strides()[d],
                    w.sizes()[d] == 1 ? 0 : w.strides()[d], c.strides()[d]};
    if (dim.size == 1)
      continue;
    if (!batch.empty()) {
      BatchDim &outer = batch.back();
      if (outer.a == dim.a * dim.size && outer.b == dim.b * dim.size &&
          outer.c == dim.c * dim.size) {
        outer = {outer.size * dim.size, dim.a, dim.b, dim.c};
        continue;
      }
    }
    batch.push_back(dim);
  }
  // The largest batch dim is the inner one of the address table.
  BatchDim inner = {1, 0, 0, 0};
  if (!batch.empty()) {
    auto largest = std::max_element(
        batch.begin(), batch.end(),
        [](const BatchDim &x, const BatchDim &y) { return x.size < y.size; });
    inner = *largest;
    batch.erase(largest);
  }
  if (inner.size > INT_MAX)
    return "matmul: a batch of over 2^31 - 1 products, more than cuBLAS takes";
  const float one = 1.0f, zero = 0.0f;
  if (!batch.empty())
    return batchedByAddress(b, handle, {opB, opA, n, m, k, ldb, lda, ldc},
                            w.data(), a.data(), c.data(), batch, inner);
  // C^T (n x m) = op(B^T) (n x k) op(A^T) (k x m).
  Status s = b.sgemmStridedBatched(
      handle, opB, opA, int(n), int(m), int(k), &one, w.data(),
      int(std::max<int64_t>(ldb, 1)), inner.b, a.data(),
      int(std::max<int64_t>(lda, 1)), inner.a, &zero, c.data(),
      int(std::max<int64_t>(ldc, 1)), inner.c, int(inner.size));
  if (s != 0)
    return "matmul: cublasSgemmStridedBatched failed (status " +
           std::to_string(s) + ")";
  return "";
}

} // namespace kiln
