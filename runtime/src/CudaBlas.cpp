//===- CudaBlas.cpp - matmul on the GPU through cuBLAS --------------------===//
//
// cuBLAS is loaded with dlopen on the first matmul of a CUDA archive, as
// the driver is (CudaDriver.cpp): the runtime links no CUDA library. Its
// matrices are column-major, so a row-major product C = A B is computed as
// C^T = B^T A^T, each operand passed as it lies in memory: a row-major
// view is its transpose in column-major order (op N), and a transposed
// view (x.t(), a Linear's weight) is the matrix itself (op T). Batch dims
// go to cublasSgemmStridedBatched, one call per index of all but the
// last batch dim; a broadcast operand has batch stride 0.
//
//===----------------------------------------------------------------------===//

#include "CudaBlas.h"

#include "CudaModel.h"

#include <dlfcn.h>

#include <climits>
#include <mutex>
#include <vector>

namespace kiln {

namespace {

using Handle = struct cublasContext *;
using Status = int; // cublasStatus_t; 0 is CUBLAS_STATUS_SUCCESS
constexpr int kOpN = 0, kOpT = 1; // cublasOperation_t
constexpr int kDefaultMath = 0;   // CUBLAS_DEFAULT_MATH: no TF32

struct Blas {
  Status (*create)(Handle *);
  Status (*setStream)(Handle, cuda::Stream);
  Status (*setMathMode)(Handle, int);
  Status (*sgemmStridedBatched)(Handle, int, int, int, int, int,
                                const float *, const float *, int, long long,
                                const float *, int, long long, const float *,
                                float *, int, long long, int);
  std::string error;
};

template <typename F> bool resolve(void *lib, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(lib, name));
  return slot != nullptr;
}

const Blas &blas() {
  static Blas b;
  static std::once_flag once;
  std::call_once(once, [] {
    // The toolkit's major versions that kiln's driver API matches, on the
    // loader's path or in the toolkit's usual place.
    void *lib = nullptr;
    for (const char *name :
         {"libcublas.so.13", "libcublas.so.12",
          "/usr/local/cuda/lib64/libcublas.so.13",
          "/usr/local/cuda/lib64/libcublas.so.12"})
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!lib) {
      b.error = "matmul on the GPU needs cuBLAS (libcublas.so.13 or .12), "
                "which is not on the library path";
      return;
    }
    if (!resolve(lib, "cublasCreate_v2", b.create) ||
        !resolve(lib, "cublasSetStream_v2", b.setStream) ||
        !resolve(lib, "cublasSetMathMode", b.setMathMode) ||
        !resolve(lib, "cublasSgemmStridedBatched", b.sgemmStridedBatched))
      b.error = "the cuBLAS found lacks cublasSgemmStridedBatched";
  });
  return b;
}

/// This thread's cuBLAS handle, bound to `stream`.
Handle threadHandle(const Blas &b, cuda::Stream stream, std::string &error) {
  thread_local Handle handle = nullptr;
  if (!handle) {
    Status s = b.create(&handle);
    if (s == 0)
      s = b.setMathMode(handle, kDefaultMath);
    if (s != 0) {
      error = "cannot start cuBLAS (status " + std::to_string(s) + ")";
      handle = nullptr;
      return nullptr;
    }
  }
  if (Status s = b.setStream(handle, stream); s != 0) {
    error = "cublasSetStream failed (status " + std::to_string(s) + ")";
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

  // The batch: every index of dims [0, rank - 3), then the last batch dim
  // strided within one call. A dim an operand broadcasts has stride 0.
  int64_t batchDims = rank - 2;
  int64_t count = batchDims > 0 ? c.sizes()[batchDims - 1] : 1;
  auto batchStride = [&](const Matrix &x, int64_t d) {
    return x.sizes()[d] == 1 ? 0 : x.strides()[d];
  };
  long long strideA = batchDims > 0 ? batchStride(a, batchDims - 1) : 0,
            strideB = batchDims > 0 ? batchStride(w, batchDims - 1) : 0,
            strideC = batchDims > 0 ? c.strides()[batchDims - 1] : 0;
  std::vector<int64_t> index(std::max<int64_t>(batchDims - 1, 0), 0);
  const float one = 1.0f, zero = 0.0f;
  while (true) {
    int64_t offA = 0, offB = 0, offC = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      offA += index[d] * batchStride(a, d);
      offB += index[d] * batchStride(w, d);
      offC += index[d] * c.strides()[d];
    }
    // C^T (n x m) = op(B^T) (n x k) op(A^T) (k x m).
    Status s = b.sgemmStridedBatched(
        handle, opB, opA, int(n), int(m), int(k), &one, w.data() + offB,
        int(std::max<int64_t>(ldb, 1)), strideB, a.data() + offA,
        int(std::max<int64_t>(lda, 1)), strideA, &zero, c.data() + offC,
        int(std::max<int64_t>(ldc, 1)), strideC, int(count));
    if (s != 0)
      return "matmul: cublasSgemmStridedBatched failed (status " +
             std::to_string(s) + ")";
    int64_t d = static_cast<int64_t>(index.size()) - 1;
    for (; d >= 0; --d) {
      if (++index[d] < c.sizes()[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return "";
  }
}

} // namespace kiln
