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
// Loops live in LowerLoops.cpp.
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

/// Every name a block assigns, at any depth, plus the flags it sets.
void collectAssigned(const ast::Block &block,
                            std::set<std::string> &names, bool &hasBreak,
                            bool &hasContinue, bool &hasReturn, bool nested) {
  for (const ast::StmtPtr &s : block) {
    switch (s->kind) {
    case ast::Stmt::Kind::Assign:
      for (const ast::ExprPtr &t : llvm::cast<ast::AssignStmt>(*s).targets)
        collectTargetNames(*t, names);
      break;
    case ast::Stmt::Kind::AnnAssign:
      collectTargetNames(*llvm::cast<ast::AnnAssignStmt>(*s).target, names);
      break;
    case ast::Stmt::Kind::AugAssign:
      collectTargetNames(*llvm::cast<ast::AugAssignStmt>(*s).target, names);
      break;
    case ast::Stmt::Kind::Expr:
      collectMutatedNames(*llvm::cast<ast::ExprStmt>(*s).value, names);
      break;
    case ast::Stmt::Kind::If: {
      auto &i = llvm::cast<ast::IfStmt>(*s);
      collectAssigned(i.body, names, hasBreak, hasContinue, hasReturn, nested);
      collectAssigned(i.orelse, names, hasBreak, hasContinue, hasReturn,
                      nested);
      break;
    }
    case ast::Stmt::Kind::For: {
      auto &f = llvm::cast<ast::ForStmt>(*s);
      collectTargetNames(*f.target, names);
      bool b = false, c = false;
      collectAssigned(f.body, names, b, c, hasReturn, true);
      break;
    }
    case ast::Stmt::Kind::While: {
      bool b = false, c = false;
      collectAssigned(llvm::cast<ast::WhileStmt>(*s).body, names, b, c,
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
// raise
//===----------------------------------------------------------------------===//

/// Set in the environment by `raise`: the rest of the block never runs, and
/// an `if` whose branch raised takes its variables from the other branch.
static constexpr const char *kRaisedVar = "$raised";

std::optional<bool> knownCondition(Value cond) {
  Operation *op = cond.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto c = llvm::dyn_cast<arith::ConstantOp>(op)) {
    if (auto i = llvm::dyn_cast<IntegerAttr>(c.getValue()))
      return i.getInt() != 0;
    return std::nullopt;
  }
  if (auto x = llvm::dyn_cast<arith::XOrIOp>(op)) {
    std::optional<bool> a = knownCondition(x.getLhs());
    std::optional<bool> c = a ? knownCondition(x.getRhs()) : std::nullopt;
    return c ? std::optional<bool>(*a != *c) : std::nullopt;
  }
  auto cmp = llvm::dyn_cast<CmpOp>(op);
  if (!cmp || !cmp.getLhs().getType().isIntOrFloat() ||
      !cmp.getRhs().getType().isIntOrFloat())
    return std::nullopt;
  // Both sides as doubles: exact for the small ints of module options, and
  // how Python compares an int with a float.
  auto number = [](Value v) -> std::optional<double> {
    auto c = v.getDefiningOp<arith::ConstantOp>();
    if (!c)
      return std::nullopt;
    if (auto i = llvm::dyn_cast<IntegerAttr>(c.getValue()))
      return v.getType().isInteger(1) ? double(i.getValue().getZExtValue())
                                      : double(i.getInt());
    if (auto f = llvm::dyn_cast<FloatAttr>(c.getValue()))
      return f.getValueAsDouble();
    return std::nullopt;
  };
  std::optional<double> a = number(cmp.getLhs()), c = number(cmp.getRhs());
  if (!a || !c)
    return std::nullopt;
  switch (cmp.getPredicate()) {
  case CmpPredicate::eq:
    return *a == *c;
  case CmpPredicate::ne:
    return *a != *c;
  case CmpPredicate::lt:
    return *a < *c;
  case CmpPredicate::le:
    return *a <= *c;
  case CmpPredicate::gt:
    return *a > *c;
  case CmpPredicate::ge:
    return *a >= *c;
  }
  return std::nullopt;
}

/// Whether a raise is among the statements of `block` (not counting those
/// in nested defs, which kiln refuses anyway).
static bool containsRaise(const ast::Block &block) {
  for (const ast::StmtPtr &s : block) {
    if (llvm::isa<ast::RaiseStmt>(*s))
      return true;
    if (auto *i = llvm::dyn_cast<ast::IfStmt>(s.get()))
      if (containsRaise(i->body) || containsRaise(i->orelse))
        return true;
  }
  return false;
}

/// The text a `raise` reports: "ValueError: message". The message must be
/// known at compile time (a literal, or a str value), since kiln has no
/// strings at run time.
static std::optional<std::string> raiseMessage(FunctionLowering &fl,
                                               const ast::RaiseStmt &s) {
  if (!s.exc) {
    fl.error(s.range, "a bare 'raise' re-raises the exception being handled, "
                      "and kiln has no try/except; raise an exception");
    return std::nullopt;
  }
  const ast::Expr *cls = s.exc.get();
  const ast::CallExpr *call = llvm::dyn_cast<ast::CallExpr>(cls);
  if (call)
    cls = call->func.get();
  if (!llvm::isa<ast::NameExpr, ast::AttributeExpr>(cls)) {
    fl.error(s.exc->range, "raise needs an exception class or a call of "
                           "one, such as ValueError(\"message\")");
    return std::nullopt;
  }
  std::string text = exprToString(*cls);
  if (!call)
    return text;
  if (!call->keywords.empty() || call->args.size() > 1) {
    fl.error(call->range, "an exception raised in compiled code takes one "
                          "message argument at most");
    return std::nullopt;
  }
  if (call->args.empty())
    return text;
  // Lowered like any expression, so that a str variable or a constant
  // expression works; what is left must be a compile-time str.
  MaybeValue msg = fl.lowerExpr(*call->args[0]);
  if (!msg)
    return std::nullopt;
  if (msg->kind != PyValue::Kind::Str) {
    fl.error(call->args[0]->range,
             "the message of a raised exception must be a string known at "
             "compile time, not " +
                 fl.describe(*msg));
    return std::nullopt;
  }
  return text + ": " + msg->str;
}

/// `raise E("msg")`: a kiln.assert that always fails, which reports the
/// message with the statement's source location at run time, as a failed
/// assert does.
static bool lowerRaise(FunctionLowering &fl, const ast::RaiseStmt &s) {
  std::optional<std::string> message = raiseMessage(fl, s);
  if (!message)
    return false;
  fl.b.create<AssertOp>(fl.loc(s.range), fl.constBool(false, s.range),
                        fl.b.getStringAttr(*message));
  fl.env[kRaisedVar] = Binding{PyValue::none(), s.range};
  return true;
}

/// After a branch that raised, its variables are never read: it takes the
/// other branch's (`before` is the environment before the if), with
/// kiln.undef where the other branch made a new value. `yield` is the
/// raising branch's terminator, where the undefs go.
static void adoptOtherBranch(FunctionLowering &fl, Env &raised,
                             const Env &other, const Env &before,
                             Operation *yield, Location l) {
  OpBuilder::InsertionGuard g(fl.b);
  fl.b.setInsertionPoint(yield);
  Env adopted;
  for (const auto &[name, binding] : other) {
    auto prior = before.find(name);
    if (prior != before.end() &&
        samePyValue(prior->second.value, binding.value))
      adopted[name] = prior->second;
    else
      adopted[name] = Binding{makeUndefLike(fl.b, l, binding.value),
                              binding.where};
  }
  raised = std::move(adopted);
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

static bool lowerStmts(FunctionLowering &fl, const ast::Block &block,
                       size_t start) {
  for (size_t i = start; i < block.size(); ++i) {
    const ast::Stmt &s = *block[i];
    if (!fl.lowerStmt(s))
      return false;
    // Code after break/continue/return never runs.
    if (llvm::isa<ast::BreakStmt, ast::ContinueStmt, ast::ReturnStmt,
                  ast::RaiseStmt>(s))
      return true;
    if (i + 1 < block.size() && mayExit(s)) {
      // A branch decided at compile time (`if w is None: return x`) that
      // exits leaves the rest of the block dead; it may not even type-check
      // (`x * w` with w None), so it is not lowered.
      if (exitedForSure(fl))
        return true;
      Value go = notExited(fl, s.range);
      if (!go)
        continue;
      return fl.emitIf(
          fl.loc(block[i + 1]->range), go, block[i + 1]->range,
          [&] { return lowerStmts(fl, block, i + 1); }, [] { return true; });
    }
  }
  return true;
}

bool FunctionLowering::lowerBlock(const ast::Block &block) {
  return lowerStmts(*this, block, 0);
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
    std::optional<Value> cond = lowerCondition(*s.test);
    if (!cond)
      return false;
    std::string message = "assertion failed";
    if (s.msg) {
      auto *str = llvm::dyn_cast<ast::StrLitExpr>(s.msg.get());
      if (!str)
        return error(s.msg->range,
                     "an assert message must be a string literal");
      message = str->value;
    }
    b.create<AssertOp>(loc(stmt.range), *cond, b.getStringAttr(message));
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

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

bool FunctionLowering::lowerIf(const ast::IfStmt &stmt) {
  // `x is None` / `x is not None` is decided at compile time: only the
  // branch that can run is lowered, which is how Optional is refined.
  // isinstance() is decided the same way, so a branch for another type
  // need not type-check.
  const ast::Expr *test = stmt.test.get();
  if (auto *u = llvm::dyn_cast<ast::UnaryOpExpr>(test);
      u && u->op == ast::UnaryOpKind::Not)
    test = u->operand.get();
  auto *callTest = llvm::dyn_cast<ast::CallExpr>(test);
  bool isInstance =
      callTest && exprToString(*callTest->func) == "isinstance";
  auto *cmp = llvm::dyn_cast<ast::CompareExpr>(stmt.test.get());
  if (isInstance || cmp) {
    if (isInstance || (cmp->ops.size() == 1 &&
                       (cmp->ops[0] == ast::CmpOpKind::Is ||
                        cmp->ops[0] == ast::CmpOpKind::IsNot))) {
      bool negate = isInstance && test != stmt.test.get();
      MaybeValue c = lowerExpr(isInstance ? *test : *stmt.test);
      if (!c)
        return false;
      if (c->isValue())
        if (auto op = c->value.getDefiningOp<arith::ConstantOp>())
          if (auto i = llvm::dyn_cast<IntegerAttr>(op.getValue()))
            return lowerBlock((i.getInt() != 0) != negate ? stmt.body
                                                          : stmt.orelse);
    }
  }
  std::optional<Value> cond = lowerCondition(*stmt.test);
  if (!cond)
    return false;
  // A raise guarded by a condition known at compile time (a module option,
  // `if groups != 1: raise ...`) is decided now: the dead branch produces
  // nothing, and a raise that must run is reported at run time as usual.
  if (containsRaise(stmt.body) || containsRaise(stmt.orelse))
    if (std::optional<bool> known = knownCondition(*cond))
      return lowerBlock(*known ? stmt.body : stmt.orelse);
  return emitIf(
      loc(stmt.range), *cond, stmt.range, [&] { return lowerBlock(stmt.body); },
      [&] { return lowerBlock(stmt.orelse); });
}

bool FunctionLowering::emitIf(Location l, Value cond, SourceRange where,
                              const std::function<bool()> &thenFn,
                              const std::function<bool()> &elseFn) {
  Env before = env;
  auto ifOp = b.create<scf::IfOp>(l, TypeRange{}, cond, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);

  b.setInsertionPoint(ifOp.thenYield());
  if (!thenFn())
    return false;
  Env thenEnv = std::move(env);
  env = before;
  b.setInsertionPoint(ifOp.elseYield());
  if (!elseFn())
    return false;
  Env elseEnv = std::move(env);

  // A branch that raised never reaches the merge: the if's variables are
  // the other branch's. When both raise, the if raises.
  bool thenRaised = thenEnv.count(kRaisedVar);
  bool elseRaised = elseEnv.count(kRaisedVar);
  if (thenRaised && !elseRaised)
    adoptOtherBranch(*this, thenEnv, elseEnv, before, ifOp.thenYield(), l);
  else if (elseRaised && !thenRaised)
    adoptOtherBranch(*this, elseEnv, thenEnv, before, ifOp.elseYield(), l);

  // Decide what the if yields.
  struct Merge {
    std::string name;
    PyValue thenV, elseV;
    SourceRange where;
  };
  std::vector<Merge> merges;
  Env after;
  std::set<std::string> names;
  for (auto &[k, _] : thenEnv)
    names.insert(k);
  for (auto &[k, _] : elseEnv)
    names.insert(k);
  for (const std::string &name : names) {
    auto t = thenEnv.find(name);
    auto e = elseEnv.find(name);
    bool hasT =
        t != thenEnv.end() && t->second.value.kind != PyValue::Kind::Undefined;
    bool hasE =
        e != elseEnv.end() && e->second.value.kind != PyValue::Kind::Undefined;
    if (hasT && hasE && samePyValue(t->second.value, e->second.value)) {
      after[name] = t->second;
      continue;
    }
    if (!hasT && !hasE) {
      after[name] = t != thenEnv.end() ? t->second : e->second;
      continue;
    }
    if (!hasT || !hasE) {
      const Binding &def = hasT ? t->second : e->second;
      if (isFlag(name) && def.value.kind != PyValue::Kind::None) {
        // The flags guarantee the other side's value is never read.
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(hasT ? ifOp.elseYield() : ifOp.thenYield());
        PyValue undef = makeUndefLike(b, l, def.value);
        merges.push_back({name, hasT ? def.value : undef,
                          hasT ? undef : def.value, def.where});
        continue;
      }
      std::string side = hasT ? "true" : "false";
      std::string other = hasT ? "false" : "true";
      after[name] =
          Binding{PyValue::undefined(
                      displayName(name) + " is assigned in the " + side +
                          " branch but not in the " + other + " branch",
                      {{def.where, displayName(name) + " is assigned here"}}),
                  def.where};
      continue;
    }
    merges.push_back({name, t->second.value, e->second.value,
                      SourceRange::cover(t->second.where, e->second.where)});
    if (!samePyValue(t->second.value, e->second.value)) {
      SmallVector<Value> tv, ev;
      bool ok = flattenValues(t->second.value, tv) &&
                flattenValues(e->second.value, ev) && tv.size() == ev.size();
      for (size_t i = 0; ok && i < tv.size(); ++i)
        ok = static_cast<bool>(joinTypes(tv[i].getType(), ev[i].getType()));
      if (!ok) {
        std::string n = displayName(name);
        return error(where,
                     n + " is " + describe(t->second.value) +
                         " in the true branch and " +
                         describe(e->second.value) + " in the false branch",
                     {{t->second.where,
                       n + " is " + describe(t->second.value) + " here"},
                      {e->second.where,
                       n + " is " + describe(e->second.value) + " here"}});
      }
    }
  }

  // Build the real if with results and move the branches into it.
  SmallVector<Type> resultTypes;
  SmallVector<SmallVector<Value>> thenLeaves, elseLeaves;
  for (Merge &m : merges) {
    SmallVector<Value> tv, ev;
    flattenValues(m.thenV, tv);
    flattenValues(m.elseV, ev);
    for (size_t i = 0; i < tv.size(); ++i)
      resultTypes.push_back(joinTypes(tv[i].getType(), ev[i].getType()));
    thenLeaves.push_back(tv);
    elseLeaves.push_back(ev);
  }
  b.setInsertionPoint(ifOp);
  // An else that does nothing is left out, as a user would write it.
  bool needElse = !resultTypes.empty() ||
                  !llvm::hasSingleElement(ifOp.getElseRegion().front());
  auto newIf = b.create<scf::IfOp>(l, resultTypes, cond, needElse);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  if (needElse)
    newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  ifOp.erase();
  for (bool isThen : {true, false}) {
    if (!isThen && !needElse)
      continue;
    Block &blk =
        isThen ? newIf.getThenRegion().front() : newIf.getElseRegion().front();
    Operation *term = blk.getTerminator();
    b.setInsertionPoint(term);
    SmallVector<Value> yields;
    size_t r = 0;
    for (auto &leaves : isThen ? thenLeaves : elseLeaves)
      for (Value v : leaves) {
        std::optional<Value> c = castForMerge(v, resultTypes[r++], where);
        if (!c)
          return false;
        yields.push_back(*c);
      }
    b.create<scf::YieldOp>(term->getLoc(), yields);
    term->erase();
  }
  SmallVector<Value> results(newIf.getResults().begin(),
                             newIf.getResults().end());
  ArrayRef<Value> rest(results);
  for (Merge &m : merges)
    after[m.name] = Binding{unflattenValues(m.thenV, rest), m.where};
  env = std::move(after);
  b.setInsertionPointAfter(newIf);
  return true;
}

} // namespace kiln
