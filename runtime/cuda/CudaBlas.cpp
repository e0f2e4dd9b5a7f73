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
// A matmul with an epilogue (a bias, and relu) goes to cuBLASLt, loaded the
// same way, whose epilogue adds the bias to each output tile and applies
// the relu before storing it, as PyTorch's addmm and _addmm_activation do:
// one kernel instead of a product and an elementwise pass over it.
//
//===----------------------------------------------------------------------===//

#include "CudaBlas.h"

#include "CudaModel.h"
#include "DynamicLibrary.h"

#include <algorithm>
#include <array>
#include <climits>
#include <map>
#include <memory>
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
  Status (*scopy)(Handle, int, const float *, int, float *, int);
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
        !resolve(lib, "cublasSgemmBatched", b.sgemmBatched) ||
        !resolve(lib, "cublasScopy_v2", b.scopy))
      b.error = "the cuBLAS found lacks cublasSgemm(Strided)Batched or "
                "cublasScopy";
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

/// Loads cuBLASLt, if it is there, and runs one 1x1x1 product with a bias
/// and relu on `scratch` (four 16-byte aligned floats), which loads its
/// heuristics and first kernels (below).
void prepareLt(cuda::Stream stream, bool tf32, float *scratch);

} // namespace

std::string prepareCublas(void *stream, bool tf32) {
  const Blas &b = blas();
  if (!b.error.empty())
    return b.error;
  std::string error;
  Handle handle =
      threadHandle(b, static_cast<cuda::Stream>(stream), error);
  if (!handle)
    return error;
  // A 1x1x1 product on scratch floats of the pool.
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
  if (status == 0)
    prepareLt(s, tf32, f);
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

//===----------------------------------------------------------------------===//
// cuBLASLt: products with an epilogue
//===----------------------------------------------------------------------===//

using LtHandle = struct cublasLtContext *;
using LtDesc = struct cublasLtMatmulDescOpaque_t *;
using LtLayout = struct cublasLtMatrixLayoutOpaque_t *;
using LtPreference = struct cublasLtMatmulPreferenceOpaque_t *;
struct LtAlgo {
  uint64_t data[8];
};
struct LtHeuristic { // cublasLtMatmulHeuristicResult_t
  LtAlgo algo;
  size_t workspaceSize;
  Status state;
  float wavesCount;
  int reserved[4];
};

// cublasLt.h's enums, as CUDA 12 and 13 number them.
constexpr int kCompute32F = 68, kCompute32FFastTf32 = 77; // cublasComputeType_t
constexpr int kR32F = 0;                                  // cudaDataType_t
constexpr int kDescTransA = 3, kDescTransB = 4, kDescEpilogue = 7,
              kDescBiasPointer = 8;
constexpr int kLayoutBatchCount = 5, kLayoutBatchOffset = 6;
constexpr int kPrefMaxWorkspace = 1, kPrefAlignA = 5, kPrefAlignB = 6,
              kPrefAlignC = 7, kPrefAlignD = 8;
constexpr uint32_t kEpilogueBias = 4, kEpilogueReluBias = 6;
/// cuBLASLt's workspace: PyTorch gives it 1 MiB, and a few more let it
/// pick split-K kernels for long products.
constexpr uint64_t kLtWorkspace = 4u << 20;

struct BlasLt {
  Status (*create)(LtHandle *);
  Status (*descCreate)(LtDesc *, int, int);
  Status (*descDestroy)(LtDesc);
  Status (*descSet)(LtDesc, int, const void *, size_t);
  Status (*layoutCreate)(LtLayout *, int, uint64_t, uint64_t, int64_t);
  Status (*layoutDestroy)(LtLayout);
  Status (*layoutSet)(LtLayout, int, const void *, size_t);
  Status (*preferenceCreate)(LtPreference *);
  Status (*preferenceDestroy)(LtPreference);
  Status (*preferenceSet)(LtPreference, int, const void *, size_t);
  Status (*heuristic)(LtHandle, LtDesc, LtLayout, LtLayout, LtLayout,
                      LtLayout, LtPreference, int, LtHeuristic *, int *);
  Status (*matmul)(LtHandle, LtDesc, const void *, const void *, LtLayout,
                   const void *, LtLayout, const void *, const void *,
                   LtLayout, void *, LtLayout, const LtAlgo *, void *, size_t,
                   cuda::Stream);
  std::string error;
};

const BlasLt &blasLt() {
  static BlasLt b;
  static std::once_flag once;
  std::call_once(once, [] {
    void *lib = openFirst({"libcublasLt.so.13", "libcublasLt.so.12",
                           "/usr/local/cuda/lib64/libcublasLt.so.13",
                           "/usr/local/cuda/lib64/libcublasLt.so.12"});
    if (!lib) {
      b.error = "a matmul with a bias on the GPU needs cuBLASLt "
                "(libcublasLt.so.13 or .12), which is not on the library "
                "path";
      return;
    }
    if (!resolve(lib, "cublasLtCreate", b.create) ||
        !resolve(lib, "cublasLtMatmulDescCreate", b.descCreate) ||
        !resolve(lib, "cublasLtMatmulDescDestroy", b.descDestroy) ||
        !resolve(lib, "cublasLtMatmulDescSetAttribute", b.descSet) ||
        !resolve(lib, "cublasLtMatrixLayoutCreate", b.layoutCreate) ||
        !resolve(lib, "cublasLtMatrixLayoutDestroy", b.layoutDestroy) ||
        !resolve(lib, "cublasLtMatrixLayoutSetAttribute", b.layoutSet) ||
        !resolve(lib, "cublasLtMatmulPreferenceCreate", b.preferenceCreate) ||
        !resolve(lib, "cublasLtMatmulPreferenceDestroy",
                 b.preferenceDestroy) ||
        !resolve(lib, "cublasLtMatmulPreferenceSetAttribute",
                 b.preferenceSet) ||
        !resolve(lib, "cublasLtMatmulAlgoGetHeuristic", b.heuristic) ||
        !resolve(lib, "cublasLtMatmul", b.matmul))
      b.error = "the cuBLASLt found lacks its matmul functions";
  });
  return b;
}

/// The largest power of two, up to 256, that divides `address`: cuBLASLt
/// assumes 256 unless told, and its kernels for more would fault.
uint32_t alignmentOf(const void *address) {
  auto bits = reinterpret_cast<uintptr_t>(address);
  uint32_t alignment = 256;
  while (alignment > 4 && bits % alignment != 0)
    alignment /= 2;
  return alignment;
}

/// One product shape's descriptors and the algorithm cuBLASLt's heuristic
/// chose for it. The bias pointer is set on the descriptor at each call,
/// so plans are the calling thread's own.
struct LtPlan {
  LtDesc desc = nullptr;
  LtLayout a = nullptr, b = nullptr, c = nullptr;
  LtAlgo algo{};
  size_t workspace = 0;
  std::string error;

  LtPlan() = default;
  LtPlan(const LtPlan &) = delete;
  LtPlan &operator=(const LtPlan &) = delete;
  ~LtPlan() {
    const BlasLt &lt = blasLt();
    for (LtLayout layout : {a, b, c})
      if (layout)
        lt.layoutDestroy(layout);
    if (desc)
      lt.descDestroy(desc);
  }
};

/// A stored column-major matrix of cuBLAS's op `op` and logical size
/// rows x cols, `count` of them `stride` apart.
LtLayout ltLayout(const BlasLt &lt, int op, int64_t rows, int64_t cols,
                  int64_t ld, int64_t count, int64_t stride) {
  LtLayout layout = nullptr;
  uint64_t storedRows = op == kOpN ? rows : cols;
  uint64_t storedCols = op == kOpN ? cols : rows;
  if (lt.layoutCreate(&layout, kR32F, storedRows, storedCols,
                      std::max<int64_t>(ld, int64_t(storedRows))) != 0)
    return nullptr;
  int32_t batch = static_cast<int32_t>(count);
  if (count > 1 &&
      (lt.layoutSet(layout, kLayoutBatchCount, &batch, sizeof batch) != 0 ||
       lt.layoutSet(layout, kLayoutBatchOffset, &stride, sizeof stride) !=
           0)) {
    lt.layoutDestroy(layout);
    return nullptr;
  }
  return layout;
}

std::unique_ptr<LtPlan> buildLtPlan(LtHandle handle, const Gemm &g,
                                    const BatchDim &inner, uint32_t epilogue,
                                    bool tf32,
                                    const std::array<uint32_t, 3> &align) {
  const BlasLt &lt = blasLt();
  auto plan = std::make_unique<LtPlan>();
  if (lt.descCreate(&plan->desc, tf32 ? kCompute32FFastTf32 : kCompute32F,
                    kR32F) != 0) {
    plan->error = "cannot make a cuBLASLt product";
    return plan;
  }
  int32_t opA = g.opB, opB = g.opA; // C^T = op(B^T) op(A^T)
  lt.descSet(plan->desc, kDescTransA, &opA, sizeof opA);
  lt.descSet(plan->desc, kDescTransB, &opB, sizeof opB);
  lt.descSet(plan->desc, kDescEpilogue, &epilogue, sizeof epilogue);
  plan->a = ltLayout(lt, g.opB, g.n, g.k, g.ldb, inner.size, inner.b);
  plan->b = ltLayout(lt, g.opA, g.k, g.m, g.lda, inner.size, inner.a);
  plan->c = ltLayout(lt, kOpN, g.n, g.m, g.ldc, inner.size, inner.c);
  if (!plan->a || !plan->b || !plan->c) {
    plan->error = "cannot describe a cuBLASLt product's operands";
    return plan;
  }
  LtPreference preference = nullptr;
  if (lt.preferenceCreate(&preference) != 0) {
    plan->error = "cannot make a cuBLASLt preference";
    return plan;
  }
  uint64_t workspace = kLtWorkspace;
  lt.preferenceSet(preference, kPrefMaxWorkspace, &workspace,
                   sizeof workspace);
  lt.preferenceSet(preference, kPrefAlignA, &align[0], sizeof align[0]);
  lt.preferenceSet(preference, kPrefAlignB, &align[1], sizeof align[1]);
  lt.preferenceSet(preference, kPrefAlignC, &align[2], sizeof align[2]);
  lt.preferenceSet(preference, kPrefAlignD, &align[2], sizeof align[2]);
  LtHeuristic result{};
  int found = 0;
  Status s = lt.heuristic(handle, plan->desc, plan->a, plan->b, plan->c,
                          plan->c, preference, 1, &result, &found);
  lt.preferenceDestroy(preference);
  if (s != 0 || found == 0)
    plan->error = "cuBLASLt has no kernel for this product with a bias "
                  "(status " + std::to_string(s) + ")";
  plan->algo = result.algo;
  plan->workspace = result.workspaceSize;
  return plan;
}

LtHandle threadLtHandle(std::string &error) {
  thread_local LtHandle handle = nullptr;
  if (!handle && blasLt().create(&handle) != 0) {
    handle = nullptr;
    error = "cannot start cuBLASLt";
  }
  return handle;
}

/// out = activation(a @ b + bias) for each product of the batch: one
/// cuBLASLt call per index of the `outer` dims, each over `inner`, on
/// `stream`; `bias` is a vector of g.n floats `biasStride` apart.
std::string epilogueProducts(const Gemm &g, const float *w, const float *a,
                             float *c, const float *bias, int64_t biasStride,
                             int32_t activation,
                             const std::vector<BatchDim> &outer,
                             const BatchDim &inner, cuda::Stream stream,
                             bool tf32) {
  const BlasLt &lt = blasLt();
  if (!lt.error.empty())
    return "matmul_epilogue: " + lt.error;
  std::string error;
  LtHandle handle = threadLtHandle(error);
  if (!handle)
    return "matmul_epilogue: " + error;
  uint32_t epilogue =
      activation == KILN_ACTIVATION_RELU ? kEpilogueReluBias : kEpilogueBias;
  // The alignment every product of the batch keeps: of each operand's
  // start, and of one step along each batch dim.
  std::array<uint32_t, 3> align = {alignmentOf(w), alignmentOf(a),
                                   alignmentOf(c)};
  std::vector<BatchDim> dims = outer;
  dims.push_back(inner);
  for (const BatchDim &dim : dims) {
    if (dim.size <= 1)
      continue;
    align[0] = std::min(align[0], alignmentOf(w + dim.b));
    align[1] = std::min(align[1], alignmentOf(a + dim.a));
    align[2] = std::min(align[2], alignmentOf(c + dim.c));
  }
  std::vector<int64_t> key = {g.opB, g.opA, g.n, g.m, g.k, g.ldb, g.lda,
                              g.ldc, inner.size, inner.a, inner.b, inner.c,
                              epilogue, tf32, align[0], align[1], align[2]};
  // Plans of the calling thread, kept for the process as cuDNN's are
  // (CudaDnn.cpp); a thread that sees ever new shapes starts over.
  thread_local std::map<std::vector<int64_t>, std::unique_ptr<LtPlan>> plans;
  if (plans.size() > 256)
    plans.clear();
  std::unique_ptr<LtPlan> &plan = plans[key];
  if (!plan)
    plan = buildLtPlan(handle, g, inner, epilogue, tf32, align);
  if (!plan->error.empty())
    return "matmul_epilogue: " + plan->error;

  const cuda::Driver *d = cuda::driver(error);
  // cuBLASLt reads the bias as dense: a strided one (a slice) is copied
  // (by cuBLAS, the runtime has no kernels of its own), and a workspace
  // after it, from the call's pool.
  bool copyBias = biasStride != 1 && g.n > 1;
  size_t biasBytes = copyBias ? (g.n * sizeof(float) + 255) / 256 * 256 : 0;
  cuda::DevicePtr scratch = 0;
  if (biasBytes + plan->workspace > 0 &&
      d->memAllocAsync(&scratch, biasBytes + plan->workspace, stream) != 0)
    return "matmul_epilogue: out of GPU memory for cuBLASLt's workspace";
  auto release = [&] {
    if (scratch)
      d->memFreeAsync(scratch, stream);
  };
  const void *biasData = bias;
  if (copyBias) {
    Handle blasHandle = threadHandle(blas(), stream, error);
    if (!blasHandle ||
        blas().scopy(blasHandle, int(g.n), bias, int(biasStride),
                     reinterpret_cast<float *>(scratch),
                     1) != 0) {
      release();
      return "matmul_epilogue: cannot copy the strided bias on the GPU";
    }
    biasData = reinterpret_cast<void *>(scratch);
  }
  void *workspace = reinterpret_cast<void *>(scratch + biasBytes);
  const float one = 1.0f, zero = 0.0f;
  Status status = lt.descSet(plan->desc, kDescBiasPointer, &biasData,
                             sizeof biasData);
  std::vector<int64_t> index(outer.size(), 0);
  int64_t count = 1;
  for (const BatchDim &dim : outer)
    count *= dim.size;
  for (int64_t p = 0; p < count && status == 0; ++p) {
    int64_t offA = 0, offB = 0, offC = 0;
    for (size_t i = 0; i < outer.size(); ++i) {
      offA += index[i] * outer[i].a;
      offB += index[i] * outer[i].b;
      offC += index[i] * outer[i].c;
    }
    status = lt.matmul(handle, plan->desc, &one, w + offB, plan->a, a + offA,
                       plan->b, &zero, c + offC, plan->c, c + offC, plan->c,
                       &plan->algo, workspace, plan->workspace, stream);
    for (int64_t i = static_cast<int64_t>(index.size()) - 1; i >= 0; --i) {
      if (++index[i] < outer[i].size)
        break;
      index[i] = 0;
    }
  }
  release();
  if (status != 0)
    return "matmul_epilogue: cublasLtMatmul failed (status " +
           std::to_string(status) + ")";
  return "";
}

void prepareLt(cuda::Stream stream, bool tf32, float *scratch) {
  // It only saves time: a product that needs cuBLASLt and finds none, or
  // fails, says so itself.
  if (blasLt().error.empty())
    epilogueProducts({kOpN, kOpN, 1, 1, 1, 1, 1, 1}, scratch, scratch + 4,
                     scratch + 8, scratch + 12, 1, KILN_ACTIVATION_RELU, {},
                     {1, 0, 0, 0}, stream, tf32);
}

} // namespace

std::string cudaMatmul(const kiln_unranked_memref &am,
                       const kiln_unranked_memref &bm,
                       const kiln_unranked_memref *biasm,
                       const kiln_unranked_memref &outm, int32_t activation,
                       int32_t dtype) {
  if (dtype != KILN_F32)
    return "matmul: the GPU's matmul takes f32 tensors for now";
  if (biasm && activation != KILN_ACTIVATION_NONE &&
      activation != KILN_ACTIVATION_RELU)
    return "matmul_epilogue: activation " + std::to_string(activation) +
           " is not one cuBLASLt computes";
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
  if (biasm) {
    Matrix bias{biasm->desc, biasm->rank};
    if (bias.rank != 1 || bias.sizes()[0] != n)
      return "matmul_epilogue: the bias is not a vector of the output's "
             "last dim";
    if (k == 0)
      return "matmul_epilogue: a product over no elements is not supported "
             "on the GPU yet";
    return epilogueProducts({opB, opA, n, m, k, ldb, lda, ldc}, w.data(),
                            a.data(), c.data(), bias.data(), bias.strides()[0],
                            activation, batch, inner, currentCudaStream(),
                            currentCallAllowsTf32());
  }
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
