//===- LowerLoops.cpp - for and while loops -------------------------------===//
//
// `for` over range/lists/tensors and `while` become scf.for or scf.while.
// A loop carries every variable its body assigns; `break` and `return` turn
// it into an scf.while whose condition tests their flags.
//
// Loop-carried types must be fixed before the body is lowered, but a body
// can make them less static (a list that starts empty, a shape that changes
// between iterations). The loop is lowered, its yields compared with its
// iter_args, and when they disagree the loop is erased and lowered again
// with the joined types: a fixpoint that ends after a few rounds because
// types only get more general.
//
//===----------------------------------------------------------------------===//

#include "frontend/LoweringImpl.h"
#include "ir/Limits.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

bool FunctionLowering::lowerWhile(const ast::WhileStmt &stmt) {
  return emitLoop(loc(stmt.range), stmt.range, stmt.body, stmt.test.get(), {},
                  {}, {}, [](Value) { return true; });
}

bool FunctionLowering::lowerFor(const ast::ForStmt &stmt) {
  if (std::optional<bool> r = lowerContainerFor(*this, stmt))
    return *r; // enumerate, zip, reversed (LowerContainers.cpp)
  auto bindTo = [&](const ast::Expr &target) {
    return [&](Value v) {
      return lowerAssign(target, PyValue::ofValue(v), target.range);
    };
  };
  // for i in range(...)
  if (auto *call = llvm::dyn_cast<ast::CallExpr>(stmt.iter.get())) {
    MaybeValue callee = lowerExpr(*call->func);
    if (!callee)
      return false;
    if (callee->kind == PyValue::Kind::Global &&
        callee->str == "builtins.range") {
      if (!call->keywords.empty())
        return error(call->keywords[0].range,
                     "range() takes no keyword arguments");
      size_t n = call->args.size();
      if (n < 1 || n > 3)
        return error(call->range, "range() takes 1 to 3 arguments, " +
                                      std::to_string(n) + " given");
      SmallVector<Value> vals;
      for (const ast::ExprPtr &a : call->args) {
        std::optional<Value> v = lowerValue(*a);
        if (!v)
          return false;
        if (!v->getType().isInteger(64))
          return error(a->range, "range() needs int arguments, got " +
                                     describe(PyValue::ofValue(*v)));
        vals.push_back(*v);
      }
      Value start = n == 1 ? constInt(0, call->range) : vals[0];
      Value stop = n == 1 ? vals[0] : vals[1];
      Value step = n == 3 ? vals[2] : constInt(1, call->range);
      if (std::optional<int64_t> s = constIntValue(step); s && *s == 0)
        return error(call->args[2]->range, "range() step must not be zero");
      return emitLoop(loc(stmt.range), stmt.range, stmt.body, nullptr, start,
                      stop, step, bindTo(*stmt.target));
    }
  }
  MaybeValue iter = lowerExpr(*stmt.iter);
  if (!iter)
    return false;
  if (iter->isDict()) // its keys, known while compiling
    iter = dictKeys(*iter);
  if (std::optional<PyValue> children = childModules(*iter))
    iter = *children;
  // A tuple is iterated at compile time: its elements may differ in type.
  if (iter->kind == PyValue::Kind::Tuple) {
    std::set<std::string> names;
    bool hasBreak = false, hasContinue = false, hasReturn = false;
    collectAssigned(stmt.body, names, hasBreak, hasContinue, hasReturn, false);
    if (hasBreak || hasContinue || hasReturn)
      return error(stmt.range, "break, continue and return inside a loop over "
                               "a tuple are not supported");
    for (const PyValue &e : iter->elems) {
      if (!lowerAssign(*stmt.target, e, stmt.target->range) ||
          !lowerBlock(stmt.body))
        return false;
    }
    return true;
  }
  if (iter->isValue()) {
    Value it = iter->value;
    SourceRange r = stmt.iter->range;
    if (llvm::isa<ListType>(it.getType())) {
      Value len = b.create<ListLenOp>(loc(r), b.getI64Type(), it);
      auto elemType = llvm::cast<ListType>(it.getType()).getElementType();
      // Bounds in named locals: argument order is unspecified, and the IR
      // must not depend on the compiler.
      Value lower = constInt(0, r), step = constInt(1, r);
      return emitLoop(loc(stmt.range), stmt.range, stmt.body, nullptr, lower,
                      len, step, [&, it](Value i) {
                        Value e = b.create<ListGetOp>(loc(r), elemType, it, i);
                        return lowerAssign(*stmt.target, PyValue::ofValue(e),
                                           stmt.target->range);
                      });
    }
    if (auto tt = llvm::dyn_cast<RankedTensorType>(it.getType())) {
      if (tt.getRank() == 0)
        return error(r, "cannot iterate over a 0-d tensor");
      Value len =
          b.create<DimOp>(loc(r), b.getI64Type(), it, b.getI64IntegerAttr(0));
      auto rowType = RankedTensorType::get(tt.getShape().drop_front(),
                                           tt.getElementType());
      Value lower = constInt(0, r), step = constInt(1, r);
      return emitLoop(loc(stmt.range), stmt.range, stmt.body, nullptr, lower,
                      len, step, [&, it](Value i) {
                        Value row = b.create<SelectOp>(loc(r), rowType, it, i,
                                                       b.getI64IntegerAttr(0));
                        return lowerAssign(*stmt.target, PyValue::ofValue(row),
                                           stmt.target->range);
                      });
    }
  }
  return error(stmt.iter->range,
               "cannot iterate over " + describe(*iter) +
                   "; for loops take range(...), a list, a tuple, a ModuleList, "
                   "an nn.Sequential or a Tensor");
}

bool FunctionLowering::emitLoop(Location l, SourceRange where,
                                const ast::Block &body,
                                const ast::Expr *whileTest, Value start,
                                Value stop, Value step,
                                const std::function<bool(Value)> &bindTarget,
                                ArrayRef<std::string> alsoCarried) {
  if (loopDepth == kiln::kMaxLoopDepth)
    return error(where, "too many statically nested loops: a function may "
                        "nest at most " +
                            std::to_string(kiln::kMaxLoopDepth) +
                            ", as in CPython");
  std::set<std::string> assigned;
  bool hasBreak = false, hasContinue = false, hasReturn = false;
  collectAssigned(body, assigned, hasBreak, hasContinue, hasReturn, false);
  assigned.insert(alsoCarried.begin(), alsoCarried.end());

  // Each loop has its own break/continue flags; the enclosing loop's come
  // back afterwards.
  std::optional<Binding> outerBreak, outerContinue;
  if (auto it = env.find(kBreakVar); it != env.end()) {
    outerBreak = it->second;
    env.erase(it);
  }
  if (auto it = env.find(kContinueVar); it != env.end()) {
    outerContinue = it->second;
    env.erase(it);
  }
  if (hasBreak)
    env[kBreakVar] = Binding{PyValue::ofValue(constBool(false, where)), where};
  if (hasReturn) {
    assigned.insert(kReturnVar);
    assigned.insert(kRetvalVar);
  }
  if (hasBreak)
    assigned.insert(kBreakVar);

  bool counted = whileTest == nullptr;
  std::optional<int64_t> constStep =
      counted ? constIntValue(step) : std::nullopt;
  bool useFor =
      counted && constStep && *constStep > 0 && !hasBreak && !hasReturn;

  Env outer = env;
  // Types carried by each name; widened between attempts.
  std::map<std::string, PyValue> carriedInit;
  for (const std::string &name : assigned) {
    auto it = env.find(name);
    if (it == env.end() || it->second.value.kind == PyValue::Kind::Undefined)
      continue;
    SmallVector<Value> leaves;
    if (flattenValues(it->second.value, leaves))
      carriedInit[name] = it->second.value;
  }

  Operation *loopOp = nullptr;
  for (int attempt = 0;; ++attempt) {
    if (attempt == 8)
      return error(where, "internal error: loop-carried types do not settle");
    env = outer;
    SmallVector<Value> inits;
    std::vector<std::string> names;
    for (auto &[name, v] : carriedInit) {
      names.push_back(name);
      flattenValues(v, inits);
    }
    SmallVector<Type> types;
    for (Value v : inits)
      types.push_back(v.getType());

    // The induction variable travels first in a while loop.
    SmallVector<Value> allInits;
    if (counted && !useFor)
      allInits.push_back(start);
    allInits.append(inits.begin(), inits.end());
    SmallVector<Type> allTypes;
    for (Value v : allInits)
      allTypes.push_back(v.getType());
    SmallVector<Location> locs(allTypes.size(), l);

    Block *bodyBlock = nullptr;
    ValueRange carriedArgs;
    Value iv;
    OpBuilder::InsertionGuard guard(b);
    if (useFor) {
      Value lb = b.create<arith::IndexCastOp>(l, b.getIndexType(), start);
      Value ub = b.create<arith::IndexCastOp>(l, b.getIndexType(), stop);
      Value st = b.create<arith::IndexCastOp>(l, b.getIndexType(), step);
      auto forOp = b.create<scf::ForOp>(l, lb, ub, st, inits);
      loopOp = forOp;
      bodyBlock = forOp.getBody();
      if (!bodyBlock->empty() &&
          bodyBlock->back().hasTrait<OpTrait::IsTerminator>())
        bodyBlock->back().erase();
      b.setInsertionPointToStart(bodyBlock);
      iv = b.create<arith::IndexCastOp>(l, b.getI64Type(),
                                        forOp.getInductionVar());
      carriedArgs = forOp.getRegionIterArgs();
    } else {
      auto whileOp = b.create<scf::WhileOp>(l, allTypes, allInits);
      loopOp = whileOp;
      Block *before = b.createBlock(&whileOp.getBefore(), {}, allTypes, locs);
      // The condition: counted bound, user test, and no break/return.
      env = outer;
      ValueRange bargs = before->getArguments();
      ValueRange bcarried = counted ? bargs.drop_front() : bargs;
      {
        SmallVector<Value> storage(bcarried.begin(), bcarried.end());
        ArrayRef<Value> r(storage);
        for (const std::string &name : names)
          env[name].value = unflattenValues(carriedInit[name], r);
      }
      Value cond;
      if (counted) {
        Value i = bargs.front();
        auto mk = [&](CmpPredicate p, Value a, Value c) {
          return b.create<CmpOp>(l, b.getI1Type(), p, a, c).getResult();
        };
        if (constStep)
          cond =
              mk(*constStep > 0 ? CmpPredicate::lt : CmpPredicate::gt, i, stop);
        else {
          // Python's range works for either sign of a run-time step.
          Value zero = constInt(0, where);
          Value positive = mk(CmpPredicate::gt, step, zero);
          Value below = mk(CmpPredicate::lt, i, stop);
          Value up = b.create<arith::AndIOp>(l, positive, below);
          Value negative = mk(CmpPredicate::lt, step, zero);
          Value above = mk(CmpPredicate::gt, i, stop);
          Value down = b.create<arith::AndIOp>(l, negative, above);
          cond = b.create<arith::OrIOp>(l, up, down);
        }
      } else {
        std::optional<Value> c = lowerCondition(*whileTest);
        if (!c)
          return false;
        cond = *c;
      }
      env.erase(kContinueVar);
      if (Value go = notExited(*this, where))
        cond = b.create<arith::AndIOp>(l, cond, go);
      b.create<scf::ConditionOp>(l, cond, bargs);
      bodyBlock = b.createBlock(&whileOp.getAfter(), {}, allTypes, locs);
      b.setInsertionPointToStart(bodyBlock);
      ValueRange aargs = bodyBlock->getArguments();
      if (counted)
        iv = aargs.front();
      carriedArgs = counted ? aargs.drop_front() : aargs;
    }

    // The body.
    env = outer;
    {
      SmallVector<Value> storage(carriedArgs.begin(), carriedArgs.end());
      ArrayRef<Value> r(storage);
      for (const std::string &name : names)
        env[name].value = unflattenValues(carriedInit[name], r);
    }
    if (hasContinue)
      env[kContinueVar] =
          Binding{PyValue::ofValue(constBool(false, where)), where};
    ++loopDepth;
    bool ok = (!counted || bindTarget(iv)) && lowerBlock(body);
    --loopDepth;
    if (!ok)
      return false;

    // Compare what the body yields with what the loop carries.
    bool widened = false;
    std::map<std::string, PyValue> next;
    for (auto &[name, init] : carriedInit) {
      const PyValue &now = env[name].value;
      SmallVector<Value> a, c;
      flattenValues(init, a);
      bool same = flattenValues(now, c) && a.size() == c.size();
      for (size_t i = 0; same && i < a.size(); ++i)
        same = static_cast<bool>(joinTypes(a[i].getType(), c[i].getType()));
      if (!same) {
        std::string n = displayName(name);
        return error(env[name].where,
                     n + " is " + describe(outer[name].value) +
                         " before the loop and " + describe(now) +
                         " at the end of its body",
                     {{outer[name].where,
                       n + " is " + describe(outer[name].value) + " here"}});
      }
      // Widen the init values where the body is less static.
      std::vector<Value> widenedLeaves;
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(loopOp);
      for (size_t i = 0; i < a.size(); ++i) {
        Type j = joinTypes(a[i].getType(), c[i].getType());
        if (j != a[i].getType()) {
          widened = true;
          std::optional<Value> cast = castForMerge(a[i], j, where);
          if (!cast)
            return false;
          widenedLeaves.push_back(*cast);
        } else {
          widenedLeaves.push_back(a[i]);
        }
      }
      ArrayRef<Value> r(widenedLeaves);
      next[name] = unflattenValues(init, r);
    }
    // Flags and return values first assigned inside the body need an
    // initial value before the loop.
    for (const std::string &name : assigned) {
      if (!isFlag(name) || carriedInit.count(name))
        continue;
      auto it = env.find(name);
      if (it == env.end() || !it->second.value.isValue() &&
                                 it->second.value.kind != PyValue::Kind::Tuple)
        continue;
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(loopOp);
      next[name] = makeUndefLike(b, l, it->second.value);
      widened = true;
    }
    if (widened) {
      loopOp->erase();
      carriedInit = std::move(next);
      continue;
    }

    // Yield.
    SmallVector<Value> yields;
    if (counted && !useFor)
      yields.push_back(b.create<AddOp>(l, b.getI64Type(), iv, step));
    for (auto &[name, init] : carriedInit) {
      SmallVector<Value> a, c;
      flattenValues(init, a);
      flattenValues(env[name].value, c);
      for (size_t i = 0; i < c.size(); ++i) {
        std::optional<Value> v = castForMerge(c[i], a[i].getType(), where);
        if (!v)
          return false;
        yields.push_back(*v);
      }
    }
    b.create<scf::YieldOp>(l, yields);
    Env bodyEnv = std::move(env);

    // After the loop: carried names take the loop's results.
    env = outer;
    ValueRange results = loopOp->getResults();
    if (counted && !useFor)
      results = results.drop_front();
    SmallVector<Value> storage(results.begin(), results.end());
    ArrayRef<Value> r(storage);
    for (auto &[name, init] : carriedInit)
      env[name] = Binding{unflattenValues(init, r), outer[name].where};
    for (const std::string &name : assigned) {
      if (carriedInit.count(name) || isFlag(name))
        continue;
      auto it = bodyEnv.find(name);
      if (it == bodyEnv.end())
        continue;
      env[name] =
          Binding{PyValue::undefined(
                      "'" + name +
                          "' is assigned in the loop body but not "
                          "defined before the loop; define it before "
                          "the loop",
                      {{it->second.where, "'" + name + "' is assigned here"}}),
                  it->second.where};
    }
    break;
  }
  b.setInsertionPointAfter(loopOp);
  env.erase(kBreakVar);
  env.erase(kContinueVar);
  if (outerBreak)
    env[kBreakVar] = *outerBreak;
  if (outerContinue)
    env[kContinueVar] = *outerContinue;
  return true;
}

} // namespace kiln
