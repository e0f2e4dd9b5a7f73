//===- LowerIf.cpp - if statements and raise ------------------------------===//
//
// `if` becomes `scf.if` yielding every variable either branch assigns (a
// condition known while compiling lowers only the branch taken, the same
// decision the prelude's static ifs use); `raise` becomes a kiln.assert that always fails, and sets
// `$raised` so that an `if` whose branch raised takes its variables from
// the other branch. The other statements are LowerStmt.cpp's.
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
// raise
//===----------------------------------------------------------------------===//

/// Set in the environment by `raise`: the rest of the block never runs, and
/// an `if` whose branch raised takes its variables from the other branch.
static constexpr const char *kRaisedVar = "$raised";

std::optional<bool> knownCondition(Value cond) {
  Operation *op = cond.getDefiningOp();
  if (!op)
    return std::nullopt;
  // The arith ops that a condition is built of (`not`, `and` of constants)
  // have folders; kiln.cmp has none, hence the cases below.
  auto fromFold = [&]() -> std::optional<bool> {
    if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(foldToConstant(cond)))
      return !i.getValue().isZero();
    return std::nullopt;
  };
  if (auto x = llvm::dyn_cast<arith::XOrIOp>(op)) {
    std::optional<bool> a = knownCondition(x.getLhs());
    std::optional<bool> c = a ? knownCondition(x.getRhs()) : std::nullopt;
    return c ? std::optional<bool>(*a != *c) : std::nullopt;
  }
  auto cmp = llvm::dyn_cast<CmpOp>(op);
  if (!cmp || !cmp.getLhs().getType().isIntOrFloat() ||
      !cmp.getRhs().getType().isIntOrFloat())
    return fromFold();
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
    return fromFold();
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

std::optional<bool> staticTruth(const PyValue &c) {
  switch (c.kind) {
  case PyValue::Kind::None:
    return false;
  case PyValue::Kind::Str:
    return !c.str.empty();
  case PyValue::Kind::Tuple:
  case PyValue::Kind::Dict:
    return !c.elems.empty();
  // A dtype, a module or a function is an object, and objects are true.
  case PyValue::Kind::Global:
  case PyValue::Kind::Function:
  case PyValue::Kind::Method:
  case PyValue::Kind::Object:
    return true;
  case PyValue::Kind::Value:
    if (c.value.getType().isInteger(1))
      return knownCondition(c.value);
    return std::nullopt;
  case PyValue::Kind::Undefined:
  case PyValue::Kind::Optional:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Decided> decideCondition(FunctionLowering &fl,
                                       const ast::Expr &test) {
  MaybeValue v = fl.lowerExpr(test);
  if (!v)
    return std::nullopt;
  if (std::optional<bool> known = staticTruth(*v))
    return Decided{known, {}};
  std::optional<Value> cond = fl.toCondition(*v, test);
  if (!cond)
    return std::nullopt;
  return Decided{knownCondition(*cond), *cond};
}

/// The class and message of `raise E("message")`. The message must be
/// known at compile time (a literal, or a str value), since kiln has no
/// strings at run time.
std::optional<RaisedException> raisedException(FunctionLowering &fl,
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
  RaisedException raised{exprToString(*cls), ""};
  if (!call)
    return raised;
  if (!call->keywords.empty() || call->args.size() > 1) {
    fl.error(call->range, "an exception raised in compiled code takes one "
                          "message argument at most");
    return std::nullopt;
  }
  if (call->args.empty())
    return raised;
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
  raised.message = msg->str;
  return raised;
}

/// `raise E("msg")`: a kiln.assert that always fails, which reports the
/// message with the statement's source location at run time, as a failed
/// assert does.
bool lowerRaise(FunctionLowering &fl, const ast::RaiseStmt &s) {
  std::optional<RaisedException> raised = raisedException(fl, s);
  if (!raised)
    return false;
  std::string text = raised->type;
  if (!raised->message.empty())
    text += ": " + raised->message;
  fl.b.create<AssertOp>(fl.loc(s.range), fl.constBool(false, s.range),
                        fl.b.getStringAttr(text));
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
// Optional refinement
//===----------------------------------------------------------------------===//

/// Adds to `out` what `test` being `truth` says about run-time Optionals.
static void collectRefinements(FunctionLowering &fl, const ast::Expr &test,
                               bool truth, std::map<std::string, PyValue> &out) {
  if (auto *u = llvm::dyn_cast<ast::UnaryOpExpr>(&test)) {
    if (u->op == ast::UnaryOpKind::Not)
      collectRefinements(fl, *u->operand, !truth, out);
    return;
  }
  if (auto *bo = llvm::dyn_cast<ast::BoolOpExpr>(&test)) {
    // `a and b` true means both are; `a or b` false means neither is.
    if ((bo->op == ast::BoolOpKind::And) == truth) {
      collectRefinements(fl, *bo->lhs, truth, out);
      collectRefinements(fl, *bo->rhs, truth, out);
    }
    return;
  }
  auto *cmp = llvm::dyn_cast<ast::CompareExpr>(&test);
  if (!cmp || cmp->ops.size() != 1 ||
      (cmp->ops[0] != ast::CmpOpKind::Is && cmp->ops[0] != ast::CmpOpKind::IsNot))
    return;
  const ast::Expr *l = cmp->operands[0].get(), *r = cmp->operands[1].get();
  if (llvm::isa<ast::NoneLitExpr>(*l))
    std::swap(l, r);
  auto *name = llvm::dyn_cast<ast::NameExpr>(l);
  if (!name || !llvm::isa<ast::NoneLitExpr>(*r))
    return;
  auto it = fl.env.find(name->id);
  if (it == fl.env.end() || !it->second.value.isOptional())
    return;
  bool present = (cmp->ops[0] == ast::CmpOpKind::IsNot) == truth;
  out[name->id] = present ? PyValue::ofValue(it->second.value.payload())
                          : PyValue::none();
}

Refinements FunctionLowering::refinementsOf(const ast::Expr &test) {
  Refinements r;
  collectRefinements(*this, test, true, r.whenTrue);
  collectRefinements(*this, test, false, r.whenFalse);
  return r;
}

Env FunctionLowering::applyRefinements(
    const std::map<std::string, PyValue> &refined) {
  Env saved;
  for (const auto &[name, value] : refined) {
    Binding &binding = env[name];
    saved[name] = binding;
    binding.value = value;
  }
  return saved;
}

void FunctionLowering::restoreBindings(const Env &saved) {
  for (const auto &[name, binding] : saved)
    env[name] = binding;
}

/// After both branches of a refining `if`: a name neither branch assigned
/// is the Optional again, as TorchScript types it after the if. A name one
/// branch assigned keeps the other branch's refined value, so that
/// `if m is None: m = torch.zeros(...)` leaves a tensor.
static void unrefineUnchanged(const Refinements &refine, const Env &before,
                              Env &thenEnv, Env &elseEnv) {
  // A branch that surely returns (or breaks, continues, raises) never
  // reaches the code after the if, which therefore sees the other
  // branch's refinement: `if m is None: return x` leaves m a tensor. The
  // refined value is defined before the if, so either branch may yield it.
  auto exits = [](const Env &side) {
    if (side.count(kRaisedVar))
      return true;
    for (const char *flag : {kBreakVar, kContinueVar, kReturnVar}) {
      auto it = side.find(flag);
      if (it != side.end() && it->second.value.isValue())
        if (std::optional<bool> k = knownCondition(it->second.value.value))
          if (*k)
            return true;
    }
    return false;
  };
  bool thenExits = exits(thenEnv), elseExits = exits(elseEnv);
  if (thenExits != elseExits) {
    Env &dead = thenExits ? thenEnv : elseEnv;
    const Env &live = thenExits ? elseEnv : thenEnv;
    const auto &liveRefined = thenExits ? refine.whenFalse : refine.whenTrue;
    for (const auto &[name, value] : liveRefined)
      if (auto it = live.find(name);
          it != live.end() && samePyValue(it->second.value, value))
        dead[name] = it->second;
  }
  std::set<std::string> names;
  for (const auto &[name, _] : refine.whenTrue)
    names.insert(name);
  for (const auto &[name, _] : refine.whenFalse)
    names.insert(name);
  for (const std::string &name : names) {
    const Binding &original = before.at(name);
    auto sideIsRefined = [&](const Env &side,
                             const std::map<std::string, PyValue> &refined) {
      auto it = side.find(name);
      auto r = refined.find(name);
      const PyValue &expected = r != refined.end() ? r->second : original.value;
      return it != side.end() && samePyValue(it->second.value, expected);
    };
    if (sideIsRefined(thenEnv, refine.whenTrue) &&
        sideIsRefined(elseEnv, refine.whenFalse)) {
      thenEnv[name] = original;
      elseEnv[name] = original;
    }
  }
}

/// Whether merging `a` and `b` makes an Optional[Tensor]: one is None or an
/// Optional, and the other a tensor or an Optional (TorchScript unifies
/// Tensor and None to Optional[Tensor]).
static bool joinsToOptional(const PyValue &a, const PyValue &b) {
  auto tensorLike = [](const PyValue &v) {
    return v.isOptional() ||
           (v.isValue() && llvm::isa<RankedTensorType>(v.value.getType()));
  };
  return (a.isOptional() || b.isOptional() || a.isNone() || b.isNone()) &&
         (tensorLike(a) || a.isNone()) && (tensorLike(b) || b.isNone()) &&
         (tensorLike(a) || tensorLike(b));
}

/// `v` as an Optional of `type`, built before `yield` in its branch.
static PyValue liftToOptional(OpBuilder &b, Location l, const PyValue &v,
                              Type type, Operation *yield) {
  if (v.isOptional())
    return v;
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(yield);
  Value present = b.create<arith::ConstantOp>(l, b.getBoolAttr(!v.isNone()));
  Value tensor = v.isNone() ? b.create<UndefOp>(l, type).getResult() : v.value;
  return PyValue::optional(present, tensor);
}

/// Where the branches of `ifOp` leave a tensor and None, or an Optional and
/// anything joinsToOptional accepts, makes both Optionals, so that the if
/// yields a presence flag and a tensor.
static void joinOptionals(OpBuilder &b, Location l, PyValue &thenV,
                          PyValue &elseV, scf::IfOp ifOp) {
  if (!joinsToOptional(thenV, elseV))
    return;
  const PyValue &tensor = thenV.isNone() ? elseV : thenV;
  Type type = tensor.isOptional() ? tensor.payload().getType()
                                  : tensor.value.getType();
  thenV = liftToOptional(b, l, thenV, type, ifOp.thenYield());
  elseV = liftToOptional(b, l, elseV, type, ifOp.elseYield());
}

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

bool FunctionLowering::lowerIf(const ast::IfStmt &stmt) {
  // A condition decided while compiling (a module option, a static rank or
  // dtype, `is None` on a non-Optional, isinstance) specializes the code,
  // as TorchScript does for isinstance and hasattr: only the branch taken
  // is lowered, so the dead one is never type-checked and may be written
  // for another configuration of the module.
  std::optional<Decided> d = decideCondition(*this, *stmt.test);
  if (!d)
    return false;
  if (d->known)
    return lowerBlock(*d->known ? stmt.body : stmt.orelse);
  Refinements refine = refinementsOf(*stmt.test);
  return emitIf(
      loc(stmt.range), d->cond, stmt.range,
      [&] { return lowerBlock(stmt.body); },
      [&] { return lowerBlock(stmt.orelse); },
      refine.empty() ? nullptr : &refine);
}

bool FunctionLowering::emitIf(Location l, Value cond, SourceRange where,
                              const std::function<bool()> &thenFn,
                              const std::function<bool()> &elseFn,
                              const Refinements *refine) {
  Env before = env;
  auto ifOp = b.create<scf::IfOp>(l, TypeRange{}, cond, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);

  b.setInsertionPoint(ifOp.thenYield());
  if (refine)
    applyRefinements(refine->whenTrue);
  if (!thenFn())
    return false;
  Env thenEnv = std::move(env);
  env = before;
  b.setInsertionPoint(ifOp.elseYield());
  if (refine)
    applyRefinements(refine->whenFalse);
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
  // After the raise adoption, so that `if m is None: raise ...` leaves `m`
  // refined to the tensor, as the other branch had it.
  if (refine)
    unrefineUnchanged(*refine, before, thenEnv, elseEnv);

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
    joinOptionals(b, l, t->second.value, e->second.value, ifOp);
    merges.push_back({name, t->second.value, e->second.value,
                      SourceRange::cover(t->second.where, e->second.where)});
    if (!samePyValue(t->second.value, e->second.value)) {
      SmallVector<Value> tv, ev;
      bool ok = sameKeys(t->second.value, e->second.value) &&
                flattenValues(t->second.value, tv) &&
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
