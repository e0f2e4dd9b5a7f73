//===- ShapeOps.cpp - kiln shape, indexing and scatter ops ----------------===//
//
// Shape ops become tensor reshapes (expand_shape, collapse_shape), slices
// (extract_slice, insert_slice) and linalg copies (transpose, the stretching
// of expand). Reshapes and slices stay views until bufferization, which
// copies only where a strided buffer cannot be reinterpreted.
//
// Sizes and indices that are only known at run time are checked the way
// PyTorch checks them, with its messages: reshape's element count and
// inferred -1, expand's non-singleton dims, select's index. Slices clamp as
// Python does. Integer arithmetic folds as it is built, so static shapes
// give constants and checks that cannot fail are never emitted.
//
// Two deliberate departures, both forced by a rank fixed at compile time:
// - squeeze of a `?` dim: PyTorch keeps a dim that is not 1, which would
//   change the result's rank, so kiln raises instead;
// - a scatter's source must have the slice's shape (the frontend expands it
//   first), so a mismatch is reported with PyTorch's copy_ message.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/CheckSupport.h"
#include "codegen/lowering/IntMath.h"
#include "codegen/strategy/Tiling.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <optional>

using namespace mlir;

namespace kiln::codegen {
namespace {

using Pred = arith::CmpIPredicate;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Index sizes as OpFoldResults that agree with `type`: attributes for its
/// static dims, the values for its dynamic ones.
SmallVector<OpFoldResult> mixedSizes(OpBuilder &b, RankedTensorType type,
                                     ArrayRef<Value> sizes) {
  SmallVector<OpFoldResult> mixed;
  for (int64_t i = 0; i < type.getRank(); ++i)
    mixed.push_back(type.isDynamicDim(i)
                        ? OpFoldResult(sizes[i])
                        : OpFoldResult(b.getIndexAttr(type.getDimSize(i))));
  return mixed;
}

RankedTensorType withShape(RankedTensorType type, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, type.getElementType());
}

/// `value` as a 1-D tensor in row-major order; a rank-0 tensor gives one
/// element.
Value flatten(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 1)
    return value;
  if (type.getRank() == 0)
    return b.create<tensor::ExpandShapeOp>(
        loc, withShape(type, {1}), value, ArrayRef<ReassociationIndices>{},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  int64_t n =
      type.hasStaticShape() ? type.getNumElements() : ShapedType::kDynamic;
  return b.create<tensor::CollapseShapeOp>(loc, withShape(type, {n}), value,
                                           ArrayRef<ReassociationIndices>{all});
}

/// `src` reshaped to `type` (dims `sizes`, index values), each result dim in
/// one of `groups`: a tensor.expand_shape (a view) when no group has two `?`
/// dims, else tensor.reshape, because MLIR 19's one-shot bufferization
/// crashes on such an expand_shape; tensor.reshape becomes memref.reshape
/// (after a copy if the source is strided).
Value expandTo(OpBuilder &b, Location loc, Value src, RankedTensorType type,
               ArrayRef<ReassociationIndices> groups, ArrayRef<Value> sizes) {
  bool viewable = llvm::all_of(groups, [&](const ReassociationIndices &g) {
    return llvm::count_if(g, [&](int64_t i) { return type.isDynamicDim(i); }) <=
           1;
  });
  if (viewable)
    return b.create<tensor::ExpandShapeOp>(loc, type, src, groups,
                                           mixedSizes(b, type, sizes));
  SmallVector<Value> dims;
  for (int64_t i = 0; i < type.getRank(); ++i)
    dims.push_back(type.isDynamicDim(i)
                       ? sizes[i]
                       : indexValue(b, loc, type.getDimSize(i)));
  Value shape = b.create<tensor::FromElementsOp>(loc, dims);
  return b.create<tensor::ReshapeOp>(loc, type, src, shape);
}

/// The inverse of flatten: `flat`, whose length is right, as `type` with
/// dims `sizes` (index values).
Value unflatten(OpBuilder &b, Location loc, Value flat, RankedTensorType type,
                ArrayRef<Value> sizes) {
  int64_t n =
      type.hasStaticShape() ? type.getNumElements() : ShapedType::kDynamic;
  flat = castTo(b, loc, flat, withShape(type, {n}));
  if (type.getRank() == 1)
    return flat;
  if (type.getRank() == 0)
    return b.create<tensor::CollapseShapeOp>(loc, type, flat,
                                             ArrayRef<ReassociationIndices>{});
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return expandTo(b, loc, flat, type, {all}, sizes);
}

/// Groups for reshaping between a shape and the same shape with size-1 dims
/// at `unit` (positions in the larger shape): each unit dim joins the group
/// of the next kept dim, or of the last one when none follows.
SmallVector<ReassociationIndices> unitDimGroups(ArrayRef<bool> unit) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (auto [i, isUnit] : llvm::enumerate(unit)) {
    pending.push_back(static_cast<int64_t>(i));
    if (!isUnit) {
      groups.push_back(pending);
      pending.clear();
    }
  }
  if (!groups.empty())
    groups.back().append(pending.begin(), pending.end());
  return groups;
}

/// Inserts size-1 dims into `value` where `unit` is true (tensor.expand_shape,
/// a view).
Value insertUnitDims(OpBuilder &b, Location loc, Value value,
                     ArrayRef<bool> unit) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> inSizes = tensorSizes(b, loc, value);
  SmallVector<int64_t> shape;
  SmallVector<Value> sizes;
  int64_t next = 0;
  for (bool isUnit : unit) {
    shape.push_back(isUnit ? 1 : type.getDimSize(next));
    sizes.push_back(isUnit ? indexValue(b, loc, 1) : inSizes[next]);
    next += isUnit ? 0 : 1;
  }
  RankedTensorType result = withShape(type, shape);
  return b.create<tensor::ExpandShapeOp>(
      loc, result, value, unitDimGroups(unit), mixedSizes(b, result, sizes));
}

/// Drops the size-1 dims of `value` where `unit` is true; their type must
/// say 1 (tensor.collapse_shape, a view).
Value dropUnitDims(OpBuilder &b, Location loc, Value value,
                   ArrayRef<bool> unit) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (auto [i, isUnit] : llvm::enumerate(unit))
    if (!isUnit)
      shape.push_back(type.getDimSize(i));
  return b.create<tensor::CollapseShapeOp>(loc, withShape(type, shape), value,
                                           unitDimGroups(unit));
}

/// Python's index rule for x[i]: a negative index counts from the end, and
/// anything outside [-size, size) raises. Returns the index as an index.
Value normalizeIndex(IntMath &m, LoweringState &state, Value index, Value size,
                     int64_t dim) {
  // Operands in named locals, here and below: C++ leaves the order of
  // evaluating arguments unspecified, and the IR must not depend on it.
  Value zero = m.i64(0);
  Value negative = m.cmp(Pred::slt, index, zero);
  Value wrapped = m.select(negative, m.add(index, size), index);
  Value below = m.cmp(Pred::slt, wrapped, zero);
  Value above = m.cmp(Pred::sge, wrapped, size);
  Value outside = m.either(below, above);
  Value dimValue = m.i64(dim);
  check(m.b, m.loc, state, outside,
        "index {0} is out of bounds for dimension {1} with size {2}",
        {index, dimValue, size});
  return m.toIndex(wrapped);
}

/// at::slice's clamping of x[start:end:step] along a dim of `size` (all
/// i64). Returns the first index and the length (i64).
std::pair<Value, Value> clampSlice(IntMath &m, LoweringState &state, Value size,
                                   Value start, Value end, Value step) {
  Value zero = m.i64(0);
  check(m.b, m.loc, state, m.cmp(Pred::sle, step, zero),
        "slice step must be positive");
  auto clamp = [&](Value v, Value low) {
    Value negative = m.cmp(Pred::slt, v, zero);
    v = m.select(negative, m.add(v, size), v);
    v = m.select(m.cmp(Pred::slt, v, low), low, v);
    return m.select(m.cmp(Pred::sgt, v, size), size, v);
  };
  start = clamp(start, zero);
  end = clamp(end, start);
  return {start, m.ceilDiv(m.sub(end, start), step)};
}

/// Checks that `src` has the shape `expected` (i64 sizes, one per src dim),
/// as copy_ into a view does.
void checkSourceShape(IntMath &m, LoweringState &state, Value src,
                      ArrayRef<Value> expected) {
  SmallVector<Value> sizes = tensorSizes(m.b, m.loc, src);
  for (auto [i, size] : llvm::enumerate(sizes)) {
    Value actual = m.toI64(size);
    Value differs = m.cmp(Pred::ne, actual, expected[i]);
    Value dim = m.i64(static_cast<int64_t>(i));
    check(m.b, m.loc, state, differs,
          "the expanded size of the tensor ({0}) must match the existing "
          "size ({1}) at non-singleton dimension {2}",
          {expected[i], actual, dim});
  }
}

/// Offsets, sizes and unit strides for inserting `src` into `dest` at
/// `offset` along `dim`, sized as `src` (rank-reducing when `dropDim`).
void sliceOfSource(OpBuilder &b, Location loc, Value src, int64_t destRank,
                   int64_t dim, bool dropDim, OpFoldResult offset,
                   OpFoldResult length, OpFoldResult stride,
                   SmallVectorImpl<OpFoldResult> &offsets,
                   SmallVectorImpl<OpFoldResult> &sizes,
                   SmallVectorImpl<OpFoldResult> &strides) {
  auto srcType = cast<RankedTensorType>(src.getType());
  SmallVector<Value> srcSizes = tensorSizes(b, loc, src);
  SmallVector<OpFoldResult> mixed = mixedSizes(b, srcType, srcSizes);
  int64_t next = 0;
  for (int64_t i = 0; i < destRank; ++i) {
    if (i == dim) {
      offsets.push_back(offset);
      strides.push_back(stride);
      if (dropDim) {
        sizes.push_back(b.getIndexAttr(1));
        continue;
      }
      sizes.push_back(length);
      ++next;
      continue;
    }
    offsets.push_back(b.getIndexAttr(0));
    strides.push_back(b.getIndexAttr(1));
    sizes.push_back(mixed[next++]);
  }
}

//===----------------------------------------------------------------------===//
// Sizes and reshapes
//===----------------------------------------------------------------------===//

struct DimLowering : KilnLowering<DimOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(adaptor.getInput().getType());
    int64_t index = op.getIndex();
    if (!type.isDynamicDim(index)) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, rewriter.getI64IntegerAttr(type.getDimSize(index)));
      return success();
    }
    Value size =
        rewriter.create<tensor::DimOp>(op.getLoc(), adaptor.getInput(), index);
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getI64Type(),
                                                    size);
    return success();
  }
};

/// torch.reshape: flatten, then unflatten into the new sizes (both views
/// for a contiguous input). The sizes are checked as at::infer_size does.
struct ReshapeLowering : KilnLowering<ReshapeOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value input = adaptor.getInput();
    ValueRange shape = adaptor.getShape();
    Value zero = m.i64(0), one = m.i64(1), minusOne = m.i64(-1);

    Value numel = one;
    for (Value size : tensorSizes(rewriter, loc, input))
      numel = m.mul(numel, m.toI64(size));

    // The product of the given sizes, with -1 counting as 1.
    Value known = one, inferCount = zero;
    SmallVector<Value> isInferred;
    for (Value size : shape) {
      check(rewriter, loc, state, m.cmp(Pred::slt, size, minusOne),
            "invalid shape dimension {0}", {size});
      Value inferred = m.cmp(Pred::eq, size, minusOne);
      isInferred.push_back(inferred);
      inferCount = m.add(inferCount, m.select(inferred, one, zero));
      known = m.mul(known, m.select(inferred, one, size));
    }
    check(rewriter, loc, state, m.cmp(Pred::sgt, inferCount, one),
          "only one dimension can be inferred");

    MessageArgs args;
    std::string numelText = args(numel);
    std::string shapeText = args.list(shape);
    Value hasInferred = m.cmp(Pred::sgt, inferCount, zero);
    Value safeKnown = m.select(m.cmp(Pred::eq, known, zero), one, known);
    Value knownPositive = m.cmp(Pred::sgt, known, zero);
    Value noRemainder = m.cmp(Pred::eq, m.rem(numel, safeKnown), zero);
    Value divides =
        m.both(hasInferred, m.both(knownPositive, noRemainder));
    Value fits = m.either(m.cmp(Pred::eq, numel, known), divides);
    check(rewriter, loc, state, m.negate(fits),
          "shape '" + shapeText + "' is invalid for input of size " + numelText,
          args.values);
    check(rewriter, loc, state,
          m.both(hasInferred, m.cmp(Pred::eq, known, zero)),
          "cannot reshape tensor of 0 elements into shape " + shapeText +
              " because the unspecified dimension size -1 can be any value "
              "and is ambiguous",
          args.values);

    Value inferredSize = m.div(numel, safeKnown);
    SmallVector<Value> sizes;
    for (auto [size, inferred] : llvm::zip(shape, isInferred))
      sizes.push_back(m.toIndex(m.select(inferred, inferredSize, size)));
    // A tensor with a static 0 dim holds nothing to move, and MLIR 19's
    // bufferization crashes on an expand_shape whose group mixes a `?` dim
    // with a static 0 (it divides by the group's static product).
    RankedTensorType resultType = op.getResult().getType();
    auto hasZero = [](ShapedType t) {
      return llvm::is_contained(t.getShape(), 0);
    };
    if (hasZero(cast<ShapedType>(input.getType())) || hasZero(resultType)) {
      SmallVector<Value> dynamic;
      for (int64_t i = 0; i < resultType.getRank(); ++i)
        if (resultType.isDynamicDim(i))
          dynamic.push_back(sizes[i]);
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, resultType, dynamic);
      return success();
    }
    rewriter.replaceOp(op, unflatten(rewriter, loc,
                                     flatten(rewriter, loc, input), resultType,
                                     sizes));
    return success();
  }
};

/// Tensor.expand: a copy that repeats size-1 dims. A size-1 dim that the
/// type says is 1 is read at index 0; a `?` dim that turns out to be 1 at
/// run time is stretched too, by a second, gathering loop chosen at run
/// time, so the common case stays a plain vectorizable copy.
struct ExpandLowering : KilnLowering<ExpandOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(ExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    RankedTensorType resultType = op.getResult().getType();
    int64_t rank = resultType.getRank();
    int64_t offset = rank - inType.getRank();
    ValueRange targets = adaptor.getSizes();
    SmallVector<Value> inSizes = tensorSizes(rewriter, loc, input);
    Value zero = m.i64(0), one = m.i64(1), minusOne = m.i64(-1);

    // Sizes below `bound` are negative dims (-1 keeps an existing dim).
    auto checkNegative = [&](Value size, Value bound) {
      MessageArgs args;
      std::string first = args(size);
      check(rewriter, loc, state, m.cmp(Pred::slt, size, bound),
            "trying to create tensor with negative dimension " + first + ": " +
                args.list(targets),
            args.values);
    };

    SmallVector<Value> sizes;
    // Per input dim: does it stretch at run time although its type says `?`
    // (null where it cannot)?
    SmallVector<Value> stretches(inType.getRank());
    Value anyStretch = m.boolean(false);
    for (int64_t i = 0; i < rank; ++i) {
      Value target = targets[i];
      Value dimValue = m.i64(i);
      if (i < offset) {
        check(rewriter, loc, state, m.cmp(Pred::eq, target, minusOne),
              "the expanded size of the tensor ({0}) isn't allowed in a "
              "leading, non-existing dimension {1}",
              {target, dimValue});
        checkNegative(target, zero);
        sizes.push_back(m.toIndex(target));
        continue;
      }
      int64_t j = i - offset;
      Value size = m.toI64(inSizes[j]);
      Value wanted = m.select(m.cmp(Pred::eq, target, minusOne), size, target);
      Value differs = m.cmp(Pred::ne, wanted, size);
      Value isOne = m.cmp(Pred::eq, size, one);
      check(rewriter, loc, state, m.both(differs, m.negate(isOne)),
            "the expanded size of the tensor ({0}) must match the existing "
            "size ({1}) at non-singleton dimension {2}",
            {target, size, dimValue});
      checkNegative(target, minusOne);
      sizes.push_back(m.toIndex(wanted));
      if (inType.isDynamicDim(j)) {
        Value stretch = m.both(differs, isOne);
        if (constantInt(stretch) != std::optional<int64_t>(0)) {
          stretches[j] = stretch;
          anyStretch = m.either(anyStretch, stretch);
        }
      }
    }

    Value init = emptyTensor(rewriter, loc, resultType, sizes);
    auto identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    // The copy with static maps: a dim the type says is 1 reads index 0.
    auto plainCopy = [&](OpBuilder &b, Location l) -> Value {
      SmallVector<AffineExpr> exprs;
      for (int64_t j = 0; j < inType.getRank(); ++j)
        exprs.push_back(inType.getDimSize(j) == 1
                            ? b.getAffineConstantExpr(0)
                            : b.getAffineDimExpr(j + offset));
      AffineMap inputMap = AffineMap::get(rank, 0, exprs, b.getContext());
      return b
          .create<linalg::GenericOp>(
              l, TypeRange{resultType}, ValueRange{input}, ValueRange{init},
              ArrayRef<AffineMap>{inputMap, identity}, parallel,
              [](OpBuilder &nb, Location nl, ValueRange args) {
                nb.create<linalg::YieldOp>(nl, args[0]);
              })
          .getResult(0);
    };
    if (llvm::all_of(stretches, [](Value v) { return !v; })) {
      rewriter.replaceOp(op, plainCopy(rewriter, loc));
      return success();
    }
    // The gathering copy: index 0 wherever a dim stretches.
    auto gatherCopy = [&](OpBuilder &b, Location l) -> Value {
      return b
          .create<linalg::GenericOp>(
              l, TypeRange{resultType}, ValueRange{}, ValueRange{init},
              ArrayRef<AffineMap>{identity}, parallel,
              [&](OpBuilder &nb, Location nl, ValueRange) {
                SmallVector<Value> indices;
                Value zeroIndex = indexValue(nb, nl, 0);
                for (int64_t j = 0; j < inType.getRank(); ++j) {
                  if (inType.getDimSize(j) == 1) {
                    indices.push_back(zeroIndex);
                    continue;
                  }
                  Value index = nb.create<linalg::IndexOp>(nl, j + offset);
                  if (stretches[j])
                    index = nb.create<arith::SelectOp>(nl, stretches[j],
                                                       zeroIndex, index);
                  indices.push_back(index);
                }
                Value element =
                    nb.create<tensor::ExtractOp>(nl, input, indices);
                nb.create<linalg::YieldOp>(nl, element);
              })
          .getResult(0);
    };
    auto ifOp = rewriter.create<scf::IfOp>(
        loc, anyStretch,
        [&](OpBuilder &b, Location l) {
          b.create<scf::YieldOp>(l, gatherCopy(b, l));
        },
        [&](OpBuilder &b, Location l) {
          b.create<scf::YieldOp>(l, plainCopy(b, l));
        });
    rewriter.replaceOp(op, ifOp.getResult(0));
    return success();
  }
};

struct UnsqueezeLowering : KilnLowering<UnsqueezeOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(UnsqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getResult().getType();
    SmallVector<bool> unit(resultType.getRank(), false);
    unit[op.getDim()] = true;
    Value result =
        insertUnitDims(rewriter, op.getLoc(), adaptor.getInput(), unit);
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), result, resultType));
    return success();
  }
};

/// x.squeeze(d) with a dim the verifier allows: 1, or `?`. PyTorch leaves a
/// dim that is not 1 in place, but the result's rank was fixed at compile
/// time, so a `?` dim that is not 1 at run time raises.
struct SqueezeLowering : KilnLowering<SqueezeOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(SqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t dim = op.getDim();
    if (type.isDynamicDim(dim)) {
      Value size = m.toI64(rewriter.create<tensor::DimOp>(loc, input, dim));
      check(rewriter, loc, state, m.cmp(Pred::ne, size, m.i64(1)),
            "cannot squeeze dimension " + std::to_string(dim) +
                " of size {0}: PyTorch would keep it, but the result's rank "
                "was fixed at compile time; declare the dim 1 in the shape "
                "spec",
            {size});
      SmallVector<int64_t> shape(type.getShape());
      shape[dim] = 1;
      input =
          rewriter.create<tensor::CastOp>(loc, withShape(type, shape), input);
    }
    SmallVector<bool> unit(type.getRank(), false);
    unit[dim] = true;
    Value result = dropUnitDims(rewriter, loc, input, unit);
    rewriter.replaceOp(op,
                       castTo(rewriter, loc, result, op.getResult().getType()));
    return success();
  }
};

/// A linalg.transpose into a new tensor; the identity is no copy at all.
Value permute(OpBuilder &b, Location loc, Value input,
              ArrayRef<int64_t> permutation) {
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<Value> inSizes = tensorSizes(b, loc, input);
  SmallVector<int64_t> shape;
  SmallVector<Value> sizes;
  for (int64_t p : permutation) {
    shape.push_back(type.getDimSize(p));
    sizes.push_back(inSizes[p]);
  }
  RankedTensorType resultType = withShape(type, shape);
  Value init = emptyTensor(b, loc, resultType, sizes);
  return b.create<linalg::TransposeOp>(loc, input, init, permutation)
      .getResult()[0];
}

/// A transpose made on the CPU is a group of its own, which
/// TileFusionGroups spreads over the call's threads and VectorizeTiles
/// cuts into vectors or square blocks.
void tileAlone(Value transposed, LoweringState &state, OpBuilder &b) {
  auto op = transposed.getDefiningOp<linalg::TransposeOp>();
  if (op && !state.gpu)
    op->setAttr(kFusionGroupAttrName,
                b.getI64IntegerAttr(state.nextLoneGroup--));
}

struct TransposeLowering : KilnLowering<TransposeOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = op.getResult().getType().getRank();
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(permutation[op.getDim0()], permutation[op.getDim1()]);
    Value result =
        permute(rewriter, op.getLoc(), adaptor.getInput(), permutation);
    tileAlone(result, state, rewriter);
    rewriter.replaceOp(
        op, castTo(rewriter, op.getLoc(), result, op.getResult().getType()));
    return success();
  }
};

struct PermuteLowering : KilnLowering<PermuteOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(PermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result =
        permute(rewriter, op.getLoc(), adaptor.getInput(), op.getDims());
    tileAlone(result, state, rewriter);
    rewriter.replaceOp(
        op, castTo(rewriter, op.getLoc(), result, op.getResult().getType()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Indexing and functional updates
//===----------------------------------------------------------------------===//

/// x[i] along `dim`: a rank-reducing tensor.extract_slice (a view).
struct SelectLowering : KilnLowering<SelectOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t dim = op.getDim();
    SmallVector<Value> inSizes = tensorSizes(rewriter, loc, input);
    Value index = normalizeIndex(m, state, adaptor.getIndex(),
                                 m.toI64(inSizes[dim]), dim);

    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = mixedSizes(rewriter, type, inSizes);
    SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
    offsets[dim] = getAsOpFoldResult(index);
    sizes[dim] = rewriter.getIndexAttr(1);
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + dim);
    Value result = rewriter.create<tensor::ExtractSliceOp>(
        loc, withShape(type, shape), input, offsets, sizes, strides);
    rewriter.replaceOp(op,
                       castTo(rewriter, loc, result, op.getResult().getType()));
    return success();
  }
};

/// x[start:end:step] along `dim`: a strided tensor.extract_slice (a view).
struct SliceLowering : KilnLowering<SliceOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t dim = op.getDim();
    SmallVector<Value> inSizes = tensorSizes(rewriter, loc, input);
    auto [start, length] =
        clampSlice(m, state, m.toI64(inSizes[dim]), adaptor.getStart(),
                   adaptor.getEnd(), adaptor.getStep());

    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = mixedSizes(rewriter, type, inSizes);
    SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
    offsets[dim] = getAsOpFoldResult(m.toIndex(start));
    sizes[dim] = getAsOpFoldResult(m.toIndex(length));
    strides[dim] = getAsOpFoldResult(m.toIndex(adaptor.getStep()));
    Value result = rewriter.create<tensor::ExtractSliceOp>(loc, input, offsets,
                                                           sizes, strides);
    rewriter.replaceOp(op,
                       castTo(rewriter, loc, result, op.getResult().getType()));
    return success();
  }
};

/// x[i] = src along `dim`: tensor.insert_slice, which one-shot
/// bufferization turns into a write in place when x is not read again.
struct SelectScatterLowering : KilnLowering<SelectScatterOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(SelectScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value input = adaptor.getInput(), src = adaptor.getSrc();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t dim = op.getDim();
    SmallVector<Value> inSizes = tensorSizes(rewriter, loc, input);
    Value index = normalizeIndex(m, state, adaptor.getIndex(),
                                 m.toI64(inSizes[dim]), dim);
    SmallVector<Value> expected;
    for (auto [i, size] : llvm::enumerate(inSizes))
      if (static_cast<int64_t>(i) != dim)
        expected.push_back(m.toI64(size));
    checkSourceShape(m, state, src, expected);

    SmallVector<OpFoldResult> offsets, sizes, strides;
    sliceOfSource(rewriter, loc, src, type.getRank(), dim, /*dropDim=*/true,
                  getAsOpFoldResult(index), {}, rewriter.getIndexAttr(1),
                  offsets, sizes, strides);
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(op, src, input, offsets,
                                                       sizes, strides);
    return success();
  }
};

/// x[start:end:step] = src along `dim`: a strided tensor.insert_slice.
struct SliceScatterLowering : KilnLowering<SliceScatterOp> {
  using KilnLowering::KilnLowering;
  LogicalResult
  matchAndRewrite(SliceScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IntMath m{rewriter, loc};
    Value input = adaptor.getInput(), src = adaptor.getSrc();
    auto type = cast<RankedTensorType>(input.getType());
    int64_t dim = op.getDim();
    SmallVector<Value> inSizes = tensorSizes(rewriter, loc, input);
    auto [start, length] =
        clampSlice(m, state, m.toI64(inSizes[dim]), adaptor.getStart(),
                   adaptor.getEnd(), adaptor.getStep());
    SmallVector<Value> expected;
    for (auto [i, size] : llvm::enumerate(inSizes))
      expected.push_back(static_cast<int64_t>(i) == dim ? length
                                                        : m.toI64(size));
    checkSourceShape(m, state, src, expected);

    // The slice's length along `dim` is the source's, which now matches.
    auto srcType = cast<RankedTensorType>(src.getType());
    OpFoldResult srcLength =
        srcType.isDynamicDim(dim)
            ? OpFoldResult(
                  rewriter.create<tensor::DimOp>(loc, src, dim).getResult())
            : OpFoldResult(rewriter.getIndexAttr(srcType.getDimSize(dim)));
    SmallVector<OpFoldResult> offsets, sizes, strides;
    Value startIndex = m.toIndex(start);
    Value stepIndex = m.toIndex(adaptor.getStep());
    sliceOfSource(rewriter, loc, src, type.getRank(), dim, /*dropDim=*/false,
                  getAsOpFoldResult(startIndex), srcLength,
                  getAsOpFoldResult(stepIndex), offsets, sizes, strides);
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(op, src, input, offsets,
                                                       sizes, strides);
    return success();
  }
};

} // namespace

void populateShapePatterns(RewritePatternSet &patterns,
                           TypeConverter &converter, LoweringState &state) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<DimLowering, ReshapeLowering, ExpandLowering, UnsqueezeLowering,
           SqueezeLowering, TransposeLowering, PermuteLowering, SelectLowering,
           SliceLowering, SelectScatterLowering, SliceScatterLowering>(
          converter, context, state);
}

} // namespace kiln::codegen
