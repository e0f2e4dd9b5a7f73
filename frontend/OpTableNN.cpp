//===- OpTableNN.cpp - The op table's rows: the NN family -----------------===//
//
// softmax and log_softmax, in every spelling (see OpFamilies.h). Both
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
  };
}

} // namespace kiln::ops
