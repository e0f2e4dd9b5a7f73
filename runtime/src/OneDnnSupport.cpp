//===- OneDnnSupport.cpp - What the kernel library's oneDNN calls share ---===//

#include "OneDnnSupport.h"

#include "HostCall.h"

#include <array>
#include <cstring>
#include <mutex>

namespace kiln::onednn {

std::atomic<uint64_t> plansBuilt{0};
std::atomic<uint64_t> weightsPacked{0};

int64_t numel(const Dims &sizes) {
  uint64_t n;
  return checkedByteSize(sizes.data(), sizes.size(), 1, n)
             ? static_cast<int64_t>(n)
             : -1;
}

std::string checkExtents(const char *op,
                         std::initializer_list<const View *> views) {
  for (const View *view : views)
    if (numel(view->sizes) < 0)
      return std::string(op) + ": shape " + shapeText(view->sizes) +
             " is negative or too large";
  return "";
}

void fillZero(const View &view, size_t element) {
  forEachElement(view, [&](int64_t offset, const Dims &) {
    std::memset(static_cast<uint8_t *>(view.data) + offset * element, 0,
                element);
  });
}

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

dnnl::primitive_attr userScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}


Library &library() {
  // If building the engine throws, the next call tries again.
  static Library instance;
  return instance;
}

dnnl::stream &threadStream() {
  thread_local dnnl::stream stream(library().engine);
  return stream;
}

uint8_t *threadScratch(size_t bytes) {
  thread_local Scratch scratch;
  return scratch.reserve(bytes);
}

Step makeReorder(const memory::desc &from, const memory::desc &to) {
  const dnnl::engine &engine = library().engine;
  dnnl::reorder::primitive_desc pd(engine, from, engine, to, userScratchpad());
  return {dnnl::reorder(pd), pd.scratchpad_desc()};
}

void run(const Step &step, std::unordered_map<int, memory> args,
         uint8_t *scratchpad) {
  if (step.scratchpad.get_size() > 0)
    args.emplace(DNNL_ARG_SCRATCHPAD,
                 memory(step.scratchpad, library().engine, scratchpad));
  step.primitive.execute(threadStream(), args);
}

namespace {

/// Runs one 8 x 8 x 8 product through oneDNN's sgemm, once a process:
/// that is when oneDNN generates the code of all its gemm kernels.
void readyGemmKernels() {
  static std::once_flag once;
  std::call_once(once, [] {
    constexpr int64_t kSize = 8;
    std::array<float, kSize * kSize> a{}, b{}, c{};
    dnnl_sgemm('N', 'N', kSize, kSize, kSize, 1.0f, a.data(), kSize, b.data(),
               kSize, 0.0f, c.data(), kSize);
  });
}

} // namespace

bool runsWhenPrepared(const dnnl::primitive_desc_base &pd, double flops) {
  if (std::string(pd.impl_info_str()).rfind("gemm", 0) == 0)
    readyGemmKernels();
  return flops <= kSmallWorkFlops;
}

void runOnZeros(const Step &step,
                std::initializer_list<std::pair<int, memory::desc>> args,
                uint8_t *scratchpad) {
  std::vector<std::unique_ptr<void, void (*)(void *)>> buffers;
  std::unordered_map<int, memory> bound;
  for (const auto &[kind, desc] : args) {
    if (desc.get_size() == 0)
      continue;
    buffers.emplace_back(std::calloc(desc.get_size(), 1), std::free);
    if (!buffers.back())
      throw std::bad_alloc();
    bound.emplace(kind, bind(desc, buffers.back().get()));
  }
  run(step, bound, scratchpad);
  threadStream().wait();
}

void execute(const dnnl::primitive &primitive, const Args &args) {
  dnnl::error::wrap_c_api(dnnl_primitive_execute(primitive.get(),
                                                 threadStream().get(),
                                                 args.count, args.table.data()),
                          "could not execute a primitive");
}

memory bind(const memory::desc &desc, void *data) {
  return memory(desc, library().engine, data);
}

void appendViews(Key &key, std::initializer_list<const View *> views) {
  for (const View *view : views) {
    key.push_back(static_cast<int64_t>(view->sizes.size()));
    key.insert(key.end(), view->sizes.begin(), view->sizes.end());
    key.insert(key.end(), view->strides.begin(), view->strides.end());
  }
}

bool isModelWeight(const void *data) {
  const MappedFile &archive = callModel().archive;
  auto *at = static_cast<const uint8_t *>(data);
  return archive.data && at >= archive.data &&
         at < archive.data + archive.size;
}

void *packedWeight(PackedKind kind, const Key &key, void *data,
                   const Step &reorder, const memory::desc &plain,
                   const memory::desc &packed, PackedMemo &memo) {
  PackedWeights &weights = callModel().packedWeights;
  if (memo.owner == weights.serial() && memo.from == data)
    return memo.to;
  thread_local Key packKey;
  packKey.assign(1, static_cast<int64_t>(kind));
  packKey.insert(packKey.end(), key.begin(), key.end());
  packKey.push_back(reinterpret_cast<intptr_t>(data));
  const void *copy = weights.get(
      packKey, packed.get_size(), [&](void *buffer) {
        run(reorder,
            {{DNNL_ARG_FROM, bind(plain, data)},
             {DNNL_ARG_TO, bind(packed, buffer)}},
            threadScratch(reorder.scratchpad.get_size()));
        threadStream().wait();
        weightsPacked.fetch_add(1, std::memory_order_relaxed);
      });
  memo = {weights.serial(), data, const_cast<void *>(copy)};
  return memo.to;
}

} // namespace kiln::onednn
