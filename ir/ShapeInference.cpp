//===- ShapeInference.cpp - result types of kiln ops ----------------------===//
//
// Broadcasting follows NumPy/PyTorch: shapes are aligned on the right and a
// size-1 dim stretches. Type promotion follows torch.result_type: operands
// fall into three tiers (dimensioned tensors, 0-d tensors, Python scalars);
// each tier is promoted on its own and then the tiers are combined so that a
// lower tier only matters when its category (bool < int < float) is higher.
//
//===----------------------------------------------------------------------===//

#include "ir/ShapeInference.h"
#include "ir/KilnDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kiln {

std::string printType(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (t)
    t.print(os);
  else
    os << "<<null type>>";
  return os.str();
}

static bool fail(std::string *why, const llvm::Twine &message) {
  if (why)
    *why = message.str();
  return false;
}

bool isScalarType(Type t) {
  return t && (t.isInteger(64) || t.isF64() || t.isInteger(1));
}

Type getElementTypeOrSelf(Type t) {
  if (auto shaped = llvm::dyn_cast_or_null<ShapedType>(t))
    return shaped.getElementType();
  return t;
}

Type withElementType(Type t, Type elementType) {
  if (auto tensor = llvm::dyn_cast_or_null<RankedTensorType>(t))
    return RankedTensorType::get(tensor.getShape(), elementType);
  if (auto tensor = llvm::dyn_cast_or_null<UnrankedTensorType>(t))
    return UnrankedTensorType::get(elementType);
  return elementType;
}

static std::string describeElement(Type e) {
  if (e.isF16())
    return "f16";
  if (e.isBF16())
    return "bf16";
  if (e.isF32())
    return "f32";
  if (e.isF64())
    return "f64";
  if (e.isInteger(1))
    return "bool";
  if (e.isInteger(32))
    return "i32";
  if (e.isInteger(64))
    return "i64";
  return printType(e);
}

std::string describeType(Type t) {
  if (!t)
    return "<<null type>>";
  if (t.isInteger(64))
    return "int";
  if (t.isF64())
    return "float";
  if (t.isInteger(1))
    return "bool";
  if (auto tensor = llvm::dyn_cast<RankedTensorType>(t)) {
    std::string s = "Tensor[" + describeElement(tensor.getElementType()) + ", ";
    if (tensor.getRank() == 0)
      s += "()";
    for (auto [i, d] : llvm::enumerate(tensor.getShape())) {
      if (i)
        s += "x";
      s += ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
    }
    return s + "]";
  }
  if (auto list = llvm::dyn_cast<ListType>(t))
    return "List[" + describeType(list.getElementType()) + "]";
  return printType(t);
}

//===----------------------------------------------------------------------===//
// Type promotion
//===----------------------------------------------------------------------===//

namespace {
enum Category { Bool = 0, Int = 1, Float = 2 };
} // namespace

static int categoryOf(Type e) {
  if (e.isInteger(1))
    return Bool;
  if (llvm::isa<IntegerType>(e))
    return Int;
  if (llvm::isa<FloatType>(e))
    return Float;
  return -1;
}

static bool isKilnElementType(Type e) {
  return e.isF16() || e.isBF16() || e.isF32() || e.isF64() ||
         e.isInteger(1) || e.isInteger(32) || e.isInteger(64);
}

/// torch.promote_types for the dtypes kiln supports. Null counts as
/// "undefined" and yields the other type.
static Type promoteTypes(Type a, Type b) {
  if (!a)
    return b;
  if (!b || a == b)
    return a;
  int ca = categoryOf(a), cb = categoryOf(b);
  if (ca != cb)
    return ca > cb ? a : b;
  unsigned wa = a.getIntOrFloatBitWidth(), wb = b.getIntOrFloatBitWidth();
  if (wa != wb)
    return wa > wb ? a : b;
  // f16 and bf16: neither holds the other.
  return Float32Type::get(a.getContext());
}

/// PyTorch's combine_categories(higher, lower).
static Type combineTiers(Type higher, Type lower) {
  if (!higher)
    return lower;
  if (!lower)
    return higher;
  if (categoryOf(higher) == Float)
    return higher;
  if (categoryOf(higher) == Bool || categoryOf(lower) == Float)
    return promoteTypes(higher, lower);
  return higher;
}

static bool checkTensorOrScalar(Type t, std::string *why) {
  if (isScalarType(t))
    return true;
  auto tensor = llvm::dyn_cast_or_null<RankedTensorType>(t);
  if (!tensor)
    return fail(why, "expected a ranked tensor or a Python scalar, got " +
                         printType(t));
  if (!isKilnElementType(tensor.getElementType()))
    return fail(why, "unsupported tensor element type in " + printType(t));
  return true;
}

/// Broadcasts two shapes; `what` prefixes the error.
static bool broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                            SmallVectorImpl<int64_t> &out, Type ta, Type tb,
                            const char *what, std::string *why) {
  size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
    int64_t db = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
    bool dynA = ShapedType::isDynamic(da), dynB = ShapedType::isDynamic(db);
    if (dynA && dynB)
      out[i] = ShapedType::kDynamic;
    else if (dynA)
      out[i] = db == 1 ? ShapedType::kDynamic : db;
    else if (dynB)
      out[i] = da == 1 ? ShapedType::kDynamic : da;
    else if (da == db || db == 1)
      out[i] = da;
    else if (da == 1)
      out[i] = db;
    else
      return fail(why, llvm::Twine(what) + ": " + printType(ta) + " and " +
                           printType(tb) + " differ in dimension " +
                           llvm::Twine(i) + " (" + llvm::Twine(da) + " vs " +
                           llvm::Twine(db) + ")");
  }
  return true;
}

Type inferElementwiseType(ElementwiseKind kind, Type lhs, Type rhs,
                          std::string *why) {
  if (!checkTensorOrScalar(lhs, why) || !checkTensorOrScalar(rhs, why))
    return {};
  MLIRContext *ctx = lhs.getContext();
  Type el = getElementTypeOrSelf(lhs), er = getElementTypeOrSelf(rhs);
  Type i1 = IntegerType::get(ctx, 1);

  if (kind == ElementwiseKind::Bitwise &&
      (categoryOf(el) == Float || categoryOf(er) == Float)) {
    fail(why, "bitwise operations need bool or int operands, got " +
                  printType(lhs) + " and " + printType(rhs));
    return {};
  }

  // Python scalar op Python scalar.
  if (isScalarType(lhs) && isScalarType(rhs)) {
    switch (kind) {
    case ElementwiseKind::Compare:
      return i1;
    case ElementwiseKind::TrueDiv:
      return Float64Type::get(ctx);
    case ElementwiseKind::Bitwise:
      return lhs.isInteger(1) && rhs.isInteger(1) ? i1
                                                  : IntegerType::get(ctx, 64);
    case ElementwiseKind::Arith:
      if (lhs.isF64() || rhs.isF64())
        return Float64Type::get(ctx);
      return IntegerType::get(ctx, 64);
    }
  }

  // At least one tensor: sort the operands into PyTorch's tiers.
  Type dimTier, zeroTier, scalarTier;
  for (Type t : {lhs, rhs}) {
    if (auto tensor = llvm::dyn_cast<RankedTensorType>(t)) {
      Type &tier = tensor.getRank() == 0 ? zeroTier : dimTier;
      tier = promoteTypes(tier, tensor.getElementType());
    } else {
      // A Python float is the default dtype, f32.
      scalarTier = promoteTypes(scalarTier, t.isF64() ? Float32Type::get(ctx) : t);
    }
  }
  Type dtype = combineTiers(dimTier, combineTiers(zeroTier, scalarTier));

  ArrayRef<int64_t> sl, sr;
  if (auto t = llvm::dyn_cast<RankedTensorType>(lhs))
    sl = t.getShape();
  if (auto t = llvm::dyn_cast<RankedTensorType>(rhs))
    sr = t.getShape();
  SmallVector<int64_t> shape;
  if (!broadcastShapes(sl, sr, shape, lhs, rhs,
                       "operands are not broadcast-compatible", why))
    return {};

  if (kind == ElementwiseKind::Compare)
    dtype = i1;
  else if (kind == ElementwiseKind::TrueDiv && categoryOf(dtype) != Float)
    dtype = Float32Type::get(ctx);
  return RankedTensorType::get(shape, dtype);
}

Type inferMatmulType(Type lhs, Type rhs, std::string *why) {
  auto lt = llvm::dyn_cast_or_null<RankedTensorType>(lhs);
  auto rt = llvm::dyn_cast_or_null<RankedTensorType>(rhs);
  auto both = [&] { return printType(lhs) + " and " + printType(rhs); };
  if (!lt || !rt || lt.getRank() == 0 || rt.getRank() == 0) {
    fail(why, "matmul operands must be tensors with at least one dimension, "
              "got " + both());
    return {};
  }
  if (lt.getElementType() != rt.getElementType()) {
    fail(why, "matmul operands must have the same element type, got " + both());
    return {};
  }
  if (lt.getElementType().isInteger(1)) {
    fail(why, "matmul does not support bool tensors, got " + both());
    return {};
  }
  SmallVector<int64_t> a(lt.getShape()), b(rt.getShape());
  bool lhsVector = a.size() == 1, rhsVector = b.size() == 1;
  if (lhsVector)
    a.insert(a.begin(), 1);
  if (rhsVector)
    b.push_back(1);
  int64_t k1 = a.back(), k2 = b[b.size() - 2];
  if (!ShapedType::isDynamic(k1) && !ShapedType::isDynamic(k2) && k1 != k2) {
    fail(why, "matmul contraction dimensions differ: " + both() + " (" +
                  std::to_string(k1) + " vs " + std::to_string(k2) + ")");
    return {};
  }
  SmallVector<int64_t> batch;
  if (!broadcastShapes(ArrayRef<int64_t>(a).drop_back(2),
                       ArrayRef<int64_t>(b).drop_back(2), batch, lhs, rhs,
                       "matmul batch dimensions are not broadcast-compatible",
                       why))
    return {};
  if (!lhsVector)
    batch.push_back(a[a.size() - 2]);
  if (!rhsVector)
    batch.push_back(b.back());
  return RankedTensorType::get(batch, lt.getElementType());
}

Type inferReduceType(Type input, ArrayRef<int64_t> dims, bool keepdim,
                     bool toI64ForInts, std::string *why) {
  auto t = llvm::dyn_cast_or_null<RankedTensorType>(input);
  if (!t) {
    fail(why, "reductions need a ranked tensor, got " + printType(input));
    return {};
  }
  int64_t rank = t.getRank();
  SmallVector<bool> reduced(rank, dims.empty());
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= rank) {
      fail(why, "reduction dim " + std::to_string(d) + " is out of range for " +
                    printType(input) + " (rank " + std::to_string(rank) + ")");
      return {};
    }
    if (i > 0 && d <= dims[i - 1]) {
      fail(why, "reduction dims must be sorted and unique, got " +
                    std::to_string(dims[i - 1]) + " before " +
                    std::to_string(d));
      return {};
    }
    reduced[d] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i])
      shape.push_back(t.getDimSize(i));
    else if (keepdim)
      shape.push_back(1);
  }
  Type element = t.getElementType();
  if (toI64ForInts && llvm::isa<IntegerType>(element))
    element = IntegerType::get(input.getContext(), 64);
  return RankedTensorType::get(shape, element);
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

/// Checks that `input` is a ranked tensor and 0 <= dim < rank + extra.
static RankedTensorType checkDim(Type input, int64_t dim, int64_t extra,
                                 const char *op, std::string *why) {
  auto t = llvm::dyn_cast_or_null<RankedTensorType>(input);
  if (!t) {
    fail(why, llvm::Twine(op) + " needs a ranked tensor, got " +
                  printType(input));
    return {};
  }
  if (dim < 0 || dim >= t.getRank() + extra) {
    fail(why, llvm::Twine(op) + " dim " + llvm::Twine(dim) +
                  " is out of range for " + printType(input) + " (rank " +
                  llvm::Twine(t.getRank()) + ")");
    return {};
  }
  return t;
}

Type inferSelectType(Type input, int64_t dim, std::string *why) {
  auto t = checkDim(input, dim, 0, "select", why);
  if (!t)
    return {};
  SmallVector<int64_t> shape(t.getShape());
  shape.erase(shape.begin() + dim);
  return RankedTensorType::get(shape, t.getElementType());
}

Type inferUnsqueezeType(Type input, int64_t dim, std::string *why) {
  auto t = checkDim(input, dim, 1, "unsqueeze", why);
  if (!t)
    return {};
  SmallVector<int64_t> shape(t.getShape());
  shape.insert(shape.begin() + dim, 1);
  return RankedTensorType::get(shape, t.getElementType());
}

Type inferSqueezeType(Type input, int64_t dim, std::string *why) {
  auto t = checkDim(input, dim, 0, "squeeze", why);
  if (!t)
    return {};
  int64_t size = t.getDimSize(dim);
  if (!ShapedType::isDynamic(size) && size != 1) {
    fail(why, "squeeze dim " + std::to_string(dim) + " of " + printType(input) +
                  " has size " + std::to_string(size) + ", not 1");
    return {};
  }
  SmallVector<int64_t> shape(t.getShape());
  shape.erase(shape.begin() + dim);
  return RankedTensorType::get(shape, t.getElementType());
}

Type inferTransposeType(Type input, int64_t dim0, int64_t dim1,
                        std::string *why) {
  auto t = checkDim(input, dim0, 0, "transpose", why);
  if (!t || !checkDim(input, dim1, 0, "transpose", why))
    return {};
  SmallVector<int64_t> shape(t.getShape());
  std::swap(shape[dim0], shape[dim1]);
  return RankedTensorType::get(shape, t.getElementType());
}

Type inferPermuteType(Type input, ArrayRef<int64_t> dims, std::string *why) {
  auto t = llvm::dyn_cast_or_null<RankedTensorType>(input);
  if (!t) {
    fail(why, "permute needs a ranked tensor, got " + printType(input));
    return {};
  }
  int64_t rank = t.getRank();
  SmallVector<bool> seen(rank, false);
  bool ok = static_cast<int64_t>(dims.size()) == rank;
  for (int64_t d : dims) {
    if (!ok || d < 0 || d >= rank || seen[d]) {
      ok = false;
      break;
    }
    seen[d] = true;
  }
  if (!ok) {
    std::string list;
    for (auto [i, d] : llvm::enumerate(dims))
      list += (i ? ", " : "") + std::to_string(d);
    fail(why, "permute dims [" + list + "] are not a permutation of the " +
                  std::to_string(rank) + " dims of " + printType(input));
    return {};
  }
  SmallVector<int64_t> shape;
  for (int64_t d : dims)
    shape.push_back(t.getDimSize(d));
  return RankedTensorType::get(shape, t.getElementType());
}

Type inferStackType(Type elementType, int64_t dim, std::string *why) {
  auto t = checkDim(elementType, dim, 1, "stack", why);
  if (!t)
    return {};
  SmallVector<int64_t> shape(t.getShape());
  shape.insert(shape.begin() + dim, ShapedType::kDynamic);
  return RankedTensorType::get(shape, t.getElementType());
}

Type inferCatType(Type elementType, int64_t dim, std::string *why) {
  auto t = checkDim(elementType, dim, 0, "cat", why);
  if (!t)
    return {};
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] = ShapedType::kDynamic;
  return RankedTensorType::get(shape, t.getElementType());
}

bool isCompatibleResultType(Type inferred, Type actual, std::string *why) {
  auto mismatch = [&](const llvm::Twine &detail) {
    return fail(why, "result type " + printType(actual) +
                         " contradicts the inferred type " +
                         printType(inferred) + detail);
  };
  auto ti = llvm::dyn_cast_or_null<RankedTensorType>(inferred);
  auto ta = llvm::dyn_cast_or_null<RankedTensorType>(actual);
  if (!ti || !ta)
    return inferred == actual || mismatch("");
  if (ti.getElementType() != ta.getElementType())
    return mismatch(" (element type)");
  if (ti.getRank() != ta.getRank())
    return mismatch(" (rank)");
  for (int64_t i = 0; i < ti.getRank(); ++i) {
    int64_t a = ta.getDimSize(i), b = ti.getDimSize(i);
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
      return mismatch(" in dimension " + llvm::Twine(i) + " (" +
                      llvm::Twine(a) + " vs " + llvm::Twine(b) + ")");
  }
  return true;
}

} // namespace kiln

//===----------------------------------------------------------------------===//
// Neural-network ops
//===----------------------------------------------------------------------===//

namespace kiln {

static std::string pairText(ArrayRef<int64_t> v) {
  std::string out = "(";
  for (size_t i = 0; i < v.size(); ++i)
    out += (i ? ", " : "") + std::to_string(v[i]);
  return out + ")";
}

/// Checks that each of the windowing attributes holds two values in range.
static bool checkWindow(ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                        ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
                        const char *op, std::string *why) {
  for (auto [name, v, min] :
       {std::tuple<const char *, ArrayRef<int64_t>, int64_t>{"kernel size",
                                                            kernel, 1},
        {"stride", stride, 1},
        {"padding", padding, 0},
        {"dilation", dilation, 1}})
    if (v.size() != 2 || v[0] < min || v[1] < min)
      return fail(why, llvm::Twine(op) + " " + name + " must be two values >= " +
                           llvm::Twine(min) + ", got " + pairText(v));
  return true;
}

/// One spatial output size, or ? for a dynamic input size.
static int64_t windowOutput(int64_t in, int64_t kernel, int64_t stride,
                            int64_t pad, int64_t dilation, bool ceilMode) {
  if (ShapedType::isDynamic(in))
    return ShapedType::kDynamic;
  // PyTorch's pooling_output_shape, with division rounding toward -inf.
  int64_t span = in + 2 * pad - dilation * (kernel - 1) - 1 +
                 (ceilMode ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  // With ceil_mode the last window must start inside the input or the left
  // padding.
  if (ceilMode && (out - 1) * stride >= in + pad)
    --out;
  return out;
}

/// True when a static output size leaves no window at all.
static bool noWindow(int64_t out) {
  return !ShapedType::isDynamic(out) && out <= 0;
}

Type inferConv2dType(Type input, Type weight, ArrayRef<int64_t> stride,
                     ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
                     int64_t groups, std::string *why) {
  auto in = llvm::dyn_cast_or_null<RankedTensorType>(input);
  auto w = llvm::dyn_cast_or_null<RankedTensorType>(weight);
  auto both = [&] { return printType(input) + " and " + printType(weight); };
  if (!in || !w || in.getRank() != 4 || w.getRank() != 4) {
    fail(why, "conv2d takes a 4-D input (N, C, H, W) and a 4-D weight "
              "(O, C/groups, KH, KW), got " + both());
    return {};
  }
  if (in.getElementType() != w.getElementType() ||
      !llvm::isa<FloatType>(in.getElementType())) {
    fail(why, "conv2d needs float input and weight of one dtype, got " +
                  both());
    return {};
  }
  if (!checkWindow({1, 1}, stride, padding, dilation, "conv2d", why))
    return {};
  int64_t outC = w.getDimSize(0), inC = in.getDimSize(1);
  if (groups < 1 || (!ShapedType::isDynamic(outC) && outC % groups != 0)) {
    fail(why, "conv2d groups must be >= 1 and divide the " +
                  std::to_string(outC) + " output channels, got " +
                  std::to_string(groups));
    return {};
  }
  if (!ShapedType::isDynamic(inC) && !ShapedType::isDynamic(w.getDimSize(1)) &&
      inC != w.getDimSize(1) * groups) {
    fail(why, "conv2d expects " + std::to_string(w.getDimSize(1) * groups) +
                  " input channels (weight " + printType(weight) + ", groups " +
                  std::to_string(groups) + "), got " + printType(input));
    return {};
  }
  SmallVector<int64_t> shape = {in.getDimSize(0), outC};
  for (int i = 0; i < 2; ++i) {
    int64_t k = w.getDimSize(2 + i);
    if (ShapedType::isDynamic(k)) {
      fail(why, "conv2d needs a static kernel size, got " + printType(weight));
      return {};
    }
    int64_t out = windowOutput(in.getDimSize(2 + i), k, stride[i], padding[i],
                               dilation[i], false);
    if (noWindow(out)) {
      fail(why, "conv2d kernel " + printType(weight) +
                    " is larger than the padded input " + printType(input));
      return {};
    }
    shape.push_back(out);
  }
  return RankedTensorType::get(shape, in.getElementType());
}

Type inferPool2dType(Type input, ArrayRef<int64_t> kernel,
                     ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                     ArrayRef<int64_t> dilation, bool ceilMode,
                     std::string *why) {
  auto in = llvm::dyn_cast_or_null<RankedTensorType>(input);
  if (!in || in.getRank() != 4) {
    fail(why, "pooling takes a 4-D input (N, C, H, W), got " +
                  printType(input));
    return {};
  }
  if (!llvm::isa<FloatType>(in.getElementType())) {
    fail(why, "pooling needs a float input, got " + printType(input));
    return {};
  }
  if (!checkWindow(kernel, stride, padding, dilation, "pooling", why))
    return {};
  for (int i = 0; i < 2; ++i)
    if (padding[i] * 2 > kernel[i]) {
      fail(why, "pooling padding " + pairText(padding) +
                    " must be at most half the kernel size " +
                    pairText(kernel));
      return {};
    }
  SmallVector<int64_t> shape = {in.getDimSize(0), in.getDimSize(1)};
  for (int i = 0; i < 2; ++i) {
    int64_t out = windowOutput(in.getDimSize(2 + i), kernel[i], stride[i],
                               padding[i], dilation[i], ceilMode);
    if (noWindow(out)) {
      fail(why, "pooling window " + pairText(kernel) +
                    " is larger than the padded input " + printType(input));
      return {};
    }
    shape.push_back(out);
  }
  return RankedTensorType::get(shape, in.getElementType());
}

Type inferWhereType(Type condition, Type lhs, Type rhs, std::string *why) {
  if (!getElementTypeOrSelf(condition).isInteger(1)) {
    fail(why, "where() needs a bool condition, got " + printType(condition));
    return {};
  }
  if (!llvm::isa<RankedTensorType>(condition) &&
      !llvm::isa<RankedTensorType>(lhs) && !llvm::isa<RankedTensorType>(rhs)) {
    fail(why, "where() needs at least one tensor operand");
    return {};
  }
  Type values = inferElementwiseType(ElementwiseKind::Arith, lhs, rhs, why);
  if (!values)
    return {};
  // A scalar condition has no shape to add.
  if (!llvm::isa<RankedTensorType>(condition))
    return llvm::isa<RankedTensorType>(values)
               ? values
               : RankedTensorType::get({}, values);
  // Broadcast the condition's shape in without changing the element type.
  Type shaped = inferElementwiseType(
      ElementwiseKind::Arith,
      withElementType(condition, getElementTypeOrSelf(values)), values, why);
  if (!shaped)
    return {};
  if (!llvm::isa<RankedTensorType>(shaped))
    return RankedTensorType::get({}, shaped);
  return withElementType(shaped, getElementTypeOrSelf(values));
}

Type inferEmbeddingType(Type weight, Type indices, std::string *why) {
  auto w = llvm::dyn_cast_or_null<RankedTensorType>(weight);
  auto idx = llvm::dyn_cast_or_null<RankedTensorType>(indices);
  if (!w || w.getRank() != 2) {
    fail(why, "embedding weight must be a 2-D tensor, got " +
                  printType(weight));
    return {};
  }
  if (!idx || !(idx.getElementType().isInteger(64) ||
                idx.getElementType().isInteger(32))) {
    fail(why, "embedding indices must be an int32 or int64 tensor, got " +
                  printType(indices));
    return {};
  }
  SmallVector<int64_t> shape(idx.getShape());
  shape.push_back(w.getDimSize(1));
  return RankedTensorType::get(shape, w.getElementType());
}

//===----------------------------------------------------------------------===//
// Indexing, scans and reordering
//===----------------------------------------------------------------------===//

static bool isIndexTensor(RankedTensorType t) {
  return t && (t.getElementType().isInteger(64) ||
               t.getElementType().isInteger(32));
}

Type inferGatherType(Type input, Type index, int64_t dim, std::string *why) {
  auto t = checkDim(input, dim, 0, "gather", why);
  if (!t)
    return {};
  auto idx = llvm::dyn_cast_or_null<RankedTensorType>(index);
  if (!isIndexTensor(idx)) {
    fail(why, "gather index must be an int32 or int64 tensor, got " +
                  printType(index));
    return {};
  }
  if (idx.getRank() != t.getRank()) {
    fail(why, "gather index " + printType(index) +
                  " must have the rank of the input " + printType(input));
    return {};
  }
  for (int64_t d = 0; d < t.getRank(); ++d) {
    int64_t n = idx.getDimSize(d), m = t.getDimSize(d);
    if (d != dim && !ShapedType::isDynamic(n) && !ShapedType::isDynamic(m) &&
        n > m) {
      fail(why, "gather index " + printType(index) + " is larger than the "
                    "input " + printType(input) + " in dimension " +
                    std::to_string(d));
      return {};
    }
  }
  return RankedTensorType::get(idx.getShape(), t.getElementType());
}

Type inferIndexSelectType(Type input, Type index, int64_t dim,
                          std::string *why) {
  auto t = checkDim(input, dim, 0, "index_select", why);
  if (!t)
    return {};
  auto idx = llvm::dyn_cast_or_null<RankedTensorType>(index);
  if (!isIndexTensor(idx) || idx.getRank() > 1) {
    fail(why, "index_select index must be a 0-D or 1-D int32 or int64 "
              "tensor, got " +
                  printType(index));
    return {};
  }
  SmallVector<int64_t> shape(t.getShape());
  shape[dim] = idx.getRank() ? idx.getDimSize(0) : 1;
  return RankedTensorType::get(shape, t.getElementType());
}

Type inferScanType(Type input, int64_t dim, Type dtype, std::string *why) {
  auto t = llvm::dyn_cast_or_null<RankedTensorType>(input);
  // A 0-D tensor scans as one element, as PyTorch allows dim 0 or -1.
  if (!t || (t.getRank() ? !checkDim(input, dim, 0, "scan", why) : dim != 0)) {
    if (t && !t.getRank())
      fail(why, "scan dim " + std::to_string(dim) + " is out of range for " +
                    printType(input) + " (rank 0)");
    else if (!t)
      fail(why, "scan needs a ranked tensor, got " + printType(input));
    return {};
  }
  Type element = t.getElementType();
  if (dtype)
    element = dtype;
  else if (llvm::isa<IntegerType>(element))
    element = IntegerType::get(input.getContext(), 64);
  return RankedTensorType::get(t.getShape(), element);
}

Type inferFlipType(Type input, ArrayRef<int64_t> dims, std::string *why) {
  auto t = llvm::dyn_cast_or_null<RankedTensorType>(input);
  if (!t) {
    fail(why, "flip needs a ranked tensor, got " + printType(input));
    return {};
  }
  SmallVector<bool> seen(t.getRank(), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= t.getRank() || seen[d]) {
      fail(why, "flip dim " + std::to_string(d) +
                    (d >= 0 && d < t.getRank() ? " repeats" : " is out of range") +
                    " for " + printType(input));
      return {};
    }
    seen[d] = true;
  }
  return t;
}

Type inferSortType(Type input, std::string *why) {
  auto t = llvm::dyn_cast_or_null<RankedTensorType>(input);
  if (!t || t.getElementType().isInteger(1)) {
    fail(why, "sort needs a numeric tensor, got " + printType(input));
    return {};
  }
  return t;
}

} // namespace kiln
