//===- LowerCompare.cpp - Comparisons, `in` and `is` ----------------------===//
//
// Chained comparisons (`a < b < c` is `a < b and b < c`, each a kiln.cmp
// whose result type comes from ir/ShapeInference.h), membership in tuples
// and lists, and `is` against None and dtypes, which are decided while
// compiling.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/LowerConstructs.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

std::optional<Value> FunctionLowering::emitCompare(CmpPredicate pred,
                                                   Value lhs, Value rhs,
                                                   SourceRange where,
                                                   SourceRange lhsRange,
                                                   SourceRange rhsRange) {
  Type t = binaryResultType(ElementwiseKind::Compare, lhs, rhs, where,
                            lhsRange, rhsRange);
  if (!t)
    return std::nullopt;
  return foldConstantScalar(b, b.create<CmpOp>(loc(where), t, pred, lhs, rhs));
}

static std::optional<CmpPredicate> cmpPredicate(ast::CmpOpKind k) {
  switch (k) {
  case ast::CmpOpKind::Lt:
    return CmpPredicate::lt;
  case ast::CmpOpKind::Le:
    return CmpPredicate::le;
  case ast::CmpOpKind::Gt:
    return CmpPredicate::gt;
  case ast::CmpOpKind::Ge:
    return CmpPredicate::ge;
  case ast::CmpOpKind::Eq:
    return CmpPredicate::eq;
  case ast::CmpOpKind::Ne:
    return CmpPredicate::ne;
  default:
    return std::nullopt;
  }
}

/// `l in r` for a tuple `r`: `x.dtype in (torch.float16, torch.bfloat16)`
/// is decided now; numbers are compared at run time, element by element.
static std::optional<Value> lowerMembership(FunctionLowering &fl,
                                            const PyValue &l, const PyValue &r,
                                            SourceRange range) {
  if (r.isValue() && llvm::isa<ListType>(r.value.getType()))
    return lowerListMembership(fl, l, r, range);
  if (r.isDict())
    return lowerDictMembership(fl, l, r, range);
  if (r.kind != PyValue::Kind::Tuple) {
    fl.error(range, "'in' is supported on a tuple or a list only, "
                    "not " +
                        fl.describe(r));
    return std::nullopt;
  }
  Value any = fl.constBool(false, range);
  for (const PyValue &e : r.elems) {
    Value eq;
    if (std::optional<bool> s = staticEqual(fl.b, l, e)) {
      eq = fl.constBool(*s, range);
    } else if (l.isValue() && e.isValue() && l.value.getType().isIntOrFloat() &&
               e.value.getType().isIntOrFloat()) {
      std::optional<Value> c = fl.emitCompare(CmpPredicate::eq, l.value,
                                              e.value, range, range, range);
      if (!c)
        return std::nullopt;
      eq = *c;
    } else {
      fl.error(range, "'in' cannot compare " + fl.describe(l) + " with " +
                          fl.describe(e));
      return std::nullopt;
    }
    any = fl.b.create<arith::OrIOp>(fl.loc(range), any, eq);
  }
  // Folded here so that an `if` on it is decided while compiling.
  if (std::optional<bool> k = knownCondition(any))
    return fl.constBool(*k, range);
  return any;
}

MaybeValue FunctionLowering::lowerCompare(const ast::CompareExpr &e) {
  std::vector<PyValue> operands;
  for (size_t i = 0; i < e.operands.size(); ++i) {
    // `d in [torch.float16, torch.bfloat16]`: a list display that is only
    // searched is a tuple, and may hold dtypes and strs.
    auto *list = llvm::dyn_cast<ast::ListExpr>(e.operands[i].get());
    if (list && i > 0 &&
        (e.ops[i - 1] == ast::CmpOpKind::In ||
         e.ops[i - 1] == ast::CmpOpKind::NotIn)) {
      std::vector<PyValue> elems;
      for (const ast::ExprPtr &x : list->elts) {
        MaybeValue v = lowerExpr(*x);
        if (!v)
          return std::nullopt;
        elems.push_back(*v);
      }
      operands.push_back(PyValue::tuple(std::move(elems)));
      continue;
    }
    MaybeValue v = lowerExpr(*e.operands[i]);
    if (!v)
      return std::nullopt;
    operands.push_back(*v);
  }
  Value result;
  for (size_t i = 0; i < e.ops.size(); ++i) {
    const PyValue &l = operands[i], &r = operands[i + 1];
    SourceRange range =
        SourceRange::cover(e.operands[i]->range, e.operands[i + 1]->range);
    Value c;
    ast::CmpOpKind k = e.ops[i];
    std::optional<bool> same;
    if ((k == ast::CmpOpKind::Is || k == ast::CmpOpKind::IsNot) &&
        l.kind == PyValue::Kind::Global && r.kind == PyValue::Kind::Global)
      same = staticEqual(b, l, r); // `x.dtype is torch.float32`
    if (same) {
      c = constBool((k == ast::CmpOpKind::Is) == *same, range);
    } else if (k == ast::CmpOpKind::Is || k == ast::CmpOpKind::IsNot) {
      // Only None and dtypes have identity in the subset; the answer is
      // static, but for an Optional input, whose presence is a run-time flag.
      if (!l.isNone() && !r.isNone()) {
        error(range, "'is' is supported only against None");
        return std::nullopt;
      }
      const PyValue &other = l.isNone() ? r : l;
      if (other.isOptional()) {
        c = other.presence();
        if (k == ast::CmpOpKind::Is)
          c = b.create<arith::XOrIOp>(loc(range), c, constBool(true, range));
      } else {
        bool same = l.isNone() && r.isNone();
        c = constBool(k == ast::CmpOpKind::Is ? same : !same, range);
      }
    } else if (k == ast::CmpOpKind::In || k == ast::CmpOpKind::NotIn) {
      std::optional<Value> in = lowerMembership(*this, l, r, range);
      if (!in)
        return std::nullopt;
      c = k == ast::CmpOpKind::In
              ? *in
              : b.create<arith::XOrIOp>(loc(range), *in, constBool(true, range))
                    .getResult();
    } else if (std::optional<bool> eq = staticEqual(b, l, r)) {
      // `x.dtype == torch.float32`, `mode == "linear"`: decided now.
      if (k != ast::CmpOpKind::Eq && k != ast::CmpOpKind::Ne) {
        error(range, describe(l) + " and " + describe(r) +
                         " can only be compared with == and !=");
        return std::nullopt;
      }
      c = constBool(k == ast::CmpOpKind::Eq ? *eq : !*eq, range);
    } else {
      if (!l.isValue() || !r.isValue() ||
          llvm::isa<ListType>(l.value.getType()) ||
          llvm::isa<ListType>(r.value.getType())) {
        error(range, std::string("unsupported operand types for ") +
                         ast::spell(k) + ": " + describe(l) + " and " +
                         describe(r));
        return std::nullopt;
      }
      std::optional<Value> cmp =
          emitCompare(*cmpPredicate(k), l.value, r.value, range,
                      e.operands[i]->range, e.operands[i + 1]->range);
      if (!cmp)
        return std::nullopt;
      c = *cmp;
    }
    if (!result) {
      result = c;
      continue;
    }
    std::string why;
    Type t = inferElementwiseType(ElementwiseKind::Bitwise, result.getType(),
                                  c.getType(), &why);
    if (!t) {
      error(e.range, userMessage(why));
      return std::nullopt;
    }
    result = b.create<BitAndOp>(loc(e.range), t, result, c);
  }
  return PyValue::ofValue(result);
}

} // namespace kiln
