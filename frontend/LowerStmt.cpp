//===- LowerStmt.cpp - Statements and structured control flow -------------===//
//
// Python's statements become SSA through two mechanisms:
//  - Variables live in an environment. `scf.if`, `scf.for` and `scf.while`
//    yield every variable their bodies assign, so the environment after the
//    construct maps each name to the construct's results.
//  - break, continue and return assign flag variables. The statements after
//    one that may exit are wrapped in `scf.if (not flags)`, and loops carry
//    the flags so that a `while` stops when `$break` or `$return` is set.
//
// Loops live in LowerLoops.cpp; if and raise in LowerIf.cpp.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/LowerConstructs.h"

#include "frontend/AstPrinter.h"
#include "ir/KilnDialect.h"
#include "ir/Limits.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

//===----------------------------------------------------------------------===//
// AST scans
//===----------------------------------------------------------------------===//

static void collectTargetNames(const ast::Expr &target,
                               std::set<std::string> &names) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(&target))
    names.insert(n->id);
  else if (auto *t = llvm::dyn_cast<ast::TupleExpr>(&target))
    for (const ast::ExprPtr &e : t->elts)
      collectTargetNames(*e, names);
  else if (auto *l = llvm::dyn_cast<ast::ListExpr>(&target))
    for (const ast::ExprPtr &e : l->elts)
      collectTargetNames(*e, names);
  else if (auto *s = llvm::dyn_cast<ast::SubscriptExpr>(&target))
    collectTargetNames(*s->value, names);
}

/// Names a method call such as `y.append(v)` rebinds.
static void collectMutatedNames(const ast::Expr &e,
                                std::set<std::string> &names) {
  if (auto *c = llvm::dyn_cast<ast::CallExpr>(&e)) {
    if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(c->func.get()))
      if (auto *n = llvm::dyn_cast<ast::NameExpr>(a->value.get()))
        if (a->attr == "append")
          names.insert(n->id);
  }
}

/// What one statement assigns (see collectAssigned).
static void collectAssignedIn(const ast::Stmt &s, std::set<std::string> &names,
                              bool &hasBreak, bool &hasContinue,
                              bool &hasReturn, bool nested) {
  switch (s.kind) {
  case ast::Stmt::Kind::Assign:
    for (const ast::ExprPtr &t : llvm::cast<ast::AssignStmt>(s).targets)
      collectTargetNames(*t, names);
    break;
  case ast::Stmt::Kind::AnnAssign:
    collectTargetNames(*llvm::cast<ast::AnnAssignStmt>(s).target, names);
    break;
  case ast::Stmt::Kind::AugAssign:
    collectTargetNames(*llvm::cast<ast::AugAssignStmt>(s).target, names);
    break;
  case ast::Stmt::Kind::Expr:
    collectMutatedNames(*llvm::cast<ast::ExprStmt>(s).value, names);
    break;
  case ast::Stmt::Kind::If: {
    auto &i = llvm::cast<ast::IfStmt>(s);
    collectAssigned(i.body, names, hasBreak, hasContinue, hasReturn, nested);
    collectAssigned(i.orelse, names, hasBreak, hasContinue, hasReturn,
                    nested);
    break;
  }
  case ast::Stmt::Kind::For: {
    auto &f = llvm::cast<ast::ForStmt>(s);
    collectTargetNames(*f.target, names);
    bool b = false, c = false;
    collectAssigned(f.body, names, b, c, hasReturn, true);
    break;
  }
  case ast::Stmt::Kind::While: {
    bool b = false, c = false;
    collectAssigned(llvm::cast<ast::WhileStmt>(s).body, names, b, c,
                    hasReturn, true);
    break;
  }
  case ast::Stmt::Kind::Break:
    hasBreak |= !nested;
    break;
  case ast::Stmt::Kind::Continue:
    hasContinue |= !nested;
    break;
  case ast::Stmt::Kind::Return:
    hasReturn = true;
    break;
  default:
    break;
  }
}

/// Every name a block assigns, at any depth, plus the flags it sets.
void collectAssigned(const ast::Block &block, std::set<std::string> &names,
                     bool &hasBreak, bool &hasContinue, bool &hasReturn,
                     bool nested) {
  for (const ast::StmtPtr &s : block)
    collectAssignedIn(*s, names, hasBreak, hasContinue, hasReturn, nested);
}

/// True if the statement may set a flag that the rest of its block must
/// respect.
static bool mayExit(const ast::Stmt &s) {
  std::set<std::string> names;
  bool hasBreak = false, hasContinue = false, hasReturn = false;
  switch (s.kind) {
  case ast::Stmt::Kind::If: {
    auto &i = llvm::cast<ast::IfStmt>(s);
    collectAssigned(i.body, names, hasBreak, hasContinue, hasReturn, false);
    collectAssigned(i.orelse, names, hasBreak, hasContinue, hasReturn, false);
    return hasBreak || hasContinue || hasReturn;
  }
  case ast::Stmt::Kind::For:
    collectAssigned(llvm::cast<ast::ForStmt>(s).body, names, hasBreak,
                    hasContinue, hasReturn, true);
    return hasReturn;
  case ast::Stmt::Kind::While:
    collectAssigned(llvm::cast<ast::WhileStmt>(s).body, names, hasBreak,
                    hasContinue, hasReturn, true);
    return hasReturn;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Type joins at merge points
//===----------------------------------------------------------------------===//

/// The most specific type both `a` and `b` can be cast to, or null.
Type joinTypes(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = llvm::dyn_cast<RankedTensorType>(a);
  auto tb = llvm::dyn_cast<RankedTensorType>(b);
  if (ta && tb) {
    if (ta.getElementType() != tb.getElementType() ||
        ta.getRank() != tb.getRank())
      return {};
    SmallVector<int64_t> dims;
    for (int64_t i = 0; i < ta.getRank(); ++i)
      dims.push_back(ta.getDimSize(i) == tb.getDimSize(i)
                         ? ta.getDimSize(i)
                         : ShapedType::kDynamic);
    return RankedTensorType::get(dims, ta.getElementType());
  }
  auto la = llvm::dyn_cast<ListType>(a);
  auto lb = llvm::dyn_cast<ListType>(b);
  if (la && lb) {
    // An empty list literal has element type `none` until something is
    // appended.
    if (llvm::isa<NoneType>(la.getElementType()))
      return lb;
    if (llvm::isa<NoneType>(lb.getElementType()))
      return la;
    Type e = joinTypes(la.getElementType(), lb.getElementType());
    return e ? ListType::get(e) : Type();
  }
  return {};
}

std::optional<Value> FunctionLowering::castForMerge(Value v, Type type,
                                                    SourceRange where) {
  if (v.getType() == type)
    return v;
  if (llvm::isa<RankedTensorType>(type))
    return b.create<tensor::CastOp>(loc(where), type, v).getResult();
  if (auto list = llvm::dyn_cast<ListType>(type)) {
    // Only an empty list can change its element type; rebuild it.
    if (auto ctor = v.getDefiningOp<ListConstructOp>())
      if (ctor->getNumOperands() == 0)
        return b.create<ListConstructOp>(loc(where), list, ValueRange{})
            .getResult();
    error(where, "a list whose element type changes from " +
                     describeType(v.getType()) + " to " + describeType(type) +
                     " is not supported; give the list one element type");
    return std::nullopt;
  }
  error(where, "internal error: cannot cast " + describeType(v.getType()) +
                   " to " + describeType(type));
  return std::nullopt;
}

/// Builds a value shaped like `shape` whose leaves are `kiln.undef`.
PyValue makeUndefLike(OpBuilder &b, Location loc, const PyValue &shape) {
  if (shape.kind == PyValue::Kind::Value)
    return PyValue::ofValue(
        b.create<UndefOp>(loc, shape.value.getType()).getResult());
  if (shape.kind == PyValue::Kind::Tuple) {
    std::vector<PyValue> elems;
    for (const PyValue &e : shape.elems)
      elems.push_back(makeUndefLike(b, loc, e));
    return PyValue::tuple(std::move(elems));
  }
  if (shape.kind == PyValue::Kind::Optional)
    return PyValue::optional(
        b.create<UndefOp>(loc, shape.presence().getType()).getResult(),
        b.create<UndefOp>(loc, shape.payload().getType()).getResult());
  return shape;
}

bool isFlag(const std::string &name) {
  return !name.empty() && name[0] == '$';
}

std::string displayName(const std::string &name) {
  if (name == kRetvalVar)
    return "the return value";
  if (llvm::StringRef(name).starts_with("$tmp"))
    return "the value of this expression";
  return "'" + name + "'";
}

//===----------------------------------------------------------------------===//
// Blocks and simple statements
//===----------------------------------------------------------------------===//

/// The i1 "no flag is set" for the flags currently bound, or null when
/// none can be set.
Value notExited(FunctionLowering &fl, SourceRange where) {
  Value any;
  for (const char *flag : {kBreakVar, kContinueVar, kReturnVar}) {
    auto it = fl.env.find(flag);
    if (it == fl.env.end() || !it->second.value.isValue())
      continue;
    Value v = it->second.value.value;
    if (auto c = v.getDefiningOp<arith::ConstantOp>())
      if (auto i = llvm::dyn_cast<IntegerAttr>(c.getValue());
          i && i.getInt() == 0)
        continue;
    any =
        any ? fl.b.create<arith::OrIOp>(fl.loc(where), any, v).getResult() : v;
  }
  if (!any)
    return {};
  Value t = fl.constBool(true, where);
  return fl.b.create<arith::XOrIOp>(fl.loc(where), any, t);
}

/// Whether a break, continue or return flag is the constant true.
static bool exitedForSure(FunctionLowering &fl) {
  for (const char *flag : {kBreakVar, kContinueVar, kReturnVar}) {
    auto it = fl.env.find(flag);
    if (it == fl.env.end() || !it->second.value.isValue())
      continue;
    if (auto c = it->second.value.value.getDefiningOp<arith::ConstantOp>())
      if (auto i = llvm::dyn_cast<IntegerAttr>(c.getValue()); i && i.getInt())
        return true;
  }
  return false;
}

/// Lowers block[start:]. With `recover`, a statement that fails does not
/// end the block: the names it assigns become poisoned (their uses fail
/// without a second message), and the next statements are still checked,
/// so that one run reports every independent error, as clang does.
static bool lowerStmts(FunctionLowering &fl, const ast::Block &block,
                       size_t start, bool recover = false) {
  bool ok = true;
  for (size_t i = start; i < block.size(); ++i) {
    const ast::Stmt &s = *block[i];
    if (!fl.lowerStmt(s)) {
      if (!recover || fl.module.diags.tooMany())
        return false;
      std::set<std::string> names;
      bool exits = false;
      collectAssignedIn(s, names, exits, exits, exits, false);
      for (const std::string &name : names)
        fl.env[name] = Binding{PyValue::poisoned(), s.range};
      ok = false;
      continue;
    }
    // Code after break/continue/return never runs.
    if (llvm::isa<ast::BreakStmt, ast::ContinueStmt, ast::ReturnStmt,
                  ast::RaiseStmt>(s))
      return ok;
    if (i + 1 < block.size() && mayExit(s)) {
      // A branch decided at compile time (`if w is None: return x`) that
      // exits leaves the rest of the block dead; it may not even type-check
      // (`x * w` with w None), so it is not lowered.
      if (exitedForSure(fl))
        return ok;
      Value go = notExited(fl, s.range);
      if (!go)
        continue;
      return fl.emitIf(
                 fl.loc(block[i + 1]->range), go, block[i + 1]->range,
                 [&] { return lowerStmts(fl, block, i + 1, recover); },
                 [] { return true; }) &&
             ok;
    }
  }
  return ok;
}

bool FunctionLowering::lowerBlock(const ast::Block &block) {
  return lowerStmts(*this, block, 0);
}

bool FunctionLowering::lowerFunctionBlock(const ast::Block &block) {
  return lowerStmts(*this, block, 0, /*recover=*/true);
}

bool FunctionLowering::lowerStmt(const ast::Stmt &stmt) {
  if (++module.statements > kMaxStatements)
    return error(stmt.range,
                 "more than " + std::to_string(kMaxStatements) +
                     " statements to compile; kiln compiles at most that "
                     "many per file, counting each helper once");
  switch (stmt.kind) {
  case ast::Stmt::Kind::Expr: {
    auto &s = llvm::cast<ast::ExprStmt>(stmt);
    // A docstring or a bare constant does nothing.
    if (llvm::isa<ast::StrLitExpr, ast::IntLitExpr, ast::FloatLitExpr,
                  ast::EllipsisLitExpr>(*s.value))
      return true;
    return lowerExpr(*s.value).has_value();
  }
  case ast::Stmt::Kind::Assign: {
    auto &s = llvm::cast<ast::AssignStmt>(stmt);
    MaybeValue v = lowerExpr(*s.value);
    if (!v)
      return false;
    for (const ast::ExprPtr &t : s.targets)
      if (!lowerAssign(*t, *v, stmt.range))
        return false;
    return true;
  }
  case ast::Stmt::Kind::AnnAssign: {
    auto &s = llvm::cast<ast::AnnAssignStmt>(stmt);
    if (!s.value)
      return true; // a declaration only
    MaybeValue v = lowerExpr(*s.value);
    if (!v)
      return false;
    // `xs: List[int] = []` fixes the element type of an empty list.
    if (auto *sub = llvm::dyn_cast<ast::SubscriptExpr>(s.annotation.get());
        sub && v->isValue() && sub->indices.size() == 1)
      if (auto ctor = v->value.getDefiningOp<ListConstructOp>();
          ctor && ctor->getNumOperands() == 0) {
        std::string elem = exprToString(*sub->indices[0]);
        Type et = elem == "int"     ? Type(b.getI64Type())
                  : elem == "float" ? Type(b.getF64Type())
                  : elem == "bool"  ? Type(b.getI1Type())
                                    : Type();
        if (et)
          v = PyValue::ofValue(b.create<ListConstructOp>(
              loc(s.value->range), ListType::get(et), ValueRange{}));
      }
    return lowerAssign(*s.target, *v, stmt.range);
  }
  case ast::Stmt::Kind::AugAssign: {
    auto &s = llvm::cast<ast::AugAssignStmt>(stmt);
    MaybeValue cur = lowerExpr(*s.target);
    if (!cur)
      return false;
    MaybeValue rhs = lowerExpr(*s.value);
    if (!rhs)
      return false;
    MaybeValue r = applyBinOp(s.op, *cur, *rhs, s.opRange, s.target->range,
                              s.value->range);
    return r && lowerAssign(*s.target, *r, stmt.range);
  }
  case ast::Stmt::Kind::If:
    return lowerIf(llvm::cast<ast::IfStmt>(stmt));
  case ast::Stmt::Kind::For:
    return lowerFor(llvm::cast<ast::ForStmt>(stmt));
  case ast::Stmt::Kind::While:
    return lowerWhile(llvm::cast<ast::WhileStmt>(stmt));
  case ast::Stmt::Kind::Break:
  case ast::Stmt::Kind::Continue: {
    bool isBreak = stmt.kind == ast::Stmt::Kind::Break;
    if (loopDepth == 0)
      return error(stmt.range, std::string("'") +
                                   (isBreak ? "break" : "continue") +
                                   "' outside a loop");
    env[isBreak ? kBreakVar : kContinueVar] =
        Binding{PyValue::ofValue(constBool(true, stmt.range)), stmt.range};
    return true;
  }
  case ast::Stmt::Kind::Pass:
    return true;
  case ast::Stmt::Kind::Return:
    return lowerReturn(llvm::cast<ast::ReturnStmt>(stmt));
  case ast::Stmt::Kind::Assert: {
    auto &s = llvm::cast<ast::AssertStmt>(stmt);
    std::optional<Decided> d = decideCondition(*this, *s.test);
    if (!d)
      return false;
    // An assert that holds for this instance never evaluates its message,
    // which may then be anything Python accepts.
    if (d->known && *d->known)
      return true;
    Value cond = d->known ? constBool(false, s.test->range) : d->cond;
    // The whole text of the error, as for raise (LowerIf.cpp).
    std::string message = "AssertionError";
    if (s.msg) {
      MaybeValue m = lowerExpr(*s.msg);
      if (!m)
        return false;
      if (m->kind != PyValue::Kind::Str)
        return error(s.msg->range,
                     "an assert message must be a string known while "
                     "compiling (a literal, or an f-string or str.format() "
                     "of values known then), not " +
                         describe(*m));
      message += ": " + m->str;
    }
    b.create<AssertOp>(loc(stmt.range), cond, b.getStringAttr(message));
    // Past the assert its test holds: `assert m is not None` refines m.
    applyRefinements(refinementsOf(*s.test).whenTrue);
    return true;
  }
  case ast::Stmt::Kind::Raise:
    return lowerRaise(*this, llvm::cast<ast::RaiseStmt>(stmt));
  case ast::Stmt::Kind::Import:
    return error(stmt.range, "import inside a function is not supported");
  case ast::Stmt::Kind::FunctionDef:
    return error(stmt.range, "nested def is not supported");
  case ast::Stmt::Kind::ClassDef:
    return error(stmt.range, "nested class is not supported");
  }
  return error(stmt.range, "internal error: unknown statement");
}

bool FunctionLowering::lowerAssign(const ast::Expr &target, PyValue value,
                                   SourceRange where) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(&target)) {
    env[n->id] = Binding{std::move(value), target.range};
    return true;
  }
  if (llvm::isa<ast::TupleExpr, ast::ListExpr>(target)) {
    const auto &elts = llvm::isa<ast::TupleExpr>(target)
                           ? llvm::cast<ast::TupleExpr>(target).elts
                           : llvm::cast<ast::ListExpr>(target).elts;
    if (value.kind != PyValue::Kind::Tuple)
      return error(target.range, "cannot unpack " + describe(value) + " into " +
                                     std::to_string(elts.size()) +
                                     " names; only tuples can be unpacked");
    if (value.elems.size() != elts.size())
      return error(target.range, "cannot unpack a tuple of " +
                                     std::to_string(value.elems.size()) +
                                     " values into " +
                                     std::to_string(elts.size()) + " names");
    for (size_t i = 0; i < elts.size(); ++i)
      if (!lowerAssign(*elts[i], value.elems[i], where))
        return false;
    return true;
  }
  if (auto *s = llvm::dyn_cast<ast::SubscriptExpr>(&target)) {
    auto *base = llvm::dyn_cast<ast::NameExpr>(s->value.get());
    if (!base)
      return error(s->value->range,
                   "subscript assignment is supported on a variable only");
    MaybeValue cur = lowerName(*base);
    if (!cur)
      return false;
    if (cur->isDict())
      return storeDictItem(*this, base->id, *cur, *s, std::move(value));
    if (!cur->isValue() || !llvm::isa<RankedTensorType>(cur->value.getType()))
      return error(s->value->range,
                   "cannot assign to an element of " + describe(*cur) +
                       "; subscript assignment needs a Tensor");
    if (!value.isValue())
      return error(where, "cannot store " + describe(value) + " into a Tensor");
    SmallVector<const ast::Expr *> indices;
    for (const ast::ExprPtr &i : s->indices)
      indices.push_back(i.get());
    std::optional<Value> updated =
        emitSubscriptUpdate(cur->value, indices, value.value, target.range);
    if (!updated)
      return false;
    env[base->id] = Binding{PyValue::ofValue(*updated), target.range};
    return true;
  }
  if (llvm::isa<ast::AttributeExpr>(target))
    return error(target.range, "assigning to an attribute is not supported");
  return error(target.range, "cannot assign to this expression");
}

bool FunctionLowering::lowerReturn(const ast::ReturnStmt &stmt) {
  PyValue v = PyValue::none();
  if (stmt.value) {
    MaybeValue r = lowerExpr(*stmt.value);
    if (!r)
      return false;
    v = *r;
  }
  if (earlyReturn)
    env[kReturnVar] =
        Binding{PyValue::ofValue(constBool(true, stmt.range)), stmt.range};
  env[kRetvalVar] = Binding{std::move(v), stmt.range};
  return true;
}

} // namespace kiln
