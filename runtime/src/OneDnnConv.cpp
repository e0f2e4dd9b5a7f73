//===- OneDnnConv.cpp - conv2d through oneDNN ------------------------------===//
//
// Convolution lets oneDNN choose its layouts (blocked, such as nChw16c) and
// reorders into and out of them: on common layers the blocked kernels beat
// the gemm-based ones for plain layouts by 1.2x (3x3) to 4x (depthwise),
// more than the reorders cost. A model's weight is reordered once
// (packedWeight); a dense input of few channels is read as it lies, and a
// dense output of few channels written as it lies.
//
//===----------------------------------------------------------------------===//

#include "OneDnnSupport.h"

#include "ModelImpl.h"

#include <array>

namespace kiln::onednn {
namespace {

/// Channels below which a convolution's input keeps its layout: oneDNN's
/// block width, which codegen's kMaxGeneratedChannels also follows.
constexpr int64_t kFewChannels = 16;
/// Output elements from which one of few channels keeps its layout too.
constexpr int64_t kLargeOutput = 1 << 16;

/// With `plainInput` (`plainOut`), the input (output) is dense NCHW.
ConvPlan buildConv(const memory::desc &input, const memory::desc &weight,
                   const memory::desc &out, const ConvParams &p,
                   bool plainInput, bool plainOut, memory::data_type type) {
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
  // Fewer output channels than a block, and the blocked output is mostly
  // padding: reordering it back to NCHW reads 16 channels per pixel for
  // the few that are real. LeNet's 64 x 1 x 32 x 32 to 6 channels: 96 us
  // of convolution and 137 of reorder, where oneDNN's gemm kernel writes
  // NCHW in 192 (at two threads, 129 against 105). Only a dense NCHW
  // output, which that kernel writes as it lies, and a large one: the first
  // gemm kernel of a process JIT-compiles oneDNN's sgemm code (about 20
  // ms), which a small output's reorder (LeNet at batch 1: 1 us) never
  // repays. (Codegen now generates such a layer at stride 1 when its
  // window is small, ConvolutionOps.cpp; a strided or wider one comes
  // here.)
  bool fewOutChannels = plainOut && out.dims()[1] < kFewChannels &&
                        numel(out.dims()) >= kLargeOutput;
  // oneDNN counts dilation from 0 (no gap), torch from 1.
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      fewChannels ? input : anyLayout(input), anyLayout(weight),
      fewOutChannels ? out : anyLayout(out),
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
  // Each output element sums a window of weight / out-channels products.
  plan.runsWhenPrepared = runsWhenPrepared(
      pd, 2.0 * double(numel(out.dims())) * double(numel(weight.dims())) /
              double(std::max<int64_t>(out.dims()[1], 1)));
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

/// The calling thread's oneDNN objects for `plan`: a memory object for
/// each tensor a step reads or writes and each step's arguments, made once
/// and pointed at each call's data, so that a warm convolution allocates
/// nothing (as BoundMatmul does for matmul).
struct BoundConv {
  std::shared_ptr<const ConvPlan> plan;
  memory input, weight, out, innerInput, innerWeight, innerOut;
  std::array<memory, 4> scratchpads; // one per step, in Steps' order
  std::array<Args, 4> args;
  PackedMemo packed;

  std::array<const Step *, 4> steps() const {
    return {&plan->toInput, &plan->toWeight, &plan->conv, &plan->fromOut};
  }
};

BoundConv &boundFor(const std::shared_ptr<const ConvPlan> &plan) {
  bool fresh;
  BoundConv &slot = boundSlot<BoundConv>(plan, fresh);
  if (!fresh)
    return slot;
  slot.input = bind(plan->input, nullptr);
  slot.weight = bind(plan->weight, nullptr);
  slot.out = bind(plan->out, nullptr);
  // The layouts the convolution chose, where they are not the caller's: a
  // reorder writes each (or reads, for the output).
  auto inner = [](const Step &reorder, const memory::desc &desc) {
    return reorder.primitive ? bind(desc, nullptr) : memory();
  };
  slot.innerInput = inner(plan->toInput, plan->innerInput);
  slot.innerWeight = inner(plan->toWeight, plan->innerWeight);
  slot.innerOut = inner(plan->fromOut, plan->innerOut);
  auto either = [](const memory &inside, const memory &caller) {
    return inside ? inside : caller;
  };
  std::array<Args, 4> &args = slot.args;
  args = {};
  if (slot.innerInput) {
    args[0].add(DNNL_ARG_FROM, slot.input);
    args[0].add(DNNL_ARG_TO, slot.innerInput);
  }
  if (slot.innerWeight) {
    args[1].add(DNNL_ARG_FROM, slot.weight);
    args[1].add(DNNL_ARG_TO, slot.innerWeight);
  }
  args[2].add(DNNL_ARG_SRC, either(slot.innerInput, slot.input));
  args[2].add(DNNL_ARG_WEIGHTS, either(slot.innerWeight, slot.weight));
  args[2].add(DNNL_ARG_DST, either(slot.innerOut, slot.out));
  if (slot.innerOut) {
    args[3].add(DNNL_ARG_FROM, slot.innerOut);
    args[3].add(DNNL_ARG_TO, slot.out);
  }
  for (size_t i = 0; i < 4; ++i) {
    const Step &step = *slot.steps()[i];
    slot.scratchpads[i] = memory();
    if (step.primitive && step.scratchpad.get_size() > 0) {
      slot.scratchpads[i] = bind(step.scratchpad, nullptr);
      args[i].add(DNNL_ARG_SCRATCHPAD, slot.scratchpads[i]);
    }
  }
  return slot;
}

} // namespace

std::string conv2d(const kiln_unranked_memref &inputm,
                   const kiln_unranked_memref &weightm,
                   const kiln_unranked_memref &outm, const ConvParams &p,
                   int32_t dtype, Mode mode) {
  memory::data_type type;
  if (!dataType(dtype, type))
    return "conv2d: the kernel library takes f32 or bf16, not " +
           typeName(dtype);
  size_t element = memory::data_type_size(type);
  // The thread's views and key, reused: their vectors keep their memory.
  thread_local View in, w, out;
  thread_local Key key;
  setView(in, inputm, element);
  setView(w, weightm, element);
  setView(out, outm, element);
  std::string error = checkExtents("conv2d", {&in, &w, &out});
  if (error.empty())
    error = checkConv2d(in.sizes, w.sizes, out.sizes, p);
  if (!error.empty() || numel(out.sizes) == 0)
    return error;
  if (in.sizes[1] == 0) {
    if (mode == Mode::Run)
      fillZero(out, element);
    return "";
  }
  if (numel(in.sizes) == 0 || numel(w.sizes) == 0)
    return "conv2d: input " + shapeText(in.sizes) + " and weight " +
           shapeText(w.sizes) + " have an empty spatial dim";
  for (View *view : {&in, &w, &out})
    canonicalizeStrides(*view);

  key.assign({dtype, p.strideH, p.strideW, p.padH, p.padW, p.dilationH,
              p.dilationW, p.groups});
  appendViews(key, {&in, &w, &out});
  std::shared_ptr<const ConvPlan> plan = library().convs.get(key, [&] {
    return buildConv(memory::desc(in.sizes, type, in.strides),
                     weightDesc(w, p.groups, type),
                     memory::desc(out.sizes, type, out.strides), p,
                     isDenseRowMajor(in.sizes.data(), in.strides.data(),
                                     in.sizes.size()),
                     isDenseRowMajor(out.sizes.data(), out.strides.data(),
                                     out.sizes.size()),
                     type);
  });

  // A weight of the model is packed once, before the thread's scratch is
  // laid out (packing uses it too).
  BoundConv &bound = boundFor(plan);
  void *packed = plan->toWeight.primitive && isModelWeight(w.data)
                     ? packedWeight(PackedKind::ConvWeight, key, w.data,
                                    plan->toWeight, plan->weight,
                                    plan->innerWeight, bound.packed)
                     : nullptr;
  uint8_t *scratch = threadScratch(plan->totalBytes);
  if (mode == Mode::Prepare) {
    if (plan->runsWhenPrepared) {
      runOnZeros(plan->conv,
                 {{DNNL_ARG_SRC, plan->innerInput},
                  {DNNL_ARG_WEIGHTS, plan->innerWeight},
                  {DNNL_ARG_DST, plan->innerOut}},
                 scratch);
      // The reorders around it, which every call runs too.
      if (plan->toInput.primitive)
        runOnZeros(plan->toInput,
                   {{DNNL_ARG_FROM, plan->input},
                    {DNNL_ARG_TO, plan->innerInput}},
                   scratch);
      if (plan->fromOut.primitive)
        runOnZeros(plan->fromOut,
                   {{DNNL_ARG_FROM, plan->innerOut},
                    {DNNL_ARG_TO, plan->out}},
                   scratch);
    }
    return "";
  }
  bound.input.set_data_handle(in.data);
  bound.weight.set_data_handle(w.data);
  bound.out.set_data_handle(out.data);
  if (bound.innerInput)
    bound.innerInput.set_data_handle(scratch + plan->innerInputAt);
  if (bound.innerWeight)
    bound.innerWeight.set_data_handle(packed ? packed
                                             : scratch + plan->innerWeightAt);
  if (bound.innerOut)
    bound.innerOut.set_data_handle(scratch + plan->innerOutAt);
  for (memory &scratchpad : bound.scratchpads)
    if (scratchpad)
      scratchpad.set_data_handle(scratch);
  for (size_t i = 0; i < 4; ++i) {
    const Step &step = *bound.steps()[i];
    // A packed weight needs no reorder in the call.
    if (step.primitive && !(i == 1 && packed))
      execute(step.primitive, bound.args[i]);
  }
  threadStream().wait();
  return "";
}

} // namespace kiln::onednn
