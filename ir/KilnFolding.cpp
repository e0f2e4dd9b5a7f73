//===- KilnFolding.cpp - folders of kiln ops ------------------------------===//
//
// A folder must never change what a program computes, so every constant fold
// here evaluates an op exactly as its generated code would
// (codegen/lowering/ElementwiseOps.cpp): operands are converted to the op's
// compute type as convertScalar does, half-precision math runs in f32, and
// the result is converted back to the result type. Python's `//` and `%`
// round toward negative infinity. Where the generated code reports an error
// or is undefined (division by zero, INT_MIN // -1, int ** negative int, a
// float that does not fit the int it is cast to) nothing is folded, so the
// run time still says what went wrong. Transcendental functions are computed
// in double precision and rounded once, which is at least as accurate as the
// polynomial approximations of the generated code.
//
// Folded tensors are capped at kMaxFoldedElements elements, splats included:
// bufferization turns every constant into a global of its full size, and the
// archive must not grow with the folder's enthusiasm.
//
// Identities fold only when they hold for every value, NaN, infinities and
// signed zeros included, and when the replacement has exactly the op's
// result type. That is why x - x and x * 0 are never folded (NaN and inf),
// and neither is a float x + 0.0 (-0.0 + 0.0 is +0.0).
//
//===----------------------------------------------------------------------===//

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/SmallVectorExtras.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace kiln;
using llvm::APIntOps::smax;
using llvm::APIntOps::smin;

/// The most elements a folder may produce.
static constexpr int64_t kMaxFoldedElements = 1024;

//===----------------------------------------------------------------------===//
// Elements and conversions
//===----------------------------------------------------------------------===//

namespace {
/// One element of a constant: an integer (i1, i32, i64) or a float.
struct Num {
  APInt i;
  APFloat f{0.0};
  bool isFloat = false;

  static Num ofInt(APInt v) { return {std::move(v), APFloat(0.0), false}; }
  static Num ofFloat(APFloat v) { return {APInt(), std::move(v), true}; }
};
} // namespace

using ElementFn = llvm::function_ref<std::optional<Num>(ArrayRef<Num>)>;

/// Half-precision math runs in f32, as in the generated code.
static Type widenHalf(Type type) {
  if (type.isF16() || type.isBF16())
    return Float32Type::get(type.getContext());
  return type;
}

/// `v` converted to `to` as codegen's convertScalar converts it; nullopt
/// where the generated code is undefined (a float that does not fit an int).
static std::optional<Num> convert(const Num &v, Type to) {
  if (auto toInt = llvm::dyn_cast<IntegerType>(to)) {
    unsigned width = toInt.getWidth();
    if (width == 1) // bool(x) is x != 0, and bool(NaN) is True
      return Num::ofInt(APInt(1, v.isFloat ? !v.f.isZero() : !v.i.isZero()));
    if (!v.isFloat)
      return Num::ofInt(v.i.getBitWidth() == 1 ? v.i.zext(width)
                                               : v.i.sextOrTrunc(width));
    APSInt result(width, /*isUnsigned=*/false);
    bool exact;
    if (v.f.convertToInteger(result, APFloat::rmTowardZero, &exact) &
        APFloat::opInvalidOp)
      return std::nullopt;
    return Num::ofInt(result);
  }
  const llvm::fltSemantics &semantics =
      llvm::cast<FloatType>(to).getFloatSemantics();
  APFloat result = v.isFloat ? v.f : APFloat(semantics);
  bool losesInfo;
  if (v.isFloat)
    result.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  else // bools convert as unsigned
    result.convertFromAPInt(v.i, v.i.getBitWidth() != 1,
                            APFloat::rmNearestTiesToEven);
  return Num::ofFloat(result);
}

/// The elements of a constant operand in row-major order (one for a
/// scalar); nullopt for anything but a small dense constant.
static std::optional<SmallVector<Num>> elementsOf(Attribute attr) {
  SmallVector<Num> out;
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    out.push_back(Num::ofInt(i.getValue()));
  else if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr))
    out.push_back(Num::ofFloat(f.getValue()));
  auto dense = llvm::dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense)
    return out.empty() ? std::nullopt : std::optional(out);
  if (dense.getNumElements() > kMaxFoldedElements)
    return std::nullopt;
  if (llvm::isa<FloatType>(dense.getElementType()))
    for (APFloat v : dense.getValues<APFloat>())
      out.push_back(Num::ofFloat(v));
  else
    for (APInt v : dense.getValues<APInt>())
      out.push_back(Num::ofInt(v));
  return out;
}

/// An attribute of exactly `type` holding `values` (one for a scalar).
static Attribute buildAttr(Type type, ArrayRef<Num> values) {
  bool isFloat = llvm::isa<FloatType>(getElementTypeOrSelf(type));
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  if (!tensor && isFloat)
    return FloatAttr::get(type, values.front().f);
  if (!tensor)
    return IntegerAttr::get(type, values.front().i);
  if (isFloat)
    return DenseElementsAttr::get(
        tensor, llvm::map_to_vector(values, [](const Num &n) { return n.f; }));
  return DenseElementsAttr::get(
      tensor, llvm::map_to_vector(values, [](const Num &n) { return n.i; }));
}

/// How many elements a folded `type` has (one for a scalar); nullopt when
/// it is not fully static or is over the cap.
static std::optional<int64_t> foldableCount(Type type) {
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 1;
  if (!tensor.hasStaticShape() || tensor.getNumElements() > kMaxFoldedElements)
    return std::nullopt;
  return tensor.getNumElements();
}

static ArrayRef<int64_t> shapeOf(Type type) {
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  return tensor ? tensor.getShape() : ArrayRef<int64_t>();
}

/// The row-major index into an operand of `shape` that broadcasting reads
/// for element `index` of a result of `resultShape`; nullopt if the shapes
/// do not broadcast.
static std::optional<int64_t> broadcastIndex(ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> resultShape,
                                             int64_t index) {
  int64_t rank = resultShape.size(), lead = rank - shape.size();
  if (lead < 0)
    return std::nullopt;
  int64_t offset = 0, stride = 1;
  for (int64_t d = rank - 1; d >= lead; --d) {
    int64_t coord = index % resultShape[d], size = shape[d - lead];
    index /= resultShape[d];
    if (size != 1 && size != resultShape[d])
      return std::nullopt;
    if (size != 1)
      offset += coord * stride;
    stride *= size;
  }
  return offset;
}

/// Folds an elementwise op whose operands are all constant: each operand is
/// broadcast and converted to the work type (`computeType`, widened), `body`
/// computes one element, and the element is converted to the result type.
static Attribute foldElementwise(ArrayRef<Attribute> operands,
                                 ValueRange values, Type resultType,
                                 Type computeType, ElementFn body) {
  std::optional<int64_t> count = foldableCount(resultType);
  if (!count)
    return {};
  Type work = widenHalf(computeType);
  SmallVector<SmallVector<Num>> converted;
  for (Attribute attr : operands) {
    std::optional<SmallVector<Num>> elements = elementsOf(attr);
    if (!elements)
      return {};
    for (Num &n : *elements) {
      std::optional<Num> c = convert(n, work);
      if (!c)
        return {};
      n = std::move(*c);
    }
    converted.push_back(std::move(*elements));
  }
  ArrayRef<int64_t> resultShape = shapeOf(resultType);
  SmallVector<Num> results, args;
  for (int64_t index = 0; index < *count; ++index) {
    args.clear();
    for (auto [elements, value] : llvm::zip_equal(converted, values)) {
      std::optional<int64_t> at =
          broadcastIndex(shapeOf(value.getType()), resultShape, index);
      if (!at || *at >= static_cast<int64_t>(elements.size()))
        return {};
      args.push_back(elements[*at]);
    }
    std::optional<Num> r = body(args);
    if (r)
      r = convert(*r, getElementTypeOrSelf(resultType));
    if (!r)
      return {};
    results.push_back(std::move(*r));
  }
  return buildAttr(resultType, results);
}

static std::optional<Num> identityFn(ArrayRef<Num> v) { return v[0]; }

//===----------------------------------------------------------------------===//
// What the generated code computes for one element
//===----------------------------------------------------------------------===//

static bool isNegative(const APFloat &v) {
  return v.compare(APFloat::getZero(v.getSemantics())) == APFloat::cmpLessThan;
}

static double toDouble(APFloat v) {
  bool losesInfo;
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return v.convertToDouble();
}

static Num fromDouble(double d, const llvm::fltSemantics &semantics) {
  APFloat v(d);
  bool losesInfo;
  v.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return Num::ofFloat(v);
}

/// PyTorch's div_floor_floating, which the generated code follows step by
/// step; `d` is not zero.
static APFloat floatFloorDiv(const APFloat &a, const APFloat &d) {
  const auto rm = APFloat::rmNearestTiesToEven;
  APFloat plain = a, mod = a, div = a, one(a.getSemantics(), 1);
  plain.divide(d, rm);
  mod.mod(d);
  div.subtract(mod, rm);
  div.divide(d, rm);
  if (!mod.isZero() && isNegative(d) != isNegative(mod))
    div.subtract(one, rm);
  if (div.isZero()) {
    APFloat zero = APFloat::getZero(a.getSemantics());
    zero.copySign(plain);
    return zero;
  }
  APFloat floored = div, frac = div;
  floored.roundToIntegral(APFloat::rmTowardNegative);
  frac.subtract(floored, rm);
  if (frac.compare(APFloat(a.getSemantics(), "0.5")) == APFloat::cmpGreaterThan)
    floored.add(one, rm);
  return floored;
}

/// Python's float `%`: fmod moved into the divisor's sign; `d` is not zero.
static APFloat floatMod(const APFloat &a, const APFloat &d) {
  APFloat mod = a;
  mod.mod(d);
  // A zero remainder takes the divisor's sign; NaN is not zero.
  if (mod.isZero())
    mod.copySign(d);
  else if (isNegative(mod) != isNegative(d))
    mod.add(d, APFloat::rmNearestTiesToEven);
  return mod;
}

template <typename Op, typename... Ops>
static constexpr bool isAnyOf = (std::is_same_v<Op, Ops> || ...);

/// One element of a binary op on ints or bools (binaryBody in the lowering).
template <typename Op>
static std::optional<Num> intBinary(const APInt &x, const APInt &y) {
  bool isBool = x.getBitWidth() == 1;
  if constexpr (isAnyOf<Op, FloorDivOp, RemOp>) {
    // MIN // -1 overflows: left to the lowering, which raises at run time.
    if (y.isZero() || (x.isMinSignedValue() && y.isAllOnes() &&
                       std::is_same_v<Op, FloorDivOp>))
      return std::nullopt;
    // x % -1 is 0 (x % True too); APInt's srem would overflow on MIN.
    if (std::is_same_v<Op, RemOp> && y.isAllOnes())
      return Num::ofInt(APInt::getZero(x.getBitWidth()));
    APInt q = x.sdiv(y), r = x.srem(y);
    bool adjust = !r.isZero() && r.isNegative() != y.isNegative();
    if constexpr (std::is_same_v<Op, FloorDivOp>)
      return Num::ofInt(adjust ? q - 1 : q);
    return Num::ofInt(adjust ? r + y : r);
  }
  if constexpr (std::is_same_v<Op, PowOp>) {
    if (y.isNegative())
      return std::nullopt;
    APInt result(x.getBitWidth(), 1), base = x, exp = y;
    for (; !exp.isZero(); exp.lshrInPlace(1), base *= base)
      if (exp[0])
        result *= base;
    return Num::ofInt(result);
  }
  if constexpr (std::is_same_v<Op, AddOp>)
    return Num::ofInt(x + y);
  if constexpr (std::is_same_v<Op, SubOp>)
    return Num::ofInt(x - y);
  if constexpr (std::is_same_v<Op, MulOp>)
    return Num::ofInt(x * y);
  if constexpr (std::is_same_v<Op, MaximumOp>)
    return Num::ofInt(isBool ? x | y : smax(x, y));
  if constexpr (std::is_same_v<Op, MinimumOp>)
    return Num::ofInt(isBool ? x & y : smin(x, y));
  if constexpr (std::is_same_v<Op, BitAndOp>)
    return Num::ofInt(x & y);
  if constexpr (std::is_same_v<Op, BitOrOp>)
    return Num::ofInt(x | y);
  if constexpr (std::is_same_v<Op, BitXorOp>)
    return Num::ofInt(x ^ y);
  return std::nullopt; // true division computes in a float type
}

/// One element of a binary op on floats.
template <typename Op>
static std::optional<Num> floatBinary(APFloat x, const APFloat &y) {
  const auto rm = APFloat::rmNearestTiesToEven;
  if (isAnyOf<Op, DivOp, FloorDivOp, RemOp> && y.isZero())
    return std::nullopt;
  if constexpr (std::is_same_v<Op, AddOp>)
    x.add(y, rm);
  if constexpr (std::is_same_v<Op, SubOp>)
    x.subtract(y, rm);
  if constexpr (std::is_same_v<Op, MulOp>)
    x.multiply(y, rm);
  if constexpr (std::is_same_v<Op, DivOp>)
    x.divide(y, rm);
  if constexpr (std::is_same_v<Op, FloorDivOp>)
    x = floatFloorDiv(x, y);
  if constexpr (std::is_same_v<Op, RemOp>)
    x = floatMod(x, y);
  if constexpr (std::is_same_v<Op, PowOp>)
    return fromDouble(std::pow(toDouble(x), toDouble(y)), x.getSemantics());
  if constexpr (std::is_same_v<Op, MaximumOp>)
    x = llvm::maximum(x, y);
  if constexpr (std::is_same_v<Op, MinimumOp>)
    x = llvm::minimum(x, y);
  if constexpr (isAnyOf<Op, BitAndOp, BitOrOp, BitXorOp>)
    return std::nullopt;
  return Num::ofFloat(x);
}

namespace {
enum class UnaryKind { Neg, Abs, Relu, Floor, Ceil, Not };
} // namespace

/// The unary ops that also take ints; floor and ceil of an int are the int.
static std::optional<Num> evalUnary(UnaryKind kind, Num x) {
  if (!x.isFloat) {
    APInt zero(x.i.getBitWidth(), 0);
    switch (kind) {
    case UnaryKind::Neg:
      return Num::ofInt(-x.i);
    case UnaryKind::Abs: // abs(INT_MIN) wraps, as math.absi does
      return Num::ofInt(x.i.abs());
    case UnaryKind::Relu:
      return Num::ofInt(x.i.getBitWidth() == 1 ? x.i : smax(x.i, zero));
    case UnaryKind::Not:
      return Num::ofInt(~x.i);
    default:
      return x;
    }
  }
  switch (kind) {
  case UnaryKind::Neg:
    x.f.changeSign();
    return x;
  case UnaryKind::Abs:
    x.f.clearSign();
    return x;
  case UnaryKind::Relu: // relu(NaN) is NaN and relu(-0.0) is +0.0
    return Num::ofFloat(
        llvm::maximum(x.f, APFloat::getZero(x.f.getSemantics())));
  case UnaryKind::Floor:
  case UnaryKind::Ceil:
    x.f.roundToIntegral(kind == UnaryKind::Floor ? APFloat::rmTowardNegative
                                                 : APFloat::rmTowardPositive);
    return x;
  case UnaryKind::Not:
    return std::nullopt;
  }
  llvm_unreachable("unknown unary kind");
}

//===----------------------------------------------------------------------===//
// Elementwise folders
//===----------------------------------------------------------------------===//

/// The value of a scalar or splat constant in the work type `work`.
static std::optional<Num> splatValue(Attribute attr, Type work) {
  if (auto dense = llvm::dyn_cast_or_null<DenseElementsAttr>(attr)) {
    if (!dense.isSplat())
      return std::nullopt;
    attr = dense.getSplatValue<Attribute>();
  }
  std::optional<SmallVector<Num>> elements = elementsOf(attr);
  if (!elements)
    return std::nullopt;
  return convert(elements->front(), work);
}

/// x op c -> x and c op x -> x, for the identities that hold for every x.
template <typename Op>
static Value foldIdentity(Op op, ArrayRef<Attribute> operands, Type work) {
  Value lhs = op.getLhs(), rhs = op.getRhs();
  Type resultType = op.getType();
  // Is operand `k` the constant that makes the op return the other one?
  auto isIdentity = [&](unsigned k) -> bool {
    std::optional<Num> c = splatValue(operands[k], work);
    if (!c)
      return false;
    bool one = c->isFloat ? c->f.isExactlyValue(1.0) : c->i.isOne();
    bool zero = c->isFloat ? c->f.isZero() : c->i.isZero();
    bool negative = c->isFloat && c->f.isNegative();
    // x + 0 for an int x and x + (-0.0) for a float x, but not a float
    // x + 0.0: -0.0 + 0.0 is +0.0. And x - 0 and x - (+0.0).
    if constexpr (std::is_same_v<Op, AddOp>)
      return zero && (!c->isFloat || negative);
    if constexpr (std::is_same_v<Op, SubOp>)
      return k == 1 && zero && !negative;
    if constexpr (std::is_same_v<Op, MulOp>)
      return one;
    // x / 1 and x ** 1 (pow(x, 1) is x, NaN included).
    return isAnyOf<Op, DivOp, PowOp> && k == 1 && one;
  };
  if (lhs.getType() == resultType && isIdentity(1))
    return lhs;
  if (rhs.getType() == resultType && isIdentity(0))
    return rhs;
  return {};
}

template <typename Op>
static OpFoldResult foldBinary(Op op, ArrayRef<Attribute> operands) {
  Type resultType = op.getType();
  Type compute = getElementTypeOrSelf(resultType);
  // The generated code adds bools as i1 (True + True is False) while
  // PyTorch does not; leave bool arithmetic alone until that is settled.
  if (compute.isInteger(1) &&
      !isAnyOf<Op, MaximumOp, MinimumOp, BitAndOp, BitOrOp, BitXorOp>)
    return {};
  if (operands[0] && operands[1])
    if (Attribute folded =
            foldElementwise(operands, op->getOperands(), resultType, compute,
                            [](ArrayRef<Num> v) -> std::optional<Num> {
                              if (v[0].isFloat)
                                return floatBinary<Op>(v[0].f, v[1].f);
                              return intBinary<Op>(v[0].i, v[1].i);
                            }))
      return folded;
  return foldIdentity(op, operands, widenHalf(compute));
}

#define KILN_BINARY_FOLD(Op)                                                   \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                 \
    return foldBinary(*this, adaptor.getOperands());                           \
  }

KILN_BINARY_FOLD(AddOp)
KILN_BINARY_FOLD(SubOp)
KILN_BINARY_FOLD(MulOp)
KILN_BINARY_FOLD(DivOp)
KILN_BINARY_FOLD(FloorDivOp)
KILN_BINARY_FOLD(RemOp)
KILN_BINARY_FOLD(PowOp)
KILN_BINARY_FOLD(MaximumOp)
KILN_BINARY_FOLD(MinimumOp)
KILN_BINARY_FOLD(BitAndOp)
KILN_BINARY_FOLD(BitOrOp)
KILN_BINARY_FOLD(BitXorOp)

OpFoldResult CmpOp::fold(FoldAdaptor adaptor) {
  // Operands compare in their promoted type, as the generated code does.
  Type promoted = inferElementwiseType(
      ElementwiseKind::Arith, getLhs().getType(), getRhs().getType(), nullptr);
  if (!promoted || !adaptor.getLhs() || !adaptor.getRhs())
    return {};
  int predicate = static_cast<int>(getPredicate());
  return foldElementwise(
      adaptor.getOperands(), getOperands(), getResult().getType(),
      getElementTypeOrSelf(promoted), [&](ArrayRef<Num> v) {
        const Num &x = v[0], &y = v[1];
        bool lt, eq, gt;
        if (x.isFloat) { // all false when unordered (NaN)
          APFloat::cmpResult c = x.f.compare(y.f);
          lt = c == APFloat::cmpLessThan;
          eq = c == APFloat::cmpEqual;
          gt = c == APFloat::cmpGreaterThan;
        } else {
          lt = x.i.getBitWidth() == 1 ? x.i.ult(y.i) : x.i.slt(y.i);
          eq = x.i == y.i;
          gt = !lt && !eq;
        }
        // Ordered predicates except !=, so NaN compares as in Python.
        bool byPredicate[] = {eq, !eq, lt, lt || eq, gt, gt || eq};
        return std::optional(Num::ofInt(APInt(1, byPredicate[predicate])));
      });
}

static OpFoldResult foldUnary(Operation *op, Attribute operand, ElementFn fn) {
  if (!operand)
    return {};
  Type type = op->getResult(0).getType();
  return foldElementwise(operand, op->getOperands(), type,
                         getElementTypeOrSelf(type), fn);
}

#define KILN_UNARY_FOLD(Op, Kind)                                              \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                 \
    return foldUnary(*this, adaptor.getInput(), [](ArrayRef<Num> v) {          \
      return evalUnary(UnaryKind::Kind, v[0]);                                 \
    });                                                                        \
  }

KILN_UNARY_FOLD(NegOp, Neg)
KILN_UNARY_FOLD(AbsOp, Abs)
KILN_UNARY_FOLD(ReluOp, Relu)
KILN_UNARY_FOLD(NotOp, Not)

OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  if (llvm::isa<IntegerType>(getElementTypeOrSelf(getType())))
    return getInput();
  return foldUnary(*this, adaptor.getInput(), [](ArrayRef<Num> v) {
    return evalUnary(UnaryKind::Floor, v[0]);
  });
}

OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  if (llvm::isa<IntegerType>(getElementTypeOrSelf(getType())))
    return getInput();
  return foldUnary(*this, adaptor.getInput(), [](ArrayRef<Num> v) {
    return evalUnary(UnaryKind::Ceil, v[0]);
  });
}

/// The float-only math ops, in double precision and rounded once.
#define KILN_MATH_FOLD(Op, expr)                                               \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                 \
    return foldUnary(*this, adaptor.getInput(), [](ArrayRef<Num> v) {          \
      double d = toDouble(v[0].f);                                             \
      return std::optional(fromDouble(expr, v[0].f.getSemantics()));           \
    });                                                                        \
  }

KILN_MATH_FOLD(ExpOp, std::exp(d))
KILN_MATH_FOLD(LogOp, std::log(d))
KILN_MATH_FOLD(TanhOp, std::tanh(d))
KILN_MATH_FOLD(ErfOp, std::erf(d))
KILN_MATH_FOLD(SigmoidOp, 1.0 / (1.0 + std::exp(-d)))
KILN_MATH_FOLD(SqrtOp, std::sqrt(d))
KILN_MATH_FOLD(RsqrtOp, 1.0 / std::sqrt(d))
KILN_MATH_FOLD(SinOp, std::sin(d))
KILN_MATH_FOLD(CosOp, std::cos(d))

//===----------------------------------------------------------------------===//
// Conversions and creation
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  if (!adaptor.getInput())
    return {};
  // The generated code converts from the (widened) source type.
  return foldElementwise(
      adaptor.getInput(), getOperand(), getResult().getType(),
      getElementTypeOrSelf(getInput().getType()), identityFn);
}

OpFoldResult FromScalarOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getInput())
    return {};
  return foldElementwise(adaptor.getInput(), getOperand(),
                         getResult().getType(), getInput().getType(),
                         identityFn);
}

OpFoldResult FullOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getResult().getType();
  if (!adaptor.getValue() || !foldableCount(type))
    return {};
  // The sizes must be the constants that the type says.
  for (auto [size, dim] : llvm::zip_equal(getSizes(), type.getShape())) {
    APInt c;
    if (!matchPattern(size, m_ConstantInt(&c)) || c.getSExtValue() != dim)
      return {};
  }
  return foldElementwise(adaptor.getValue(), getValue(), type,
                         getValue().getType(), identityFn);
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

static std::optional<int64_t> constantSize(Value size) {
  APInt c;
  if (!matchPattern(size, m_ConstantInt(&c)))
    return std::nullopt;
  return c.getSExtValue();
}

/// True when `size` is known to equal dim `i` of `tensor`: a constant equal
/// to a static dim, or `kiln.dim` of that very tensor.
static bool isSizeOf(Value size, Value tensor, int64_t i) {
  auto type = llvm::cast<RankedTensorType>(tensor.getType());
  if (std::optional<int64_t> c = constantSize(size))
    return !type.isDynamicDim(i) && *c == type.getDimSize(i);
  auto dim = size.getDefiningOp<DimOp>();
  return dim && dim.getInput() == tensor && dim.getIndex() == i;
}

/// A constant tensor given a new static type with the same elements in the
/// same order (reshape, squeeze, unsqueeze).
static Attribute reshapeConstant(Attribute input, RankedTensorType type) {
  auto dense = llvm::dyn_cast_or_null<DenseElementsAttr>(input);
  if (!dense || !foldableCount(type) ||
      dense.getType().getNumElements() != type.getNumElements())
    return {};
  return dense.reshape(type);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (in == out && llvm::all_of(llvm::enumerate(getShape()), [&](auto it) {
        return isSizeOf(it.value(), getInput(), it.index());
      }))
    return getInput();
  // reshape(reshape(x)) reads x's elements in the same order, so the inner
  // one can go; unless static sizes show that it fails at run time, which
  // the verifier would then see.
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    RankedTensorType x = inner.getInput().getType();
    if (!x.hasStaticShape() || !out.hasStaticShape() ||
        x.getNumElements() == out.getNumElements()) {
      getInputMutable().assign(inner.getInput());
      return getResult();
    }
  }
  if (!out.hasStaticShape())
    return {};
  // Every size must be the result type's, or the one -1.
  int unknown = 0;
  for (auto [size, dim] : llvm::zip_equal(getShape(), out.getShape())) {
    std::optional<int64_t> c = constantSize(size);
    if (!c || (*c != dim && (*c != -1 || ++unknown > 1)))
      return {};
  }
  return reshapeConstant(adaptor.getInput(), out);
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (in == out && llvm::all_of(llvm::enumerate(getSizes()), [&](auto it) {
        return constantSize(it.value()) == -1 ||
               isSizeOf(it.value(), getInput(), it.index());
      }))
    return getInput();
  if (!adaptor.getInput() || !in.hasStaticShape() || !foldableCount(out))
    return {};
  // The sizes must be the result type's, with -1 only for a kept dim.
  int64_t lead = out.getRank() - in.getRank();
  for (auto [i, size] : llvm::enumerate(getSizes())) {
    std::optional<int64_t> c = constantSize(size);
    int64_t want = out.getDimSize(i);
    bool kept =
        static_cast<int64_t>(i) >= lead && in.getDimSize(i - lead) == want;
    if (!c || (*c != want && !(*c == -1 && kept)))
      return {};
  }
  return foldElementwise(adaptor.getInput(), getInput(), out,
                         in.getElementType(), identityFn);
}

OpFoldResult UnsqueezeOp::fold(FoldAdaptor adaptor) {
  return reshapeConstant(adaptor.getInput(), getResult().getType());
}

OpFoldResult SqueezeOp::fold(FoldAdaptor adaptor) {
  // squeeze(unsqueeze(x, d), d) is x.
  auto inner = getInput().getDefiningOp<UnsqueezeOp>();
  if (inner && inner.getDim() == getDim() &&
      inner.getInput().getType() == getResult().getType())
    return inner.getInput();
  return reshapeConstant(adaptor.getInput(), getResult().getType());
}

/// A constant tensor with its dims reordered: result dim j is input dim
/// `perm[j]`.
static Attribute permuteConstant(Attribute input, ArrayRef<int64_t> perm,
                                 RankedTensorType type) {
  auto dense = llvm::dyn_cast_or_null<DenseElementsAttr>(input);
  if (!dense || !foldableCount(type))
    return {};
  if (dense.isSplat())
    return dense.resizeSplat(type);
  ArrayRef<int64_t> inShape = dense.getType().getShape();
  SmallVector<int64_t> inStrides(inShape.size(), 1);
  for (int64_t d = static_cast<int64_t>(inShape.size()) - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inShape[d + 1];
  auto values = llvm::to_vector(dense.getValues<Attribute>());
  SmallVector<Attribute> result;
  for (int64_t index = 0; index < type.getNumElements(); ++index) {
    int64_t rest = index, offset = 0;
    for (int64_t j = type.getRank() - 1; j >= 0; --j) {
      offset += (rest % type.getDimSize(j)) * inStrides[perm[j]];
      rest /= type.getDimSize(j);
    }
    result.push_back(values[offset]);
  }
  return DenseElementsAttr::get(type, result);
}

static bool isIdentityPermutation(ArrayRef<int64_t> perm) {
  return llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()));
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  RankedTensorType out = getResult().getType();
  int64_t a = getDim0(), b = getDim1();
  if (a == b && getInput().getType() == out)
    return getInput();
  // Swapping the same two dims twice gives x back.
  auto inner = getInput().getDefiningOp<TransposeOp>();
  if (inner && inner.getInput().getType() == out &&
      ((a == inner.getDim0() && b == inner.getDim1()) ||
       (a == inner.getDim1() && b == inner.getDim0())))
    return inner.getInput();
  SmallVector<int64_t> perm =
      llvm::to_vector(llvm::seq<int64_t>(out.getRank()));
  std::swap(perm[a], perm[b]);
  return permuteConstant(adaptor.getInput(), perm, out);
}

OpFoldResult PermuteOp::fold(FoldAdaptor adaptor) {
  RankedTensorType out = getResult().getType();
  ArrayRef<int64_t> perm = getDims();
  if (isIdentityPermutation(perm) && getInput().getType() == out)
    return getInput();
  // permute(permute(x, p), q) has x's dim p[q[j]] as its dim j.
  if (auto inner = getInput().getDefiningOp<PermuteOp>()) {
    SmallVector<int64_t> composed;
    for (int64_t q : perm)
      composed.push_back(inner.getDims()[q]);
    if (isIdentityPermutation(composed) && inner.getInput().getType() == out)
      return inner.getInput();
  }
  return permuteConstant(adaptor.getInput(), perm, out);
}
