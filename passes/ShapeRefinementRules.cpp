//===- ShapeRefinementRules.cpp - Refined result types of one op ---------===//
//
// The per-op half of shape refinement: given the refined types of an op's
// operands, what are its results? Each rule calls the ShapeInference.h
// function the op's verifier calls, so a refined op still verifies. The
// ops with size operands (reshape, expand, slice, full, rand) read sizes
// that are constants, or dims the refinement has made static; stack and cat
// count the elements of a list built in view.
//
//===----------------------------------------------------------------------===//

#include "passes/ShapeRefinementRules.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace mlir;
using namespace kiln;

static constexpr int64_t kDynamic = ShapedType::kDynamic;

//===----------------------------------------------------------------------===//
// Lattice operations on types
//===----------------------------------------------------------------------===//

/// True when `a` and `b` are ranked tensors that differ at most in their
/// dims.
static bool sameKind(Type a, Type b) {
  auto ta = dyn_cast_or_null<RankedTensorType>(a);
  auto tb = dyn_cast_or_null<RankedTensorType>(b);
  return ta && tb && ta.getRank() == tb.getRank() &&
         ta.getElementType() == tb.getElementType();
}

/// `declared` with its ? dims filled in from `inferred`.
Type kiln::meetTypes(Type declared, Type inferred) {
  if (!sameKind(declared, inferred))
    return declared;
  auto d = cast<RankedTensorType>(declared);
  SmallVector<int64_t> shape(d.getShape());
  for (auto [dim, known] :
       llvm::zip(shape, cast<RankedTensorType>(inferred).getShape()))
    if (ShapedType::isDynamic(dim))
      dim = known;
  return RankedTensorType::get(shape, d.getElementType());
}

/// `floor` with its ? dims filled in where `a` and `b` hold the same number.
Type kiln::agreeTypes(Type a, Type b, Type floor) {
  if (!sameKind(a, floor) || !sameKind(b, floor))
    return floor;
  auto ta = cast<RankedTensorType>(a), tb = cast<RankedTensorType>(b);
  auto tf = cast<RankedTensorType>(floor);
  SmallVector<int64_t> shape(tf.getShape());
  for (int64_t i = 0; i < tf.getRank(); ++i)
    if (ShapedType::isDynamic(shape[i]) && ta.getDimSize(i) == tb.getDimSize(i))
      shape[i] = ta.getDimSize(i);
  return RankedTensorType::get(shape, tf.getElementType());
}

/// The elements of a list built by list_construct and list_append in view,
/// or false when where it comes from is unknown (a loop, a call).
static bool listElements(Value list, SmallVectorImpl<Value> &elements) {
  SmallVector<Value> appended;
  while (auto append = list.getDefiningOp<ListAppendOp>()) {
    appended.push_back(append.getValue());
    list = append.getList();
  }
  auto construct = list.getDefiningOp<ListConstructOp>();
  if (!construct)
    return false;
  elements.assign(construct.getElements().begin(),
                  construct.getElements().end());
  elements.append(appended.rbegin(), appended.rend());
  return true;
}

static std::optional<ElementwiseKind> elementwiseKind(Operation *op) {
  if (isa<AddOp, SubOp, MulOp, FloorDivOp, RemOp, PowOp, MaximumOp, MinimumOp>(
          op))
    return ElementwiseKind::Arith;
  if (isa<DivOp>(op))
    return ElementwiseKind::TrueDiv;
  if (isa<CmpOp>(op))
    return ElementwiseKind::Compare;
  if (isa<BitAndOp, BitOrOp, BitXorOp>(op))
    return ElementwiseKind::Bitwise;
  return std::nullopt;
}

namespace {

/// The rules, reading operand types through the analysis.
class Rules {
public:
  explicit Rules(RefinedTypeFn typeOf) : typeOf(typeOf) {}
  LogicalResult infer(Operation *op, SmallVectorImpl<Type> &types) const;

private:
  std::optional<int64_t> constantSize(Value v) const;
  Type inferSizes(ValueRange sizes, Type declared) const;
  Type inferReshape(ReshapeOp op) const;
  Type inferExpand(ExpandOp op) const;
  Type inferSlice(SliceOp op) const;
  Type inferJoin(Value list, int64_t dim, bool stack) const;
  bool srcFits(Operation *op) const;

  RefinedTypeFn typeOf;
};

} // namespace

//===----------------------------------------------------------------------===//
// Result types of single ops
//===----------------------------------------------------------------------===//

/// Fills `types` with a type for each result, inferred from the operands'
/// refined types (the declared type where nothing more is known). Failure
/// means the op cannot take its operands' refined types.
LogicalResult Rules::infer(Operation *op, SmallVectorImpl<Type> &types) const {
  auto in = [&](unsigned i) { return typeOf(op->getOperand(i)); };
  auto one = [&](Type t) {
    types.push_back(t);
    return success(t != nullptr);
  };
  if (auto kind = elementwiseKind(op))
    return one(inferElementwiseType(*kind, in(0), in(1), nullptr));
  if (op->hasTrait<OpTrait::SameOperandsAndResultType>() ||
      isa<tensor::CastOp>(op))
    return one(in(0));
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](CastOp cast) {
        return one(withElementType(
            in(0), kiln::getElementTypeOrSelf(cast.getResult().getType())));
      })
      .Case(
          [&](MatmulOp) { return one(inferMatmulType(in(0), in(1), nullptr)); })
      .Case([&](SumOp sum) {
        return one(inferReduceType(in(0), sum.getDims(), sum.getKeepdim(),
                                   /*toI64ForInts=*/true, nullptr));
      })
      .Case<MeanOp, AMaxOp, AMinOp, VarOp>([&](auto reduce) {
        return one(inferReduceType(in(0), reduce.getDims(), reduce.getKeepdim(),
                                   false, nullptr));
      })
      .Case([&](MaxDimOp maxDim) {
        Type values = inferReduceType(in(0), {maxDim.getDim()},
                                      maxDim.getKeepdim(), false, nullptr);
        if (!values)
          return failure();
        types.push_back(values);
        return one(
            withElementType(values, IntegerType::get(op->getContext(), 64)));
      })
      .Case([&](UnsqueezeOp u) {
        return one(inferUnsqueezeType(in(0), u.getDim(), nullptr));
      })
      .Case([&](SqueezeOp s) {
        return one(inferSqueezeType(in(0), s.getDim(), nullptr));
      })
      .Case([&](TransposeOp t) {
        return one(
            inferTransposeType(in(0), t.getDim0(), t.getDim1(), nullptr));
      })
      .Case([&](PermuteOp p) {
        return one(inferPermuteType(in(0), p.getDims(), nullptr));
      })
      .Case([&](SelectOp s) {
        return one(inferSelectType(in(0), s.getDim(), nullptr));
      })
      .Case([&](ReshapeOp r) { return one(inferReshape(r)); })
      .Case([&](ExpandOp e) { return one(inferExpand(e)); })
      .Case([&](SliceOp s) { return one(inferSlice(s)); })
      .Case<SelectScatterOp, SliceScatterOp>([&](auto) {
        // The result has the input's type exactly (AllTypesMatch).
        return srcFits(op) ? one(in(0)) : failure();
      })
      .Case([&](FullOp f) {
        return one(inferSizes(f.getSizes(), f.getResult().getType()));
      })
      .Case<RandOp, RandnOp>([&](auto r) {
        return one(inferSizes(r.getSizes(), r.getResult().getType()));
      })
      .Case([&](StackOp s) {
        return one(inferJoin(s.getList(), s.getDim(), /*stack=*/true));
      })
      .Case([&](CatOp c) {
        return one(inferJoin(c.getList(), c.getDim(), /*stack=*/false));
      })
      .Case([&](ItemOp) {
        // A refined input must still be able to hold exactly one element.
        for (int64_t d : cast<RankedTensorType>(in(0)).getShape())
          if (!ShapedType::isDynamic(d) && d != 1)
            return failure();
        return one(op->getResult(0).getType());
      })
      // Ops that take any tensor and whose results do not depend on shapes.
      .Case<DimOp, PrintOp, AssertOp, ListGetOp, ListLenOp, ConstantOp, UndefOp,
            FromScalarOp>([&](Operation *) {
        llvm::append_range(types, op->getResultTypes());
        return success();
      })
      // Everything else, list_construct and list_append included (their
      // elements must have the list's element type exactly), needs the
      // declared operand types.
      .Default([](Operation *) { return failure(); });
}

/// A size operand known at compile time: a constant, or the size of a dim
/// that the analysis has made static.
std::optional<int64_t> Rules::constantSize(Value v) const {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  if (auto dim = v.getDefiningOp<DimOp>()) {
    auto type = cast<RankedTensorType>(typeOf(dim.getInput()));
    int64_t index = dim.getIndex();
    if (index >= 0 && index < type.getRank() && !type.isDynamicDim(index))
      return type.getDimSize(index);
  }
  return std::nullopt;
}

/// full, rand and randn: one dim per size; a negative size fails at run
/// time, so it stays ?.
Type Rules::inferSizes(ValueRange sizes, Type declared) const {
  SmallVector<int64_t> shape;
  for (Value size : sizes) {
    std::optional<int64_t> n = constantSize(size);
    shape.push_back(n && *n >= 0 ? *n : kDynamic);
  }
  return RankedTensorType::get(
      shape, cast<RankedTensorType>(declared).getElementType());
}

/// reshape: known sizes are dims, and a -1 is the input's element count
/// divided by the other sizes when all of them are known.
Type Rules::inferReshape(ReshapeOp op) const {
  auto in = cast<RankedTensorType>(typeOf(op.getInput()));
  SmallVector<int64_t> shape;
  std::optional<size_t> inferredDim;
  int64_t known = 1;
  bool allKnown = true;
  for (auto [i, size] : llvm::enumerate(op.getShape())) {
    std::optional<int64_t> n = constantSize(size);
    shape.push_back(n && *n >= 0 ? *n : kDynamic);
    if (n && *n == -1 && !inferredDim)
      inferredDim = i;
    else if (!n || *n < 0 || llvm::MulOverflow(known, *n, known))
      allKnown = false;
  }
  if (inferredDim && allKnown && in.hasStaticShape() && known > 0 &&
      in.getNumElements() % known == 0)
    shape[*inferredDim] = in.getNumElements() / known;
  auto result = RankedTensorType::get(shape, in.getElementType());
  // A size that does not match the element count fails at run time; the
  // op keeps its types then.
  if (in.hasStaticShape() && result.hasStaticShape() &&
      in.getNumElements() != result.getNumElements())
    return {};
  return result;
}

/// expand: a known size is the dim; -1 keeps the input's dim.
Type Rules::inferExpand(ExpandOp op) const {
  auto in = cast<RankedTensorType>(typeOf(op.getInput()));
  int64_t offset = op.getSizes().size() - in.getRank();
  if (offset < 0)
    return {};
  SmallVector<int64_t> shape;
  for (auto [i, size] : llvm::enumerate(op.getSizes())) {
    std::optional<int64_t> n = constantSize(size);
    int64_t from = static_cast<int64_t>(i) >= offset ? in.getDimSize(i - offset)
                                                     : kDynamic;
    if (n && *n == -1 && static_cast<int64_t>(i) >= offset)
      shape.push_back(from);
    else if (!n || *n < 0)
      shape.push_back(kDynamic);
    else if (!ShapedType::isDynamic(from) && from != 1 && from != *n)
      return {}; // fails at run time
    else
      shape.push_back(*n);
  }
  return RankedTensorType::get(shape, in.getElementType());
}

/// slice: the length along `dim` when the dim, start, end and step are
/// known, clamped as at::slice does (and codegen's clampSlice).
Type Rules::inferSlice(SliceOp op) const {
  auto in = cast<RankedTensorType>(typeOf(op.getInput()));
  int64_t dim = op.getDim();
  if (dim < 0 || dim >= in.getRank())
    return {};
  SmallVector<int64_t> shape(in.getShape());
  shape[dim] = kDynamic;
  int64_t size = in.getDimSize(dim);
  std::optional<int64_t> start = constantSize(op.getStart());
  std::optional<int64_t> end = constantSize(op.getEnd());
  std::optional<int64_t> step = constantSize(op.getStep());
  if (!ShapedType::isDynamic(size) && start && end && step && *step > 0) {
    auto clamp = [&](int64_t v, int64_t low) {
      if (v < 0)
        v = v < -size ? 0 : v + size;
      return std::min(std::max(v, low), size);
    };
    int64_t first = clamp(*start, 0), last = clamp(*end, first);
    shape[dim] = last == first ? 0 : (last - first - 1) / *step + 1;
  }
  return RankedTensorType::get(shape, in.getElementType());
}

/// stack and cat: when the list's elements are in view, their number (for
/// stack) or the sum of their sizes (for cat) is the joined dim, and the
/// other dims are those all elements agree on.
Type Rules::inferJoin(Value list, int64_t dim, bool stack) const {
  Type element = cast<ListType>(list.getType()).getElementType();
  Type base = stack ? inferStackType(element, dim, nullptr)
                    : inferCatType(element, dim, nullptr);
  SmallVector<Value> elements;
  if (!base || !listElements(list, elements) || elements.empty())
    return base;
  Type joined = typeOf(elements.front());
  for (Value e : elements)
    joined = agreeTypes(joined, typeOf(e), element);
  auto type = cast<RankedTensorType>(joined);
  SmallVector<int64_t> shape(type.getShape());
  if (stack) {
    shape.insert(shape.begin() + dim, elements.size());
  } else {
    int64_t total = 0;
    for (Value e : elements) {
      int64_t n = cast<RankedTensorType>(typeOf(e)).getDimSize(dim);
      total = ShapedType::isDynamic(n) || ShapedType::isDynamic(total)
                  ? kDynamic
                  : total + n;
    }
    shape[dim] = total;
  }
  return RankedTensorType::get(shape, type.getElementType());
}

/// The scatter ops' verifiers check the source against the input; refined
/// types must pass the same checks.
bool Rules::srcFits(Operation *op) const {
  auto in = cast<RankedTensorType>(typeOf(op->getOperand(0)));
  auto src = cast<RankedTensorType>(typeOf(op->getOperand(1)));
  if (auto select = dyn_cast<SelectScatterOp>(op)) {
    Type expected = inferSelectType(in, select.getDim(), nullptr);
    return expected && isCompatibleResultType(expected, src, nullptr);
  }
  int64_t dim = cast<SliceScatterOp>(op).getDim();
  if (dim < 0 || dim >= in.getRank() || src.getRank() != in.getRank())
    return false;
  SmallVector<int64_t> shape(in.getShape());
  shape[dim] = kDynamic;
  int64_t n = in.getDimSize(dim), m = src.getDimSize(dim);
  return isCompatibleResultType(
             RankedTensorType::get(shape, in.getElementType()), src, nullptr) &&
         (ShapedType::isDynamic(n) || ShapedType::isDynamic(m) || m <= n);
}

LogicalResult kiln::inferRefinedTypes(Operation *op, RefinedTypeFn typeOf,
                                      SmallVectorImpl<Type> &types) {
  return Rules(typeOf).infer(op, types);
}
