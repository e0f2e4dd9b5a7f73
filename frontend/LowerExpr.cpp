//===- LowerExpr.cpp - Expressions, operators and indexing ----------------===//
//
// Operators map one-to-one onto kiln's elementwise ops, whose result types
// come from ir/ShapeInference.h so that the frontend and the verifier agree
// on broadcasting and type promotion. Indexing lives in LowerIndexing.cpp,
// comparisons in LowerCompare.cpp.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/Suggest.h"
#include "frontend/LowerConstructs.h"
#include "frontend/OpTable.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

#include <limits>

using namespace mlir;

namespace kiln {

static bool isTensor(Value v) {
  return llvm::isa<RankedTensorType>(v.getType());
}

MaybeValue FunctionLowering::lowerExpr(const ast::Expr &expr) {
  DepthGuard guard(module, expr.range);
  if (!guard.ok())
    return std::nullopt;
  switch (expr.kind) {
  case ast::Expr::Kind::Name:
    return lowerName(llvm::cast<ast::NameExpr>(expr));
  case ast::Expr::Kind::IntLit:
    return PyValue::ofValue(
        constInt(llvm::cast<ast::IntLitExpr>(expr).value, expr.range));
  case ast::Expr::Kind::FloatLit:
    return PyValue::ofValue(
        constFloat(llvm::cast<ast::FloatLitExpr>(expr).value, expr.range));
  case ast::Expr::Kind::BoolLit:
    return PyValue::ofValue(
        constBool(llvm::cast<ast::BoolLitExpr>(expr).value, expr.range));
  case ast::Expr::Kind::NoneLit:
    return PyValue::none();
  case ast::Expr::Kind::StrLit:
    return PyValue::ofStr(llvm::cast<ast::StrLitExpr>(expr).value);
  case ast::Expr::Kind::EllipsisLit:
    error(expr.range, "'...' is only supported inside a subscript");
    return std::nullopt;
  case ast::Expr::Kind::Tuple: {
    std::vector<PyValue> elems;
    for (const ast::ExprPtr &e : llvm::cast<ast::TupleExpr>(expr).elts) {
      MaybeValue v = lowerExpr(*e);
      if (!v)
        return std::nullopt;
      elems.push_back(*v);
    }
    return PyValue::tuple(std::move(elems));
  }
  case ast::Expr::Kind::List:
    return lowerListLiteral(llvm::cast<ast::ListExpr>(expr));
  case ast::Expr::Kind::ListComp:
    return lowerListComp(*this, llvm::cast<ast::ListCompExpr>(expr));
  case ast::Expr::Kind::Dict:
    return lowerDictDisplay(*this, llvm::cast<ast::DictExpr>(expr));
  case ast::Expr::Kind::BinOp:
    return lowerBinOp(llvm::cast<ast::BinOpExpr>(expr));
  case ast::Expr::Kind::UnaryOp: {
    auto &u = llvm::cast<ast::UnaryOpExpr>(expr);
    if (u.op == ast::UnaryOpKind::Not) {
      std::optional<Value> c = lowerCondition(*u.operand);
      if (!c)
        return std::nullopt;
      return PyValue::ofValue(b.create<arith::XOrIOp>(
          loc(expr.range), *c, constBool(true, expr.range)));
    }
    // A negative literal is a constant, so `dim=-1` stays compile-time.
    if (u.op == ast::UnaryOpKind::Neg) {
      if (auto *i = llvm::dyn_cast<ast::IntLitExpr>(u.operand.get()))
        return PyValue::ofValue(constInt(-i->value, expr.range));
      if (auto *f = llvm::dyn_cast<ast::FloatLitExpr>(u.operand.get()))
        return PyValue::ofValue(constFloat(-f->value, expr.range));
    }
    MaybeValue v = lowerExpr(*u.operand);
    if (!v)
      return std::nullopt;
    if (!v->isValue() || llvm::isa<ListType>(v->value.getType())) {
      error(expr.range, std::string("bad operand type for unary ") +
                            ast::spell(u.op) + ": " + describe(*v));
      return std::nullopt;
    }
    Value x = v->value;
    switch (u.op) {
    case ast::UnaryOpKind::Pos:
      return v;
    case ast::UnaryOpKind::Neg:
      if (x.getType().isInteger(1))
        x = castScalar(x, b.getI64Type(), expr.range);
      return PyValue::ofValue(foldConstantScalar(
          b, b.create<NegOp>(loc(expr.range), x.getType(), x)));
    case ast::UnaryOpKind::Invert:
      if (kiln::getElementTypeOrSelf(x.getType()).isInteger(1))
        return PyValue::ofValue(
            b.create<NotOp>(loc(expr.range), x.getType(), x));
      error(expr.range,
            "'~' is supported on bool values only, got " + describe(*v));
      return std::nullopt;
    case ast::UnaryOpKind::Not:
      break;
    }
    return std::nullopt;
  }
  case ast::Expr::Kind::BoolOp:
    return lowerBoolOp(llvm::cast<ast::BoolOpExpr>(expr));
  case ast::Expr::Kind::Compare:
    return lowerCompare(llvm::cast<ast::CompareExpr>(expr));
  case ast::Expr::Kind::IfExp:
    return lowerIfExp(llvm::cast<ast::IfExpExpr>(expr));
  case ast::Expr::Kind::Call:
    return lowerCall(llvm::cast<ast::CallExpr>(expr));
  case ast::Expr::Kind::Attribute:
    return lowerAttribute(llvm::cast<ast::AttributeExpr>(expr));
  case ast::Expr::Kind::Subscript:
    if (MaybeValue r; lowerDictSubscript(
            *this, llvm::cast<ast::SubscriptExpr>(expr), r))
      return r;
    return lowerSubscript(llvm::cast<ast::SubscriptExpr>(expr));
  case ast::Expr::Kind::Slice:
    error(expr.range, "a slice is only supported inside a subscript");
    return std::nullopt;
  case ast::Expr::Kind::FString:
    return lowerFString(*this, llvm::cast<ast::FStringExpr>(expr));
  }
  return std::nullopt;
}

std::optional<Value> FunctionLowering::lowerValue(const ast::Expr &expr) {
  MaybeValue v = lowerExpr(expr);
  if (!v)
    return std::nullopt;
  if (!v->isValue()) {
    error(expr.range,
          "expected a tensor or a number here, got " + describe(*v));
    return std::nullopt;
  }
  return v->value;
}

MaybeValue FunctionLowering::lowerName(const ast::NameExpr &e) {
  if (auto it = env.find(e.id); it != env.end()) {
    const PyValue &v = it->second.value;
    if (v.isPoisoned())
      return std::nullopt;
    if (v.kind == PyValue::Kind::Undefined) {
      error(e.range, v.str, v.notes);
      return std::nullopt;
    }
    return v;
  }
  if (std::optional<PyValue> g = module.lookupGlobal(e.id))
    return g;
  if (module.skipped.count(e.id)) {
    module.diags.report(module.skipped[e.id]->error);
    error(e.range, "'" + e.id + "' could not be parsed (see the error above)");
    return std::nullopt;
  }
  if (std::optional<PyValue> cls = namedTupleClass(*this, e.id))
    return cls;
  if (module.classes.count(e.id)) {
    error(e.range, "using the class '" + e.id +
                       "' inside a script function is not supported yet");
    return std::nullopt;
  }
  if (isTorchName("builtins." + e.id)) {
    error(e.range, "the Python builtin '" + e.id +
                       "' is not supported yet; docs/python-subset.md lists "
                       "the ones kiln compiles");
    return std::nullopt;
  }
  std::vector<std::string> known;
  for (const auto &[name, binding] : env)
    if (!llvm::StringRef(name).starts_with("$"))
      known.push_back(name);
  for (const auto &[name, def] : module.functions)
    known.push_back(name);
  for (const auto &[name, path] : module.imports)
    known.push_back(name);
  error(e.range, "undefined name '" + e.id + "'" + didYouMean(e.id, known));
  return std::nullopt;
}

std::optional<Value> FunctionLowering::toCondition(PyValue v,
                                                   const ast::Expr &expr) {
  SourceRange r = expr.range;
  if (v.isNone())
    return constBool(false, r);
  if (!v.isValue()) {
    error(r, "cannot use " + describe(v) + " as a condition");
    return std::nullopt;
  }
  Value x = v.value;
  Type t = x.getType();
  if (auto list = llvm::dyn_cast<ListType>(t)) {
    Value len = b.create<ListLenOp>(loc(r), b.getI64Type(), x);
    return b
        .create<CmpOp>(loc(r), b.getI1Type(), CmpPredicate::ne, len,
                       constInt(0, r))
        .getResult();
  }
  if (auto tt = llvm::dyn_cast<RankedTensorType>(t)) {
    // A tensor's truth value is its only element's, as in PyTorch.
    if (tt.hasStaticShape() && tt.getNumElements() != 1) {
      error(r, "the truth value of a " + describeType(t) +
                   " is ambiguous; reduce it to one element first");
      return std::nullopt;
    }
    Type et = tt.getElementType();
    Type scalar = et.isInteger(1)            ? b.getI1Type()
                  : llvm::isa<FloatType>(et) ? Type(b.getF64Type())
                                             : Type(b.getI64Type());
    x = b.create<ItemOp>(loc(r), scalar, x);
    t = scalar;
  }
  if (t.isInteger(1))
    return x;
  if (t.isInteger(64))
    return b
        .create<CmpOp>(loc(r), b.getI1Type(), CmpPredicate::ne, x,
                       constInt(0, r))
        .getResult();
  if (t.isF64())
    return b
        .create<CmpOp>(loc(r), b.getI1Type(), CmpPredicate::ne, x,
                       constFloat(0, r))
        .getResult();
  error(r, "cannot use " + describe(v) + " as a condition");
  return std::nullopt;
}

std::optional<Value> FunctionLowering::lowerCondition(const ast::Expr &expr) {
  MaybeValue v = lowerExpr(expr);
  if (!v)
    return std::nullopt;
  return toCondition(*v, expr);
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

MaybeValue FunctionLowering::lowerBinOp(const ast::BinOpExpr &e) {
  MaybeValue lhs = lowerExpr(*e.lhs);
  if (!lhs)
    return std::nullopt;
  MaybeValue rhs = lowerExpr(*e.rhs);
  if (!rhs)
    return std::nullopt;
  return applyBinOp(e.op, *lhs, *rhs, e.opRange, e.lhs->range, e.rhs->range);
}

static const char *elementwiseOpName(ast::BinOpKind op) {
  switch (op) {
  case ast::BinOpKind::Add:
    return "kiln.add";
  case ast::BinOpKind::Sub:
    return "kiln.sub";
  case ast::BinOpKind::Mul:
    return "kiln.mul";
  case ast::BinOpKind::Div:
    return "kiln.div";
  case ast::BinOpKind::FloorDiv:
    return "kiln.floordiv";
  case ast::BinOpKind::Mod:
    return "kiln.rem";
  case ast::BinOpKind::Pow:
    return "kiln.pow";
  case ast::BinOpKind::MatMul:
    return "kiln.matmul";
  case ast::BinOpKind::BitAnd:
    return "kiln.bitand";
  case ast::BinOpKind::BitOr:
    return "kiln.bitor";
  case ast::BinOpKind::BitXor:
    return "kiln.bitxor";
  case ast::BinOpKind::LShift:
  case ast::BinOpKind::RShift:
    return nullptr;
  }
  return nullptr;
}

MaybeValue FunctionLowering::applyBinOp(ast::BinOpKind op, PyValue lhs,
                                        PyValue rhs, SourceRange where,
                                        SourceRange lhsRange,
                                        SourceRange rhsRange) {
  auto unsupported = [&]() -> MaybeValue {
    error(where,
          std::string("unsupported operand types for ") + ast::spell(op) +
              ": " + describe(lhs) + " and " + describe(rhs),
          {{lhsRange, "the left operand is " + describe(lhs)},
           {rhsRange, "the right operand is " + describe(rhs)}});
    return std::nullopt;
  };
  if (MaybeValue r; lowerContainerBinOp(*this, op, lhs, rhs, where, r))
    return r;
  // Compile-time concatenation of tuples and strings.
  if (op == ast::BinOpKind::Add && lhs.kind == PyValue::Kind::Tuple &&
      rhs.kind == PyValue::Kind::Tuple) {
    std::vector<PyValue> elems = lhs.elems;
    elems.insert(elems.end(), rhs.elems.begin(), rhs.elems.end());
    return PyValue::tuple(std::move(elems));
  }
  if (op == ast::BinOpKind::Add && lhs.kind == PyValue::Kind::Str &&
      rhs.kind == PyValue::Kind::Str)
    return PyValue::ofStr(lhs.str + rhs.str);
  if (!lhs.isValue() || !rhs.isValue())
    return unsupported();

  // `list + [a, b]`: append the literal's elements.
  if (auto list = llvm::dyn_cast<ListType>(lhs.value.getType())) {
    auto ctor = rhs.value.getDefiningOp<ListConstructOp>();
    if (op != ast::BinOpKind::Add || !ctor)
      return unsupported();
    Value cur = lhs.value;
    for (Value elem : ctor->getOperands()) {
      Type et = llvm::cast<ListType>(cur.getType()).getElementType();
      if (llvm::isa<NoneType>(et)) {
        // The first element fixes an empty list's type.
        cur = b.create<ListConstructOp>(
            loc(where), ListType::get(elem.getType()), ValueRange{});
        et = elem.getType();
      }
      std::optional<Value> e = elem;
      if (elem.getType() != et) {
        Type j = et;
        auto tt = llvm::dyn_cast<RankedTensorType>(et);
        auto elemType = llvm::dyn_cast<RankedTensorType>(elem.getType());
        if (tt && elemType && isTensor(elem) &&
            elemType.getRank() == tt.getRank() &&
            elemType.getElementType() == tt.getElementType()) {
          // The list's element type is fixed by its first element; a dim
          // known to differ cannot be cast to it.
          for (int64_t d = 0; d < tt.getRank(); ++d)
            if (!tt.isDynamicDim(d) && !elemType.isDynamicDim(d) &&
                tt.getDimSize(d) != elemType.getDimSize(d)) {
              error(rhsRange,
                    "cannot add " + describe(PyValue::ofValue(elem)) +
                        " to a list of " + describeType(et) +
                        ": kiln's lists hold tensors whose sizes agree "
                        "where both are known when compiling (dim " +
                        std::to_string(d) + " here)");
              return std::nullopt;
            }
          e = castForMerge(elem, j, where);
        } else {
          error(rhsRange, "cannot add " + describe(PyValue::ofValue(elem)) +
                              " to a list of " + describeType(et));
          return std::nullopt;
        }
        if (!e)
          return std::nullopt;
      }
      cur = b.create<ListAppendOp>(loc(where), cur.getType(), cur, *e);
    }
    if (ctor->use_empty())
      ctor->erase();
    return PyValue::ofValue(cur);
  }
  if (llvm::isa<ListType>(rhs.value.getType()))
    return unsupported();

  const char *name = elementwiseOpName(op);
  if (!name) {
    error(where,
          std::string("operator '") + ast::spell(op) + "' is not supported");
    return std::nullopt;
  }
  if (op == ast::BinOpKind::MatMul) {
    if (!isTensor(lhs.value) || !isTensor(rhs.value))
      return unsupported();
    std::string why;
    Type t = inferMatmulType(lhs.value.getType(), rhs.value.getType(), &why);
    if (!t) {
      error(where, userMessage(why),
            {{lhsRange, "the left operand is " + describe(lhs)},
             {rhsRange, "the right operand is " + describe(rhs)}});
      return std::nullopt;
    }
    return PyValue::ofValue(
        b.create<MatmulOp>(loc(where), t, lhs.value, rhs.value));
  }
  std::optional<Value> r =
      emitElementwise(name, lhs.value, rhs.value, where, lhsRange, rhsRange);
  if (!r)
    return std::nullopt;
  return PyValue::ofValue(*r);
}

std::optional<Value> FunctionLowering::emitElementwise(llvm::StringRef opName,
                                                       Value lhs, Value rhs,
                                                       SourceRange where,
                                                       SourceRange lhsRange,
                                                       SourceRange rhsRange) {
  ElementwiseKind kind = ElementwiseKind::Arith;
  if (opName == "kiln.div")
    kind = ElementwiseKind::TrueDiv;
  else if (opName.starts_with("kiln.bit"))
    kind = ElementwiseKind::Bitwise;
  Type t = binaryResultType(kind, lhs, rhs, where, lhsRange, rhsRange);
  if (!t)
    return std::nullopt;
  OperationState state(loc(where), opName);
  state.addOperands({lhs, rhs});
  state.addTypes(t);
  return foldConstantScalar(b, b.create(state));
}

Type FunctionLowering::binaryResultType(ElementwiseKind kind, Value lhs,
                                        Value rhs, SourceRange where,
                                        SourceRange lhsRange,
                                        SourceRange rhsRange) {
  std::string why;
  Type t = inferElementwiseType(kind, lhs.getType(), rhs.getType(), &why);
  if (!t)
    error(where, userMessage(why),
          {{lhsRange, "the left operand is " + describe(PyValue::ofValue(lhs))},
           {rhsRange,
            "the right operand is " + describe(PyValue::ofValue(rhs))}});
  return t;
}

/// Python numbers that are all known while compiling combine now, so that
/// sizes computed from static dims (`x.size(-1) // 2 + 1`) stay static in
/// the types built from them. Tensors are left to the folding pass, which
/// a dump shows.
Value FunctionLowering::foldConstantScalar(OpBuilder &b, Operation *op) {
  Value r = op->getResult(0);
  if (llvm::isa<ShapedType>(r.getType()))
    return r;
  SmallVector<Attribute> operands;
  for (Value v : op->getOperands()) {
    auto c = v.getDefiningOp<arith::ConstantOp>();
    if (!c)
      return r;
    operands.push_back(c.getValue());
  }
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operands, folded)) || folded.size() != 1)
    return r;
  auto attr = llvm::dyn_cast_if_present<TypedAttr>(
      llvm::dyn_cast_if_present<Attribute>(folded[0]));
  if (!attr || attr.getType() != r.getType())
    return r;
  Value c = b.create<arith::ConstantOp>(op->getLoc(), attr);
  op->erase();
  return c;
}

MaybeValue FunctionLowering::lowerBoolOp(const ast::BoolOpExpr &e) {
  std::optional<Value> lhs = lowerCondition(*e.lhs);
  if (!lhs)
    return std::nullopt;
  bool isAnd = e.op == ast::BoolOpKind::And;
  // A left side known now decides at compile time, as Python would: the
  // right side is the result or is never evaluated (isinstance(x, T) and
  // x.method() with x not a T).
  if (std::optional<bool> known = knownCondition(*lhs)) {
    if (*known != isAnd)
      return PyValue::ofValue(constBool(*known, e.range));
    std::optional<Value> rhs = lowerCondition(*e.rhs);
    return rhs ? MaybeValue(PyValue::ofValue(*rhs)) : std::nullopt;
  }
  // Short-circuit: the right side only runs when it decides the result.
  std::string tmp = "$tmp" + std::to_string(tempCounter++);
  // The right side runs only where the left is true (and) or false (or):
  // `m is not None and m.sum() > 0` sees m as the tensor there.
  Refinements lhsTells = refinementsOf(*e.lhs);
  auto evalRhs = [&] {
    Env saved =
        applyRefinements(isAnd ? lhsTells.whenTrue : lhsTells.whenFalse);
    std::optional<Value> r = lowerCondition(*e.rhs);
    restoreBindings(saved);
    if (!r)
      return false;
    env[tmp] = Binding{PyValue::ofValue(*r), e.rhs->range};
    return true;
  };
  auto constant = [&] {
    env[tmp] = Binding{PyValue::ofValue(constBool(!isAnd, e.range)), e.range};
    return true;
  };
  if (!emitIf(loc(e.range), *lhs, e.range,
              isAnd ? std::function<bool()>(evalRhs)
                    : std::function<bool()>(constant),
              isAnd ? std::function<bool()>(constant)
                    : std::function<bool()>(evalRhs)))
    return std::nullopt;
  PyValue v = env[tmp].value;
  env.erase(tmp);
  return v;
}

MaybeValue FunctionLowering::lowerIfExp(const ast::IfExpExpr &e) {
  // `x.mul_(g) if self.inplace else x * g`: a condition known while
  // compiling picks its side, and the other is never lowered, as for `if`.
  std::optional<Decided> d = decideCondition(*this, *e.test);
  if (!d)
    return std::nullopt;
  if (d->known)
    return lowerExpr(*d->known ? *e.body : *e.orelse);
  std::optional<Value> cond = d->cond;
  std::string tmp = "$tmp" + std::to_string(tempCounter++);
  // `m if m is not None else d`: each side sees what the test says of m.
  Refinements refine = refinementsOf(*e.test);
  auto branch = [&](const ast::Expr &x) {
    return [&]() {
      Env saved = applyRefinements(&x == e.body.get() ? refine.whenTrue
                                                      : refine.whenFalse);
      MaybeValue v = lowerExpr(x);
      restoreBindings(saved);
      if (!v)
        return false;
      env[tmp] = Binding{*v, x.range};
      return true;
    };
  };
  if (!emitIf(loc(e.range), *cond, e.range, branch(*e.body), branch(*e.orelse)))
    return std::nullopt;
  PyValue v = env[tmp].value;
  env.erase(tmp);
  if (v.kind == PyValue::Kind::Undefined) {
    error(e.range, "the two sides of this conditional expression have "
                   "different types");
    return std::nullopt;
  }
  return v;
}

MaybeValue FunctionLowering::lowerListLiteral(const ast::ListExpr &e) {
  SmallVector<Value> elems;
  for (const ast::ExprPtr &x : e.elts) {
    std::optional<Value> v = lowerValue(*x);
    if (!v)
      return std::nullopt;
    elems.push_back(*v);
  }
  if (elems.empty())
    return PyValue::ofValue(b.create<ListConstructOp>(
        loc(e.range), ListType::get(b.getNoneType()), ValueRange{}));
  Type t = elems[0].getType();
  for (size_t i = 1; i < elems.size(); ++i) {
    Type et = elems[i].getType();
    if (et == t)
      continue;
    // Tensors of one rank and dtype, with the sizes they disagree on
    // dynamic.
    Type joined =
        llvm::isa<RankedTensorType>(t) && llvm::isa<RankedTensorType>(et)
            ? joinTypes(t, et)
            : Type();
    if (!joined) {
      error(e.elts[i]->range,
            "list elements must have one type: element 0 is " +
                describe(PyValue::ofValue(elems[0])) + " and element " +
                std::to_string(i) + " is " +
                describe(PyValue::ofValue(elems[i])));
      return std::nullopt;
    }
    t = joined;
  }
  for (Value &v : elems)
    if (v.getType() != t)
      v = *castForMerge(v, t, e.range);
  return PyValue::ofValue(
      b.create<ListConstructOp>(loc(e.range), ListType::get(t), elems));
}

MaybeValue FunctionLowering::lowerAttribute(const ast::AttributeExpr &e) {
  MaybeValue base = lowerExpr(*e.value);
  if (!base)
    return std::nullopt;
  if (base->kind == PyValue::Kind::Global) {
    if (base->str == "math")
      if (std::optional<double> c = ops::mathConstant(e.attr))
        return PyValue::ofValue(constFloat(*c, e.range));
    if (MaybeValue r; lowerInfoAttribute(*this, *base, e, r))
      return r;
    return PyValue::global(base->str + "." + e.attr);
  }
  if (base->kind == PyValue::Kind::Object)
    return lowerObjectAttribute(*base->object, e);
  if (MaybeValue r; lowerDictAttribute(*this, *base, e, r))
    return r;
  if (base->isValue() && isTensor(base->value)) {
    auto tt = llvm::cast<RankedTensorType>(base->value.getType());
    if (e.attr == "shape") {
      std::vector<PyValue> dims;
      for (Value d : dimValues(base->value, e.range))
        dims.push_back(PyValue::ofValue(d));
      return PyValue::tuple(std::move(dims));
    }
    if (e.attr == "ndim")
      return PyValue::ofValue(constInt(tt.getRank(), e.range));
    if (std::optional<PyValue> m =
            tensorMetadata(*this, base->value, e.attr, e.range))
      return m;
    if (e.attr == "T") {
      if (tt.getRank() != 2) {
        error(e.range,
              ".T is supported on 2-D tensors only, got " + describe(*base));
        return std::nullopt;
      }
      auto t = RankedTensorType::get({tt.getDimSize(1), tt.getDimSize(0)},
                                     tt.getElementType());
      return PyValue::ofValue(b.create<TransposeOp>(
          loc(e.range), t, base->value, b.getI64IntegerAttr(0),
          b.getI64IntegerAttr(1)));
    }
    if (!isKnownTensorMethod(e.attr) && e.attr != "is_floating_point" &&
        e.attr != "element_size" && e.attr != "is_complex") {
      if (isTorchName("Tensor." + e.attr))
        error(e.attrRange, unsupportedTorchName("Tensor." + e.attr, "method"));
      else
        error(e.attrRange, describe(*base) + " has no attribute '" + e.attr +
                               "'" +
                               didYouMean(e.attr, supportedNames("Tensor.")));
      return std::nullopt;
    }
    return PyValue::method(*base, e.attr);
  }
  if (base->isValue() && llvm::isa<ListType>(base->value.getType()))
    return PyValue::method(*base, e.attr);
  if (base->kind == PyValue::Kind::Str && e.attr == "format")
    return PyValue::method(*base, e.attr);
  error(e.attrRange, describe(*base) + " has no attribute '" + e.attr + "'");
  return std::nullopt;
}

} // namespace kiln
