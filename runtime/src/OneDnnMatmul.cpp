//===- OneDnnMatmul.cpp - matmul and matmul_epilogue through oneDNN -------===//
//
// A call describes each tensor to oneDNN with its dims and element strides
// as they are (a transposed weight view, a slice), so matmul copies nothing
// on the way in or out, but for a model's weight, which is packed once
// into the layout oneDNN prefers (OneDnnSupport.h, packedWeight).
//
// A warm matmul allocates nothing: the thread's views, cache key, oneDNN
// memory objects and argument table are reused, the memory objects pointed
// at each call's data (boundFor), and executed through the C API (execute).
//
//===----------------------------------------------------------------------===//

#include "OneDnnSupport.h"

#include "HostCall.h"
#include "PackedLayout.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace kiln::onednn {
namespace {

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
/// SiLU is swish, x * sigmoid(alpha * x), with alpha 1.
bool postOp(int32_t activation, dnnl::algorithm &algorithm) {
  switch (activation) {
  case KILN_ACTIVATION_TANH:
    algorithm = dnnl::algorithm::eltwise_tanh;
    return true;
  case KILN_ACTIVATION_SIGMOID:
    algorithm = dnnl::algorithm::eltwise_logistic;
    return true;
  case KILN_ACTIVATION_SILU:
    algorithm = dnnl::algorithm::eltwise_swish;
    return true;
  default:
    return false;
  }
}

/// With `packWeights`, the product reads b in the layout packedLayout
/// picks, into which the plan's `pack` reorders it.
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
    ops.append_eltwise(1.0f, activation, /*alpha: swish's*/ 1.0f, 0.0f);
    attr.set_post_ops(ops);
  }
  dnnl::matmul::desc desc =
      epilogue.bias ? dnnl::matmul::desc(plan.a, weights, plan.bias, plan.out)
                    : dnnl::matmul::desc(plan.a, weights, plan.out);
  dnnl::matmul::primitive_desc pd(desc, attr, library().engine);
  if (packWeights) {
    memory::desc chosen =
        packedLayout(pd.weights_desc(), plan.b,
                     numel(a.sizes) / std::max<int64_t>(a.sizes.back(), 1),
                     type);
    if (chosen != pd.weights_desc()) {
      desc = epilogue.bias
                 ? dnnl::matmul::desc(plan.a, chosen, plan.bias, plan.out)
                 : dnnl::matmul::desc(plan.a, chosen, plan.out);
      pd = dnnl::matmul::primitive_desc(desc, attr, library().engine);
    }
  }
  plan.step = {dnnl::matmul(pd), pd.scratchpad_desc()};
  plan.packed = pd.weights_desc();
  // Each output element is a K-long dot product.
  plan.runsWhenPrepared = runsWhenPrepared(
      pd, 2.0 * double(numel(plan.out.dims())) * double(plan.a.dims().back()));
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
  Args args;
  PackedMemo packed;
};

BoundMatmul &boundFor(const std::shared_ptr<const MatmulPlan> &plan) {
  bool fresh;
  BoundMatmul &slot = boundSlot<BoundMatmul>(plan, fresh);
  if (!fresh)
    return slot;
  slot.a = bind(plan->a, nullptr);
  slot.b = bind(plan->packed, nullptr);
  slot.out = bind(plan->out, nullptr);
  slot.args = {};
  slot.args.add(DNNL_ARG_SRC, slot.a);
  slot.args.add(DNNL_ARG_WEIGHTS, slot.b);
  slot.args.add(DNNL_ARG_DST, slot.out);
  if (plan->bias.get_size() > 0) {
    slot.bias = bind(plan->bias, nullptr);
    slot.args.add(DNNL_ARG_BIAS, slot.bias);
  }
  if (plan->step.scratchpad.get_size() > 0) {
    slot.scratchpad = bind(plan->step.scratchpad, nullptr);
    slot.args.add(DNNL_ARG_SCRATCHPAD, slot.scratchpad);
  }
  return slot;
}

/// out = activation(bias) for a product that sums nothing (K == 0).
void fillEpilogue(const View &out, const View &bias, int32_t activation) {
  forEachElement(out, [&](int64_t offset, const Dims &index) {
    float value =
        static_cast<const float *>(bias.data)[index.back() * bias.strides[0]];
    if (activation == KILN_ACTIVATION_TANH)
      value = std::tanh(value);
    else if (activation == KILN_ACTIVATION_SIGMOID)
      value = 1.0f / (1.0f + std::exp(-value));
    else if (activation == KILN_ACTIVATION_SILU)
      value = value / (1.0f + std::exp(-value));
    static_cast<float *>(out.data)[offset] = value;
  });
}

/// "" if `bias` and `activation` are an epilogue that the CPU's library
/// computes for an f32 product into `out`, or what is wrong with them.
std::string checkEpilogue(const View &bias, const View &out, int32_t activation,
                          int32_t dtype) {
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

} // namespace

std::string matmul(const kiln_unranked_memref &am,
                   const kiln_unranked_memref &bm,
                   const kiln_unranked_memref *biasm,
                   const kiln_unranked_memref &outm, int32_t activation,
                   int32_t dtype, Mode mode) {
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
  if (a.sizes.back() == 0) { // a sum over nothing needs no plan
    if (mode == Mode::Prepare)
      return "";
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
  if (biasm && bias.sizes[0] > 1 && bias.strides[0] != 1 &&
      mode == Mode::Run) {
    denseBias.resize(bias.sizes[0]);
    for (int64_t i = 0; i < bias.sizes[0]; ++i)
      denseBias[i] = static_cast<const float *>(bias.data)[i * bias.strides[0]];
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
  BoundMatmul &bound = boundFor(plan);
  void *weights = b.data;
  if (plan->pack.primitive)
    weights = packedWeight(PackedKind::MatmulWeight, key, b.data, plan->pack,
                           plan->b, plan->packed, bound.packed);
  if (mode == Mode::Prepare) {
    uint8_t *scratchpad = threadScratch(plan->step.scratchpad.get_size());
    if (plan->runsWhenPrepared)
      runOnZeros(plan->step,
                 {{DNNL_ARG_SRC, plan->a},
                  {DNNL_ARG_WEIGHTS, plan->packed},
                  {DNNL_ARG_BIAS, plan->bias},
                  {DNNL_ARG_DST, plan->out}},
                 scratchpad);
    return "";
  }
  bound.a.set_data_handle(a.data);
  bound.b.set_data_handle(weights);
  bound.out.set_data_handle(out.data);
  if (bound.bias)
    bound.bias.set_data_handle(bias.data);
  if (bound.scratchpad)
    bound.scratchpad.set_data_handle(
        threadScratch(plan->step.scratchpad.get_size()));
  execute(plan->step.primitive, bound.args);
  threadStream().wait();
  return "";
}

} // namespace kiln::onednn
