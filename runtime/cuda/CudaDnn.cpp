//===- CudaDnn.cpp - conv2d on the GPU through cuDNN ----------------------===//
//
// cuDNN is loaded with dlopen, as cuBLAS and the driver are: the runtime
// links no CUDA library. Its version 9 still exports the descriptor API
// (cudnnConvolutionForward and its helpers) from libcudnn.so.9, which
// takes any element strides for the input and output, as kiln's memref
// descriptors give them, so nothing is copied on the way in or out. Only
// the filter must be dense NCHW; a weight view that is not (rare: weights
// come from the archive dense) is first copied dense with
// cudnnTransformTensor.
//
// The arithmetic is f32 with FMA math (CUDNN_FMA_MATH): no TF32, as
// `torch.backends.cudnn.allow_tf32 = False` asks of PyTorch; an archive
// compiled with --allow-tf32 lets cuDNN use TF32 tensor cores
// (CUDNN_TENSOR_OP_MATH), as PyTorch's default does. The algorithm
// is cuDNN's heuristic first choice (cudnnGetConvolutionForwardAlgorithm_v7),
// as PyTorch picks it with `torch.backends.cudnn.benchmark = False`.
// Descriptors and the choice are made once per shape, strides and
// parameters and kept for the life of the process; the workspace comes
// from the call's stream-ordered memory pool.
//
//===----------------------------------------------------------------------===//

#include "CudaDnn.h"

#include "ConvShape.h"
#include "CudaDriver.h"
#include "CudaModel.h"
#include "DynamicLibrary.h"
#include "MemrefView.h"

#include <climits>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace kiln {

namespace {

using Handle = struct cudnnContext *;
using TensorDesc = struct cudnnTensorStruct *;
using FilterDesc = struct cudnnFilterStruct *;
using ConvDesc = struct cudnnConvolutionStruct *;
using Status = int; // cudnnStatus_t; 0 is CUDNN_STATUS_SUCCESS
constexpr int kFloat = 0;            // CUDNN_DATA_FLOAT
constexpr int kNchw = 0;             // CUDNN_TENSOR_NCHW
constexpr int kCrossCorrelation = 1; // CUDNN_CROSS_CORRELATION: torch's conv
constexpr int kFmaMath = 3;          // CUDNN_FMA_MATH: no TF32
constexpr int kTensorOpMath = 1;     // CUDNN_TENSOR_OP_MATH: TF32 for f32
constexpr int kTensorOpConversion = 2;

/// cudnnConvolutionFwdAlgoPerf_t.
struct AlgoPerf {
  int algo;
  Status status;
  float time;
  size_t memory;
  int determinism;
  int mathType;
  int reserved[3];
};

struct Dnn {
  Status (*create)(Handle *);
  Status (*setStream)(Handle, cuda::Stream);
  const char *(*errorString)(Status);
  Status (*createTensor)(TensorDesc *);
  Status (*setTensor4d)(TensorDesc, int, int, int, int, int, int, int, int,
                        int);
  Status (*destroyTensor)(TensorDesc);
  Status (*transformTensor)(Handle, const void *, TensorDesc, const void *,
                            const void *, TensorDesc, void *);
  Status (*setTensor)(Handle, TensorDesc, void *, const void *);
  Status (*createFilter)(FilterDesc *);
  Status (*setFilter4d)(FilterDesc, int, int, int, int, int, int);
  Status (*destroyFilter)(FilterDesc);
  Status (*createConv)(ConvDesc *);
  Status (*setConv2d)(ConvDesc, int, int, int, int, int, int, int, int);
  Status (*setGroupCount)(ConvDesc, int);
  Status (*setMathType)(ConvDesc, int);
  Status (*destroyConv)(ConvDesc);
  Status (*algorithms)(Handle, TensorDesc, FilterDesc, ConvDesc, TensorDesc,
                       int, int *, AlgoPerf *);
  Status (*workspaceSize)(Handle, TensorDesc, FilterDesc, ConvDesc,
                          TensorDesc, int, size_t *);
  Status (*forward)(Handle, const void *, TensorDesc, const void *,
                    FilterDesc, const void *, ConvDesc, int, void *, size_t,
                    const void *, TensorDesc, void *);
  std::string error;
};

const Dnn &dnn() {
  static Dnn d;
  static std::once_flag once;
  std::call_once(once, [] {
    void *lib =
        openFirst({"libcudnn.so.9", "/usr/local/cuda/lib64/libcudnn.so.9"});
    if (!lib) {
      d.error = "conv2d on the GPU needs cuDNN 9 (libcudnn.so.9), which is "
                "not on the library path";
      return;
    }
    bool ok =
        resolve(lib, "cudnnCreate", d.create) &&
        resolve(lib, "cudnnSetStream", d.setStream) &&
        resolve(lib, "cudnnGetErrorString", d.errorString) &&
        resolve(lib, "cudnnCreateTensorDescriptor", d.createTensor) &&
        resolve(lib, "cudnnSetTensor4dDescriptorEx", d.setTensor4d) &&
        resolve(lib, "cudnnDestroyTensorDescriptor", d.destroyTensor) &&
        resolve(lib, "cudnnTransformTensor", d.transformTensor) &&
        resolve(lib, "cudnnSetTensor", d.setTensor) &&
        resolve(lib, "cudnnCreateFilterDescriptor", d.createFilter) &&
        resolve(lib, "cudnnSetFilter4dDescriptor", d.setFilter4d) &&
        resolve(lib, "cudnnDestroyFilterDescriptor", d.destroyFilter) &&
        resolve(lib, "cudnnCreateConvolutionDescriptor", d.createConv) &&
        resolve(lib, "cudnnSetConvolution2dDescriptor", d.setConv2d) &&
        resolve(lib, "cudnnSetConvolutionGroupCount", d.setGroupCount) &&
        resolve(lib, "cudnnSetConvolutionMathType", d.setMathType) &&
        resolve(lib, "cudnnDestroyConvolutionDescriptor", d.destroyConv) &&
        resolve(lib, "cudnnGetConvolutionForwardAlgorithm_v7",
                d.algorithms) &&
        resolve(lib, "cudnnGetConvolutionForwardWorkspaceSize",
                d.workspaceSize) &&
        resolve(lib, "cudnnConvolutionForward", d.forward);
    if (!ok)
      d.error = "the cuDNN found lacks its convolution API "
                "(cudnnConvolutionForward and its descriptors)";
  });
  return d;
}

std::string failure(const Dnn &d, const char *what, Status s) {
  return std::string("conv2d: ") + what + " failed: " + d.errorString(s);
}

/// This thread's cuDNN handle, bound to `stream`.
Handle threadHandle(const Dnn &d, cuda::Stream stream, std::string &error) {
  thread_local Handle handle = nullptr;
  if (!handle) {
    if (Status s = d.create(&handle); s != 0) {
      error = failure(d, "cudnnCreate", s);
      handle = nullptr;
      return nullptr;
    }
  }
  if (Status s = d.setStream(handle, stream); s != 0) {
    error = failure(d, "cudnnSetStream", s);
    return nullptr;
  }
  return handle;
}

bool isDense(const View &v) {
  int64_t expected = 1;
  for (int64_t d = 3; d >= 0; --d) {
    if (v.sizes[d] != 1 && v.strides[d] != expected)
      return false;
    expected *= v.sizes[d];
  }
  return true;
}

/// The descriptors and algorithm of one convolution's shapes, strides and
/// parameters.
struct Plan {
  const Dnn &d;
  TensorDesc in = nullptr, out = nullptr, weight = nullptr, dense = nullptr;
  FilterDesc filter = nullptr;
  ConvDesc conv = nullptr;
  bool weightDense = true;
  int algo = 0;
  size_t workspace = 0;

  explicit Plan(const Dnn &d) : d(d) {}
  ~Plan() {
    for (TensorDesc t : {in, out, weight, dense})
      if (t)
        d.destroyTensor(t);
    if (filter)
      d.destroyFilter(filter);
    if (conv)
      d.destroyConv(conv);
  }
};

Status describe(const Dnn &d, TensorDesc &desc, const View &v) {
  Status s = d.createTensor(&desc);
  return s ? s
           : d.setTensor4d(desc, kFloat, int(v.sizes[0]), int(v.sizes[1]),
                           int(v.sizes[2]), int(v.sizes[3]),
                           int(v.strides[0]), int(v.strides[1]),
                           int(v.strides[2]), int(v.strides[3]));
}

std::string buildPlan(Handle h, Plan &p, const View &in, const View &w,
                      const View &out, const ConvParams &c, bool tf32) {
  const Dnn &d = p.d;
  Status s;
  if ((s = describe(d, p.in, in)) || (s = describe(d, p.out, out)))
    return failure(d, "describing a tensor", s);
  p.weightDense = isDense(w);
  if (!p.weightDense) {
    View dense = w;
    dense.strides = {w.sizes[1] * w.sizes[2] * w.sizes[3],
                     w.sizes[2] * w.sizes[3], w.sizes[3], 1};
    if ((s = describe(d, p.weight, w)) || (s = describe(d, p.dense, dense)))
      return failure(d, "describing the weight", s);
  }
  if ((s = d.createFilter(&p.filter)) ||
      (s = d.setFilter4d(p.filter, kFloat, kNchw, int(w.sizes[0]),
                         int(w.sizes[1]), int(w.sizes[2]), int(w.sizes[3]))))
    return failure(d, "describing the weight", s);
  if ((s = d.createConv(&p.conv)) ||
      (s = d.setConv2d(p.conv, int(c.padH), int(c.padW), int(c.strideH),
                       int(c.strideW), int(c.dilationH), int(c.dilationW),
                       kCrossCorrelation, kFloat)) ||
      (s = d.setGroupCount(p.conv, int(c.groups))) ||
      (s = d.setMathType(p.conv, tf32 ? kTensorOpMath : kFmaMath)))
    return failure(d, "describing the convolution", s);
  AlgoPerf choices[8];
  int count = 0;
  if ((s = d.algorithms(h, p.in, p.filter, p.conv, p.out, 8, &count,
                        choices)))
    return failure(d, "choosing an algorithm", s);
  for (int i = 0; i < count; ++i) {
    const AlgoPerf &choice = choices[i];
    // The heuristics may still offer a tensor-core (TF32) algorithm.
    if (choice.status != 0 ||
        (!tf32 && (choice.mathType == kTensorOpMath ||
                   choice.mathType == kTensorOpConversion)))
      continue;
    if (d.workspaceSize(h, p.in, p.filter, p.conv, p.out, choice.algo,
                        &p.workspace) != 0)
      continue;
    p.algo = choice.algo;
    return "";
  }
  return tf32 ? "conv2d: cuDNN has no f32 algorithm for these shapes"
              : "conv2d: cuDNN has no f32 algorithm without TF32 for these "
                "shapes";
}

/// Plans live as long as the process: they are kept in a map that is never
/// destroyed, so that no cuDNN call runs while the process exits, after
/// the driver may have gone.
std::shared_ptr<const Plan> planFor(Handle h, const Dnn &d, const View &in,
                                    const View &w, const View &out,
                                    const ConvParams &c, bool tf32,
                                    std::string &error) {
  static std::mutex mutex;
  static auto *plans =
      new std::map<std::vector<int64_t>, std::shared_ptr<const Plan>>();
  std::vector<int64_t> key = {c.strideH,   c.strideW,   c.padH,
                              c.padW,      c.dilationH, c.dilationW,
                              c.groups,    tf32};
  for (const View *v : {&in, &w, &out}) {
    key.insert(key.end(), v->sizes.begin(), v->sizes.end());
    key.insert(key.end(), v->strides.begin(), v->strides.end());
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto found = plans->find(key); found != plans->end())
      return found->second;
  }
  auto plan = std::make_shared<Plan>(d);
  error = buildPlan(h, *plan, in, w, out, c, tf32);
  if (!error.empty())
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  return plans->emplace(std::move(key), std::move(plan)).first->second;
}

/// "" when every size, stride and parameter fits cuDNN's int.
std::string checkIntRange(std::initializer_list<const View *> views,
                          const ConvParams &c) {
  bool fits = true;
  for (const View *v : views)
    for (size_t i = 0; i < 4; ++i)
      fits = fits && v->sizes[i] <= INT_MAX && v->strides[i] <= INT_MAX &&
             v->strides[i] >= 0;
  for (int64_t param : {c.strideH, c.strideW, c.padH, c.padW, c.dilationH,
                        c.dilationW, c.groups})
    fits = fits && param <= INT_MAX;
  return fits ? "" : "conv2d: a size, stride or parameter over 2^31 - 1, "
                     "more than cuDNN takes";
}

/// Device scratch on the call's stream, freed when it goes out of scope.
struct Scratch {
  const cuda::Driver &driver;
  cuda::Stream stream;
  cuda::DevicePtr ptr = 0;
  ~Scratch() {
    if (ptr)
      driver.memFreeAsync(ptr, stream);
  }
  bool allocate(size_t bytes) {
    return bytes == 0 || driver.memAllocAsync(&ptr, bytes, stream) == 0;
  }
  void *get() const { return reinterpret_cast<void *>(ptr); }
};

/// out = conv2d(in, w) on `stream`, through `plan`'s choice; what
/// cudaConv2d does after its checks.
std::string convolve(const Dnn &d, Handle h, cuda::Stream stream, bool tf32,
                     const View &in, const View &w, const View &out,
                     const ConvParams &c) {
  std::string error;
  std::shared_ptr<const Plan> plan = planFor(h, d, in, w, out, c, tf32, error);
  if (!plan)
    return error;
  const cuda::Driver *driver = cuda::driver(error);
  if (!driver)
    return "conv2d: " + error;
  Scratch workspace{*driver, stream}, weight{*driver, stream};
  const float one = 1.0f, zero = 0.0f;
  Status s;
  const void *filter = w.data;
  if (!plan->weightDense) {
    if (!weight.allocate(w.sizes[0] * w.sizes[1] * w.sizes[2] * w.sizes[3] *
                         sizeof(float)))
      return "conv2d: out of GPU memory for a dense copy of the weight";
    if ((s = d.transformTensor(h, &one, plan->weight, w.data, &zero,
                               plan->dense, weight.get())))
      return failure(d, "copying the weight dense", s);
    filter = weight.get();
  }
  if (!workspace.allocate(plan->workspace))
    return "conv2d: out of GPU memory for cuDNN's workspace (" +
           std::to_string(plan->workspace) + " bytes)";
  if ((s = d.forward(h, &one, plan->in, in.data, plan->filter, filter,
                     plan->conv, plan->algo, workspace.get(), plan->workspace,
                     &zero, plan->out, out.data)))
    return failure(d, "cudnnConvolutionForward", s);
  return "";
}

} // namespace

std::string cudaConv2d(const kiln_unranked_memref &inputm,
                       const kiln_unranked_memref &weightm,
                       const kiln_unranked_memref &outm, const ConvParams &c,
                       int32_t dtype) {
  if (dtype != KILN_F32)
    return "conv2d: the GPU's conv2d takes f32 tensors for now";
  View in = viewOf(inputm, sizeof(float)), w = viewOf(weightm, sizeof(float)),
       out = viewOf(outm, sizeof(float));
  std::string error = checkConv2d(in.sizes, w.sizes, out.sizes, c);
  if (error.empty())
    error = checkIntRange({&in, &w, &out}, c);
  if (!error.empty())
    return error;
  for (int64_t size : out.sizes)
    if (size == 0)
      return "";
  const Dnn &d = dnn();
  if (!d.error.empty())
    return "conv2d: " + d.error;
  cuda::Stream stream = currentCudaStream();
  Handle h = threadHandle(d, stream, error);
  if (!h)
    return error;
  // A sum over no input channels is zero, as in torch (cuDNN takes no
  // filter of zero channels).
  if (in.sizes[1] == 0) {
    const float zero = 0.0f;
    TensorDesc desc = nullptr;
    Status s = describe(d, desc, out);
    if (!s)
      s = d.setTensor(h, desc, out.data, &zero);
    if (desc)
      d.destroyTensor(desc);
    return s ? failure(d, "cudnnSetTensor", s) : "";
  }
  return convolve(d, h, stream, currentCallAllowsTf32(), in, w, out, c);
}

std::string prepareCudnn(void *stream, bool tf32) {
  const Dnn &d = dnn();
  if (!d.error.empty())
    return d.error;
  std::string error;
  auto s = static_cast<cuda::Stream>(stream);
  Handle h = threadHandle(d, s, error);
  const cuda::Driver *driver = h ? cuda::driver(error) : nullptr;
  if (!driver)
    return error;
  // One convolution of a single element, on scratch of the pool: cuDNN
  // loads its engine libraries and heuristics at its first convolution,
  // which the load then pays for instead of the first call. It only saves
  // time: should it fail, the model's own convolutions report their errors.
  Scratch scratch{*driver, s};
  if (scratch.allocate(3 * sizeof(float))) {
    auto *f = static_cast<float *>(scratch.get());
    View in{{1, 1, 1, 1}, {1, 1, 1, 1}, f}, w = in, out = in;
    w.data = f + 1;
    out.data = f + 2;
    convolve(d, h, s, tf32, in, w, out, ConvParams{1, 1, 0, 0, 1, 1, 1});
  }
  return "";
}

} // namespace kiln
