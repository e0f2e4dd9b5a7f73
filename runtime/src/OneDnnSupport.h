//===- OneDnnSupport.h - What the kernel library's oneDNN calls share -----===//
//
// Private to the kernel library (KernelLibrary.cpp, OneDnnMatmul.cpp,
// OneDnnConv.cpp). Building a oneDNN primitive JIT-compiles a kernel and
// costs tens to hundreds of microseconds, so built primitives are cached,
// keyed by every dim, stride and parameter that shaped them; a call whose
// shapes were seen before only executes. One cache serves all threads. Its
// mutex is never held while a primitive is built or runs, so two threads
// may build the same one, and the first to finish keeps it. A cached
// primitive may run on several threads at once because every primitive
// uses the user scratchpad mode: each execution gets its temporary memory
// from a buffer of the calling thread. (oneDNN's default library-managed
// scratchpad is shared by all primitives, which then must run on the
// thread that built them.)
//
// A size of zero never reaches oneDNN, which divides by it. An empty output
// is left alone, and a sum over nothing (K == 0, or zero input channels)
// writes zeros, as torch does.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_ONEDNNSUPPORT_H
#define KILN_RUNTIME_ONEDNNSUPPORT_H

#include "ConvShape.h"
#include "LargeBuffers.h"
#include "MemrefView.h"

#include "kiln/abi.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <list>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::onednn {

using dnnl::memory;

using Dims = memory::dims;

//===----------------------------------------------------------------------===//
// Tensors as compiled code passes them
//===----------------------------------------------------------------------===//

/// The element count of `sizes` by the runtime's one rule (checkedByteSize),
/// or -1 for a shape that no tensor can have.
int64_t numel(const Dims &sizes);

/// "" when every view has a shape a tensor can have, so that no size or
/// offset computed from them wraps; otherwise the error of `op`.
std::string checkExtents(const char *op,
                         std::initializer_list<const View *> views);

/// Calls fn(offset, index) for every element of `view`, in row-major
/// order: its offset in elements from view.data and its index.
template <typename Fn> void forEachElement(const View &view, Fn fn) {
  int64_t rank = static_cast<int64_t>(view.sizes.size());
  int64_t count = numel(view.sizes);
  Dims index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * view.strides[d];
    fn(offset, index);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < view.sizes[d])
        break;
      index[d] = 0;
    }
  }
}

/// Zeros every element of `view`; zero is all-zero bits in f32 and bf16.
void fillZero(const View &view, size_t element);

/// Gives each size-1 dim of `view` the stride a dense row-major tensor
/// would have. Such a dim never moves the address, so its stride is
/// arbitrary, and producers leave all sorts there (0 after an expand). But
/// oneDNN picks its fast kernels only for layouts it recognizes as plain,
/// and equal strides let equal shapes share a cache entry.
void canonicalizeStrides(View &view);

std::string typeName(int32_t dtype);

/// oneDNN's type for `dtype`; false for a type the library does not take.
bool dataType(int32_t dtype, memory::data_type &type);

//===----------------------------------------------------------------------===//
// oneDNN state shared by all calls
//===----------------------------------------------------------------------===//

/// A primitive and the scratchpad memory one execution of it needs.
struct Step {
  dnnl::primitive primitive; // empty for a step that is not needed
  memory::desc scratchpad;
};

/// Every primitive is built with this: see the file comment.
dnnl::primitive_attr userScratchpad();

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
extern std::atomic<uint64_t> plansBuilt;

extern std::atomic<uint64_t> weightsPacked;

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
  bool runsWhenPrepared = false; // see runsWhenPrepared()
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
  bool runsWhenPrepared = false; // all its steps; see runsWhenPrepared()
};

/// Built on first use; members die in reverse order, so every cached
/// primitive is destroyed before the engine it was built for.
struct Library {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  PlanCache<MatmulPlan> matmuls;
  PlanCache<ConvPlan> convs;
};

Library &library();

/// One stream per thread, so concurrent calls never share one.
dnnl::stream &threadStream();

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
    // Faulted in now, which is at load for a prepared call (Mode::Prepare
    // reserves it), rather than page by page inside the primitive.
    faultIn(data, size);
    return data;
  }

  static size_t alignUp(size_t bytes) { return (bytes + 63) / 64 * 64; }

private:
  uint8_t *data = nullptr;
  size_t capacity = 0;
};

uint8_t *threadScratch(size_t bytes);

Step makeReorder(const memory::desc &from, const memory::desc &to);

/// Runs `step` on the calling thread, giving it the scratchpad at
/// `scratchpad`.
void run(const Step &step, std::unordered_map<int, memory> args,
         uint8_t *scratchpad);

/// Whether preparing a call of `pd` that does `flops` of work runs it once
/// on zeros (runOnZeros), so that its first call finds done what a
/// primitive does on its first run. Every primitive's first run costs some
/// 10 us more than later ones (LeNet at batch 1: its convolution 12.5 us
/// against 1.7, its first Linear 16 against 2.7), several times a small
/// call, so a call of up to kSmallWorkFlops runs, at a load cost of tens of
/// microseconds.
///
/// A larger call does not: the first run of oneDNN's gemm-based kernels
/// (gemm:jit, every f32 matmul on AVX2 and the GPT block's attention
/// products on AVX-512) is slow because oneDNN generates the code of all
/// of them then, once a process (16-30 ms on a Zen 3 core), not because of
/// the call. So for such a `pd`, this runs one tiny product instead, once a
/// process. Measured on the MLP's 256 x 784 x 1024 layer (Zen 3, one
/// thread): its first run 33 ms cold, 5.7 after that warm-up, 5.7 warm.
bool runsWhenPrepared(const dnnl::primitive_desc_base &pd, double flops);
inline constexpr double kSmallWorkFlops = double(1 << 22);

/// Runs `step` once, on the calling thread, on zeroed buffers of its own
/// laid out as `args` says (an argument kind and its layout each), for a
/// plan that runsWhenPrepared.
void runOnZeros(const Step &step,
                std::initializer_list<std::pair<int, memory::desc>> args,
                uint8_t *scratchpad);

/// One execution's arguments, which a thread builds once per plan (its
/// memory objects pointed at each call's data): oneDNN's C++ execute takes a
/// std::unordered_map and copies it into a fresh table on every call, where
/// the C API takes the table as it is.
struct Args {
  std::array<dnnl_exec_arg_t, 6> table{};
  int count = 0;
  void add(int kind, const memory &value) { table.at(count++) = {kind, value.get()}; }
};

/// Runs `primitive` on the calling thread's stream with `args`.
void execute(const dnnl::primitive &primitive, const Args &args);

/// The calling thread's `Bound` for `plan` (BoundMatmul, BoundConv: the
/// plan's memory objects and arguments): the slot of one of the last eight
/// plans it ran, as it was; else the oldest slot, given `plan` and an empty
/// packed-weight memo, which `fresh` says the caller must bind.
template <typename Bound, typename Plan>
Bound &boundSlot(const std::shared_ptr<const Plan> &plan, bool &fresh) {
  constexpr size_t kSlots = 8;
  thread_local std::array<Bound, kSlots> slots;
  thread_local size_t next = 0;
  fresh = false;
  for (Bound &slot : slots)
    if (slot.plan == plan)
      return slot;
  Bound &slot = slots[next++ % kSlots];
  slot.plan = plan;
  slot.packed = {};
  fresh = true;
  return slot;
}

memory bind(const memory::desc &desc, void *data);

/// Appends the sizes and strides of each view to `key`.
void appendViews(Key &key, std::initializer_list<const View *> views);

//===----------------------------------------------------------------------===//
// Weights packed once
//===----------------------------------------------------------------------===//

/// Whether `data` is a weight of the running call's model: it lies in the
/// archive's mapping, which nothing writes while the model lives.
bool isModelWeight(const void *data);

enum class PackedKind : int64_t { MatmulWeight = -1, ConvWeight = -2 };

/// A thread's last packed copy for one plan (BoundMatmul, BoundConv): the
/// model's PackedWeights by serial number and the weight's address. A warm
/// call that finds its weight here skips PackedWeights' lock and lookup.
struct PackedMemo {
  uint64_t owner = 0;
  const void *from = nullptr;
  void *to = nullptr;
};

/// The running model's copy of the weight at `data` as `reorder` (into
/// `packed`, from `plain`) makes it for the plan of `key`: made by the
/// first call that asks (PackedWeights), and remembered in `memo`, the
/// calling thread's for that plan. The plan's key is part of its own,
/// since a weight may be read in two layouts (two batch sizes may pick
/// two kernels).
void *packedWeight(PackedKind kind, const Key &key, void *data,
                   const Step &reorder, const memory::desc &plain,
                   const memory::desc &packed, PackedMemo &memo);

//===----------------------------------------------------------------------===//
// The library's operations
//===----------------------------------------------------------------------===//

/// Whether a call runs, or only gets ready: builds its plan, packs its
/// model weight and binds the thread's memory objects, reading no tensor
/// but the weight and writing none (PreparedCalls.cpp, at load).
enum class Mode { Run, Prepare };

/// kiln_host_api.matmul, and with a `bias` matmul_epilogue, on the CPU
/// (OneDnnMatmul.cpp). Returns an error message or "".
std::string matmul(const kiln_unranked_memref &a,
                   const kiln_unranked_memref &b,
                   const kiln_unranked_memref *bias,
                   const kiln_unranked_memref &out, int32_t activation,
                   int32_t dtype, Mode mode = Mode::Run);

/// kiln_host_api.conv2d on the CPU (OneDnnConv.cpp). Returns an error
/// message or "".
std::string conv2d(const kiln_unranked_memref &input,
                   const kiln_unranked_memref &weight,
                   const kiln_unranked_memref &out, const ConvParams &p,
                   int32_t dtype, Mode mode = Mode::Run);

} // namespace kiln::onednn

#endif // KILN_RUNTIME_ONEDNNSUPPORT_H
