//===- IntMath.h - Integer arithmetic that folds as it is built -----------===//
//
// Private to codegen/lowering. Sizes, indices and window arithmetic (shape
// ops, arange, pooling, convolution) are built from small i64 expressions
// whose operands are often constants; folding as they are built gives
// constants for static shapes, so checks that cannot fail are never emitted.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_LOWERING_INTMATH_H
#define KILN_CODEGEN_LOWERING_INTMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

namespace kiln::codegen {

/// Integer arithmetic that folds as it is built, with constants shared and
/// put on the right of commutative ops, where folders look for them.
struct IntMath {
  using Operation = mlir::Operation;
  using Pred = mlir::arith::CmpIPredicate;
  using Type = mlir::Type;
  using Value = mlir::Value;

  mlir::OpBuilder &b;
  mlir::Location loc;
  llvm::SmallDenseMap<std::pair<int64_t, unsigned>, Value> constants{};

  /// The shared constant `v` of `type` (an integer type or index).
  Value constant(int64_t v, mlir::Type type) {
    unsigned width = type.isIndex() ? 0 : type.getIntOrFloatBitWidth();
    Value &c = constants[{v, width}];
    if (!c)
      c = b.create<mlir::arith::ConstantOp>(loc, b.getIntegerAttr(type, v));
    return c;
  }
  Value i64(int64_t v) { return constant(v, b.getI64Type()); }
  Value boolean(bool v) { return constant(v ? 1 : 0, b.getI1Type()); }
  /// Builds `Op`, folding it first. A constant it folds to is a shared one,
  /// so that static shapes leave one constant per value rather than one
  /// per folded step. (OpBuilder::createOrFold would materialize each.)
  template <typename Op, typename... Args> Value fold(Args... args) {
    mlir::OpBuilder detached(b.getContext());
    Operation *op = detached.create<Op>(loc, args...);
    llvm::SmallVector<mlir::OpFoldResult, 1> folded;
    if (succeeded(op->fold(folded)) && folded.size() == 1) {
      Type type = op->getResult(0).getType();
      op->erase();
      if (auto value = llvm::dyn_cast<Value>(folded[0]))
        return value;
      llvm::APInt bits =
          llvm::cast<mlir::IntegerAttr>(folded[0].get<mlir::Attribute>())
              .getValue();
      return constant(
          type.isInteger(1) ? bits.getZExtValue() : bits.getSExtValue(), type);
    }
    b.insert(op);
    return op->getResult(0);
  }
  template <typename Op> Value commutative(Value x, Value y) {
    if (mlir::matchPattern(x, mlir::m_Constant()) &&
        !mlir::matchPattern(y, mlir::m_Constant()))
      std::swap(x, y);
    return fold<Op>(x, y);
  }
  Value add(Value x, Value y) { return commutative<mlir::arith::AddIOp>(x, y); }
  Value sub(Value x, Value y) { return fold<mlir::arith::SubIOp>(x, y); }
  Value mul(Value x, Value y) { return commutative<mlir::arith::MulIOp>(x, y); }
  Value div(Value x, Value y) { return fold<mlir::arith::DivSIOp>(x, y); }
  /// Division rounding toward negative infinity (Python's //).
  Value floorDiv(Value x, Value y) {
    return fold<mlir::arith::FloorDivSIOp>(x, y);
  }
  /// ceil(span / step) for span >= 0 and step > 0, without the overflow
  /// that (span + step - 1) / step has for a huge step.
  Value ceilDiv(Value span, Value step) {
    // Each operand in a named local: C++ leaves the order of evaluating
    // arguments unspecified, and the IR must not depend on it.
    Value zero = i64(0);
    Value empty = cmp(Pred::eq, span, zero);
    Value one = i64(1);
    Value quotient = div(sub(span, one), step);
    return select(empty, zero, add(quotient, one));
  }
  Value rem(Value x, Value y) { return fold<mlir::arith::RemSIOp>(x, y); }
  Value max(Value x, Value y) {
    return commutative<mlir::arith::MaxSIOp>(x, y);
  }
  Value min(Value x, Value y) {
    return commutative<mlir::arith::MinSIOp>(x, y);
  }
  Value cmp(Pred p, Value x, Value y) {
    return fold<mlir::arith::CmpIOp>(p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return fold<mlir::arith::SelectOp>(c, x, y);
  }
  Value both(Value x, Value y) {
    return commutative<mlir::arith::AndIOp>(x, y);
  }
  Value either(Value x, Value y) {
    return commutative<mlir::arith::OrIOp>(x, y);
  }
  Value negate(Value x) { return fold<mlir::arith::XOrIOp>(x, boolean(true)); }
  Value toI64(Value index) {
    if (index.getType().isInteger(64))
      return index;
    return fold<mlir::arith::IndexCastOp>(b.getI64Type(), index);
  }
  Value toIndex(Value i64) {
    if (i64.getType().isIndex())
      return i64;
    return fold<mlir::arith::IndexCastOp>(b.getIndexType(), i64);
  }
};

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_INTMATH_H
