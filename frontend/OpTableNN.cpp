//===- OpTableNN.cpp - The NN family's builders ---------------------------===//
//
// The builders of the rows of frontend/prelude/functional.py that are not
// decompositions there: embedding, conv2d and the pools, whose torch.nn
// modules' forwards (prelude/modules.py) call them.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/OpBuilders.h"
#include "frontend/OpFamilies.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln::ops {

namespace {
V embedding(OpArgs &a) {
  // padding_idx, scale_grad_by_freq and sparse only change the gradient.
  if (!a.isNone("max_norm")) {
    a.fl.error(a.range("max_norm"), "max_norm is not supported; it "
                                    "renormalizes the weight in place");
    return std::nullopt;
  }
  return a.fl.emitEmbedding(a.value("weight"), a.value("self"), a.where);
}

//===--- conv2d and the pools -------------------------------------------===//

/// padding='valid' or 'same' (conv2d's str overload). 'same' pads
/// dilation * (kernel - 1) in total, which is symmetric only for an even
/// total; PyTorch puts the odd pixel on the right, which kiln.conv2d cannot
/// express.
std::optional<SmallVector<int64_t, 2>>
paddingByName(OpArgs &a, ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation) {
  std::string name = a.str("padding");
  auto wt = typeOf(a.value("weight"));
  auto refuse = [&](const std::string &why) {
    a.fl.error(a.range("padding"), why);
    return std::nullopt;
  };
  if (name == "valid")
    return SmallVector<int64_t, 2>{0, 0};
  if (name != "same")
    return refuse("padding must be 'valid', 'same', an int or a pair of "
                  "ints, got '" + name + "'");
  if (stride[0] != 1 || stride[1] != 1)
    return refuse("padding='same' is not supported for strided convolutions");
  if (wt.getRank() != 4 || wt.isDynamicDim(2) || wt.isDynamicDim(3))
    return refuse("padding='same' needs a 4-D weight with a static kernel "
                  "size, got " + describeType(wt));
  SmallVector<int64_t, 2> padding;
  for (int i = 0; i < 2; ++i) {
    int64_t total = dilation[i] * (wt.getDimSize(2 + i) - 1);
    if (total % 2)
      return refuse("padding='same' with kernel " + describeType(wt) +
                    " pads unevenly, which is not supported; give the "
                    "padding explicitly");
    padding.push_back(total / 2);
  }
  return padding;
}

V conv2d(OpArgs &a) {
  auto stride = a.pair("stride");
  auto dilation = stride ? a.pair("dilation") : std::nullopt;
  std::optional<int64_t> groups = dilation ? a.constInt("groups") : std::nullopt;
  if (!groups)
    return std::nullopt;
  bool byName = a.arg("padding").value.kind == PyValue::Kind::Str;
  auto padding = byName ? paddingByName(a, *stride, *dilation)
                        : a.pair("padding");
  if (!padding)
    return std::nullopt;
  return a.fl.emitConv2d(self(a), a.value("weight"), a.value("bias"), *stride,
                         *padding, *dilation, *groups, a.where);
}

template <bool Max> V pool2d(OpArgs &a) {
  auto kernel = a.pair("kernel_size");
  auto stride = kernel ? a.pair("stride", *kernel) : std::nullopt;
  auto padding = stride ? a.pair("padding") : std::nullopt;
  std::optional<bool> ceil = padding ? a.flag("ceil_mode") : std::nullopt;
  if (!ceil)
    return std::nullopt;
  if constexpr (Max) {
    auto dilation = a.pair("dilation");
    std::optional<bool> indices =
        dilation ? a.flag("return_indices") : std::nullopt;
    if (!indices)
      return std::nullopt;
    if (*indices)
      return fail(a, a.range("return_indices"),
                  "return_indices=True is not supported; max_pool2d returns "
                  "the values only");
    return a.fl.emitMaxPool2d(self(a), *kernel, *stride, *padding, *dilation,
                              *ceil, a.where);
  } else {
    std::optional<bool> countPad = a.flag("count_include_pad");
    if (!countPad)
      return std::nullopt;
    if (!a.isNone("divisor_override"))
      return fail(a, a.range("divisor_override"),
                  "divisor_override is not supported");
    return a.fl.emitAvgPool2d(self(a), *kernel, *stride, *padding, *ceil,
                              *countPad, a.where);
  }
}

} // namespace

std::vector<NamedBuilder> nnBuilders() {
  return {{"embedding", embedding},
          {"conv2d", conv2d},
          {"max_pool2d", pool2d<true>},
          {"avg_pool2d", pool2d<false>}};
}

} // namespace kiln::ops
