//===- KilnFolding.cpp - folders of kiln ops ------------------------------===//
//
// A folder must never change what a program computes, so every constant fold
// here evaluates an op exactly as its generated code would
// (codegen/lowering/ElementwiseOps.cpp): operands are converted to the op's
// compute type as convertScalar does, half-precision math runs in f32, and
// the result is converted back to the result type. Python's `//` and `%`
// round toward negative infinity. Where the generated code reports an error
// or is undefined (integer or float division by zero, INT_MIN // -1, a float
// that does not fit the int it is cast to, a negative size) nothing is
// folded, so the run time still says what went wrong.
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

#include <cmath>
#include <optional>

using namespace mlir;
using namespace kiln;

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

  static Num ofInt(APInt v) { return Num{std::move(v), APFloat(0.0), false}; }
  static Num ofFloat(APFloat v) { return Num{APInt(), std::move(v), true}; }
};
} // namespace

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
    if (width == 1) // bool(x) is x != 0; NaN is true.
      return Num::ofInt(APInt(1, v.isFloat ? !v.f.isZero() : !v.i.isZero()));
    if (!v.isFloat) {
      if (v.i.getBitWidth() == 1)
        return Num::ofInt(v.i.zext(width));
      return Num::ofInt(v.i.sextOrTrunc(width));
    }
    APSInt result(width, /*isUnsigned=*/false);
    bool exact;
    if (v.f.convertToInteger(result, APFloat::rmTowardZero, &exact) &
        APFloat::opInvalidOp)
      return std::nullopt;
    return Num::ofInt(result);
  }
  const llvm::fltSemantics &sem = llvm::cast<FloatType>(to).getFloatSemantics();
  APFloat result(sem);
  if (!v.isFloat) {
    result.convertFromAPInt(v.i, /*IsSigned=*/v.i.getBitWidth() != 1,
                            APFloat::rmNearestTiesToEven);
    return Num::ofFloat(result);
  }
  result = v.f;
  bool losesInfo;
  result.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
  return Num::ofFloat(result);
}

/// The elements of a constant operand, in row-major order; one for a scalar.
static std::optional<SmallVector<Num>> elementsOf(Attribute attr) {
  SmallVector<Num> out;
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr)) {
    out.push_back(Num::ofInt(i.getValue()));
    return out;
  }
  if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr)) {
    out.push_back(Num::ofFloat(f.getValue()));
    return out;
  }
  auto dense = llvm::dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !dense.getType().hasStaticShape() ||
      dense.getNumElements() > kMaxFoldedElements)
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
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  bool isFloat = llvm::isa<FloatType>(getElementTypeOrSelf(type));
  if (!tensor) {
    if (isFloat)
      return FloatAttr::get(type, values.front().f);
    return IntegerAttr::get(type, values.front().i);
  }
  if (isFloat)
    return DenseElementsAttr::get(
        tensor, llvm::to_vector(llvm::map_range(
                    values, [](const Num &n) { return n.f; })));
  return DenseElementsAttr::get(
      tensor,
      llvm::to_vector(llvm::map_range(values, [](const Num &n) { return n.i; })));
}

/// The number of elements of a result that may be folded, or nullopt when
/// its type is not fully static or it is over the cap. Scalars count as one.
static std::optional<int64_t> foldableCount(Type type) {
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 1;
  if (!tensor.hasStaticShape() || tensor.getNumElements() > kMaxFoldedElements)
    return std::nullopt;
  return tensor.getNumElements();
}

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = llvm::dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
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
    int64_t coord = index % resultShape[d];
    index /= resultShape[d];
    int64_t size = shape[d - lead];
    if (size != 1 && size != resultShape[d])
      return std::nullopt;
    if (size != 1)
      offset += coord * stride;
    stride *= size;
  }
  return offset;
}

using ElementFn = llvm::function_ref<std::optional<Num>(ArrayRef<Num>)>;

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
      n = *c;
    }
    converted.push_back(std::move(*elements));
  }
  Type resultElement = getElementTypeOrSelf(resultType);
  ArrayRef<int64_t> resultShape = shapeOf(resultType);
  SmallVector<Num> results, args;
  for (int64_t index = 0; index < *count; ++index) {
    args.clear();
    for (auto [elements, value] : llvm::zip(converted, values)) {
      std::optional<int64_t> at =
          broadcastIndex(shapeOf(value.getType()), resultShape, index);
      if (!at || *at >= static_cast<int64_t>(elements.size()))
        return {};
      args.push_back(elements[*at]);
    }
    std::optional<Num> r = body(args);
    if (!r || !(r = convert(*r, resultElement)))
      return {};
    results.push_back(std::move(*r));
  }
  return buildAttr(resultType, results);
}

//===----------------------------------------------------------------------===//
// Element semantics
//===----------------------------------------------------------------------===//

static bool lessThan(const APFloat &a, const APFloat &b) {
  return a.compare(b) == APFloat::cmpLessThan;
}

static APFloat zeroLike(const APFloat &v, bool negative = false) {
  return APFloat::getZero(v.getSemantics(), negative);
}

static APFloat copySign(APFloat v, const APFloat &sign) {
  v.copySign(sign);
  return v;
}

/// PyTorch's div_floor_floating, which the generated code follows step by
/// step; `d` is not zero.
static APFloat floatFloorDiv(const APFloat &a, const APFloat &d) {
  const auto rm = APFloat::rmNearestTiesToEven;
  APFloat plain = a, mod = a, one(a.getSemantics(), 1);
  plain.divide(d, rm);
  mod.mod(d);
  APFloat div = a;
  div.subtract(mod, rm);
  div.divide(d, rm);
  if (!mod.isZero() && lessThan(d, zeroLike(d)) != lessThan(mod, zeroLike(d)))
    div.subtract(one, rm);
  APFloat floored = div;
  floored.roundToIntegral(APFloat::rmTowardNegative);
  APFloat frac = div;
  frac.subtract(floored, rm);
  if (frac.compare(APFloat(a.getSemantics(), "0.5")) == APFloat::cmpGreaterThan)
    floored.add(one, rm);
  if (div.isZero())
    return copySign(zeroLike(d), plain);
  return floored;
}

/// Python's float `%`: fmod moved into the divisor's sign; `d` is not zero.
static APFloat floatMod(const APFloat &a, const APFloat &d) {
  APFloat mod = a;
  mod.mod(d);
  // NaN compares unequal to zero, as the generated code's `une` does.
  if (mod.compare(zeroLike(mod)) == APFloat::cmpEqual)
    return copySign(zeroLike(mod), d);
  if (lessThan(mod, zeroLike(mod)) != lessThan(d, zeroLike(d)))
    mod.add(d, APFloat::rmNearestTiesToEven);
  return mod;
}

/// Applies a libm function in double precision and rounds to `v`'s type;
/// exact for f64, and at most as far from the true value as f32 math.
static APFloat viaDouble(const APFloat &v, double (*fn)(double)) {
  APFloat wide = v;
  bool losesInfo;
  wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  APFloat result(fn(wide.convertToDouble()));
  result.convert(v.getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  return result;
}

namespace {
enum class BinaryKind {
  Add, Sub, Mul, Div, FloorDiv, Rem, Pow, Max, Min, And, Or, Xor
};
} // namespace

/// True for the ops whose i1 arithmetic the generated code and PyTorch do
/// not agree on (True + True), which are therefore never folded for bools.
static bool isArithmetic(BinaryKind kind) {
  return kind != BinaryKind::Max && kind != BinaryKind::Min &&
         kind != BinaryKind::And && kind != BinaryKind::Or &&
         kind != BinaryKind::Xor;
}

static std::optional<Num> intBinary(BinaryKind kind, const APInt &x,
                                    const APInt &y) {
  bool overflowing = x.isMinSignedValue() && y.isAllOnes();
  switch (kind) {
  case BinaryKind::Add:
    return Num::ofInt(x + y);
  case BinaryKind::Sub:
    return Num::ofInt(x - y);
  case BinaryKind::Mul:
    return Num::ofInt(x * y);
  case BinaryKind::FloorDiv: {
    if (y.isZero() || overflowing)
      return std::nullopt;
    APInt q = x.sdiv(y), r = x.srem(y);
    if (!r.isZero() && r.isNegative() != y.isNegative())
      --q;
    return Num::ofInt(q);
  }
  case BinaryKind::Rem: {
    if (y.isZero() || overflowing)
      return std::nullopt;
    APInt r = x.srem(y);
    if (!r.isZero() && r.isNegative() != y.isNegative())
      r += y;
    return Num::ofInt(r);
  }
  case BinaryKind::Pow: {
    // int ** negative int is a float in Python and an error in PyTorch.
    if (y.isNegative())
      return std::nullopt;
    APInt result(x.getBitWidth(), 1), base = x, exp = y;
    for (; !exp.isZero(); exp.lshrInPlace(1)) {
      if (exp[0])
        result *= base;
      base *= base;
    }
    return Num::ofInt(result);
  }
  case BinaryKind::Max:
    return Num::ofInt(x.getBitWidth() == 1 ? (x | y) : llvm::APIntOps::smax(x, y));
  case BinaryKind::Min:
    return Num::ofInt(x.getBitWidth() == 1 ? (x & y) : llvm::APIntOps::smin(x, y));
  case BinaryKind::And:
    return Num::ofInt(x & y);
  case BinaryKind::Or:
    return Num::ofInt(x | y);
  case BinaryKind::Xor:
    return Num::ofInt(x ^ y);
  case BinaryKind::Div:
    return std::nullopt; // true division always computes in a float type
  }
  llvm_unreachable("unknown binary kind");
}

static std::optional<Num> floatBinary(BinaryKind kind, APFloat x,
                                      const APFloat &y) {
  const auto rm = APFloat::rmNearestTiesToEven;
  bool divisorZero = y.isZero();
  switch (kind) {
  case BinaryKind::Add:
    x.add(y, rm);
    return Num::ofFloat(x);
  case BinaryKind::Sub:
    x.subtract(y, rm);
    return Num::ofFloat(x);
  case BinaryKind::Mul:
    x.multiply(y, rm);
    return Num::ofFloat(x);
  case BinaryKind::Div:
    if (divisorZero)
      return std::nullopt;
    x.divide(y, rm);
    return Num::ofFloat(x);
  case BinaryKind::FloorDiv:
    if (divisorZero)
      return std::nullopt;
    return Num::ofFloat(floatFloorDiv(x, y));
  case BinaryKind::Rem:
    if (divisorZero)
      return std::nullopt;
    return Num::ofFloat(floatMod(x, y));
  case BinaryKind::Pow: {
    APFloat wideX = x, wideY = y;
    bool losesInfo;
    wideX.convert(APFloat::IEEEdouble(), rm, &losesInfo);
    wideY.convert(APFloat::IEEEdouble(), rm, &losesInfo);
    APFloat result(std::pow(wideX.convertToDouble(), wideY.convertToDouble()));
    result.convert(x.getSemantics(), rm, &losesInfo);
    return Num::ofFloat(result);
  }
  case BinaryKind::Max:
    return Num::ofFloat(llvm::maximum(x, y));
  case BinaryKind::Min:
    return Num::ofFloat(llvm::minimum(x, y));
  case BinaryKind::And:
  case BinaryKind::Or:
  case BinaryKind::Xor:
    return std::nullopt;
  }
  llvm_unreachable("unknown binary kind");
}

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
static double rsqrt(double x) { return 1.0 / std::sqrt(x); }

namespace {
enum class UnaryKind {
  Neg, Abs, Exp, Log, Tanh, Sigmoid, Relu, Sqrt, Rsqrt, Sin, Cos, Floor,
  Ceil, Not
};
} // namespace

static std::optional<Num> evalUnary(UnaryKind kind, const Num &x) {
  if (!x.isFloat) {
    const APInt &v = x.i;
    switch (kind) {
    case UnaryKind::Neg:
      return Num::ofInt(-v);
    case UnaryKind::Abs:
      return Num::ofInt(v.abs());
    case UnaryKind::Relu:
      return Num::ofInt(v.getBitWidth() == 1 ? v
                                             : llvm::APIntOps::smax(v, APInt(v.getBitWidth(), 0)));
    case UnaryKind::Floor:
    case UnaryKind::Ceil:
      return x;
    case UnaryKind::Not:
      return Num::ofInt(~v);
    default:
      return std::nullopt;
    }
  }
  APFloat v = x.f;
  switch (kind) {
  case UnaryKind::Neg:
    v.changeSign();
    return Num::ofFloat(v);
  case UnaryKind::Abs:
    v.clearSign();
    return Num::ofFloat(v);
  case UnaryKind::Relu:
    return Num::ofFloat(llvm::maximum(v, zeroLike(v)));
  case UnaryKind::Floor:
    v.roundToIntegral(APFloat::rmTowardNegative);
    return Num::ofFloat(v);
  case UnaryKind::Ceil:
    v.roundToIntegral(APFloat::rmTowardPositive);
    return Num::ofFloat(v);
  case UnaryKind::Exp:
    return Num::ofFloat(viaDouble(v, [](double d) { return std::exp(d); }));
  case UnaryKind::Log:
    return Num::ofFloat(viaDouble(v, [](double d) { return std::log(d); }));
  case UnaryKind::Tanh:
    return Num::ofFloat(viaDouble(v, [](double d) { return std::tanh(d); }));
  case UnaryKind::Sigmoid:
    return Num::ofFloat(viaDouble(v, sigmoid));
  case UnaryKind::Sqrt:
    return Num::ofFloat(viaDouble(v, [](double d) { return std::sqrt(d); }));
  case UnaryKind::Rsqrt:
    return Num::ofFloat(viaDouble(v, rsqrt));
  case UnaryKind::Sin:
    return Num::ofFloat(viaDouble(v, [](double d) { return std::sin(d); }));
  case UnaryKind::Cos:
    return Num::ofFloat(viaDouble(v, [](double d) { return std::cos(d); }));
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

static bool isOne(const Num &n) {
  return n.isFloat ? n.f.isExactlyValue(1.0) : n.i.isOne();
}
static bool isZero(const Num &n, bool negative) {
  return n.isFloat ? n.f.isZero() && n.f.isNegative() == negative
                   : n.i.isZero();
}

/// x op c -> x (or c op x -> x) for the identities that hold for every x.
static Value foldIdentity(BinaryKind kind, Operation *op,
                          ArrayRef<Attribute> operands, Type work) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Type resultType = op->getResult(0).getType();
  auto identity = [&](unsigned constant) -> bool {
    std::optional<Num> c = splatValue(operands[constant], work);
    if (!c)
      return false;
    switch (kind) {
    case BinaryKind::Add:
      // An int x + 0 is x, and so is a float x + -0.0; but a float x + 0.0
      // is not, because -0.0 + 0.0 is +0.0.
      return isZero(*c, /*negative=*/c->isFloat);
    case BinaryKind::Sub: // x - 0 and x - (+0.0), second operand only.
      return constant == 1 && isZero(*c, /*negative=*/false);
    case BinaryKind::Mul:
      return isOne(*c);
    case BinaryKind::Div:
    case BinaryKind::Pow: // pow(x, 1) is x, NaN included.
      return constant == 1 && isOne(*c);
    default:
      return false;
    }
  };
  if (lhs.getType() == resultType && identity(1))
    return lhs;
  if (rhs.getType() == resultType && identity(0))
    return rhs;
  // max(x, x), min(x, x), x & x and x | x are x, NaN and -0.0 included.
  bool idempotent = kind == BinaryKind::Max || kind == BinaryKind::Min ||
                    kind == BinaryKind::And || kind == BinaryKind::Or;
  if (idempotent && lhs == rhs && lhs.getType() == resultType)
    return lhs;
  return {};
}

static OpFoldResult foldBinary(Operation *op, ArrayRef<Attribute> operands,
                               BinaryKind kind) {
  Type resultType = op->getResult(0).getType();
  Type compute = getElementTypeOrSelf(resultType);
  if (compute.isInteger(1) && isArithmetic(kind))
    return {};
  if (operands[0] && operands[1]) {
    Attribute folded = foldElementwise(
        operands, op->getOperands(), resultType, compute,
        [&](ArrayRef<Num> v) -> std::optional<Num> {
          if (v[0].isFloat)
            return floatBinary(kind, v[0].f, v[1].f);
          return intBinary(kind, v[0].i, v[1].i);
        });
    if (folded)
      return folded;
  }
  return foldIdentity(kind, op, operands, widenHalf(compute));
}

#define KILN_BINARY_FOLD(Op, Kind)                                             \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                 \
    return foldBinary(*this, adaptor.getOperands(), BinaryKind::Kind);         \
  }

KILN_BINARY_FOLD(AddOp, Add)
KILN_BINARY_FOLD(SubOp, Sub)
KILN_BINARY_FOLD(MulOp, Mul)
KILN_BINARY_FOLD(DivOp, Div)
KILN_BINARY_FOLD(FloorDivOp, FloorDiv)
KILN_BINARY_FOLD(RemOp, Rem)
KILN_BINARY_FOLD(PowOp, Pow)
KILN_BINARY_FOLD(MaximumOp, Max)
KILN_BINARY_FOLD(MinimumOp, Min)
KILN_BINARY_FOLD(BitAndOp, And)
KILN_BINARY_FOLD(BitOrOp, Or)
KILN_BINARY_FOLD(BitXorOp, Xor)

OpFoldResult CmpOp::fold(FoldAdaptor adaptor) {
  // Operands compare in their promoted type, as the generated code does.
  Type promoted = inferElementwiseType(
      ElementwiseKind::Arith, getLhs().getType(), getRhs().getType(), nullptr);
  if (!promoted || !adaptor.getLhs() || !adaptor.getRhs())
    return {};
  int predicate = static_cast<int>(getPredicate());
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getOperands(),
      getResult().getType(), getElementTypeOrSelf(promoted),
      [&](ArrayRef<Num> v) -> std::optional<Num> {
        int order; // -1, 0, 1, or 2 when unordered (NaN)
        if (v[0].isFloat) {
          APFloat::cmpResult c = v[0].f.compare(v[1].f);
          order = c == APFloat::cmpLessThan      ? -1
                  : c == APFloat::cmpEqual       ? 0
                  : c == APFloat::cmpGreaterThan ? 1
                                                 : 2;
        } else if (v[0].i.getBitWidth() == 1) {
          order = v[0].i.ult(v[1].i) ? -1 : v[0].i == v[1].i ? 0 : 1;
        } else {
          order = v[0].i.slt(v[1].i) ? -1 : v[0].i == v[1].i ? 0 : 1;
        }
        // Ordered predicates except !=, so NaN compares as in Python.
        bool results[] = {order == 0, order != 0, order == -1,
                          order == -1 || order == 0, order == 1,
                          order == 1 || order == 0};
        return Num::ofInt(APInt(1, results[predicate]));
      });
}

template <typename Op>
static Value foldInvolution(Op op) {
  auto inner = op.getInput().template getDefiningOp<Op>();
  if (inner && inner.getInput().getType() == op.getResult().getType())
    return inner.getInput();
  return {};
}

static OpFoldResult foldUnary(Operation *op, Attribute operand,
                              UnaryKind kind) {
  Type type = op->getResult(0).getType();
  if (operand)
    if (Attribute folded = foldElementwise(
            operand, op->getOperands(), type, getElementTypeOrSelf(type),
            [&](ArrayRef<Num> v) { return evalUnary(kind, v[0]); }))
      return folded;
  // floor and ceil of an int are the int itself.
  if ((kind == UnaryKind::Floor || kind == UnaryKind::Ceil) &&
      llvm::isa<IntegerType>(getElementTypeOrSelf(type)))
    return op->getOperand(0);
  return {};
}

#define KILN_UNARY_FOLD(Op, Kind)                                              \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                 \
    return foldUnary(*this, adaptor.getInput(), UnaryKind::Kind);              \
  }

KILN_UNARY_FOLD(AbsOp, Abs)
KILN_UNARY_FOLD(ExpOp, Exp)
KILN_UNARY_FOLD(LogOp, Log)
KILN_UNARY_FOLD(TanhOp, Tanh)
KILN_UNARY_FOLD(SigmoidOp, Sigmoid)
KILN_UNARY_FOLD(ReluOp, Relu)
KILN_UNARY_FOLD(SqrtOp, Sqrt)
KILN_UNARY_FOLD(RsqrtOp, Rsqrt)
KILN_UNARY_FOLD(SinOp, Sin)
KILN_UNARY_FOLD(CosOp, Cos)
KILN_UNARY_FOLD(FloorOp, Floor)
KILN_UNARY_FOLD(CeilOp, Ceil)

// -(-x) is x for every float and, with wrapping, every int; not(not(x)) is x.
OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldUnary(*this, adaptor.getInput(), UnaryKind::Neg))
    return r;
  return foldInvolution(*this);
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldUnary(*this, adaptor.getInput(), UnaryKind::Not))
    return r;
  return foldInvolution(*this);
}

//===----------------------------------------------------------------------===//
// Conversions and creation
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  if (!adaptor.getInput())
    return {};
  // The generated code converts from the (widened) source type.
  return foldElementwise(adaptor.getInput(), getOperand(),
                         getResult().getType(),
                         getElementTypeOrSelf(getInput().getType()),
                         [](ArrayRef<Num> v) { return v[0]; });
}

OpFoldResult FromScalarOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getInput())
    return {};
  return foldElementwise(adaptor.getInput(), getOperand(),
                         getResult().getType(), getInput().getType(),
                         [](ArrayRef<Num> v) { return v[0]; });
}

/// True when the size operands are constants equal to `type`'s dims.
static bool sizesMatch(ValueRange sizes, RankedTensorType type) {
  for (auto [size, dim] : llvm::zip_equal(sizes, type.getShape())) {
    APInt c;
    if (!matchPattern(size, m_ConstantInt(&c)) || c.getSExtValue() != dim)
      return false;
  }
  return true;
}

OpFoldResult FullOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getResult().getType();
  if (!adaptor.getValue() || !foldableCount(type) ||
      getSizes().size() != static_cast<size_t>(type.getRank()) ||
      !sizesMatch(getSizes(), type))
    return {};
  return foldElementwise(adaptor.getValue(), getValue(), type,
                         getValue().getType(),
                         [](ArrayRef<Num> v) { return v[0]; });
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

/// True when `size` is known to equal dim `i` of `tensor`: a constant equal
/// to a static dim, or `kiln.dim` of that very tensor.
static bool isSizeOf(Value size, Value tensor, int64_t i) {
  auto type = llvm::cast<RankedTensorType>(tensor.getType());
  APInt c;
  if (matchPattern(size, m_ConstantInt(&c)))
    return !type.isDynamicDim(i) && c.getSExtValue() == type.getDimSize(i);
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
  // reshape(reshape(x)) reads x's elements in the same order: skip the
  // inner one.
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  if (!out.hasStaticShape())
    return {};
  // Every size must be the result's, or the single -1.
  int unknown = 0;
  for (auto [size, dim] : llvm::zip_equal(getShape(), out.getShape())) {
    APInt c;
    if (!matchPattern(size, m_ConstantInt(&c)))
      return {};
    if (c.getSExtValue() == -1 && ++unknown == 1)
      continue;
    if (c.getSExtValue() != dim)
      return {};
  }
  return reshapeConstant(adaptor.getInput(), out);
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (in == out && llvm::all_of(llvm::enumerate(getSizes()), [&](auto it) {
        APInt c;
        if (matchPattern(it.value(), m_ConstantInt(&c)) && c.isAllOnes())
          return true;
        return isSizeOf(it.value(), getInput(), it.index());
      }))
    return getInput();
  if (!adaptor.getInput() || !in.hasStaticShape() || !foldableCount(out))
    return {};
  // The sizes must say what the result type says: -1 only for a kept dim.
  int64_t lead = out.getRank() - in.getRank();
  for (auto [i, size] : llvm::enumerate(getSizes())) {
    APInt c;
    if (!matchPattern(size, m_ConstantInt(&c)))
      return {};
    int64_t want = out.getDimSize(i);
    bool kept = static_cast<int64_t>(i) >= lead &&
                in.getDimSize(i - lead) == want;
    if (!(c.getSExtValue() == want || (c.isAllOnes() && kept)))
      return {};
  }
  return foldElementwise(adaptor.getInput(), getInput(), out,
                         in.getElementType(),
                         [](ArrayRef<Num> v) { return v[0]; });
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
  if (!dense || !foldableCount(type) || !dense.getType().hasStaticShape())
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
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != static_cast<int64_t>(i))
      return false;
  return true;
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  RankedTensorType out = getResult().getType();
  int64_t a = getDim0(), b = getDim1();
  if (a == b && getInput().getType() == out)
    return getInput();
  // Swapping the same two dims twice gives x back.
  auto inner = getInput().getDefiningOp<TransposeOp>();
  if (inner && inner.getInput().getType() == out &&
      std::minmax(a, b) == std::minmax(inner.getDim0(), inner.getDim1()))
    return inner.getInput();
  SmallVector<int64_t> perm(out.getRank());
  for (auto [i, p] : llvm::enumerate(perm))
    p = i;
  std::swap(perm[a], perm[b]);
  return permuteConstant(adaptor.getInput(), perm, out);
}

OpFoldResult PermuteOp::fold(FoldAdaptor adaptor) {
  RankedTensorType out = getResult().getType();
  ArrayRef<int64_t> perm = getDims();
  if (isIdentityPermutation(perm) && getInput().getType() == out)
    return getInput();
  // permute(permute(x, p), q) has dim j of x's dim p[q[j]].
  if (auto inner = getInput().getDefiningOp<PermuteOp>()) {
    ArrayRef<int64_t> p = inner.getDims();
    SmallVector<int64_t> composed;
    for (int64_t q : perm)
      composed.push_back(p[q]);
    if (isIdentityPermutation(composed) && inner.getInput().getType() == out)
      return inner.getInput();
  }
  return permuteConstant(adaptor.getInput(), perm, out);
}
