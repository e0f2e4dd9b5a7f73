//===- ModuleEvalNN.cpp - torch.nn modules built by a compile-time __init__
//===//
//
// Each torch.nn module kiln compiles is built here as a ModuleObject with
// PyTorch's constructor signature: its options become attributes, and its
// parameters and buffers become weights with the shapes and dtypes PyTorch
// gives them, so that state_dict() names and shapes match exactly.
//
//===----------------------------------------------------------------------===//

#include "frontend/ModuleEvalImpl.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;

namespace kiln::moduleeval {

//===----------------------------------------------------------------------===//
// torch.nn modules
//===----------------------------------------------------------------------===//

std::optional<CV> InitEvaluator::constructNN(const std::string &name,
                                             const Args &args) {
  auto obj = std::make_shared<ModuleObject>();
  obj->typeName = name;
  obj->createdAt = args.range;
  SourceRange where = args.range;
  CV none;
  auto param = [&](const char *attr, Type dtype, std::vector<int64_t> shape,
                   CV::TensorRole role = CV::TensorRole::Parameter) {
    CV t = makeTensor(dtype, std::move(shape), where);
    t.role = role;
    obj->set(attr, t);
  };
  auto dtypeOf = [&](const CV &v) { return toDtype(v, where); };
  auto done = [&]() -> std::optional<CV> { return makeModule(obj); };

  if (name == "Linear") {
    auto a = bind("nn.Linear",
                  {{"in_features", std::nullopt},
                   {"out_features", std::nullopt},
                   {"bias", makeBool(true)},
                   {"device", none},
                   {"dtype", none}},
                  args);
    if (!a)
      return std::nullopt;
    std::optional<int64_t> in = toInt((*a)[0], "in_features", where);
    std::optional<int64_t> out =
        in ? toInt((*a)[1], "out_features", where) : std::nullopt;
    std::optional<Type> dtype = out ? dtypeOf((*a)[4]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    obj->set("in_features", makeInt(*in));
    obj->set("out_features", makeInt(*out));
    param("weight", *dtype, {*out, *in});
    if ((*a)[2].i)
      param("bias", *dtype, {*out});
    else
      obj->set("bias", none);
    return done();
  }
  if (name == "Conv2d") {
    auto a = bind("nn.Conv2d",
                  {{"in_channels", std::nullopt},
                   {"out_channels", std::nullopt},
                   {"kernel_size", std::nullopt},
                   {"stride", makeInt(1)},
                   {"padding", makeInt(0)},
                   {"dilation", makeInt(1)},
                   {"groups", makeInt(1)},
                   {"bias", makeBool(true)},
                   {"padding_mode", makeStr("zeros")},
                   {"device", none},
                   {"dtype", none}},
                  args);
    if (!a)
      return std::nullopt;
    std::optional<int64_t> in = toInt((*a)[0], "in_channels", where);
    std::optional<int64_t> out =
        in ? toInt((*a)[1], "out_channels", where) : std::nullopt;
    std::optional<std::vector<int64_t>> kernel =
        out ? toPair((*a)[2], "kernel_size", where) : std::nullopt;
    std::optional<std::vector<int64_t>> stride =
        kernel ? toPair((*a)[3], "stride", where) : std::nullopt;
    std::optional<std::vector<int64_t>> dilation =
        stride ? toPair((*a)[5], "dilation", where) : std::nullopt;
    std::optional<int64_t> groups =
        dilation ? toInt((*a)[6], "groups", where) : std::nullopt;
    std::optional<Type> dtype = groups ? dtypeOf((*a)[10]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    std::vector<int64_t> padding;
    if ((*a)[4].kind == CV::Kind::Str) {
      if ((*a)[4].str == "valid") {
        padding = {0, 0};
      } else if ((*a)[4].str == "same") {
        for (int i = 0; i < 2; ++i) {
          int64_t total = (*dilation)[i] * ((*kernel)[i] - 1);
          if (total % 2 != 0 || (*stride)[i] != 1) {
            error(where, "padding='same' needs stride 1 and an odd "
                         "(dilated) kernel size; pass the padding explicitly");
            return std::nullopt;
          }
          padding.push_back(total / 2);
        }
      } else {
        error(where, "padding must be 'valid', 'same' or ints, got '" +
                         (*a)[4].str + "'");
        return std::nullopt;
      }
    } else {
      std::optional<std::vector<int64_t>> pad =
          toPair((*a)[4], "padding", where);
      if (!pad)
        return std::nullopt;
      padding = *pad;
    }
    if ((*a)[8].kind != CV::Kind::Str || (*a)[8].str != "zeros") {
      error(where, "only padding_mode='zeros' is supported");
      return std::nullopt;
    }
    if (*groups < 1 || *in % *groups != 0 || *out % *groups != 0) {
      error(where, "in_channels (" + std::to_string(*in) +
                       ") and out_channels (" + std::to_string(*out) +
                       ") must be divisible by groups (" +
                       std::to_string(*groups) + ")");
      return std::nullopt;
    }
    auto pair = [&](const std::vector<int64_t> &v) {
      return makeSeq(CV::Kind::Tuple, {makeInt(v[0]), makeInt(v[1])});
    };
    obj->set("in_channels", makeInt(*in));
    obj->set("out_channels", makeInt(*out));
    obj->set("kernel_size", pair(*kernel));
    obj->set("stride", pair(*stride));
    obj->set("padding", pair(padding));
    obj->set("dilation", pair(*dilation));
    obj->set("groups", makeInt(*groups));
    param("weight", *dtype, {*out, *in / *groups, (*kernel)[0], (*kernel)[1]});
    if ((*a)[7].i)
      param("bias", *dtype, {*out});
    else
      obj->set("bias", none);
    return done();
  }
  if (name == "MaxPool2d" || name == "AvgPool2d") {
    bool isMax = name == "MaxPool2d";
    std::vector<Param> params = {{"kernel_size", std::nullopt},
                                 {"stride", none},
                                 {"padding", makeInt(0)}};
    if (isMax)
      params.insert(params.end(), {{"dilation", makeInt(1)},
                                   {"return_indices", makeBool(false)},
                                   {"ceil_mode", makeBool(false)}});
    else
      params.insert(params.end(), {{"ceil_mode", makeBool(false)},
                                   {"count_include_pad", makeBool(true)},
                                   {"divisor_override", none}});
    auto a = bind("nn." + name, params, args);
    if (!a)
      return std::nullopt;
    for (const char *attr : {"kernel_size", "stride", "padding"}) {
      size_t i = std::string(attr) == "kernel_size" ? 0
                 : std::string(attr) == "stride"    ? 1
                                                    : 2;
      const CV &v =
          i == 1 && (*a)[1].kind == CV::Kind::None ? (*a)[0] : (*a)[i];
      std::optional<std::vector<int64_t>> pair = toPair(v, attr, where);
      if (!pair)
        return std::nullopt;
      obj->set(attr, makeSeq(CV::Kind::Tuple,
                             {makeInt((*pair)[0]), makeInt((*pair)[1])}));
    }
    if (isMax) {
      std::optional<std::vector<int64_t>> d =
          toPair((*a)[3], "dilation", where);
      if (!d)
        return std::nullopt;
      if ((*a)[4].i) {
        error(where, "return_indices=True is not supported");
        return std::nullopt;
      }
      obj->set("dilation",
               makeSeq(CV::Kind::Tuple, {makeInt((*d)[0]), makeInt((*d)[1])}));
      obj->set("ceil_mode", makeBool((*a)[5].i));
    } else {
      if ((*a)[5].kind != CV::Kind::None) {
        error(where, "divisor_override is not supported");
        return std::nullopt;
      }
      obj->set("ceil_mode", makeBool((*a)[3].i));
      obj->set("count_include_pad", makeBool((*a)[4].i));
    }
    return done();
  }
  if (name == "AdaptiveAvgPool2d") {
    auto a =
        bind("nn.AdaptiveAvgPool2d", {{"output_size", std::nullopt}}, args);
    std::optional<std::vector<int64_t>> size =
        a ? toPair((*a)[0], "output_size", where) : std::nullopt;
    if (!size)
      return std::nullopt;
    obj->set("output_size", makeSeq(CV::Kind::Tuple, {makeInt((*size)[0]),
                                                      makeInt((*size)[1])}));
    return done();
  }
  if (name == "BatchNorm2d") {
    auto a = bind("nn.BatchNorm2d",
                  {{"num_features", std::nullopt},
                   {"eps", makeFloat(1e-5)},
                   {"momentum", makeFloat(0.1)},
                   {"affine", makeBool(true)},
                   {"track_running_stats", makeBool(true)},
                   {"device", none},
                   {"dtype", none}},
                  args);
    if (!a)
      return std::nullopt;
    std::optional<int64_t> c = toInt((*a)[0], "num_features", where);
    std::optional<Type> dtype = c ? dtypeOf((*a)[6]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    if (!(*a)[4].i) {
      error(where, "track_running_stats=False normalizes with batch "
                   "statistics even in eval mode, which is not supported");
      return std::nullopt;
    }
    if (!(*a)[1].isNumber()) {
      error(where, "eps must be a number");
      return std::nullopt;
    }
    obj->set("num_features", makeInt(*c));
    obj->set("eps", makeFloat(asDouble((*a)[1])));
    if ((*a)[3].i) {
      param("weight", *dtype, {*c});
      param("bias", *dtype, {*c});
    } else {
      obj->set("weight", none);
      obj->set("bias", none);
    }
    param("running_mean", *dtype, {*c}, CV::TensorRole::Buffer);
    param("running_var", *dtype, {*c}, CV::TensorRole::Buffer);
    param("num_batches_tracked", b.getI64Type(), {}, CV::TensorRole::Buffer);
    return done();
  }
  if (name == "LayerNorm") {
    auto a = bind("nn.LayerNorm",
                  {{"normalized_shape", std::nullopt},
                   {"eps", makeFloat(1e-5)},
                   {"elementwise_affine", makeBool(true)},
                   {"device", none},
                   {"dtype", none}},
                  args);
    std::optional<std::vector<int64_t>> shape =
        a ? toInts((*a)[0], "normalized_shape", where) : std::nullopt;
    std::optional<Type> dtype = shape ? dtypeOf((*a)[4]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    if (!(*a)[1].isNumber()) {
      error(where, "eps must be a number");
      return std::nullopt;
    }
    std::vector<CV> dims;
    for (int64_t d : *shape)
      dims.push_back(makeInt(d));
    obj->set("normalized_shape", makeSeq(CV::Kind::Tuple, dims));
    obj->set("eps", makeFloat(asDouble((*a)[1])));
    if ((*a)[2].i) {
      param("weight", *dtype, *shape);
      param("bias", *dtype, *shape);
    } else {
      obj->set("weight", none);
      obj->set("bias", none);
    }
    return done();
  }
  if (name == "Embedding") {
    auto a = bind("nn.Embedding",
                  {{"num_embeddings", std::nullopt},
                   {"embedding_dim", std::nullopt},
                   {"padding_idx", none},
                   {"max_norm", none},
                   {"norm_type", makeFloat(2)},
                   {"scale_grad_by_freq", makeBool(false)},
                   {"sparse", makeBool(false)},
                   {"_weight", none},
                   {"device", none},
                   {"dtype", none}},
                  args);
    if (!a)
      return std::nullopt;
    std::optional<int64_t> n = toInt((*a)[0], "num_embeddings", where);
    std::optional<int64_t> d =
        n ? toInt((*a)[1], "embedding_dim", where) : std::nullopt;
    std::optional<Type> dtype = d ? dtypeOf((*a)[9]) : std::nullopt;
    if (!dtype)
      return std::nullopt;
    if ((*a)[3].kind != CV::Kind::None || (*a)[7].kind != CV::Kind::None) {
      error(where, "max_norm and _weight are not supported");
      return std::nullopt;
    }
    obj->set("num_embeddings", makeInt(*n));
    obj->set("embedding_dim", makeInt(*d));
    param("weight", *dtype, {*n, *d});
    return done();
  }
  if (name == "Dropout" || name == "ReLU" || name == "SiLU" || name == "Tanh" ||
      name == "Sigmoid" || name == "Identity" || name == "GELU") {
    std::vector<Param> params;
    if (name == "Dropout")
      params = {{"p", makeFloat(0.5)}, {"inplace", makeBool(false)}};
    else if (name == "ReLU" || name == "SiLU")
      params = {{"inplace", makeBool(false)}};
    else if (name == "GELU")
      params = {{"approximate", makeStr("none")}};
    Args checked = args;
    if (name == "Identity") // nn.Identity ignores every argument
      checked = Args{{}, {}, {}, args.range};
    auto a = bind("nn." + name, params, checked);
    if (!a)
      return std::nullopt;
    if (name == "GELU") {
      if ((*a)[0].kind != CV::Kind::Str ||
          ((*a)[0].str != "none" && (*a)[0].str != "tanh")) {
        error(where, "approximate must be 'none' or 'tanh'");
        return std::nullopt;
      }
      obj->set("approximate", (*a)[0]);
    }
    return done();
  }
  if (name == "Sequential" || name == "ModuleList") {
    std::vector<CV> children = args.positional;
    if (name == "ModuleList") {
      auto a = bind("nn.ModuleList", {{"modules", none}}, args);
      if (!a)
        return std::nullopt;
      children = (*a)[0].elems;
      if ((*a)[0].kind != CV::Kind::None && (*a)[0].kind != CV::Kind::List &&
          (*a)[0].kind != CV::Kind::Tuple) {
        error(where, "nn.ModuleList() takes a list of modules");
        return std::nullopt;
      }
    } else if (!args.keywords.empty()) {
      error(where, "nn.Sequential() takes modules as positional arguments");
      return std::nullopt;
    }
    for (size_t i = 0; i < children.size(); ++i) {
      if (children[i].kind != CV::Kind::Module) {
        error(where, "nn." + name + "() takes modules, got " +
                         describeConst(children[i]) + " at position " +
                         std::to_string(i));
        return std::nullopt;
      }
      obj->set(std::to_string(i), children[i]);
    }
    return done();
  }
  if (name == "ModuleDict") {
    auto a = bind("nn.ModuleDict", {{"modules", none}}, args);
    if (!a)
      return std::nullopt;
    const CV &pairs = (*a)[0];
    if (pairs.kind != CV::Kind::None && pairs.kind != CV::Kind::List &&
        pairs.kind != CV::Kind::Tuple) {
      error(where, "nn.ModuleDict() takes a dict of modules");
      return std::nullopt;
    }
    for (const CV &p : pairs.elems) {
      if (p.kind != CV::Kind::Tuple || p.elems.size() != 2 ||
          p.elems[0].kind != CV::Kind::Str ||
          p.elems[1].kind != CV::Kind::Module) {
        error(where, "nn.ModuleDict() takes a dict from str to modules, got " +
                         describeConst(p));
        return std::nullopt;
      }
      obj->set(p.elems[0].str, p.elems[1]);
    }
    return done();
  }
  error(where, "torch.nn." + name +
                   " is not supported; kiln compiles Linear, Conv2d, "
                   "MaxPool2d, AvgPool2d, AdaptiveAvgPool2d, BatchNorm2d, "
                   "LayerNorm, Embedding, Dropout, ReLU, GELU, SiLU, Tanh, "
                   "Sigmoid, Identity, Sequential, ModuleList and ModuleDict");
  return std::nullopt;
}
} // namespace kiln::moduleeval
