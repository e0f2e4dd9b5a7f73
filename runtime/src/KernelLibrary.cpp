//===- KernelLibrary.cpp - GEMM and convolution through oneDNN ------------===//
//
// Compiled code hands its matrix products and convolutions to oneDNN, which
// outruns generated loops on them. A call describes each tensor to oneDNN
// with its dims and element strides as they are (a transposed weight view, a
// slice), so matmul copies nothing on the way in or out.
//
// Building a oneDNN primitive JIT-compiles a kernel and costs tens to
// hundreds of microseconds, so built primitives are cached, keyed by every
// dim, stride and parameter that shaped them; a call whose shapes were seen
// before only executes. One cache serves all threads. Its mutex is never
// held while a primitive is built or runs, so two threads may build the
// same one, and the first to finish keeps it. A cached primitive may run
// on several threads at once because every primitive uses the user
// scratchpad mode: each execution gets its temporary memory from a buffer
// of the calling thread. (oneDNN's default library-managed scratchpad is
// shared by all primitives, which then must run on the thread that built
// them.)
//
// A warm matmul allocates nothing of its own: the thread's views, cache key,
// oneDNN memory objects and argument map are reused, the memory objects
// pointed at each call's data (boundFor). oneDNN's execute still allocates
// its argument table.
//
// Convolution lets oneDNN choose its layouts (blocked, such as nChw16c) and
// reorders into and out of them: on common layers the blocked kernels beat
// the gemm-based ones for plain layouts by 1.2x (3x3) to 4x (depthwise),
// more than the reorders cost.
//
// A size of zero never reaches oneDNN, which divides by it. An empty output
// is left alone, and a sum over nothing (K == 0, or zero input channels)
// writes zeros, as torch does.
//
// Every failure (a shape that breaks abi.h's contract, an unsupported
// dtype, an exception from oneDNN, out of memory) becomes a message, and
// the host functions at the bottom raise it at the caller's site once
// nothing with a destructor is left in their frame (see HostCall.h).
//
//===----------------------------------------------------------------------===//

#include "KernelLibrary.h"

#include "MemrefView.h"

#include "ConvShape.h"
#include "CudaBlas.h"
#include "CudaDnn.h"
#include "CudaModel.h"
#include "ThreadPool.h"
#include "HostCall.h"

#include "kiln/Tensor.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <list>
#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>

namespace kiln {
namespace {

using dnnl::memory;
using Dims = memory::dims;

//===----------------------------------------------------------------------===//
// Tensors as compiled code passes them
//===----------------------------------------------------------------------===//

/// The element count of `sizes` by the runtime's one rule (checkedByteSize),
/// or -1 for a shape that no tensor can have.
int64_t numel(const Dims &sizes) {
  uint64_t n;
  return checkedByteSize(sizes.data(), sizes.size(), 1, n)
             ? static_cast<int64_t>(n)
             : -1;
}

/// "" when every view has a shape a tensor can have, so that no size or
/// offset computed from them wraps; otherwise the error of `op`.
std::string checkExtents(const char *op,
                         std::initializer_list<const View *> views) {
  for (const View *view : views)
    if (numel(view->sizes) < 0)
      return std::string(op) + ": shape " + shapeText(view->sizes) +
             " is negative or too large";
  return "";
}

/// Zeros every element of `view`; zero is all-zero bits in f32 and bf16.
void fillZero(const View &view, size_t element) {
  int64_t rank = static_cast<int64_t>(view.sizes.size());
  int64_t count = numel(view.sizes);
  Dims index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * view.strides[d];
    std::memset(static_cast<uint8_t *>(view.data) + offset * element, 0,
                element);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < view.sizes[d])
        break;
      index[d] = 0;
    }
  }
}

/// Gives each size-1 dim of `view` the stride a dense row-major tensor
/// would have. Such a dim never moves the address, so its stride is
/// arbitrary, and producers leave all sorts there (0 after an expand). But
/// oneDNN picks its fast kernels only for layouts it recognizes as plain,
/// and equal strides let equal shapes share a cache entry.
void canonicalizeStrides(View &view) {
  for (int64_t d = static_cast<int64_t>(view.sizes.size()) - 1; d >= 0; --d) {
    if (view.sizes[d] != 1)
      continue;
    int64_t extent = 1;
    for (size_t e = d + 1; e < view.sizes.size(); ++e)
      extent = std::max(extent, view.sizes[e] * view.strides[e]);
    view.strides[d] = extent;
  }
}

std::string typeName(int32_t dtype) {
  if (dtype >= KILN_F32 && dtype <= KILN_BOOL)
    return std::string(dtypeName(static_cast<DType>(dtype)));
  return "dtype " + std::to_string(dtype);
}

/// oneDNN's type for `dtype`; false for a type the library does not take.
bool dataType(int32_t dtype, memory::data_type &type) {
  switch (dtype) {
  case KILN_F32:
    type = memory::data_type::f32;
    return true;
  case KILN_BF16:
    type = memory::data_type::bf16;
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// oneDNN state shared by all calls
//===----------------------------------------------------------------------===//

/// A primitive and the scratchpad memory one execution of it needs.
struct Step {
  dnnl::primitive primitive; // empty for a step that is not needed
  memory::desc scratchpad;
};

/// Every primitive is built with this: see the file comment.
dnnl::primitive_attr userScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

using Key = std::vector<int64_t>;

struct KeyHash {
  size_t operator()(const Key &key) const {
    size_t hash = key.size();
    for (int64_t value : key)
      hash = hash * 1000003u ^ std::hash<int64_t>()(value);
    return hash;
  }
};

/// Plans built by every cache since the process started
/// (kernelPrimitivesBuilt), and weights packed (kernelWeightsPacked).
std::atomic<uint64_t> plansBuilt{0};
std::atomic<uint64_t> weightsPacked{0};

/// Plans (primitives and what running them needs) by key. It holds at most
/// Capacity and drops the least recently used first, since dynamic shapes
/// could otherwise grow it without bound. Plans are shared, so one that is
/// dropped while another thread runs it lives until that run ends.
template <typename Plan> class PlanCache {
public:
  /// The plan for `key`, built by `build()` on a miss without holding the
  /// lock.
  template <typename Build>
  std::shared_ptr<const Plan> get(const Key &key, Build build) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto found = index.find(key);
      if (found != index.end()) {
        order.splice(order.begin(), order, found->second);
        return found->second->second;
      }
    }
    auto plan = std::make_shared<const Plan>(build());
    plansBuilt.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(mutex);
    auto found = index.find(key);
    if (found != index.end())
      return found->second->second; // another thread built it first
    order.emplace_front(key, plan);
    index.emplace(key, order.begin());
    if (order.size() > Capacity) {
      index.erase(order.back().first);
      order.pop_back();
    }
    return plan;
  }

private:
  /// As many as oneDNN's own primitive cache holds by default.
  static constexpr size_t Capacity = 1024;
  using Entry = std::pair<Key, std::shared_ptr<const Plan>>;
  std::mutex mutex;
  std::list<Entry> order; // most recently used first
  std::unordered_map<Key, typename std::list<Entry>::iterator, KeyHash> index;
};

struct MatmulPlan {
  Step step;
  memory::desc a, b, out;
  memory::desc bias; // zero-sized without an epilogue
  /// For a model's weight b: the layout the product reads it in, and the
  /// reorder that packs it there (empty when b already is).
  memory::desc packed;
  Step pack;
};

struct ConvPlan {
  Step conv;
  /// Reorders into and out of the layouts the convolution chose; empty
  /// where the caller's layout is already that layout.
  Step toInput, toWeight, fromOut;
  memory::desc input, weight, out;                // the caller's layouts
  memory::desc innerInput, innerWeight, innerOut; // the convolution's
  /// Where each part lives in the calling thread's scratch buffer.
  size_t scratchpadBytes = 0;
  size_t innerInputAt = 0, innerWeightAt = 0, innerOutAt = 0, totalBytes = 0;
};

/// Built on first use; members die in reverse order, so every cached
/// primitive is destroyed before the engine it was built for.
struct Library {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  PlanCache<MatmulPlan> matmuls;
  PlanCache<ConvPlan> convs;
};

Library &library() {
  // If building the engine throws, the next call tries again.
  static Library instance;
  return instance;
}

/// One stream per thread, so concurrent calls never share one.
dnnl::stream &threadStream() {
  thread_local dnnl::stream stream(library().engine);
  return stream;
}

/// The calling thread's scratch memory: primitives' scratchpads and the
/// copies convolution reorders into. It keeps its largest size, so a
/// thread that repeats a call allocates nothing.
class Scratch {
public:
  Scratch() = default;
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  ~Scratch() { std::free(data); }

  uint8_t *reserve(size_t bytes) {
    if (bytes <= capacity)
      return data;
    size_t size = alignUp(bytes);
    void *grown = std::aligned_alloc(64, size);
    if (!grown)
      throw std::bad_alloc();
    std::free(data);
    data = static_cast<uint8_t *>(grown);
    capacity = size;
    return data;
  }

  static size_t alignUp(size_t bytes) { return (bytes + 63) / 64 * 64; }

private:
  uint8_t *data = nullptr;
  size_t capacity = 0;
};

uint8_t *threadScratch(size_t bytes) {
  thread_local Scratch scratch;
  return scratch.reserve(bytes);
}

Step makeReorder(const memory::desc &from, const memory::desc &to) {
  const dnnl::engine &engine = library().engine;
  dnnl::reorder::primitive_desc pd(engine, from, engine, to, userScratchpad());
  return {dnnl::reorder(pd), pd.scratchpad_desc()};
}

/// Runs `step` on the calling thread, giving it the scratchpad at
/// `scratchpad`.
void run(const Step &step, std::unordered_map<int, memory> args,
         uint8_t *scratchpad) {
  if (step.scratchpad.get_size() > 0)
    args.emplace(DNNL_ARG_SCRATCHPAD,
                 memory(step.scratchpad, library().engine, scratchpad));
  step.primitive.execute(threadStream(), args);
}

memory bind(const memory::desc &desc, void *data) {
  return memory(desc, library().engine, data);
}

/// Appends the sizes and strides of each view to `key`.
void appendViews(Key &key, std::initializer_list<const View *> views) {
  for (const View *view : views) {
    key.push_back(static_cast<int64_t>(view->sizes.size()));
    key.insert(key.end(), view->sizes.begin(), view->sizes.end());
    key.insert(key.end(), view->strides.begin(), view->strides.end());
  }
}

//===----------------------------------------------------------------------===//
// Weights packed once
//===----------------------------------------------------------------------===//

/// Whether `data` is a weight of the running call's model: it lies in the
/// archive's mapping, which nothing writes while the model lives.
bool isModelWeight(const void *data) {
  const MappedFile &archive = callModel().archive;
  auto *at = static_cast<const uint8_t *>(data);
  return archive.data && at >= archive.data &&
         at < archive.data + archive.size;
}

enum class PackedKind : int64_t { MatmulWeight = -1, ConvWeight = -2 };

/// The running model's copy of the weight at `data` as `reorder` (into
/// `packed`, from `plain`) makes it for the plan of `key`: made by the
/// first call that asks (PackedWeights). The plan's key is part of its
/// own, since a weight may be read in two layouts (two batch sizes may
/// pick two kernels).
void *packedWeight(PackedKind kind, const Key &key, void *data,
                   const Step &reorder, const memory::desc &plain,
                   const memory::desc &packed) {
  thread_local Key packKey;
  packKey.assign(1, static_cast<int64_t>(kind));
  packKey.insert(packKey.end(), key.begin(), key.end());
  packKey.push_back(reinterpret_cast<intptr_t>(data));
  const void *copy = callModel().packedWeights.get(
      packKey, packed.get_size(), [&](void *buffer) {
        run(reorder,
            {{DNNL_ARG_FROM, bind(plain, data)},
             {DNNL_ARG_TO, bind(packed, buffer)}},
            threadScratch(reorder.scratchpad.get_size()));
        threadStream().wait();
        weightsPacked.fetch_add(1, std::memory_order_relaxed);
      });
  return const_cast<void *>(copy);
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

/// "" if a, b and out have the shapes abi.h's matmul contract allows, or
/// what is wrong with them.
std::string checkMatmul(const Dims &a, const Dims &b, const Dims &out) {
  size_t rank = out.size();
  // Only on a failure: a call that fits allocates nothing here.
  auto shapes = [&] { return shapeText(a) + " and " + shapeText(b); };
  if (rank < 2 || a.size() != rank || b.size() != rank)
    return "matmul: operands " + shapes() + " and output " + shapeText(out) +
           " must have one rank of at least 2";
  if (rank > DNNL_MAX_NDIMS)
    return "matmul: rank " + std::to_string(rank) + " exceeds oneDNN's " +
           std::to_string(DNNL_MAX_NDIMS);
  bool fits = a[rank - 1] == b[rank - 2] && out[rank - 2] == a[rank - 2] &&
              out[rank - 1] == b[rank - 1];
  for (size_t d = 0; d + 2 < rank; ++d)
    fits =
        fits && (a[d] == 1 || a[d] == out[d]) && (b[d] == 1 || b[d] == out[d]);
  if (!fits)
    return "matmul: shapes " + shapes() + " cannot be multiplied into " +
           shapeText(out);
  return "";
}

/// A matmul's epilogue (kiln/abi.h's matmul_epilogue): a bias of out's
/// last dim and an activation; `bias` is null for plain matmul.
struct MatmulEpilogue {
  const View *bias = nullptr;
  int32_t activation = KILN_ACTIVATION_NONE;
};

/// oneDNN's post-op for `activation`, which must compute it as PyTorch
/// does, NaN included: its relu (max with 0) maps NaN to 0, so relu is not
/// one (codegen/lowering/LibraryEpilogues.cpp keeps it in generated code).
bool postOp(int32_t activation, dnnl::algorithm &algorithm) {
  switch (activation) {
  case KILN_ACTIVATION_TANH:
    algorithm = dnnl::algorithm::eltwise_tanh;
    return true;
  case KILN_ACTIVATION_SIGMOID:
    algorithm = dnnl::algorithm::eltwise_logistic;
    return true;
  default:
    return false;
  }
}

/// With `packWeights`, the product reads b in the layout oneDNN prefers,
/// into which the plan's `pack` reorders it.
MatmulPlan buildMatmul(const View &a, const View &b, const View &out,
                       const MatmulEpilogue &epilogue, bool packWeights,
                       memory::data_type type) {
  MatmulPlan plan;
  plan.a = memory::desc(a.sizes, type, a.strides);
  plan.b = memory::desc(b.sizes, type, b.strides);
  memory::desc weights =
      packWeights ? memory::desc(b.sizes, type, memory::format_tag::any)
                  : plan.b;
  plan.out = memory::desc(out.sizes, type, out.strides);
  dnnl::primitive_attr attr = userScratchpad();
  if (epilogue.bias) {
    // The bias as a 1 x ... x 1 x N tensor that oneDNN broadcasts.
    size_t rank = out.sizes.size();
    Dims sizes(rank, 1), strides(rank, 0);
    sizes.back() = epilogue.bias->sizes[0];
    strides.back() = epilogue.bias->strides[0];
    for (size_t d = 0; d + 1 < rank; ++d)
      strides[d] = std::max<int64_t>(sizes.back() * strides.back(), 1);
    plan.bias = memory::desc(sizes, type, strides);
  }
  dnnl::algorithm activation;
  if (postOp(epilogue.activation, activation)) {
    dnnl::post_ops ops;
    ops.append_eltwise(1.0f, activation, 0.0f, 0.0f);
    attr.set_post_ops(ops);
  }
  dnnl::matmul::desc desc =
      epilogue.bias ? dnnl::matmul::desc(plan.a, weights, plan.bias, plan.out)
                    : dnnl::matmul::desc(plan.a, weights, plan.out);
  dnnl::matmul::primitive_desc pd(desc, attr, library().engine);
  plan.step = {dnnl::matmul(pd), pd.scratchpad_desc()};
  plan.packed = pd.weights_desc();
  if (packWeights && plan.packed != plan.b)
    plan.pack = makeReorder(plan.b, plan.packed);
  return plan;
}

/// The calling thread's oneDNN memory objects for one plan's operands and
/// the argument map that names them. Making a memory object allocates, and
/// so does a map, so a warm call only points them at its data
/// (set_data_handle). A few plans per thread are kept, the oldest replaced.
struct BoundMatmul {
  std::shared_ptr<const MatmulPlan> plan;
  memory a, b, out, bias, scratchpad;
  std::unordered_map<int, memory> args;
};

BoundMatmul &boundFor(const std::shared_ptr<const MatmulPlan> &plan) {
  constexpr size_t kSlots = 8;
  thread_local std::array<BoundMatmul, kSlots> slots;
  thread_local size_t next = 0;
  for (BoundMatmul &slot : slots)
    if (slot.plan == plan)
      return slot;
  BoundMatmul &slot = slots[next++ % kSlots];
  slot.plan = plan;
  slot.a = bind(plan->a, nullptr);
  slot.b = bind(plan->packed, nullptr);
  slot.out = bind(plan->out, nullptr);
  slot.args = {{DNNL_ARG_SRC, slot.a},
               {DNNL_ARG_WEIGHTS, slot.b},
               {DNNL_ARG_DST, slot.out}};
  if (plan->bias.get_size() > 0) {
    slot.bias = bind(plan->bias, nullptr);
    slot.args.emplace(DNNL_ARG_BIAS, slot.bias);
  }
  if (plan->step.scratchpad.get_size() > 0) {
    slot.scratchpad = bind(plan->step.scratchpad, nullptr);
    slot.args.emplace(DNNL_ARG_SCRATCHPAD, slot.scratchpad);
  }
  return slot;
}

/// out = activation(bias) for a product that sums nothing (K == 0).
void fillEpilogue(const View &out, const View &bias, int32_t activation) {
  int64_t rank = static_cast<int64_t>(out.sizes.size());
  int64_t count = numel(out.sizes);
  Dims index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * out.strides[d];
    float value = static_cast<const float *>(
        bias.data)[index[rank - 1] * bias.strides[0]];
    if (activation == KILN_ACTIVATION_TANH)
      value = std::tanh(value);
    else if (activation == KILN_ACTIVATION_SIGMOID)
      value = 1.0f / (1.0f + std::exp(-value));
    static_cast<float *>(out.data)[offset] = value;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < out.sizes[d])
        break;
      index[d] = 0;
    }
  }
}

/// "" if `bias` and `activation` are an epilogue that the CPU's library
/// computes for an f32 product into `out`, or what is wrong with them.
std::string checkEpilogue(const View &bias, const View &out,
                          int32_t activation, int32_t dtype) {
  dnnl::algorithm unused;
  if (activation != KILN_ACTIVATION_NONE && !postOp(activation, unused))
    return "matmul_epilogue: activation " + std::to_string(activation) +
           " is not one the CPU's library computes";
  if (dtype != KILN_F32)
    return "matmul_epilogue: the bias is added to f32 products only, not " +
           typeName(dtype);
  if (bias.sizes.size() != 1 || bias.sizes[0] != out.sizes.back())
    return "matmul_epilogue: bias " + shapeText(bias.sizes) +
           " is not a vector of the output's last dim, " +
           std::to_string(out.sizes.back());
  return "";
}

std::string matmul(const kiln_unranked_memref &am,
                   const kiln_unranked_memref &bm,
                   const kiln_unranked_memref *biasm,
                   const kiln_unranked_memref &outm, int32_t activation,
                   int32_t dtype) {
  memory::data_type type;
  if (!dataType(dtype, type))
    return "matmul: the kernel library takes f32 or bf16, not " +
           typeName(dtype);
  size_t element = memory::data_type_size(type);
  // The thread's views and key, reused: their vectors keep their memory.
  thread_local View a, b, out, bias;
  thread_local Key key;
  setView(a, am, element);
  setView(b, bm, element);
  setView(out, outm, element);
  if (biasm)
    setView(bias, *biasm, element);
  std::string error = checkExtents("matmul", {&a, &b, &out});
  if (error.empty())
    error = checkMatmul(a.sizes, b.sizes, out.sizes);
  if (error.empty() && biasm)
    error = checkExtents("matmul", {&bias});
  if (error.empty() && biasm)
    error = checkEpilogue(bias, out, activation, dtype);
  if (!error.empty() || numel(out.sizes) == 0)
    return error;
  if (a.sizes.back() == 0) {
    if (biasm)
      fillEpilogue(out, bias, activation);
    else
      fillZero(out, element);
    return "";
  }
  // A batch dim an operand broadcasts by stride 0 (an expand) becomes a
  // size-1 dim, which oneDNN broadcasts itself in its fast kernels; it runs
  // a stride of 0 only in its reference kernel.
  size_t rank = out.sizes.size();
  for (View *operand : {&a, &b})
    for (size_t d = 0; d + 2 < rank; ++d)
      if (operand->strides[d] == 0)
        operand->sizes[d] = 1;
  for (View *view : {&a, &b, &out})
    canonicalizeStrides(*view);
  // oneDNN reads a bias as dense whatever its strides say: a strided one
  // (a slice) is copied.
  thread_local std::vector<float> denseBias;
  if (biasm && bias.sizes[0] > 1 && bias.strides[0] != 1) {
    denseBias.resize(bias.sizes[0]);
    for (int64_t i = 0; i < bias.sizes[0]; ++i)
      denseBias[i] =
          static_cast<const float *>(bias.data)[i * bias.strides[0]];
    bias.data = denseBias.data();
  }
  if (biasm)
    bias.strides[0] = 1;

  // A weight of the model is packed once.
  bool packWeights = isModelWeight(b.data);
  key.assign(1, dtype);
  key.push_back(packWeights);
  appendViews(key, {&a, &b, &out});
  MatmulEpilogue epilogue;
  if (biasm) {
    epilogue = {&bias, activation};
    key.push_back(activation);
  }
  std::shared_ptr<const MatmulPlan> plan = library().matmuls.get(
      key, [&] { return buildMatmul(a, b, out, epilogue, packWeights, type); });
  void *weights = b.data;
  if (plan->pack.primitive)
    weights = packedWeight(PackedKind::MatmulWeight, key, b.data, plan->pack,
                           plan->b, plan->packed);
  BoundMatmul &bound = boundFor(plan);
  bound.a.set_data_handle(a.data);
  bound.b.set_data_handle(weights);
  bound.out.set_data_handle(out.data);
  if (bound.bias)
    bound.bias.set_data_handle(bias.data);
  if (bound.scratchpad)
    bound.scratchpad.set_data_handle(
        threadScratch(plan->step.scratchpad.get_size()));
  plan->step.primitive.execute(threadStream(), bound.args);
  threadStream().wait();
  return "";
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

/// Channels below which a convolution's input keeps its layout.
constexpr int64_t kFewChannels = 16;

/// Whether `view` is dense row-major (N x C x H x W as it lies).
bool isPlain(const View &view) {
  int64_t step = 1;
  for (int64_t d = static_cast<int64_t>(view.sizes.size()) - 1; d >= 0; --d) {
    if (view.sizes[d] != 1 && view.strides[d] != step)
      return false;
    step *= view.sizes[d];
  }
  return true;
}

/// With `plainInput`, the input is dense NCHW.
ConvPlan buildConv(const memory::desc &input, const memory::desc &weight,
                   const memory::desc &out, const ConvParams &p,
                   bool plainInput, memory::data_type type) {
  auto anyLayout = [&](const memory::desc &desc) {
    return memory::desc(desc.dims(), type, memory::format_tag::any);
  };
  // A dense NCHW input of fewer channels than a vector holds (an image's
  // three, or LeNet's one and six) is read as it lies: oneDNN then runs
  // its kernel for such layers, which reads the plain input and writes
  // blocked channels, at about twice the speed of the kernel it picks for
  // a layout of its choosing (channels last, at 1 and 2 threads; LeNet's
  // 64 x 1 x 32 x 32 layer: 100 against 192 us on one core). Other
  // strides might leave oneDNN only its reference kernel.
  bool fewChannels = plainInput && input.dims()[1] < kFewChannels;
  // oneDNN counts dilation from 0 (no gap), torch from 1.
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      fewChannels ? input : anyLayout(input), anyLayout(weight),
      anyLayout(out),
      {p.strideH, p.strideW}, {p.dilationH - 1, p.dilationW - 1},
      {p.padH, p.padW}, {p.padH, p.padW});
  dnnl::convolution_forward::primitive_desc pd(desc, userScratchpad(),
                                               library().engine);
  ConvPlan plan;
  plan.conv = {dnnl::convolution_forward(pd), pd.scratchpad_desc()};
  plan.input = input;
  plan.weight = weight;
  plan.out = out;
  plan.innerInput = pd.src_desc();
  plan.innerWeight = pd.weights_desc();
  plan.innerOut = pd.dst_desc();
  if (plan.innerInput != input)
    plan.toInput = makeReorder(input, plan.innerInput);
  if (plan.innerWeight != weight)
    plan.toWeight = makeReorder(weight, plan.innerWeight);
  if (plan.innerOut != out)
    plan.fromOut = makeReorder(plan.innerOut, out);

  // The steps run one after another, so they share one scratchpad.
  for (const Step *step :
       {&plan.conv, &plan.toInput, &plan.toWeight, &plan.fromOut})
    if (step->primitive)
      plan.scratchpadBytes =
          std::max(plan.scratchpadBytes, step->scratchpad.get_size());
  size_t at = Scratch::alignUp(plan.scratchpadBytes);
  auto place = [&](const Step &step, const memory::desc &desc) {
    size_t start = at;
    if (step.primitive)
      at += Scratch::alignUp(desc.get_size());
    return start;
  };
  plan.innerInputAt = place(plan.toInput, plan.innerInput);
  plan.innerWeightAt = place(plan.toWeight, plan.innerWeight);
  plan.innerOutAt = place(plan.fromOut, plan.innerOut);
  plan.totalBytes = at;
  return plan;
}

/// The weight as oneDNN takes it: O x C/groups x KH x KW, or with groups
/// the 5-d groups x O/groups x C/groups x KH x KW (goihw).
memory::desc weightDesc(const View &w, int64_t groups, memory::data_type type) {
  if (groups == 1)
    return memory::desc(w.sizes, type, w.strides);
  Dims sizes = {groups, w.sizes[0] / groups, w.sizes[1], w.sizes[2],
                w.sizes[3]};
  Dims strides = {w.sizes[0] / groups * w.strides[0], w.strides[0],
                  w.strides[1], w.strides[2], w.strides[3]};
  return memory::desc(sizes, type, strides);
}

std::string conv2d(const kiln_unranked_memref &inputm,
                   const kiln_unranked_memref &weightm,
                   const kiln_unranked_memref &outm, const ConvParams &p,
                   int32_t dtype) {
  memory::data_type type;
  if (!dataType(dtype, type))
    return "conv2d: the kernel library takes f32 or bf16, not " +
           typeName(dtype);
  size_t element = memory::data_type_size(type);
  View in = viewOf(inputm, element), w = viewOf(weightm, element),
       out = viewOf(outm, element);
  std::string error = checkExtents("conv2d", {&in, &w, &out});
  if (error.empty())
    error = checkConv2d(in.sizes, w.sizes, out.sizes, p);
  if (!error.empty() || numel(out.sizes) == 0)
    return error;
  if (in.sizes[1] == 0) {
    fillZero(out, element);
    return "";
  }
  if (numel(in.sizes) == 0 || numel(w.sizes) == 0)
    return "conv2d: input " + shapeText(in.sizes) + " and weight " +
           shapeText(w.sizes) + " have an empty spatial dim";
  for (View *view : {&in, &w, &out})
    canonicalizeStrides(*view);

  Key key = {dtype,  p.strideH,   p.strideW,   p.padH,
             p.padW, p.dilationH, p.dilationW, p.groups};
  appendViews(key, {&in, &w, &out});
  std::shared_ptr<const ConvPlan> plan = library().convs.get(key, [&] {
    return buildConv(memory::desc(in.sizes, type, in.strides),
                     weightDesc(w, p.groups, type),
                     memory::desc(out.sizes, type, out.strides), p,
                     isPlain(in), type);
  });

  // A weight of the model is packed once, before the thread's scratch is
  // laid out (packing uses it too).
  bool packed = plan->toWeight.primitive && isModelWeight(w.data);
  memory weight =
      packed ? bind(plan->innerWeight,
                    packedWeight(PackedKind::ConvWeight, key, w.data,
                                 plan->toWeight, plan->weight,
                                 plan->innerWeight))
             : bind(plan->weight, w.data);
  uint8_t *scratch = threadScratch(plan->totalBytes);
  memory input = bind(plan->input, in.data);
  memory result = bind(plan->out, out.data);
  if (plan->toInput.primitive) {
    memory inner = bind(plan->innerInput, scratch + plan->innerInputAt);
    run(plan->toInput, {{DNNL_ARG_FROM, input}, {DNNL_ARG_TO, inner}}, scratch);
    input = inner;
  }
  if (plan->toWeight.primitive && !packed) {
    memory inner = bind(plan->innerWeight, scratch + plan->innerWeightAt);
    run(plan->toWeight, {{DNNL_ARG_FROM, weight}, {DNNL_ARG_TO, inner}},
        scratch);
    weight = inner;
  }
  memory innerOut = plan->fromOut.primitive
                        ? bind(plan->innerOut, scratch + plan->innerOutAt)
                        : result;
  run(plan->conv,
      {{DNNL_ARG_SRC, input},
       {DNNL_ARG_WEIGHTS, weight},
       {DNNL_ARG_DST, innerOut}},
      scratch);
  if (plan->fromOut.primitive)
    run(plan->fromOut, {{DNNL_ARG_FROM, innerOut}, {DNNL_ARG_TO, result}},
        scratch);
  threadStream().wait();
  return "";
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// Runs `body`, turning any exception into the message it returns.
template <typename Body>
std::string guarded(const char *op, int32_t dtype, Body body) {
  try {
    return body();
  } catch (const dnnl::error &e) {
    if (e.status == dnnl_unimplemented)
      return std::string(op) + ": oneDNN has no " + typeName(dtype) +
             " kernel for these shapes on this cpu";
    return std::string(op) + ": oneDNN failed: " + e.what();
  } catch (const std::bad_alloc &) {
    return std::string(op) + ": out of memory";
  } catch (const std::exception &e) {
    return std::string(op) + ": " + e.what();
  }
}

/// Below this many multiply-adds a kernel runs on one thread: OpenMP's
/// fork and join (several microseconds) would cost more than the second
/// thread saves, as in the RNN's [8, 128] x [128, 128] steps.
constexpr int64_t kMinParallelMacs = int64_t(1) << 20;

/// The product of dims [begin, end) of `memref` (negative ones as 0),
/// times `factor`; saturates rather than wraps.
int64_t extentProduct(const kiln_unranked_memref &memref, int64_t begin,
                      int64_t end, int64_t factor = 1) {
  int64_t total = std::max<int64_t>(factor, 0);
  for (int64_t d = begin; d < end; ++d) {
    int64_t size = std::max<int64_t>(memref.desc->dims[d], 0);
    total = size > 0 && total > INT64_MAX / size ? INT64_MAX : total * size;
  }
  return total;
}

/// Gives oneDNN the call's thread count. Debian's oneDNN runs its kernels
/// on OpenMP's threads (libdnnl links libgomp), so the model's count
/// (LoadOptions, KILN_NUM_THREADS, else the cores) governs them too: one
/// policy for the process, where OMP_NUM_THREADS would be a second; a
/// small kernel stays on one thread. omp_set_num_threads sets the count of
/// the regions the calling thread starts, so it is set on every call.
/// kiln does not link OpenMP itself; the symbol is the one libgomp brought
/// into the process.
void useCallThreads(int64_t macs) {
  using SetThreads = void (*)(int);
  static const SetThreads setThreads = reinterpret_cast<SetThreads>(
      dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  if (setThreads)
    setThreads(macs < kMinParallelMacs ? 1 : callThreads());
  // Their OpenMP team needs the cores the pool's workers spin on.
  stopSpinning();
}

/// Stores a non-empty `message` as the call's error. The argument dies at
/// the end of the caller's condition, before the caller raises.
bool failed(std::string message) {
  if (message.empty())
    return false;
  setCallError(std::move(message));
  return true;
}

} // namespace

uint64_t kernelPrimitivesBuilt() {
  return plansBuilt.load(std::memory_order_relaxed);
}

uint64_t kernelWeightsPacked() {
  return weightsPacked.load(std::memory_order_relaxed);
}

const void *PackedWeights::get(const std::vector<int64_t> &key, size_t bytes,
                               const std::function<void(void *)> &pack) {
  std::lock_guard<std::mutex> lock(mutex);
  auto found = copies.find(key);
  if (found != copies.end())
    return found->second.get();
  std::unique_ptr<void, void (*)(void *)> copy(
      std::aligned_alloc(64, Scratch::alignUp(std::max<size_t>(bytes, 1))),
      std::free);
  if (!copy)
    throw std::bad_alloc();
  pack(copy.get());
  const void *data = copy.get();
  copies.emplace(key, std::move(copy));
  total += bytes;
  return data;
}

size_t PackedWeights::bytes() const {
  std::lock_guard<std::mutex> lock(mutex);
  return total;
}

void kernelMatmul(const kiln_unranked_memref *a, const kiln_unranked_memref *b,
                  const kiln_unranked_memref *out, int64_t site,
                  int32_t dtype) {
  // A CUDA archive's tensors are on the GPU: cuBLAS multiplies them.
  if (inCudaCall()) {
    if (failed(guarded("matmul", dtype,
                       [&] { return cudaMatmul(*a, *b, nullptr, *out, KILN_ACTIVATION_NONE, dtype); })))
      raiseCallError(site);
    return;
  }
  // Each output element sums K products, K being a's last dim.
  useCallThreads(extentProduct(*out, 0, out->rank,
                               extentProduct(*a, a->rank - 1, a->rank)));
  if (failed(guarded("matmul", dtype, [&] {
        return matmul(*a, *b, nullptr, *out, KILN_ACTIVATION_NONE, dtype);
      })))
    raiseCallError(site);
}

void kernelMatmulEpilogue(const kiln_unranked_memref *a,
                          const kiln_unranked_memref *b,
                          const kiln_unranked_memref *bias,
                          const kiln_unranked_memref *out, int32_t activation,
                          int64_t site, int32_t dtype) {
  // On the GPU, cuBLASLt applies the epilogue.
  if (inCudaCall()) {
    if (failed(guarded("matmul", dtype, [&] {
          return cudaMatmul(*a, *b, bias, *out, activation, dtype);
        })))
      raiseCallError(site);
    return;
  }
  useCallThreads(extentProduct(*out, 0, out->rank,
                               extentProduct(*a, a->rank - 1, a->rank)));
  if (failed(guarded("matmul", dtype, [&] {
        return matmul(*a, *b, bias, *out, activation, dtype);
      })))
    raiseCallError(site);
}

void kernelConv2d(const kiln_unranked_memref *input,
                  const kiln_unranked_memref *weight,
                  const kiln_unranked_memref *out, int64_t strideH,
                  int64_t strideW, int64_t padH, int64_t padW,
                  int64_t dilationH, int64_t dilationW, int64_t groups,
                  int64_t site, int32_t dtype) {
  ConvParams params = {strideH,   strideW,   padH,  padW,
                       dilationH, dilationW, groups};
  // A CUDA archive's tensors are on the GPU: cuDNN convolves them.
  if (inCudaCall()) {
    if (failed(guarded("conv2d", dtype, [&] {
          return cudaConv2d(*input, *weight, *out, params, dtype);
        })))
      raiseCallError(site);
    return;
  }
  // Each output element sums C/groups x KH x KW products: the weight's
  // dims after the first.
  useCallThreads(extentProduct(*out, 0, out->rank,
                               extentProduct(*weight, 1, weight->rank)));
  if (failed(guarded("conv2d", dtype, [&] {
        return conv2d(*input, *weight, *out, params, dtype);
      })))
    raiseCallError(site);
}

} // namespace kiln
