//===- OpTableNN.cpp - The op table's rows: the NN family -----------------===//
//
// softmax and log_softmax, in every spelling, and the torch.nn.functional
// ops of nn models whose builders nn.Module submodules share (emitLinear,
// emitLayerNorm, ...; see OpFamilies.h). Models compile in eval mode:
// dropout is the identity and batch_norm uses the running statistics, and
// asking for training is an error rather than a silent difference. Both
// subtract the max before exp (nn::emitSoftmax), so log_softmax is
// x - max - log(sum(exp(x - max))): a stable logsumexp, never log(softmax),
// which underflows to -inf. F.softmax also takes PyTorch's legacy
// `_stacklevel` and an optional dim, which PyTorch would guess; kiln asks
// for it, as PyTorch's deprecation warning does.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/OpFamilies.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::ops {

namespace {
using V = std::optional<Value>;

template <bool Log> V softmax(OpArgs &a) {
  Value x = a.value("self");
  if (a.isNone("dim")) {
    a.fl.error(a.where, a.spelling + "() needs dim=; PyTorch's implicit "
                                     "choice of dim is deprecated");
    return std::nullopt;
  }
  int64_t rank = llvm::cast<RankedTensorType>(x.getType()).getRank();
  std::optional<int64_t> dim = a.dim("dim", rank);
  if (!dim)
    return std::nullopt;
  return nn::emitSoftmax(a.fl, x, *dim, a.dtype("dtype"), Log, a.where);
}

V linear(OpArgs &a) {
  return a.fl.emitLinear(a.value("self"), a.value("weight"), a.value("bias"),
                         a.where);
}

V layerNorm(OpArgs &a) {
  std::optional<std::vector<int64_t>> shape = a.ints("normalized_shape");
  std::optional<double> eps = shape ? a.constFloat("eps") : std::nullopt;
  if (!eps)
    return std::nullopt;
  return a.fl.emitLayerNorm(a.value("self"), *shape, a.value("weight"),
                            a.value("bias"), *eps, a.where);
}

V batchNorm(OpArgs &a) {
  std::optional<bool> training = a.flag("training");
  if (!training)
    return std::nullopt;
  if (*training) {
    a.fl.error(a.range("training"),
               "batch_norm with training=True is not supported; models are "
               "compiled in eval mode");
    return std::nullopt;
  }
  std::optional<double> eps = a.constFloat("eps");
  if (!eps)
    return std::nullopt;
  if (a.isNone("running_mean") || a.isNone("running_var")) {
    a.fl.error(a.where,
               "batch_norm needs running_mean and running_var in eval mode");
    return std::nullopt;
  }
  return a.fl.emitBatchNorm(a.value("self"), a.value("running_mean"),
                            a.value("running_var"), a.value("weight"),
                            a.value("bias"), *eps, a.where);
}

V embedding(OpArgs &a) {
  // padding_idx, scale_grad_by_freq and sparse only change the gradient.
  if (!a.isNone("max_norm")) {
    a.fl.error(a.range("max_norm"), "max_norm is not supported; it "
                                    "renormalizes the weight in place");
    return std::nullopt;
  }
  return a.fl.emitEmbedding(a.value("weight"), a.value("self"), a.where);
}

V dropout(OpArgs &a) {
  if (!a.arg("training").given) {
    a.fl.error(a.where, a.spelling + "() defaults to training=True, which is "
                                     "not supported; pass training=False "
                                     "(models are compiled in eval mode)");
    return std::nullopt;
  }
  std::optional<bool> training = a.flag("training");
  if (!training)
    return std::nullopt;
  if (*training) {
    a.fl.error(a.range("training"), "dropout with training=True is not "
                                    "supported; models are compiled in eval "
                                    "mode");
    return std::nullopt;
  }
  std::optional<double> p = a.constFloat("p");
  if (!p)
    return std::nullopt;
  if (*p < 0 || *p > 1) {
    a.fl.error(a.range("p"),
               "dropout probability has to be between 0 and 1, but got " +
                   std::to_string(*p));
    return std::nullopt;
  }
  return a.value("self");
}

#define SOFTMAX_SAMPLES                                                        \
  {                                                                            \
    {"x=f32[B,5]", "1", -8, 8}, {"x=f32[B,3,4]", "0", -8, 8},                  \
        {"x=f64[6]", "-1", -30, 30}, {                                         \
      "x=f32[3,4]", "dim=1, dtype=torch.float64"                               \
    }                                                                          \
  }
} // namespace

std::vector<Row> nnRows() {
  return {
      {"softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
       Torch | Method, nullptr, softmax<false>, NoFlags, SOFTMAX_SAMPLES},
      {"softmax(Tensor self, int? dim=None, int _stacklevel=3, "
       "ScalarType? dtype=None) -> Tensor",
       Functional, nullptr, softmax<false>, NoFlags, SOFTMAX_SAMPLES},
      {"log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
       Torch | Method, nullptr, softmax<true>, NoFlags, SOFTMAX_SAMPLES},
      {"log_softmax(Tensor self, int? dim=None, int _stacklevel=3, "
       "ScalarType? dtype=None) -> Tensor",
       Functional, nullptr, softmax<true>, NoFlags, SOFTMAX_SAMPLES},
      // torch.nn.functional ops of nn models.
      {"linear(Tensor self, Tensor weight, Tensor? bias=None) -> Tensor",
       Functional,
       nullptr,
       linear,
       NoFlags,
       {{"x=f32[B,5], w=f32[4,5], b=f32[4]", "w, b"},
        {"x=f32[2,B,5], w=f32[3,5]", "w"}}},
      {"layer_norm(Tensor self, int[] normalized_shape, Tensor? weight=None, "
       "Tensor? bias=None, float eps=1e-05) -> Tensor",
       Functional,
       nullptr,
       layerNorm,
       NoFlags,
       {{"x=f32[B,4]", "(4,)"},
        {"x=f32[B,3,4], w=f32[3,4], b=f32[3,4]", "(3, 4), w, b, 1e-3"}}},
      {"batch_norm(Tensor self, Tensor? running_mean, Tensor? running_var, "
       "Tensor? weight=None, Tensor? bias=None, bool training=False, "
       "float momentum=0.1, float eps=1e-05) -> Tensor",
       Functional,
       nullptr,
       batchNorm,
       NoFlags,
       {{"x=f32[B,3,4], m=f32[3], v=f32[3]", "m, v", 0.1, 2},
        {"x=f32[B,3], m=f32[3], v=f32[3], w=f32[3], b=f32[3]",
         "m, v, w, b, False, 0.1, 1e-3", 0.1, 2}}},
      {"embedding(Tensor self, Tensor weight, int? padding_idx=None, "
       "Scalar? max_norm=None, float norm_type=2.0, "
       "bool scale_grad_by_freq=False, bool sparse=False) -> Tensor",
       Functional,
       nullptr,
       embedding,
       NoFlags,
       {{"i=i64[B,3], w=f32[5,4]", "w"}}},
      {"dropout(Tensor self, float p=0.5, bool training=True) -> Tensor",
       Functional | FInplaceArg,
       nullptr,
       dropout,
       NoFlags,
       {{"x=f32[B,4]", "0.2, False"}, {"x=f32[3]", "training=False"}},
       {},
       0,
       0,
       "eval mode only: the identity; training=True is an error"},
  };
}

} // namespace kiln::ops
