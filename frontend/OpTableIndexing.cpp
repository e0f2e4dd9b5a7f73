//===- OpTableIndexing.cpp - The op table's rows: indexing, scans, order --===//
//
// gather, index_select, cumsum, cumprod, flip, roll and F.pad (see
// OpFamilies.h).
// The first five are one kiln op each (ir/KilnNNOps.td), lowered in
// codegen/lowering/IndexingOps.cpp and ScanOps.cpp; roll is slices and a
// cat per dim, which the shape lowering already does well, and F.pad is a
// cat with kiln.full (constant) or an index_select whose indices are
// computed here (reflect, replicate).
//
// The arguments that shape an op (dims, shifts) must be compile-time
// constants, as they are for the kiln ops' attributes; these builders read
// them from the bound arguments themselves.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/OpFamilies.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace mlir;

namespace kiln::ops {

namespace {
using V = std::optional<Value>;

/// The bound tensor `name`, or an error: a Tensor parameter after the
/// first also binds a Python number, which these ops do not take.
V tensorArg(OpArgs &a, StringRef name) {
  const BoundArg &b = a.arg(name);
  if (b.value.isValue() && llvm::isa<RankedTensorType>(b.value.value.getType()))
    return b.value.value;
  a.fl.error(b.range, a.spelling + "() argument '" + name.str() +
                          "' must be a Tensor, got " + a.fl.describe(b.value));
  return std::nullopt;
}

int64_t rankOf(Value v) {
  return llvm::cast<RankedTensorType>(v.getType()).getRank();
}

/// A compile-time int argument, normalized as a dim of a tensor of `rank`.
std::optional<int64_t> dimArg(OpArgs &a, StringRef name, int64_t rank) {
  std::optional<int64_t> d = a.fl.constIntValue(a.value(name));
  if (!d) {
    a.fl.error(a.range(name), a.spelling + "() argument '" + name.str() +
                                  "' must be a constant int here, got " +
                                  a.fl.describe(a.arg(name).value));
    return std::nullopt;
  }
  return a.fl.normalizeDim(*d, rank, a.range(name));
}

/// A compile-time int[] argument.
std::optional<std::vector<int64_t>> intsArg(OpArgs &a, StringRef name) {
  std::optional<std::vector<int64_t>> v =
      nn::constIntsOf(a.fl, a.arg(name).value);
  if (!v)
    a.fl.error(a.range(name), a.spelling + "() argument '" + name.str() +
                                  "' must be constant ints here, got " +
                                  a.fl.describe(a.arg(name).value));
  return v;
}

/// Reports a failed shape inference at the call.
V inferred(OpArgs &a, Type t, const std::string &why) {
  if (t)
    return Value();
  a.fl.error(a.where, a.spelling + "(): " + a.fl.userMessage(why));
  return std::nullopt;
}

/// gather and index_select: self, a dim and an index tensor to one kiln op,
/// typed by the op's own shape rule.
template <typename OpTy,
          Type (*Infer)(Type, Type, int64_t, std::string *)>
V readAlongDim(OpArgs &a) {
  V x = tensorArg(a, "self"), index = tensorArg(a, "index");
  if (!x || !index)
    return std::nullopt;
  std::optional<int64_t> dim = dimArg(a, "dim", rankOf(*x));
  if (!dim)
    return std::nullopt;
  std::string why;
  Type t = Infer(x->getType(), index->getType(), *dim, &why);
  if (!inferred(a, t, why))
    return std::nullopt;
  return a.fl.b.create<OpTy>(a.fl.loc(a.where), t, *x, *index, *dim)
      .getResult();
}

V gather(OpArgs &a) { return readAlongDim<GatherOp, inferGatherType>(a); }
V indexSelect(OpArgs &a) {
  return readAlongDim<IndexSelectOp, inferIndexSelectType>(a);
}

template <typename ScanOp> V scan(OpArgs &a) {
  Value x = a.value("self");
  std::optional<int64_t> dim = dimArg(a, "dim", rankOf(x));
  if (!dim)
    return std::nullopt;
  Type dtype = a.isNone("dtype") ? Type() : dtypeFromGlobal(a.fl.b, a.arg("dtype").value);
  // PyTorch refuses a bool dtype= here only by its kernels' lack of one;
  // kiln's scans have no bool result either.
  if (dtype && dtype.isInteger(1)) {
    a.fl.error(a.range("dtype"),
               a.spelling + "() cannot compute in bool; give a numeric dtype");
    return std::nullopt;
  }
  std::string why;
  Type t = inferScanType(x.getType(), *dim, dtype, &why);
  if (!inferred(a, t, why))
    return std::nullopt;
  return a.fl.b.create<ScanOp>(a.fl.loc(a.where), t, x, *dim).getResult();
}

V flip(OpArgs &a) {
  Value x = a.value("self");
  std::optional<std::vector<int64_t>> dims = intsArg(a, "dims");
  if (!dims)
    return std::nullopt;
  SmallVector<int64_t> normalized;
  for (int64_t d : *dims) {
    std::optional<int64_t> n = a.fl.normalizeDim(d, rankOf(x), a.range("dims"));
    if (!n)
      return std::nullopt;
    normalized.push_back(*n);
  }
  // A 0-D tensor has nothing to reverse (PyTorch accepts dim 0 or -1).
  if (rankOf(x) == 0)
    return x;
  std::string why;
  Type t = inferFlipType(x.getType(), normalized, &why);
  if (!inferred(a, t, why))
    return std::nullopt;
  return a.fl.b.create<FlipOp>(a.fl.loc(a.where), t, x, normalized)
      .getResult();
}

/// x rolled by `shift` along `dim`: cat(x[n - s:], x[:n - s]) with
/// s = shift mod n (Python's mod, so a negative shift rolls left). Both
/// slices are typed `?` along `dim` so that they share the list's type.
V rollOne(OpArgs &a, Value x, int64_t shift, int64_t dim) {
  FunctionLowering &fl = a.fl;
  auto t = llvm::cast<RankedTensorType>(x.getType());
  Value n = fl.dimValues(x, a.where)[dim];
  // max(n, 1): an empty dim rolls to itself instead of dividing by zero.
  Value one = fl.constInt(1, a.where);
  Value positive = nn::binary(fl, "kiln.maximum", n, one, a.where);
  MaybeValue s = fl.applyBinOp(ast::BinOpKind::Mod,
                               PyValue::ofValue(fl.constInt(shift, a.where)),
                               PyValue::ofValue(positive), a.where, a.where,
                               a.where);
  if (!s)
    return std::nullopt;
  Value split = nn::binary(fl, "kiln.sub", n, s->value, a.where);
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] = ShapedType::kDynamic;
  auto partType = RankedTensorType::get(shape, t.getElementType());
  Location l = fl.loc(a.where);
  // Named operands: argument order is unspecified; the IR must not be.
  Value zero = fl.constInt(0, a.where), step = fl.constInt(1, a.where);
  Value tail = fl.b.create<SliceOp>(l, partType, x, split, n, step, dim);
  Value head = fl.b.create<SliceOp>(l, partType, x, zero, split, step, dim);
  Value list = fl.b.create<ListConstructOp>(l, ListType::get(partType),
                                            ValueRange{tail, head});
  Value joined = fl.b.create<CatOp>(l, partType, list, dim);
  return fl.castForMerge(joined, t, a.where);
}

V roll(OpArgs &a) {
  Value x = a.value("self");
  std::optional<std::vector<int64_t>> shifts = intsArg(a, "shifts");
  std::optional<std::vector<int64_t>> dims = intsArg(a, "dims");
  if (!shifts || !dims)
    return std::nullopt;
  if (shifts->size() != dims->size() || dims->empty()) {
    a.fl.error(a.where, a.spelling + "() needs as many shifts as dims, and "
                                     "at least one dim (a roll of the "
                                     "flattened tensor is not supported)");
    return std::nullopt;
  }
  for (size_t i = 0; i < dims->size(); ++i) {
    std::optional<int64_t> d =
        a.fl.normalizeDim((*dims)[i], rankOf(x), a.range("dims"));
    if (!d)
      return std::nullopt;
    if (rankOf(x) == 0)
      return x;
    V r = rollOne(a, x, (*shifts)[i], *d);
    if (!r)
      return std::nullopt;
    x = *r;
  }
  return x;
}

//===--- F.pad -----------------------------------------------------------===//

/// A 1-D i64 constant tensor.
Value indexConstant(OpArgs &a, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    a.fl.b.getI64Type());
  return a.fl.b.create<ConstantOp>(a.fl.loc(a.where),
                                   DenseElementsAttr::get(type, values));
}

/// `x` with its `dim` typed `?`, so that slices of it share one list type.
RankedTensorType dynamicAlong(Value x, int64_t dim) {
  auto t = llvm::cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] = ShapedType::kDynamic;
  return RankedTensorType::get(shape, t.getElementType());
}

/// Constant padding of one dim: a crop for negative pads (a slice), then
/// cat(full(left), x, full(right)). Works on dynamic sizes.
Value padConstant(OpArgs &a, Value x, int64_t dim, int64_t left,
                  int64_t right, Value fill) {
  FunctionLowering &fl = a.fl;
  Location l = fl.loc(a.where);
  RankedTensorType part = dynamicAlong(x, dim);
  std::vector<Value> sizes = fl.dimValues(x, a.where);
  if (left < 0 || right < 0) {
    Value start = fl.constInt(std::max<int64_t>(-left, 0), a.where);
    Value end = nn::binary(fl, "kiln.sub", sizes[dim],
                           fl.constInt(std::max<int64_t>(-right, 0), a.where),
                           a.where);
    Value step = fl.constInt(1, a.where);
    x = fl.b.create<SliceOp>(l, part, x, start, end, step, dim);
    sizes = fl.dimValues(x, a.where);
  }
  SmallVector<Value> parts;
  auto filler = [&](int64_t n) {
    std::vector<Value> s = sizes;
    s[dim] = fl.constInt(n, a.where);
    SmallVector<int64_t> shape(part.getShape());
    for (size_t i = 0; i < s.size(); ++i)
      if (std::optional<int64_t> c = fl.constIntValue(s[i]))
        shape[i] = *c;
    Value full = fl.b.create<FullOp>(
        l, RankedTensorType::get(shape, part.getElementType()), fill, s);
    return *fl.castForMerge(full, part, a.where);
  };
  if (left > 0)
    parts.push_back(filler(left));
  parts.push_back(*fl.castForMerge(x, part, a.where));
  if (right > 0)
    parts.push_back(filler(right));
  if (parts.size() == 1)
    return x;
  Value list = fl.b.create<ListConstructOp>(l, ListType::get(part), parts);
  return fl.b.create<CatOp>(l, part, list, dim);
}

/// The source position of each output position of a reflect or replicate
/// pad of a dim of static size n (PyTorch's index formulas).
std::vector<int64_t> padSources(bool reflect, int64_t n, int64_t left,
                                int64_t right) {
  std::vector<int64_t> out;
  for (int64_t i = -left; i < n + right; ++i) {
    int64_t k = i;
    if (reflect)
      k = (n - 1) - std::abs((n - 1) - std::abs(i));
    else
      k = std::clamp<int64_t>(i, 0, n - 1);
    out.push_back(k);
  }
  return out;
}

V pad(OpArgs &a) {
  Value x = a.value("self");
  std::optional<std::vector<int64_t>> pads = intsArg(a, "pad");
  if (!pads)
    return std::nullopt;
  std::string mode = a.str("mode");
  int64_t rank = rankOf(x);
  size_t dims = pads->size() / 2;
  if (pads->size() % 2 || static_cast<int64_t>(dims) > rank) {
    a.fl.error(a.range("pad"), a.spelling +
                                   "() pad must hold a (left, right) pair per "
                                   "padded dim, at most the input's rank");
    return std::nullopt;
  }
  if (mode != "constant" && mode != "reflect" && mode != "replicate") {
    a.fl.error(a.range("mode"), a.spelling + "() mode must be 'constant', "
                                             "'reflect' or 'replicate', got '" +
                                    mode + "'");
    return std::nullopt;
  }
  Type element = llvm::cast<RankedTensorType>(x.getType()).getElementType();
  Value fill = a.isNone("value") ? a.fl.constFloat(0.0, a.where)
                                 : a.value("value");
  if (mode != "constant" && !a.isNone("value")) {
    a.fl.error(a.range("value"), a.spelling + "() takes a value only in "
                                              "'constant' mode");
    return std::nullopt;
  }
  (void)element;
  // pad lists pairs from the last dim backwards.
  for (size_t k = 0; k < dims; ++k) {
    int64_t dim = rank - 1 - k;
    int64_t left = (*pads)[2 * k], right = (*pads)[2 * k + 1];
    if (mode == "constant") {
      x = padConstant(a, x, dim, left, right, fill);
      continue;
    }
    int64_t n = llvm::cast<RankedTensorType>(x.getType()).getDimSize(dim);
    bool reflect = mode == "reflect";
    if (ShapedType::isDynamic(n) || left < 0 || right < 0 ||
        (reflect ? std::max(left, right) >= n : n == 0)) {
      a.fl.error(a.where,
                 a.spelling + "() in '" + mode +
                     "' mode needs a static size in dimension " +
                     std::to_string(dim) + (reflect ? " larger than" : " and") +
                     " non-negative pads, got " +
                     a.fl.describe(PyValue::ofValue(x)) + " and (" +
                     std::to_string(left) + ", " + std::to_string(right) + ")");
      return std::nullopt;
    }
    Value index = indexConstant(a, padSources(reflect, n, left, right));
    std::string why;
    Type t = inferIndexSelectType(x.getType(), index.getType(), dim, &why);
    x = a.fl.b.create<IndexSelectOp>(a.fl.loc(a.where), t, x, index, dim);
  }
  return x;
}

//===--- F.interpolate ---------------------------------------------------===//

/// A constant tensor of `element` (f32 or f64) holding `values`, shaped
/// [n] or, for a dim that is not the last, [n, 1] so that it broadcasts
/// along that dim.
Value weightConstant(OpArgs &a, Type element, ArrayRef<double> values,
                     bool column) {
  SmallVector<int64_t> shape{static_cast<int64_t>(values.size())};
  if (column)
    shape.push_back(1);
  auto type = RankedTensorType::get(shape, element);
  DenseElementsAttr attr;
  if (element.isF64()) {
    attr = DenseElementsAttr::get(type, values);
  } else {
    SmallVector<float> narrow(values.begin(), values.end());
    attr = DenseElementsAttr::get(type, ArrayRef<float>(narrow));
  }
  return a.fl.b.create<ConstantOp>(a.fl.loc(a.where), attr);
}

Value selectAlong(OpArgs &a, Value x, int64_t dim, ArrayRef<int64_t> index) {
  Value i = indexConstant(a, index);
  Type t = inferIndexSelectType(x.getType(), i.getType(), dim, nullptr);
  return a.fl.b.create<IndexSelectOp>(a.fl.loc(a.where), t, x, i, dim);
}

/// How one spatial dim is resampled, as PyTorch's CPU kernels compute it
/// (UpSample.h: compute_scales_value, nearest_idx,
/// area_pixel_compute_source_index), in the precision `T` of the kernel's
/// scalar type: float for f32 (and the halves, computed in f32), double
/// for f64.
template <typename T> struct Resample {
  int64_t in, out;
  std::optional<double> scale; // the user's scale factor, if it is used
  bool alignCorners;

  T kernelScale() const {
    return scale ? static_cast<T>(1.0 / *scale)
                 : static_cast<T>(in) / static_cast<T>(out);
  }
  std::vector<int64_t> nearest() const {
    std::vector<int64_t> idx;
    for (int64_t o = 0; o < out; ++o) {
      T src = std::floor(static_cast<T>(o) * kernelScale());
      idx.push_back(in == out ? o
                              : std::min<int64_t>(static_cast<int64_t>(src),
                                                  in - 1));
    }
    return idx;
  }
  /// (index0, index1, lambda0, lambda1) per output position.
  void linear(std::vector<int64_t> &i0, std::vector<int64_t> &i1,
              std::vector<double> &l0, std::vector<double> &l1) const {
    T s = alignCorners ? (out > 1 ? static_cast<T>(in - 1) /
                                        static_cast<T>(out - 1)
                                  : T(0))
                       : kernelScale();
    for (int64_t o = 0; o < out; ++o) {
      T src = alignCorners ? s * static_cast<T>(o)
                           : s * (static_cast<T>(o) + T(0.5)) - T(0.5);
      if (src < 0)
        src = 0;
      int64_t k = static_cast<int64_t>(src);
      T lambda = std::min(src - static_cast<T>(k), T(1));
      i0.push_back(k);
      i1.push_back(k + (k < in - 1 ? 1 : 0));
      l0.push_back(static_cast<double>(T(1) - lambda));
      l1.push_back(static_cast<double>(lambda));
    }
  }
};

/// Resamples dim `dim` of `x` (float, f32 or f64): an index_select for
/// nearest, two and a weighted sum for linear.
template <typename T>
Value resampleDim(OpArgs &a, Value x, int64_t dim, const Resample<T> &r,
                  bool linear) {
  if (!linear)
    return selectAlong(a, x, dim, r.nearest());
  std::vector<int64_t> i0, i1;
  std::vector<double> l0, l1;
  r.linear(i0, i1, l0, l1);
  Type element = llvm::cast<RankedTensorType>(x.getType()).getElementType();
  bool column = dim + 1 < rankOf(x);
  Value lo = nn::binary(a.fl, "kiln.mul", selectAlong(a, x, dim, i0),
                        weightConstant(a, element, l0, column), a.where);
  Value hi = nn::binary(a.fl, "kiln.mul", selectAlong(a, x, dim, i1),
                        weightConstant(a, element, l1, column), a.where);
  return nn::binary(a.fl, "kiln.add", lo, hi, a.where);
}

/// The output size of each spatial dim, from `size` or `scale_factor`.
std::optional<std::vector<int64_t>>
outputSizes(OpArgs &a, ArrayRef<int64_t> in, std::optional<double> &scale) {
  bool hasSize = !a.isNone("size"), hasScale = !a.isNone("scale_factor");
  if (hasSize == hasScale) {
    a.fl.error(a.where, a.spelling + "() needs exactly one of size and "
                                     "scale_factor");
    return std::nullopt;
  }
  std::optional<double> v =
      a.constFloat(hasSize ? "size" : "scale_factor");
  if (!v)
    return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t n : in)
    out.push_back(hasSize ? static_cast<int64_t>(*v)
                          : static_cast<int64_t>(static_cast<double>(n) * *v));
  if (hasScale)
    scale = *v;
  for (int64_t n : out)
    if (n <= 0) {
      a.fl.error(a.where, a.spelling + "() gives an empty output size " +
                              std::to_string(n));
      return std::nullopt;
    }
  return out;
}

V interpolate(OpArgs &a) {
  Value x = a.value("self");
  auto t = llvm::cast<RankedTensorType>(x.getType());
  std::string mode = a.str("mode");
  bool linear = mode == "bilinear";
  if (mode != "nearest" && !linear) {
    a.fl.error(a.range("mode"), a.spelling + "() supports mode 'nearest' "
                                             "and 'bilinear', got '" +
                                    mode + "'");
    return std::nullopt;
  }
  Type element = t.getElementType();
  if (!llvm::isa<FloatType>(element) || (linear ? t.getRank() != 4
                                                : t.getRank() < 3 ||
                                                      t.getRank() > 5)) {
    a.fl.error(a.where, a.spelling + "() in '" + mode + "' mode takes a " +
                            (linear ? "4-D" : "3-D to 5-D") +
                            " float input (N, C, spatial...), got " +
                            a.fl.describe(PyValue::ofValue(x)));
    return std::nullopt;
  }
  bool align = false;
  if (!a.isNone("align_corners")) {
    if (!linear) {
      a.fl.error(a.range("align_corners"),
                 "align_corners option can only be set with the "
                 "interpolating modes: linear | bilinear | bicubic | "
                 "trilinear");
      return std::nullopt;
    }
    std::optional<double> c = a.constFloat("align_corners");
    if (!c)
      return std::nullopt;
    align = *c != 0;
  }
  bool recompute = false;
  if (a.row.schema().find("recompute_scale_factor") >= 0 &&
      !a.isNone("recompute_scale_factor")) {
    std::optional<double> c = a.constFloat("recompute_scale_factor");
    if (!c)
      return std::nullopt;
    recompute = *c != 0;
  }
  if (a.row.schema().find("antialias") >= 0) {
    std::optional<double> c = a.constFloat("antialias");
    if (!c)
      return std::nullopt;
    if (*c != 0) {
      a.fl.error(a.range("antialias"),
                 a.spelling + "() does not support antialias=True");
      return std::nullopt;
    }
  }
  std::vector<int64_t> in(t.getShape().begin() + 2, t.getShape().end());
  for (int64_t n : in)
    if (ShapedType::isDynamic(n)) {
      a.fl.error(a.where, a.spelling + "() needs static spatial sizes, got " +
                              a.fl.describe(PyValue::ofValue(x)));
      return std::nullopt;
    }
  std::optional<double> scale;
  std::optional<std::vector<int64_t>> out = outputSizes(a, in, scale);
  if (!out)
    return std::nullopt;
  if (recompute)
    scale.reset();
  // f16 and bf16 compute in f32, as PyTorch's opmath does.
  Location l = a.fl.loc(a.where);
  bool half = !element.isF32() && !element.isF64();
  if (half)
    x = a.fl.b.create<CastOp>(l, withElementType(t, a.fl.b.getF32Type()), x);
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t dim = 2 + i;
    if (element.isF64())
      x = resampleDim<double>(a, x, dim, {in[i], (*out)[i], scale, align},
                              linear);
    else
      x = resampleDim<float>(a, x, dim, {in[i], (*out)[i], scale, align},
                             linear);
  }
  if (half)
    x = a.fl.b.create<CastOp>(
        l, withElementType(x.getType(), element), x);
  return x;
}

V upsample(OpArgs &a) { return interpolate(a); }

//===--- pixel_shuffle, repeat, repeat_interleave -----------------------===//

/// An i64 size: a constant when both are, else a kiln op.
Value sizeOp(OpArgs &a, StringRef op, Value l, Value r) {
  std::optional<int64_t> x = a.fl.constIntValue(l), y = a.fl.constIntValue(r);
  // A product with 0 is 0 whatever the other size is (an empty repeat).
  if (op == "kiln.mul" && ((x && *x == 0) || (y && *y == 0)))
    return a.fl.constInt(0, a.where);
  if (x && y)
    return a.fl.constInt(op == "kiln.mul"        ? *x * *y
                         : op == "kiln.floordiv" ? *x / *y
                                                 : *x - *y,
                         a.where);
  return nn::binary(a.fl, op, l, r, a.where);
}

Value permuted(OpArgs &a, Value x, ArrayRef<int64_t> order) {
  std::string why;
  Type t = inferPermuteType(x.getType(), order, &why);
  assert(t && "a permutation of the tensor's dims");
  return a.fl.b.create<PermuteOp>(a.fl.loc(a.where), t, x, order);
}

/// pixel_shuffle: (*, C r^2, H, W) -> (*, C, H r, W r) as PyTorch's
/// decomposition does: view (*, C, r, r, H, W), permute to
/// (*, C, H, r, W, r), view. pixel_unshuffle is the inverse.
V pixelShuffle(OpArgs &a, bool unshuffle) {
  Value x = a.value("self");
  int64_t rank = rankOf(x);
  std::optional<double> factor =
      a.constFloat(unshuffle ? "downscale_factor" : "upscale_factor");
  if (!factor)
    return std::nullopt;
  int64_t r = static_cast<int64_t>(*factor);
  std::vector<Value> d = a.fl.dimValues(x, a.where);
  std::optional<int64_t> channels = a.fl.constIntValue(d[rank - 3]);
  if (rank < 3 || r <= 0 ||
      (!unshuffle && channels && *channels % (r * r))) {
    a.fl.error(a.where, a.spelling + "() needs a tensor of at least 3 dims "
                                     "whose channels divide by the factor "
                                     "squared, got " +
                            a.fl.describe(PyValue::ofValue(x)));
    return std::nullopt;
  }
  Value rv = a.fl.constInt(r, a.where);
  std::vector<Value> lead(d.begin(), d.end() - 3);
  Value c = d[rank - 3], h = d[rank - 2], w = d[rank - 1];
  int64_t n = lead.size();
  std::vector<Value> split = lead;
  SmallVector<int64_t> order;
  for (int64_t i = 0; i < n; ++i)
    order.push_back(i);
  std::vector<Value> joined = lead;
  if (!unshuffle) {
    Value oc = sizeOp(a, "kiln.floordiv", c, sizeOp(a, "kiln.mul", rv, rv));
    split.insert(split.end(), {oc, rv, rv, h, w});
    // (C, r1, r2, H, W) -> (C, H, r1, W, r2)
    for (int64_t i : {0, 3, 1, 4, 2})
      order.push_back(n + i);
    joined.insert(joined.end(), {oc, sizeOp(a, "kiln.mul", h, rv),
                                 sizeOp(a, "kiln.mul", w, rv)});
  } else {
    Value oh = sizeOp(a, "kiln.floordiv", h, rv);
    Value ow = sizeOp(a, "kiln.floordiv", w, rv);
    split.insert(split.end(), {c, oh, rv, ow, rv});
    // (C, H', r1, W', r2) -> (C, r1, r2, H', W')
    for (int64_t i : {0, 2, 4, 1, 3})
      order.push_back(n + i);
    joined.insert(joined.end(),
                  {sizeOp(a, "kiln.mul", c, sizeOp(a, "kiln.mul", rv, rv)), oh,
                   ow});
  }
  Value y = nn::reshape(a.fl, x, split, a.where);
  return nn::reshape(a.fl, permuted(a, y, order), joined, a.where);
}
V pixelShuffleRow(OpArgs &a) { return pixelShuffle(a, false); }
V pixelUnshuffleRow(OpArgs &a) { return pixelShuffle(a, true); }

/// x.repeat(sizes): x viewed as (1, d0, 1, d1, ...) (with leading 1s for
/// extra sizes), expanded to (s0, d0, s1, d1, ...), then viewed as
/// (s0 d0, s1 d1, ...): one copy, by the expand's materialization.
V repeat(OpArgs &a) {
  Value x = a.value("self");
  std::optional<std::vector<int64_t>> sizes = intsArg(a, "repeats");
  if (!sizes)
    return std::nullopt;
  int64_t rank = rankOf(x), m = sizes->size();
  if (m < rank) {
    a.fl.error(a.range("repeats"),
               "Number of dimensions of repeat dims can not be smaller than "
               "number of dimensions of tensor");
    return std::nullopt;
  }
  for (int64_t s : *sizes)
    if (s < 0) {
      a.fl.error(a.range("repeats"), a.spelling + "() repeats must be "
                                                  "non-negative");
      return std::nullopt;
    }
  std::vector<Value> d = a.fl.dimValues(x, a.where);
  d.insert(d.begin(), m - rank, a.fl.constInt(1, a.where));
  std::vector<Value> view, wide, out;
  for (int64_t i = 0; i < m; ++i) {
    Value s = a.fl.constInt((*sizes)[i], a.where);
    view.insert(view.end(), {a.fl.constInt(1, a.where), d[i]});
    wide.insert(wide.end(), {s, d[i]});
    out.push_back(sizeOp(a, "kiln.mul", s, d[i]));
  }
  auto et = llvm::cast<RankedTensorType>(x.getType()).getElementType();
  // A 0 repeat gives an empty tensor: made directly, since the views of
  // the general path would collapse a dynamic dim into a static 0.
  if (llvm::is_contained(*sizes, 0)) {
    SmallVector<int64_t> shape;
    for (Value v : out) {
      std::optional<int64_t> c = a.fl.constIntValue(v);
      shape.push_back(c ? *c : ShapedType::kDynamic);
    }
    return a.fl.b
        .create<FullOp>(a.fl.loc(a.where), RankedTensorType::get(shape, et),
                        a.fl.constInt(0, a.where), out)
        .getResult();
  }
  Value y = nn::reshape(a.fl, x, view, a.where);
  SmallVector<int64_t> shape;
  for (Value v : wide) {
    std::optional<int64_t> c = a.fl.constIntValue(v);
    shape.push_back(c ? *c : ShapedType::kDynamic);
  }
  y = a.fl.b.create<ExpandOp>(a.fl.loc(a.where),
                              RankedTensorType::get(shape, et), y, wide);
  return nn::reshape(a.fl, y, out, a.where);
}

/// repeat_interleave with an int: an index_select whose index repeats each
/// position, on a static dim; without dim, of the flattened tensor.
V repeatInterleave(OpArgs &a) {
  Value x = a.value("self");
  std::optional<double> r = a.constFloat("repeats");
  if (!r)
    return std::nullopt;
  int64_t dim = 0;
  if (a.isNone("dim")) {
    // Flattened; with static sizes the length is known, as the index
    // needs.
    auto st = llvm::cast<RankedTensorType>(x.getType());
    int64_t n = st.hasStaticShape() ? st.getNumElements() : -1;
    x = nn::reshape(a.fl, x, {a.fl.constInt(n, a.where)}, a.where);
  } else {
    std::optional<int64_t> d = dimArg(a, "dim", rankOf(x));
    if (!d)
      return std::nullopt;
    dim = *d;
  }
  auto t = llvm::cast<RankedTensorType>(x.getType());
  if (t.getRank() == 0 || t.isDynamicDim(dim) || *r < 0) {
    a.fl.error(a.where, a.spelling + "() needs a static size along the dim "
                                     "and non-negative repeats, got " +
                            a.fl.describe(PyValue::ofValue(x)));
    return std::nullopt;
  }
  std::vector<int64_t> index;
  for (int64_t i = 0; i < t.getDimSize(dim); ++i)
    index.insert(index.end(), static_cast<int64_t>(*r), i);
  return selectAlong(a, x, dim, index);
}

//===--- sort, topk ------------------------------------------------------===//

/// `x` with dims `d` and the last swapped (the identity when d is last).
Value toLast(OpArgs &a, Value x, int64_t d) {
  int64_t last = rankOf(x) - 1;
  if (d == last || last < 0)
    return x;
  std::string why;
  Type t = inferTransposeType(x.getType(), d, last, &why);
  return a.fl.b.create<TransposeOp>(a.fl.loc(a.where), t, x, d, last);
}

/// kiln.sort along `dim` (moved last and back): values and i64 indices.
std::optional<std::pair<Value, Value>> sortAlong(OpArgs &a, Value x,
                                                 int64_t dim,
                                                 bool descending) {
  std::string why;
  Value moved = toLast(a, x, dim);
  Type t = inferSortType(moved.getType(), &why);
  if (!inferred(a, t, why))
    return std::nullopt;
  Type it = withElementType(t, a.fl.b.getI64Type());
  auto sort = a.fl.b.create<SortOp>(a.fl.loc(a.where), TypeRange{t, it},
                                    moved, descending);
  return std::make_pair(toLast(a, sort.getValues(), dim),
                        toLast(a, sort.getIndices(), dim));
}

V sortRow(OpArgs &a) {
  Value x = a.value("self");
  std::optional<int64_t> dim = a.dim("dim", rankOf(x));
  std::optional<bool> descending = a.flag("descending");
  if (!dim || !descending)
    return std::nullopt;
  auto r = sortAlong(a, x, *dim, *descending);
  if (!r)
    return std::nullopt;
  a.tupleResult =
      PyValue::tuple({PyValue::ofValue(r->first), PyValue::ofValue(r->second)});
  return r->first;
}

/// topk: the first k of a stable sort, so that equal values come in input
/// order (PyTorch's CPU topk may order ties differently).
V topk(OpArgs &a) {
  Value x = a.value("self");
  std::optional<int64_t> dim = a.dim("dim", rankOf(x));
  std::optional<bool> largest = a.flag("largest");
  std::optional<int64_t> k = a.constInt("k");
  if (!dim || !largest || !k || !a.flag("sorted"))
    return std::nullopt;
  auto t = llvm::cast<RankedTensorType>(x.getType());
  int64_t n = t.getRank() ? t.getDimSize(*dim) : 1;
  if (*k < 0 || (!ShapedType::isDynamic(n) && *k > n)) {
    a.fl.error(a.range("k"), "selected index k out of range: k = " +
                                 std::to_string(*k) + " for a dim of size " +
                                 std::to_string(n));
    return std::nullopt;
  }
  auto r = sortAlong(a, x, *dim, *largest);
  if (!r)
    return std::nullopt;
  if (t.getRank() == 0) {
    a.tupleResult = PyValue::tuple(
        {PyValue::ofValue(r->first), PyValue::ofValue(r->second)});
    return r->first;
  }
  // A dynamic dim shorter than k gives fewer than k: the slice clamps.
  auto first = [&](Value v) {
    auto vt = llvm::cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(vt.getShape());
    shape[*dim] = *k;
    Value start = a.fl.constInt(0, a.where), end = a.fl.constInt(*k, a.where);
    Value step = a.fl.constInt(1, a.where);
    return a.fl.b
        .create<SliceOp>(a.fl.loc(a.where),
                         RankedTensorType::get(shape, vt.getElementType()), v,
                         start, end, step, *dim)
        .getResult();
  };
  Value values = first(r->first), indices = first(r->second);
  a.tupleResult =
      PyValue::tuple({PyValue::ofValue(values), PyValue::ofValue(indices)});
  return values;
}

} // namespace

// Spelling sets.
constexpr unsigned kTensorOp = Torch | Method;

std::vector<Row> indexingRows() {
  return {
      {"gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) "
       "-> Tensor",
       kTensorOp,
       nullptr,
       gather,
       NoFlags,
       {{"x=f32[B,6], i=i64[B,3]", "1, i"},
        {"x=f32[6,4], i=i64[2,3]", "0, i"},
        {"x=i64[B,5,7], i=i64[B,2,3]", "-1, i"},
        {"x=f32[B,6], i=i64[B,0]", "1, i"}}},
      {"index_select(Tensor self, int dim, Tensor index) -> Tensor",
       kTensorOp,
       nullptr,
       indexSelect,
       NoFlags,
       {{"x=f32[B,6], i=i64[4]", "1, i"},
        {"x=f32[5,B], i=i64[3]", "0, i"},
        {"x=i64[2,B,5], i=i64[N]", "-1, i"},
        {"x=f32[5,3], i=i64[0]", "0, i"}}},
      {"cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
       kTensorOp,
       nullptr,
       scan<CumsumOp>,
       NoFlags,
       {{"x=f32[B,7]", "1"},
        {"x=i64[N,3]", "0"},
        {"x=f32[4,B]", "-1, dtype=torch.float64"},
        {"x=bool[6]", "0"},
        {"x=f32[0,3]", "1"}}},
      {"cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
       kTensorOp,
       nullptr,
       scan<CumprodOp>,
       NoFlags,
       {{"x=f32[B,7]", "1", 0.5, 1.5},
        {"x=i64[N,3]", "0"},
        {"x=f64[4,B]", "-1", -2, 2}}},
      {"flip(Tensor self, int[] dims) -> Tensor",
       kTensorOp,
       nullptr,
       flip,
       NoFlags,
       {{"x=f32[B,4,3]", "[0, 2]"},
        {"x=i64[5]", "[-1]"},
        {"x=f32[B,3]", "[1]"},
        {"x=f32[0,3]", "[0, 1]"}}},
      {"roll(Tensor self, int[] shifts, int[] dims) -> Tensor",
       kTensorOp,
       nullptr,
       roll,
       NoFlags,
       {{"x=f32[B,5]", "2, 1"},
        {"x=f32[B,5]", "[-1, 7], [1, 0]"},
        {"x=i64[N,4]", "[3], [-2]"},
        {"x=f32[0,4]", "1, 0"}},
       {},
       0,
       0,
       "dims is required: rolling the flattened tensor is not supported"},
      {"pad(Tensor self, int[] pad, str mode='constant', Scalar? value=None) "
       "-> Tensor",
       Functional,
       nullptr,
       pad,
       NoFlags,
       {{"x=f32[B,3,5]", "[1, 2]"},
        {"x=f32[B,3,5]", "[2, 0, -1, 1], value=1.5"},
        {"x=i64[2,3,4,5]", "[1, 1, 0, 2, 1, 0], 'constant', 7.0"},
        {"x=f32[B,3,6]", "[2, 3], 'reflect'"},
        {"x=f32[2,3,4,5]", "[1, 3, 2, 2], mode='reflect'"},
        {"x=f64[B,3,4]", "[3, 1], 'replicate'"},
        {"x=f32[1,2,3,4,5]", "[1, 0, 2, 1, 0, 2], 'replicate'"},
        {"x=f32[B,0,4]", "[1, 1]"}},
       {},
       0,
       0,
       "the last 1-3 dims; reflect and replicate need static sizes"},
      {"interpolate(Tensor self, Scalar? size=None, Scalar? scale_factor=None, "
       "str mode='nearest', Scalar? align_corners=None, "
       "Scalar? recompute_scale_factor=None, bool antialias=False) -> Tensor",
       Functional,
       nullptr,
       interpolate,
       NoFlags,
       {{"x=f32[B,3,4,5]", "scale_factor=2.0"},
        {"x=f32[B,2,5,7]", "size=3"},
        {"x=f64[2,3,4,6]", "scale_factor=1.5, mode='nearest'"},
        {"x=f32[B,3,5]", "scale_factor=2.5"},
        {"x=f32[B,3,4,5]", "scale_factor=2.0, mode='bilinear'"},
        {"x=f32[B,2,5,7]", "size=9, mode='bilinear', align_corners=True"},
        {"x=f32[B,2,6,4]", "size=3, mode='bilinear', align_corners=False"},
        {"x=f64[2,3,4,6]", "scale_factor=0.6, mode='bilinear'"},
        {"x=f32[2,3,4,5]", "scale_factor=1.7, mode='bilinear', "
                           "recompute_scale_factor=True"}},
       {},
       0,
       0,
       "nearest (3-D to 5-D) and bilinear (4-D), static spatial sizes; size "
       "and scale_factor are one number for every spatial dim"},
      {"upsample(Tensor self, Scalar? size=None, Scalar? scale_factor=None, "
       "str mode='nearest', Scalar? align_corners=None) -> Tensor",
       Functional,
       nullptr,
       upsample,
       NoFlags,
       {{"x=f32[B,3,4,5]", "scale_factor=2.0"},
        {"x=f32[B,2,5,7]", "size=9, mode='bilinear', align_corners=True"}},
       {},
       0,
       0,
       "F.interpolate without recompute_scale_factor"},
      {"pixel_shuffle(Tensor self, int upscale_factor) -> Tensor",
       Torch | Functional,
       nullptr,
       pixelShuffleRow,
       NoFlags,
       {{"x=f32[B,8,3,5]", "2"}, {"x=f32[B,9,2,2]", "3"}, {"x=i64[4,2,3]", "2"}}},
      {"pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor",
       Torch | Functional,
       nullptr,
       pixelUnshuffleRow,
       NoFlags,
       {{"x=f32[B,2,6,4]", "2"}, {"x=f32[B,1,6,9]", "3"}}},
      {"repeat(Tensor self, int[] repeats) -> Tensor",
       Method,
       nullptr,
       repeat,
       NoFlags,
       {{"x=f32[B,3]", "[2, 3]"},
        {"x=i64[4]", "[2, 1, 3]"},
        {"x=f32[2,B]", "(1, 0)"}}},
      {"repeat_interleave(Tensor self, int repeats, Scalar? dim=None) -> Tensor",
       kTensorOp,
       nullptr,
       repeatInterleave,
       NoFlags,
       {{"x=f32[B,3]", "2, 1"}, {"x=i64[4,3]", "3, dim=-2"}, {"x=f32[2,3]", "2"}},
       {},
       0,
       0,
       "an int repeats on a static dim; dim is an int or None"},
      {"sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor, "
       "Tensor)",
       kTensorOp,
       nullptr,
       sortRow,
       NoFlags,
       {{"x=f32[B,7]"},
        {"x=f64[5,B]", "0, True"},
        {"x=f32[B,3,6]", "descending=True"},
        {"x=f32[6]", "-1"},
        {"x=f32[B,0]"}},
       {},
       0,
       0,
       "stable: equal values keep their input order (PyTorch's default "
       "sort does not promise that); quadratic in the sorted size"},
      {"topk(Tensor self, int k, int dim=-1, bool largest=True, "
       "bool sorted=True) -> (Tensor, Tensor)",
       kTensorOp,
       nullptr,
       topk,
       NoFlags,
       {{"x=f32[B,7]", "3"},
        {"x=f64[6,B]", "2, 0, False"},
        {"x=f32[B,3,6]", "1, largest=True"},
        {"x=f32[5]", "5, largest=False"}},
       {},
       0,
       0,
       "a stable sort's first k: ties in input order; k a constant"},
  };
}

} // namespace kiln::ops
