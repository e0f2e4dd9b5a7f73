//===- LowerContainers.cpp - Walking sequences; comprehensions ----------===//
//
// What real modules write around their ops to walk and build sequences:
// `[f(b) for b in self.blocks if ...]`, `enumerate`, `zip` and `reversed`
// (the builtins and operators over sequences are in LowerSequences.cpp).
//
// A sequence whose length is known while compiling (a tuple, a shape, a
// ModuleList, a constant range) is walked while compiling, so each element
// keeps its own type (blocks of a pyramid return different shapes) and
// folds where it is constant (`sum(x.shape[1:])` is a number). Only a
// run-time list, or a range with run-time bounds, becomes an scf loop;
// what it builds (a list, a sum) is carried through the loop as a hidden
// variable of the function.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerContainers.h"
#include "frontend/LowerConstructs.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {
namespace containers {

bool isIterBuiltin(llvm::StringRef path) {
  return path == "builtins.enumerate" || path == "builtins.zip" ||
         path == "builtins.reversed";
}

/// The builtin a call names (`builtins.zip`), or "" when it names none.
std::string calledBuiltin(FunctionLowering &fl, const ast::Expr &e) {
  auto *call = llvm::dyn_cast<ast::CallExpr>(&e);
  if (!call)
    return "";
  auto *name = llvm::dyn_cast<ast::NameExpr>(call->func.get());
  // A local that shadows the builtin is not it.
  if (!name || fl.env.count(name->id))
    return "";
  std::optional<PyValue> g = fl.module.lookupGlobal(name->id);
  if (!g || g->kind != PyValue::Kind::Global ||
      !llvm::StringRef(g->str).starts_with("builtins."))
    return "";
  return g->str;
}

Iteration unrolledOf(std::vector<PyValue> elems) {
  Iteration it;
  it.unrolled = true;
  it.elems = std::move(elems);
  return it;
}

/// The elements of a list whose length is known while compiling: built by
/// a display (`[a, b]`) and appends outside run-time loops and branches.
std::optional<std::vector<PyValue>> listDisplayElements(const PyValue &v) {
  if (!v.isValue())
    return std::nullopt;
  Value cur = v.value;
  std::vector<PyValue> appended;
  while (auto app = cur.getDefiningOp<ListAppendOp>()) {
    appended.push_back(PyValue::ofValue(app->getOperand(1)));
    cur = app->getOperand(0);
  }
  auto ctor = cur.getDefiningOp<ListConstructOp>();
  if (!ctor)
    return std::nullopt;
  std::vector<PyValue> out;
  for (Value e : ctor->getOperands())
    out.push_back(PyValue::ofValue(e));
  out.insert(out.end(), appended.rbegin(), appended.rend());
  return out;
}

/// Walks an already lowered value: a tuple at compile time, a list or a
/// tensor's rows at run time.
std::optional<Iteration> iterationOfValue(FunctionLowering &fl,
                                          const PyValue &v, SourceRange r) {
  if (v.kind == PyValue::Kind::Tuple)
    return unrolledOf(v.elems);
  if (v.isDict())
    return unrolledOf(dictKeys(v).elems);
  if (std::optional<PyValue> children = childModules(v))
    return unrolledOf(children->elems);
  if (v.isValue()) {
    Value x = v.value;
    Iteration it;
    it.indexed = true;
    it.start = fl.constInt(0, r);
    it.step = fl.constInt(1, r);
    if (auto list = llvm::dyn_cast<ListType>(x.getType())) {
      it.stop = fl.b.create<ListLenOp>(fl.loc(r), fl.b.getI64Type(), x);
      Type et = list.getElementType();
      it.elemType = et;
      it.element = [&fl, x, et, r](Value i) {
        return PyValue::ofValue(
            fl.b.create<ListGetOp>(fl.loc(r), et, x, i).getResult());
      };
      return it;
    }
    if (auto tt = llvm::dyn_cast<RankedTensorType>(x.getType())) {
      if (tt.getRank() == 0) {
        fl.error(r, "cannot iterate over a 0-d tensor");
        return std::nullopt;
      }
      it.stop = fl.dimValues(x, r)[0];
      auto row = RankedTensorType::get(tt.getShape().drop_front(),
                                       tt.getElementType());
      it.elemType = row;
      it.element = [&fl, x, row, r](Value i) {
        return PyValue::ofValue(fl.b.create<SelectOp>(fl.loc(r), row, x, i,
                                                      fl.b.getI64IntegerAttr(0))
                                    .getResult());
      };
      return it;
    }
  }
  fl.error(r, "cannot iterate over " + fl.describe(v) +
                  "; kiln iterates over range(...), a list, a tuple, a "
                  "ModuleList, an nn.Sequential or a Tensor");
  return std::nullopt;
}

std::optional<Iteration> lowerIterable(FunctionLowering &fl,
                                       const ast::Expr &iter, bool unrollRange);

std::optional<Iteration> lowerRange(FunctionLowering &fl,
                                    const ast::CallExpr &call,
                                    bool unrollRange) {
  size_t n = call.args.size();
  if (!call.keywords.empty() || n < 1 || n > 3) {
    fl.error(call.range, "range() takes 1 to 3 positional arguments");
    return std::nullopt;
  }
  SmallVector<Value> vals;
  for (const ast::ExprPtr &a : call.args) {
    std::optional<Value> v = fl.lowerValue(*a);
    if (!v)
      return std::nullopt;
    if (!v->getType().isInteger(64)) {
      fl.error(a->range, "range() needs int arguments, got " +
                             fl.describe(PyValue::ofValue(*v)));
      return std::nullopt;
    }
    vals.push_back(*v);
  }
  Iteration it;
  it.start = n == 1 ? fl.constInt(0, call.range) : vals[0];
  it.stop = n == 1 ? vals[0] : vals[1];
  it.step = n == 3 ? vals[2] : fl.constInt(1, call.range);
  std::optional<int64_t> a = fl.constIntValue(it.start),
                         b = fl.constIntValue(it.stop),
                         s = fl.constIntValue(it.step);
  if (s && *s == 0) {
    fl.error(call.args[2]->range, "range() step must not be zero");
    return std::nullopt;
  }
  if (unrollRange && a && b && s) {
    std::vector<PyValue> elems;
    for (int64_t i = *a; (*s > 0 ? i < *b : i > *b); i += *s) {
      if ((int64_t)elems.size() == kMaxUnrolledRange)
        break;
      elems.push_back(PyValue::ofValue(fl.constInt(i, call.range)));
    }
    if ((int64_t)elems.size() < kMaxUnrolledRange)
      return unrolledOf(std::move(elems));
  }
  it.element = [](Value i) { return PyValue::ofValue(i); };
  it.elemType = fl.b.getI64Type();
  // range(a, b) with step 1 is the indexed walk of length b - a.
  if (s && *s == 1) {
    Value start = it.start;
    if (!a || *a != 0) {
      it.stop = *fl.emitElementwise("kiln.sub", it.stop, start, call.range,
                                    call.range, call.range);
      it.element = [&fl, start, r = call.range](Value i) {
        return PyValue::ofValue(
            *fl.emitElementwise("kiln.add", start, i, r, r, r));
      };
      it.start = fl.constInt(0, call.range);
    }
    it.indexed = true;
  }
  return it;
}

std::optional<Iteration> lowerIterBuiltin(FunctionLowering &fl,
                                          llvm::StringRef path,
                                          const ast::CallExpr &call) {
  std::string name = path.drop_front(strlen("builtins.")).str();
  size_t maxArgs = name == "enumerate" ? 2 : name == "reversed" ? 1 : 8;
  if (call.args.empty() || call.args.size() > maxArgs ||
      (!call.keywords.empty() &&
       (name != "enumerate" || call.keywords[0].name != "start" ||
        call.keywords.size() > 1))) {
    fl.error(call.range, name + "() takes " +
                             (name == "zip" ? "one or more iterables"
                              : name == "enumerate"
                                  ? "an iterable and an optional start"
                                  : "one sequence"));
    return std::nullopt;
  }
  std::vector<Iteration> inner;
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (name == "enumerate" && i == 1)
      break;
    std::optional<Iteration> it = lowerIterable(fl, *call.args[i], true);
    if (!it)
      return std::nullopt;
    inner.push_back(std::move(*it));
  }
  if (name == "enumerate") {
    const ast::Expr *startArg =
        call.args.size() == 2
            ? call.args[1].get()
            : (call.keywords.empty() ? nullptr : call.keywords[0].value.get());
    int64_t start = 0;
    if (startArg) {
      std::optional<int64_t> s = fl.lowerConstInt(*startArg, "enumerate's start");
      if (!s)
        return std::nullopt;
      start = *s;
    }
    Iteration &in = inner[0];
    if (in.unrolled) {
      std::vector<PyValue> out;
      for (size_t i = 0; i < in.elems.size(); ++i)
        out.push_back(PyValue::tuple(
            {PyValue::ofValue(fl.constInt(start + i, call.range)),
             in.elems[i]}));
      return unrolledOf(std::move(out));
    }
    if (!in.indexed) {
      fl.error(call.args[0]->range,
               "enumerate() of a range with a run-time step is not "
               "supported; enumerate range(len(...)) instead");
      return std::nullopt;
    }
    Iteration it = in;
    it.elemType = {};
    auto inner0 = in.element;
    it.element = [&fl, inner0, start, r = call.range](Value i) {
      Value k = start == 0
                    ? i
                    : *fl.emitElementwise("kiln.add", i,
                                          fl.constInt(start, r), r, r, r);
      return PyValue::tuple({PyValue::ofValue(k), inner0(i)});
    };
    return it;
  }
  if (name == "reversed") {
    Iteration &in = inner[0];
    if (in.unrolled) {
      std::vector<PyValue> out(in.elems.rbegin(), in.elems.rend());
      return unrolledOf(std::move(out));
    }
    if (!in.indexed) {
      fl.error(call.args[0]->range,
               "reversed() of a range with a run-time step is not supported");
      return std::nullopt;
    }
    Iteration it = in;
    auto inner0 = in.element;
    Value last = *fl.emitElementwise("kiln.sub", in.stop,
                                     fl.constInt(1, call.range), call.range,
                                     call.range, call.range);
    it.element = [&fl, inner0, last, r = call.range](Value i) {
      return inner0(*fl.emitElementwise("kiln.sub", last, i, r, r, r));
    };
    return it;
  }
  // zip: as long as the shortest.
  bool allUnrolled = true, anyUnrolled = false;
  for (const Iteration &it : inner) {
    allUnrolled &= it.unrolled;
    anyUnrolled |= it.unrolled;
  }
  if (allUnrolled) {
    size_t n = inner[0].elems.size();
    for (const Iteration &it : inner)
      n = std::min(n, it.elems.size());
    std::vector<PyValue> out;
    for (size_t i = 0; i < n; ++i) {
      std::vector<PyValue> row;
      for (const Iteration &it : inner)
        row.push_back(it.elems[i]);
      out.push_back(PyValue::tuple(std::move(row)));
    }
    return unrolledOf(std::move(out));
  }
  for (size_t i = 0; i < inner.size(); ++i)
    if (anyUnrolled || !inner[i].indexed) {
      fl.error(call.args[i]->range,
               "zip() of " +
                   std::string(anyUnrolled ? "a sequence known while "
                                             "compiling (a tuple, a shape, "
                                             "a ModuleList) and a run-time "
                                             "list"
                                           : "a range with a run-time step") +
                   " is not supported; zip sequences of one kind");
      return std::nullopt;
    }
  Iteration it = inner[0];
  it.elemType = {};
  for (size_t i = 1; i < inner.size(); ++i)
    it.stop = *fl.emitElementwise("kiln.minimum", it.stop, inner[i].stop,
                                  call.range, call.range, call.range);
  std::vector<std::function<PyValue(Value)>> getters;
  for (const Iteration &in : inner)
    getters.push_back(in.element);
  it.element = [getters](Value i) {
    std::vector<PyValue> row;
    for (const auto &g : getters)
      row.push_back(g(i));
    return PyValue::tuple(std::move(row));
  };
  return it;
}

std::optional<Iteration> lowerIterable(FunctionLowering &fl,
                                       const ast::Expr &iter,
                                       bool unrollRange) {
  std::string path = calledBuiltin(fl, iter);
  if (path == "builtins.range")
    return lowerRange(fl, llvm::cast<ast::CallExpr>(iter), unrollRange);
  if (isIterBuiltin(path))
    return lowerIterBuiltin(fl, path, llvm::cast<ast::CallExpr>(iter));
  MaybeValue v = fl.lowerExpr(iter);
  if (!v)
    return std::nullopt;
  if (std::optional<std::vector<PyValue>> known = listDisplayElements(*v))
    return unrolledOf(std::move(*known));
  return iterationOfValue(fl, *v, iter.range);
}

/// Runs `step` once per element of a run-time walk, threading `init`
/// through the loop as a hidden variable; returns its final value.
MaybeValue foldAtRunTime(
    FunctionLowering &fl, const Iteration &it, PyValue init, SourceRange where,
    const std::function<MaybeValue(const PyValue &, const PyValue &)> &step) {
  std::string acc = "$tmp" + std::to_string(fl.tempCounter++);
  fl.env[acc] = Binding{std::move(init), where};
  static const ast::Block noStatements;
  bool ok = fl.emitLoop(
      fl.loc(where), where, noStatements, nullptr, it.start, it.stop, it.step,
      [&](Value iv) {
        MaybeValue next = step(fl.env[acc].value, it.element(iv));
        if (!next)
          return false;
        fl.env[acc] = Binding{*next, where};
        return true;
      },
      {acc});
  if (!ok)
    return std::nullopt;
  PyValue r = fl.env[acc].value;
  fl.env.erase(acc);
  return r;
}

/// `list` with `v` appended, as `xs.append(v)` lowers it.
MaybeValue appendTo(FunctionLowering &fl, const PyValue &list, PyValue v,
                    SourceRange where) {
  if (!v.isValue()) {
    fl.error(where, "a run-time list cannot hold " + fl.describe(v) +
                        "; it holds tensors or numbers");
    return std::nullopt;
  }
  Value one = fl.b.create<ListConstructOp>(
      fl.loc(where), ListType::get(v.value.getType()), v.value);
  return fl.applyBinOp(ast::BinOpKind::Add, list, PyValue::ofValue(one), where,
                       where, where);
}

Value emptyList(FunctionLowering &fl, SourceRange where) {
  return fl.b.create<ListConstructOp>(
      fl.loc(where), ListType::get(fl.b.getNoneType()), ValueRange{});
}

} // namespace containers

using namespace containers;

std::optional<bool> lowerContainerFor(FunctionLowering &fl,
                                      const ast::ForStmt &stmt) {
  if (!isIterBuiltin(calledBuiltin(fl, *stmt.iter)))
    return std::nullopt;
  std::optional<Iteration> it = lowerIterable(fl, *stmt.iter, false);
  if (!it)
    return false;
  if (it->unrolled) {
    std::set<std::string> names;
    bool hasBreak = false, hasContinue = false, hasReturn = false;
    collectAssigned(stmt.body, names, hasBreak, hasContinue, hasReturn, false);
    if (hasBreak || hasContinue || hasReturn)
      return fl.error(stmt.range,
                      "break, continue and return inside a loop over a "
                      "sequence known while compiling (a tuple, a shape, a "
                      "ModuleList) are not supported");
    for (const PyValue &e : it->elems)
      if (!fl.lowerAssign(*stmt.target, e, stmt.target->range) ||
          !fl.lowerBlock(stmt.body))
        return false;
    return true;
  }
  return fl.emitLoop(fl.loc(stmt.range), stmt.range, stmt.body, nullptr,
                     it->start, it->stop, it->step, [&](Value iv) {
                       return fl.lowerAssign(*stmt.target, it->element(iv),
                                             stmt.target->range);
                     });
}

namespace {

/// The variables a comprehension bound are its own, as in Python 3: the
/// names go back to `saved`, keeping the control-flow flags.
void restoreEnv(FunctionLowering &fl, const Env &saved) {
  Env now = std::move(fl.env);
  fl.env = saved;
  for (auto &[name, binding] : now)
    if (isFlag(name))
      fl.env[name] = binding;
}

/// Decides an element's filters: false when one known while compiling
/// drops it (the later ones are not evaluated, as in Python); those known
/// only at run time are and-ed into `cond`. nullopt after an error.
std::optional<bool> applyFilters(FunctionLowering &fl,
                                 const std::vector<ast::ExprPtr> &conds,
                                 std::optional<Value> &cond) {
  for (const ast::ExprPtr &c : conds) {
    std::optional<Decided> d = decideCondition(fl, *c);
    if (!d)
      return std::nullopt;
    if (d->known) {
      if (!*d->known)
        return false;
      continue;
    }
    cond = cond ? fl.b.create<arith::AndIOp>(fl.loc(c->range), *cond, d->cond)
                      .getResult()
                : d->cond;
  }
  return true;
}

/// Binds a clause's target to `x` and decides its filters, starting from
/// the run-time filter `cond` of the clauses around it (applyFilters).
std::optional<bool> bindAndFilter(FunctionLowering &fl, const ast::CompFor &f,
                                  const PyValue &x,
                                  std::optional<Value> &cond) {
  if (!fl.lowerAssign(*f.target, x, f.target->range))
    return std::nullopt;
  return applyFilters(fl, f.conds, cond);
}

/// `start` (a compile-time sequence or a run-time list) as a run-time list.
MaybeValue listOf(FunctionLowering &fl, const PyValue &start,
                  SourceRange where) {
  if (start.kind != PyValue::Kind::Tuple)
    return start;
  MaybeValue l = PyValue::ofValue(emptyList(fl, where));
  for (const PyValue &x : start.elems)
    if (!(l = appendTo(fl, *l, x, where)))
      return std::nullopt;
  return l;
}

/// `acc` with the element of `e` appended, lowered under the run-time
/// condition `cond` when there is one, so that a dropped element is never
/// computed.
MaybeValue appendUnder(FunctionLowering &fl, const ast::ListCompExpr &e,
                       const PyValue &acc, std::optional<Value> cond) {
  if (!cond) {
    MaybeValue v = fl.lowerExpr(*e.elt);
    return v ? appendTo(fl, acc, *v, e.elt->range) : std::nullopt;
  }
  std::string tmp = "$tmp" + std::to_string(fl.tempCounter++);
  fl.env[tmp] = Binding{acc, e.range};
  bool ok = fl.emitIf(
      fl.loc(e.range), *cond, e.range,
      [&] {
        MaybeValue v = fl.lowerExpr(*e.elt);
        MaybeValue r =
            v ? appendTo(fl, fl.env[tmp].value, *v, e.elt->range) : std::nullopt;
        if (r)
          fl.env[tmp] = Binding{*r, e.range};
        return r.has_value();
      },
      [] { return true; });
  PyValue out = fl.env[tmp].value;
  fl.env.erase(tmp);
  return ok ? MaybeValue(out) : std::nullopt;
}

/// `start` followed by the elements the last `for` clause of `e` gives (the
/// only clause, or the innermost one, run once per element of the clauses
/// around it, which accumulate into `start`); `outer` is a run-time filter
/// of those clauses, which guards every element as the clause's own
/// filters do.
MaybeValue lowerLastClause(FunctionLowering &fl, const ast::ListCompExpr &e,
                           const ast::CompFor &f, std::optional<Value> outer,
                           const PyValue &start) {
  std::optional<Iteration> it = lowerIterable(fl, *f.iter, true);
  if (!it)
    return std::nullopt;
  // The comprehension's variables are its own, as in Python 3.
  Env saved = fl.env;
  if (it->unrolled) {
    // The elements that pass the filters known while compiling, with the
    // run-time filter of each.
    bool runtimeFilter = false;
    std::vector<std::pair<PyValue, std::optional<Value>>> picked;
    for (const PyValue &x : it->elems) {
      std::optional<Value> cond = outer;
      std::optional<bool> keep = bindAndFilter(fl, f, x, cond);
      if (!keep)
        return std::nullopt;
      if (*keep)
        picked.push_back({x, cond});
      runtimeFilter |= *keep && cond.has_value();
    }
    // No filter decided at run time: a compile-time sequence. Else the
    // result's length is known only at run time too.
    bool known = !runtimeFilter && start.kind == PyValue::Kind::Tuple;
    MaybeValue acc = known ? MaybeValue(start) : listOf(fl, start, e.range);
    for (auto &[x, cond] : picked) {
      if (!acc || !fl.lowerAssign(*f.target, x, f.target->range))
        return std::nullopt;
      if (known) {
        MaybeValue v = fl.lowerExpr(*e.elt);
        if (!v)
          return std::nullopt;
        acc->elems.push_back(*v);
      } else {
        acc = appendUnder(fl, e, *acc, cond);
      }
    }
    restoreEnv(fl, saved);
    return acc;
  }
  // Under a run-time filter the list is appended to on one side of an if
  // only, so its element type must be fixed before the loop: the element
  // is lowered once, in a block that is thrown away, to learn it.
  Value init = emptyList(fl, e.range);
  if (start.kind != PyValue::Kind::Tuple || !start.elems.empty()) {
    // Earlier clauses' elements fix the element type already.
    init.getDefiningOp()->erase();
    MaybeValue l = listOf(fl, start, e.range);
    if (!l)
      return std::nullopt;
    init = l->value;
  } else if (!f.conds.empty() || outer) {
    Block scratch;
    Type et;
    {
      OpBuilder::InsertionGuard guard(fl.b);
      fl.b.setInsertionPointToStart(&scratch);
      Env outer = fl.env;
      MaybeValue v;
      if (fl.lowerAssign(*f.target, it->element(fl.constInt(0, e.range)),
                         f.target->range))
        v = fl.lowerExpr(*e.elt);
      fl.env = std::move(outer);
      if (!v)
        return std::nullopt;
      if (!v->isValue())
        return appendTo(fl, PyValue::ofValue(init), *v, e.elt->range);
      et = v->value.getType();
    }
    scratch.dropAllDefinedValueUses();
    while (!scratch.empty())
      scratch.back().erase();
    init.getDefiningOp()->erase();
    init = fl.b.create<ListConstructOp>(fl.loc(e.range), ListType::get(et),
                                        ValueRange{});
  }
  MaybeValue r = foldAtRunTime(
      fl, *it, PyValue::ofValue(init), e.range,
      [&](const PyValue &acc, const PyValue &x) -> MaybeValue {
        std::optional<Value> cond = outer;
        std::optional<bool> keep = bindAndFilter(fl, f, x, cond);
        if (!keep)
          return std::nullopt;
        return *keep ? appendUnder(fl, e, acc, cond) : MaybeValue(acc);
      });
  return r;
}

/// The clauses from the k-th on, appended to `acc`. Those before the last
/// are walked while compiling (unrolled, as a single clause over a known
/// sequence is): each element binds the clause's target and passes its
/// filters on to the clauses inside it.
bool lowerClauses(FunctionLowering &fl, const ast::ListCompExpr &e, size_t k,
                  std::optional<Value> cond, PyValue &acc) {
  const ast::CompFor &f = e.fors[k];
  if (k + 1 == e.fors.size()) {
    MaybeValue r = lowerLastClause(fl, e, f, cond, acc);
    if (r)
      acc = *r;
    return r.has_value();
  }
  std::optional<Iteration> it = lowerIterable(fl, *f.iter, true);
  if (!it)
    return false;
  if (!it->unrolled) {
    fl.error(f.iter->range,
             "a comprehension's 'for' clauses before the last must walk a "
             "sequence known while compiling (a tuple, a shape, a list "
             "display, a constant range), not a run-time list or a range "
             "with run-time bounds");
    return false;
  }
  for (const PyValue &x : it->elems) {
    std::optional<Value> c = cond;
    std::optional<bool> keep = bindAndFilter(fl, f, x, c);
    if (!keep)
      return false;
    if (*keep && !lowerClauses(fl, e, k + 1, c, acc))
      return false;
  }
  return true;
}

} // namespace

MaybeValue lowerListComp(FunctionLowering &fl, const ast::ListCompExpr &e) {
  Env saved = fl.env;
  PyValue acc = PyValue::tuple({});
  bool ok = lowerClauses(fl, e, 0, std::nullopt, acc);
  restoreEnv(fl, saved);
  if (!ok)
    return std::nullopt;
  return acc;
}

} // namespace kiln
