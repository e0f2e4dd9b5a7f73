//===- OpTableResample.cpp - Op-table builders: padding, resampling ------===//
//
// The builders of prelude/resample.py's rows that need kiln's IR:
// constant_pad_nd (F.pad's constant mode), a cat with kiln.full per padded
// dim, which works on dynamic sizes; F.interpolate,
// index_selects (nearest) and weighted sums of two (linear) per spatial dim
// whose positions are computed here in the precision of the input's dtype,
// as PyTorch's kernels do; and repeat, a view, an expand and a view, whose
// sizes have one entry per dim of any rank. The other resampling ops are
// Python in the prelude.
//
// The arguments that shape an op (pads, sizes, factors) must be
// compile-time constants, read with OpTableIndexingArgs.h's readers.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerNNSupport.h"
#include "frontend/OpFamilies.h"
#include "frontend/OpTableIndexingArgs.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;

namespace kiln::ops {

namespace {
using V = std::optional<Value>;
using indexing::intsArg;
using indexing::rankOf;

//===--- constant_pad_nd -------------------------------------------------===//

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

/// constant_pad_nd, F.pad's constant mode: each (left, right) pair, from
/// the last dim backwards, is a constant pad of its dim.
V constantPadNd(OpArgs &a) {
  Value x = a.value("self");
  std::optional<std::vector<int64_t>> pads = intsArg(a, "pad");
  if (!pads)
    return std::nullopt;
  int64_t rank = rankOf(x);
  size_t dims = pads->size() / 2;
  if (pads->size() % 2 || static_cast<int64_t>(dims) > rank) {
    a.fl.error(a.range("pad"), a.spelling +
                                   "() pad must hold a (left, right) pair per "
                                   "padded dim, at most the input's rank");
    return std::nullopt;
  }
  for (size_t k = 0; k < dims; ++k)
    x = padConstant(a, x, rank - 1 - k, (*pads)[2 * k], (*pads)[2 * k + 1],
                    a.value("value"));
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
  if (!a.isNone("recompute_scale_factor")) {
    std::optional<double> c = a.constFloat("recompute_scale_factor");
    if (!c)
      return std::nullopt;
    recompute = *c != 0;
  }
  std::optional<double> antialias = a.constFloat("antialias");
  if (!antialias)
    return std::nullopt;
  if (*antialias != 0) {
    a.fl.error(a.range("antialias"),
               a.spelling + "() does not support antialias=True");
    return std::nullopt;
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

//===--- repeat -----------------------------------------------------------===//

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

} // namespace

std::vector<NamedBuilder> resampleBuilders() {
  return {{"constant_pad_nd", constantPadNd},
          {"interpolate", interpolate},
          {"repeat", repeat}};
}

} // namespace kiln::ops
