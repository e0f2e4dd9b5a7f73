//===- MatmulOps.cpp - torch.matmul
//-----------------------------------------===//
//
// f32, f16 and bf16 matmul call the kernel library (LibraryCalls.h), and so
// does matmul_epilogue, with its bias and activation (LibraryEpilogues.cpp);
// f64 and integer matmul become linalg contractions. Both follow torch.matmul's
// shape rules and check sizes that are only known at run time with
// PyTorch's messages.
//
// The library takes a, b and out of one rank, whose batch dims are 1 or
// out's size, and broadcasts size-1 dims itself, so a vector becomes a
// 1 x K row or K x 1 column and a missing batch dim a leading 1: views, not
// copies. It also takes any strides, so an operand that is a kiln.transpose
// or kiln.permute (F.linear's x @ w.t()) is passed as a transposed view of
// the permuted tensor, and the permutation's copy is never read.
//
// The generated path uses linalg's named contractions (dot, matvec, vecmat,
// matmul, batch_matmul) where the shapes allow, and one linalg.generic
// contraction where batch dims broadcast. A lhs with batch dims times a
// matrix or vector folds the batch into the rows, as PyTorch does, so it
// stays one matmul.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LibraryCalls.h"
#include "codegen/lowering/ReductionSupport.h"

#include "ir/Activations.h"
#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace kiln::codegen {
namespace {

using Pred = arith::CmpIPredicate;

/// The body of every contraction: acc + a * b, computed in acc's type.
Value multiplyAdd(OpBuilder &b, Location loc, ValueRange args) {
  Type acc = args[2].getType();
  Value x = convertScalar(b, loc, args[0], acc);
  Value y = convertScalar(b, loc, args[1], acc);
  if (isa<FloatType>(acc))
    return b.create<arith::AddFOp>(loc, args[2],
                                   b.create<arith::MulFOp>(loc, x, y));
  return b.create<arith::AddIOp>(loc, args[2],
                                 b.create<arith::MulIOp>(loc, x, y));
}

/// The rows of a lhs whose batch dims fold into them, as PyTorch folds
/// them when the rhs has no batch dims.
Value foldedRows(OpBuilder &b, Location loc, ArrayRef<Value> ls) {
  if (ls.size() == 1)
    return indexValue(b, loc, 1);
  Value rows = ls[0];
  for (Value size : ls.drop_front().drop_back())
    rows = b.createOrFold<arith::MulIOp>(loc, rows, size);
  return rows;
}

/// The broadcast batch dims of a matmul's result.
struct BatchShape {
  SmallVector<int64_t> shape;
  SmallVector<Value> sizes; // index values
  Value count;              // their product
  /// True when no batch dim broadcasts: each is in both operands or in
  /// neither.
  bool plain;
};

/// torch.matmul's shape rules and checks, which every lowering shares.
template <typename Op> struct MatmulRules : KilnLowering<Op> {
  using KilnLowering<Op>::KilnLowering;

  /// The batch dims of `lhsType` and `rhsType` (sizes `ls`, `rs`)
  /// broadcast, with checks where `?` dims must agree.
  BatchShape broadcastBatch(OpBuilder &b, Location loc,
                            RankedTensorType lhsType, RankedTensorType rhsType,
                            ArrayRef<Value> ls, ArrayRef<Value> rs) const {
    int64_t lhsBatch = std::max<int64_t>(lhsType.getRank() - 2, 0);
    int64_t rhsBatch = std::max<int64_t>(rhsType.getRank() - 2, 0);
    int64_t batchRank = std::max(lhsBatch, rhsBatch);
    BatchShape batch{{}, {}, indexValue(b, loc, 1), lhsBatch == rhsBatch};
    for (int64_t i = 0; i < batchRank; ++i) {
      int64_t li = i - (batchRank - lhsBatch), ri = i - (batchRank - rhsBatch);
      int64_t ld = li >= 0 ? lhsType.getDimSize(li) : 1;
      int64_t rd = ri >= 0 ? rhsType.getDimSize(ri) : 1;
      bool lhsIn = li >= 0 && ld != 1, rhsIn = ri >= 0 && rd != 1;
      if (lhsIn != rhsIn)
        batch.plain = false;
      int64_t dim = ShapedType::kDynamic;
      Value size;
      if (!lhsIn && !rhsIn) {
        dim = 1;
        size = indexValue(b, loc, 1);
      } else if (lhsIn && (!rhsIn || !ShapedType::isDynamic(ld))) {
        dim = ld;
        size = ls[li];
      } else {
        dim = rd;
        size = rs[ri];
      }
      if (lhsIn && rhsIn &&
          (ShapedType::isDynamic(ld) || ShapedType::isDynamic(rd)))
        checkBatchDim(b, loc, ls[li], rs[ri], i);
      batch.shape.push_back(dim);
      batch.sizes.push_back(size);
      batch.count = b.createOrFold<arith::MulIOp>(loc, size, batch.count);
    }
    return batch;
  }

  /// Raises PyTorch's message when the contracted sizes differ. `rows` is
  /// the lhs's (folded) rows, `n` the rhs's columns (null for a vector),
  /// `batch` the batch size (null without batch dims).
  void checkContraction(OpBuilder &b, Location loc, int64_t lhsRank,
                        int64_t rhsRank, Value rows, Value k1, Value k2,
                        Value n, Value batch) const {
    if (constantInt(k1) && constantInt(k2))
      return; // equal: the verifier saw both
    Value differs = b.create<arith::CmpIOp>(loc, Pred::ne, k1, k2);
    MessageArgs args;
    std::string a = args(k1), c = args(k2);
    std::string message;
    if (batch) {
      std::string s = args(batch);
      message = "expected size for first two dimensions of batch2 tensor to "
                "be: [" +
                s + ", " + a + "] but got: [" + s + ", " + c + "]";
    } else if (lhsRank == 1 && rhsRank == 1) {
      message = "inconsistent tensor size, expected tensor [" + a +
                "] and src [" + c +
                "] to have the same number of elements, but got " + a +
                " and " + c + " elements respectively";
    } else if (rhsRank == 1) {
      std::string r = args(rows);
      message = "size mismatch, got input (" + r + "), mat (" + r + "x" + a +
                "), vec (" + c + ")";
    } else {
      std::string r = args(rows), m = args(n);
      message = "mat1 and mat2 shapes cannot be multiplied (" + r + "x" + a +
                " and " + c + "x" + m + ")";
    }
    check(b, loc, this->state, differs, message, args.values);
  }

  /// Batch dims of matmul broadcast as elementwise operands do; a `?` dim
  /// is assumed not to stretch, and saying so helps when it is 1.
  void checkBatchDim(OpBuilder &b, Location loc, Value lhsSize, Value rhsSize,
                     int64_t dim) const {
    std::string mismatch =
        "the size of tensor a ({0}) must match the size of tensor b ({1}) at "
        "non-singleton dimension " +
        std::to_string(dim);
    int64_t plain = this->state.tables.addSite(loc, mismatch);
    int64_t dynamicOne = this->state.tables.addSite(
        loc, mismatch + "; kiln broadcasts a dynamic dim only where its "
                        "shape spec declares it 1");
    Value one = indexValue(b, loc, 1);
    // Operands in named locals: C++ leaves the order of evaluating
    // arguments unspecified, and the IR must not depend on it.
    Value lhsIsOne = b.create<arith::CmpIOp>(loc, Pred::eq, lhsSize, one);
    Value rhsIsOne = b.create<arith::CmpIOp>(loc, Pred::eq, rhsSize, one);
    Value isOne = b.create<arith::OrIOp>(loc, lhsIsOne, rhsIsOne);
    Value dynamicSite =
        b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(dynamicOne));
    Value plainSite =
        b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(plain));
    Value site = b.create<arith::SelectOp>(loc, isOne, dynamicSite, plainSite);
    Value differs = b.create<arith::CmpIOp>(loc, Pred::ne, lhsSize, rhsSize);
    emitCheck(b, loc, differs, site, {lhsSize, rhsSize});
  }
};

using MatmulBase = MatmulRules<MatmulOp>;

//===----------------------------------------------------------------------===//
// The kernel library
//===----------------------------------------------------------------------===//

/// A matmul operand as the library reads it: dim i is dim permutation[i]
/// of `source`.
struct OperandView {
  Value source;
  SmallVector<int64_t> permutation;

  RankedTensorType type() const {
    auto sourceType = cast<RankedTensorType>(source.getType());
    SmallVector<int64_t> shape;
    for (int64_t p : permutation)
      shape.push_back(sourceType.getDimSize(p));
    return RankedTensorType::get(shape, sourceType.getElementType());
  }
  SmallVector<Value> sizes(OpBuilder &b, Location loc) const {
    SmallVector<Value> sourceSizes = tensorSizes(b, loc, source);
    SmallVector<Value> result;
    for (int64_t p : permutation)
      result.push_back(sourceSizes[p]);
    return result;
  }
};

/// Follows kiln.transpose and kiln.permute back from `operand` (lowered to
/// `lowered`) to the tensor they permute.
OperandView lookThroughPermutes(ConversionPatternRewriter &rewriter,
                                Value operand, Value lowered) {
  int64_t rank = cast<RankedTensorType>(operand.getType()).getRank();
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, rank));
  Value value = operand;
  while (true) {
    SmallVector<int64_t> step;
    if (auto transpose = value.getDefiningOp<TransposeOp>()) {
      step = llvm::to_vector(llvm::seq<int64_t>(0, rank));
      std::swap(step[transpose.getDim0()], step[transpose.getDim1()]);
      value = transpose.getInput();
    } else if (auto permute = value.getDefiningOp<PermuteOp>()) {
      step = llvm::to_vector(permute.getDims());
      value = permute.getInput();
    } else {
      break;
    }
    for (int64_t &p : permutation)
      p = step[p];
  }
  if (value == operand)
    return {lowered, permutation};
  return {rewriter.getRemappedValue(value), permutation};
}

/// `view` as the library's operand of `rank` dims: leading size-1 batch
/// dims added, and a vector made a 1 x K row (lhs) or a K x 1 column (rhs).
Value libraryOperand(OpBuilder &b, Location loc, const OperandView &view,
                     int64_t rank, bool isRhs) {
  Value source = toLibraryElements(b, loc, view.source);
  int64_t viewRank = view.permutation.size();
  SmallVector<bool> unit(rank, true);
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (viewRank == 1) {
    unit[isRhs ? rank - 2 : rank - 1] = false;
  } else {
    int64_t added = rank - viewRank;
    for (int64_t i = 0; i < viewRank; ++i) {
      unit[added + i] = false;
      permutation[added + i] = added + view.permutation[i];
    }
  }
  if (llvm::is_contained(unit, true))
    source = insertUnitDims(b, loc, source, unit);
  return viewAsUnrankedMemref(b, loc, source, permutation);
}

/// matmul, and matmul_epilogue (which only the library computes), as a
/// call of the kernel library.
template <typename Op> struct LibraryMatmulLowering : MatmulRules<Op> {
  using MatmulRules<Op>::MatmulRules;
  static constexpr bool kEpilogue = std::is_same_v<Op, MatmulEpilogueOp>;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type element = op.getLhs().getType().getElementType();
    if (!usesKernelLibrary(element))
      return rewriter.notifyMatchFailure(op, "not a kernel-library dtype");
    Location loc = op.getLoc();
    OperandView lhs =
        lookThroughPermutes(rewriter, op.getLhs(), adaptor.getLhs());
    OperandView rhs =
        lookThroughPermutes(rewriter, op.getRhs(), adaptor.getRhs());
    RankedTensorType lhsType = lhs.type(), rhsType = rhs.type();
    int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
    SmallVector<Value> ls = lhs.sizes(rewriter, loc);
    SmallVector<Value> rs = rhs.sizes(rewriter, loc);

    BatchShape batch =
        this->broadcastBatch(rewriter, loc, lhsType, rhsType, ls, rs);
    Value k1 = ls.back();
    Value k2 = rhsRank == 1 ? rs[0] : rs[rhsRank - 2];
    Value n = rhsRank == 1 ? Value() : rs.back();
    if (rhsRank > 2)
      this->checkContraction(rewriter, loc, lhsRank, rhsRank, Value(), k1, k2,
                             n, batch.count);
    else if (!constantInt(k1) || !constantInt(k2))
      this->checkContraction(rewriter, loc, lhsRank, rhsRank,
                             foldedRows(rewriter, loc, ls), k1, k2, n, {});

    // out is batch x M x N, with M or N 1 for a vector operand.
    SmallVector<int64_t> shape = batch.shape;
    SmallVector<Value> sizes = batch.sizes;
    Value one = indexValue(rewriter, loc, 1);
    shape.push_back(lhsRank == 1 ? 1 : lhsType.getDimSize(lhsRank - 2));
    sizes.push_back(lhsRank == 1 ? one : ls[lhsRank - 2]);
    shape.push_back(rhsRank == 1 ? 1 : rhsType.getShape().back());
    sizes.push_back(rhsRank == 1 ? one : rs.back());
    int64_t rank = shape.size();
    Value a = libraryOperand(rewriter, loc, lhs, rank, /*isRhs=*/false);
    Value b = libraryOperand(rewriter, loc, rhs, rank, /*isRhs=*/true);
    Value result;
    if constexpr (kEpilogue) {
      // The verifier saw that the bias has the product's columns.
      Value bias = viewAsUnrankedMemref(
          rewriter, loc, toLibraryElements(rewriter, loc, adaptor.getBias()));
      Value activation = rewriter.create<arith::ConstantOp>(
          loc, rewriter.getI32IntegerAttr(*activationCode(op.getActivation())));
      result = callKernelLibrary(rewriter, loc, this->state, "matmul_epilogue",
                                 {a, b, bias}, shape, sizes, {activation});
    } else {
      result = callKernelLibrary(rewriter, loc, this->state, "matmul", {a, b},
                                 shape, sizes, {});
    }

    // Drop the M or N of a vector operand, as torch.matmul does.
    SmallVector<bool> unit(rank, false);
    unit[rank - 2] = lhsRank == 1;
    unit[rank - 1] = rhsRank == 1;
    if (llvm::is_contained(unit, true))
      result = dropUnitDims(rewriter, loc, result, unit);
    result = fromLibraryElements(rewriter, loc, result, element);
    rewriter.replaceOp(op,
                       castTo(rewriter, loc, result, op.getResult().getType()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Generated contractions
//===----------------------------------------------------------------------===//

struct MatmulLowering : MatmulBase {
  using MatmulBase::MatmulBase;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
    Type element = lhsType.getElementType();
    if (usesKernelLibrary(element))
      return rewriter.notifyMatchFailure(op, "calls the kernel library");
    // f64 and integers accumulate in their own type, as in PyTorch.
    Type acc = element;
    SmallVector<Value> ls = tensorSizes(rewriter, loc, lhs);
    SmallVector<Value> rs = tensorSizes(rewriter, loc, rhs);
    Value k1 = ls.back();
    Value k2 = rhsRank == 1 ? rs[0] : rs[rhsRank - 2];
    Value n = rhsRank == 1 ? Value() : rs.back();

    Value result;
    if (rhsRank <= 2) {
      Value rows = foldedRows(rewriter, loc, ls);
      if (lhsRank > 2) {
        SmallVector<ReassociationIndices> groups{
            llvm::to_vector(llvm::seq<int64_t>(0, lhsRank - 1)), {lhsRank - 1}};
        int64_t folded = 1;
        for (int64_t i = 0; i < lhsRank - 1; ++i)
          folded = ShapedType::isDynamic(folded) || lhsType.isDynamicDim(i)
                       ? ShapedType::kDynamic
                       : folded * lhsType.getDimSize(i);
        lhs = rewriter.create<tensor::CollapseShapeOp>(
            loc,
            RankedTensorType::get({folded, lhsType.getShape().back()}, element),
            lhs, groups);
      }
      checkContraction(rewriter, loc, lhsRank, rhsRank, rows, k1, k2, n, {});
      result = smallMatmul(rewriter, loc, lhs, rhs, acc, rows, n);
      if (lhsRank > 2) {
        // Unfold the rows.
        SmallVector<int64_t> shape(lhsType.getShape().drop_back());
        SmallVector<Value> sizes(ArrayRef<Value>(ls).drop_back());
        ReassociationIndices rowGroup =
            llvm::to_vector(llvm::seq<int64_t>(0, lhsRank - 1));
        SmallVector<ReassociationIndices> groups{rowGroup};
        if (rhsRank == 2) {
          shape.push_back(rhsType.getShape().back());
          sizes.push_back(n);
          groups.push_back({lhsRank - 1});
        }
        result = expandTo(rewriter, loc, result,
                          RankedTensorType::get(shape, acc), groups, sizes);
      }
    } else {
      result = batchedMatmul(rewriter, loc, lhs, rhs, acc, ls, rs);
    }

    rewriter.replaceOp(op,
                       castTo(rewriter, loc, result, op.getResult().getType()));
    return success();
  }

  /// 1-D and 2-D operands: dot, matvec, vecmat or matmul into a zeroed
  /// accumulator.
  static Value smallMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                           Type acc, Value rows, Value n) {
    int64_t lhsRank = cast<RankedTensorType>(lhs.getType()).getRank();
    int64_t rhsRank = cast<RankedTensorType>(rhs.getType()).getRank();
    auto lhsShape = cast<RankedTensorType>(lhs.getType()).getShape();
    auto rhsShape = cast<RankedTensorType>(rhs.getType()).getShape();
    SmallVector<int64_t> shape;
    SmallVector<Value> sizes;
    if (lhsRank == 2) {
      shape.push_back(lhsShape[0]);
      sizes.push_back(rows);
    }
    if (rhsRank == 2) {
      shape.push_back(rhsShape[1]);
      sizes.push_back(n);
    }
    Value zero = constantOf(b, loc, acc, 0.0);
    Value init = filled(b, loc, RankedTensorType::get(shape, acc), sizes, zero);
    SmallVector<Value, 2> ins{lhs, rhs};
    if (lhsRank == 1 && rhsRank == 1)
      return b.create<linalg::DotOp>(loc, ins, init).getResult(0);
    if (rhsRank == 1)
      return b.create<linalg::MatvecOp>(loc, ins, init).getResult(0);
    if (lhsRank == 1)
      return b.create<linalg::VecmatOp>(loc, ins, init).getResult(0);
    return b.create<linalg::MatmulOp>(loc, ins, init).getResult(0);
  }

  /// A rhs with batch dims. Equal batch dims fold into one for
  /// linalg.batch_matmul; otherwise (a lhs without batch dims, or batch dims
  /// that broadcast) one linalg.generic contraction reads a size-1 dim at
  /// index 0. A `?` batch dim is assumed not to broadcast, as in
  /// elementwise ops, and is checked.
  Value batchedMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                      Type acc, ArrayRef<Value> ls, ArrayRef<Value> rs) const {
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
    int64_t lhsBatch = std::max<int64_t>(lhsRank - 2, 0);
    int64_t rhsBatch = rhsRank - 2;
    BatchShape broadcast = broadcastBatch(b, loc, lhsType, rhsType, ls, rs);
    int64_t batchRank = broadcast.shape.size();
    SmallVector<int64_t> shape = broadcast.shape;
    SmallVector<Value> sizes = broadcast.sizes;
    Value batch = broadcast.count;
    checkContraction(b, loc, lhsRank, rhsRank, Value(), ls.back(),
                     rs[rhsRank - 2], rs.back(), batch);
    if (lhsRank >= 2) {
      shape.push_back(lhsType.getDimSize(lhsRank - 2));
      sizes.push_back(ls[lhsRank - 2]);
    }
    shape.push_back(rhsType.getShape().back());
    sizes.push_back(rs.back());
    auto resultType = RankedTensorType::get(shape, acc);
    Value zero = constantOf(b, loc, acc, 0.0);

    if (broadcast.plain && lhsRank >= 3) {
      // Fold the batch dims into one and use batch_matmul.
      auto fold = [&](Value v, RankedTensorType t) -> Value {
        if (batchRank == 1)
          return v;
        int64_t folded = 1;
        for (int64_t i = 0; i < batchRank; ++i)
          folded = ShapedType::isDynamic(folded) || t.isDynamicDim(i)
                       ? ShapedType::kDynamic
                       : folded * t.getDimSize(i);
        auto type = RankedTensorType::get(
            {folded, t.getDimSize(batchRank), t.getDimSize(batchRank + 1)},
            t.getElementType());
        return b.create<tensor::CollapseShapeOp>(loc, type, v,
                                                 batchGroups(batchRank));
      };
      Value l = fold(lhs, lhsType), r = fold(rhs, rhsType);
      auto lt = cast<RankedTensorType>(l.getType());
      auto rt = cast<RankedTensorType>(r.getType());
      int64_t foldedBatch = ShapedType::isDynamic(lt.getDimSize(0))
                                ? rt.getDimSize(0)
                                : lt.getDimSize(0);
      // Both operands say what either knows of the batch (checked above).
      auto withBatch = [&](Value v, RankedTensorType t) {
        return castTo(b, loc, v,
                      RankedTensorType::get(
                          {foldedBatch, t.getDimSize(1), t.getDimSize(2)},
                          t.getElementType()));
      };
      l = withBatch(l, lt);
      r = withBatch(r, rt);
      auto foldedType = RankedTensorType::get(
          {foldedBatch, lt.getDimSize(1), rt.getDimSize(2)}, acc);
      Value init =
          filled(b, loc, foldedType,
                 {batch, sizes[batchRank], sizes[batchRank + 1]}, zero);
      Value product =
          b.create<linalg::BatchMatmulOp>(loc, ValueRange{l, r}, init)
              .getResult(0);
      if (batchRank == 1)
        return product;
      return expandTo(b, loc, product, resultType, batchGroups(batchRank),
                      sizes);
    }

    // One generic over (batch..., [m], n, k).
    bool hasM = lhsRank >= 2;
    int64_t mDim = batchRank, nDim = batchRank + (hasM ? 1 : 0);
    int64_t kDim = nDim + 1, loops = kDim + 1;
    auto batchExprs = [&](RankedTensorType t, int64_t count) {
      SmallVector<AffineExpr> exprs;
      for (int64_t j = 0; j < count; ++j) {
        int64_t i = j + batchRank - count;
        exprs.push_back(t.getDimSize(j) == 1 && shape[i] != 1
                            ? b.getAffineConstantExpr(0)
                            : b.getAffineDimExpr(i));
      }
      return exprs;
    };
    SmallVector<AffineExpr> lhsExprs = batchExprs(lhsType, lhsBatch);
    if (hasM)
      lhsExprs.push_back(b.getAffineDimExpr(mDim));
    lhsExprs.push_back(b.getAffineDimExpr(kDim));
    SmallVector<AffineExpr> rhsExprs = batchExprs(rhsType, rhsBatch);
    rhsExprs.push_back(b.getAffineDimExpr(kDim));
    rhsExprs.push_back(b.getAffineDimExpr(nDim));
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < kDim; ++i)
      outExprs.push_back(b.getAffineDimExpr(i));
    MLIRContext *context = b.getContext();
    SmallVector<AffineMap> maps{AffineMap::get(loops, 0, lhsExprs, context),
                                AffineMap::get(loops, 0, rhsExprs, context),
                                AffineMap::get(loops, 0, outExprs, context)};
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    Value init = filled(b, loc, resultType, sizes, zero);
    return b
        .create<linalg::GenericOp>(
            loc, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init},
            maps, iterators,
            [](OpBuilder &nb, Location nl, ValueRange args) {
              nb.create<linalg::YieldOp>(nl, multiplyAdd(nb, nl, args));
            })
        .getResult(0);
  }

  /// [[0 .. batchRank-1], [batchRank], [batchRank + 1]].
  static SmallVector<ReassociationIndices> batchGroups(int64_t batchRank) {
    return {llvm::to_vector(llvm::seq<int64_t>(0, batchRank)),
            {batchRank},
            {batchRank + 1}};
  }
};

} // namespace

void eraseUnreadTransposes(ModuleOp module) {
  // The copies and what only they read (a permute of a transpose reads the
  // transpose's copy and its sizes).
  llvm::SetVector<Operation *> worklist;
  module.walk([&](linalg::TransposeOp op) {
    if (op.hasPureTensorSemantics())
      worklist.insert(op);
  });
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        worklist.insert(producer);
    op->erase();
  }
}

void populateMatmulPatterns(RewritePatternSet &patterns, TypeConverter &converter,
                            LoweringState &state) {
  patterns.add<LibraryMatmulLowering<MatmulOp>,
               LibraryMatmulLowering<MatmulEpilogueOp>, MatmulLowering>(
      converter, patterns.getContext(), state);
}

} // namespace kiln::codegen
