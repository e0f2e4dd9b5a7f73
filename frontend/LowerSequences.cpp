//===- LowerSequences.cpp - Builtins and operators over sequences --------===//
//
// `sum`/`min`/`max`/`any`/`all`/`list`/`tuple` of a sequence, `(1,) * n`,
// `[1] * n`, `list + list`, `x in xs` and `xs[a:b]`. Sequences known while
// compiling fold (`sum(x.shape[1:])` is a number); run-time lists become
// loops through LowerContainers.cpp's walks.
//
//===----------------------------------------------------------------------===//
#include "frontend/LowerConstructs.h"
#include "frontend/LowerContainers.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

using namespace containers;

namespace {

/// sum/min/max/any/all of elements known now. Numbers fold.
MaybeValue reduceKnown(FunctionLowering &fl, const std::string &name,
                       const std::vector<PyValue> &elems, MaybeValue start,
                       const ast::CallExpr &call) {
  SourceRange r = call.range;
  if (name == "sum") {
    PyValue acc = start ? *start : PyValue::ofValue(fl.constInt(0, r));
    for (const PyValue &e : elems) {
      MaybeValue next =
          fl.applyBinOp(ast::BinOpKind::Add, acc, e, r, r, call.args[0]->range);
      if (!next)
        return std::nullopt;
      acc = *next;
    }
    return acc;
  }
  if (name == "any" || name == "all") {
    bool all = name == "all";
    Value acc = fl.constBool(all, r);
    for (const PyValue &e : elems) {
      std::optional<Value> c = fl.toCondition(e, *call.args[0]);
      if (!c)
        return std::nullopt;
      acc = all ? fl.b.create<arith::AndIOp>(fl.loc(r), acc, *c).getResult()
                : fl.b.create<arith::OrIOp>(fl.loc(r), acc, *c).getResult();
    }
    // Folded so that an `if all(...)` on shapes is decided while compiling.
    if (std::optional<bool> k = knownCondition(acc))
      return PyValue::ofValue(fl.constBool(*k, r));
    return PyValue::ofValue(acc);
  }
  // min / max
  if (elems.empty()) {
    fl.error(r, name + "() arg is an empty sequence");
    return std::nullopt;
  }
  PyValue acc = elems[0];
  for (const PyValue &e : elems) {
    if (!e.isValue() || !isScalarType(e.value.getType())) {
      fl.error(r, name + "() of a sequence takes numbers, not " +
                      fl.describe(e) + "; use torch." +
                      (name == "min" ? "minimum" : "maximum") +
                      " for tensors");
      return std::nullopt;
    }
    if (&e == &elems[0])
      continue;
    std::optional<Value> next = fl.emitElementwise(
        name == "min" ? "kiln.minimum" : "kiln.maximum", acc.value, e.value, r,
        r, call.args[0]->range);
    if (!next)
      return std::nullopt;
    acc = PyValue::ofValue(*next);
  }
  return acc;
}

MaybeValue reduceAtRunTime(FunctionLowering &fl, const std::string &name,
                           const Iteration &it, MaybeValue start,
                           const ast::CallExpr &call) {
  SourceRange r = call.range;
  Type et = it.elemType;
  if (name == "any" || name == "all") {
    bool all = name == "all";
    return foldAtRunTime(
        fl, it, PyValue::ofValue(fl.constBool(all, r)), r,
        [&](const PyValue &acc, const PyValue &e) -> MaybeValue {
          std::optional<Value> c = fl.toCondition(e, *call.args[0]);
          if (!c)
            return std::nullopt;
          Value v = all ? fl.b.create<arith::AndIOp>(fl.loc(r), acc.value, *c)
                              .getResult()
                        : fl.b.create<arith::OrIOp>(fl.loc(r), acc.value, *c)
                              .getResult();
          return PyValue::ofValue(v);
        });
  }
  if (!et || !isScalarType(et) || et.isInteger(1)) {
    fl.error(call.args[0]->range,
             name + "() of a run-time list takes a list of ints or floats" +
                 (et && llvm::isa<RankedTensorType>(et)
                      ? "; for tensors use torch.stack(xs)." + name + "(0)"
                      : std::string()));
    return std::nullopt;
  }
  PyValue init;
  if (name == "sum") {
    init = start ? *start
                 : PyValue::ofValue(et.isF64() ? fl.constFloat(0, r)
                                               : fl.constInt(0, r));
    if (start && (!start->isValue() || start->value.getType() != et)) {
      fl.error(call.args[1]->range,
               "sum()'s start must have the list's element type, " +
                   describeType(et));
      return std::nullopt;
    }
  } else {
    Value nonEmpty = fl.b.create<CmpOp>(fl.loc(r), fl.b.getI1Type(),
                                        CmpPredicate::lt, it.start, it.stop);
    fl.b.create<AssertOp>(
        fl.loc(r), nonEmpty,
        fl.b.getStringAttr("ValueError: " + name +
                           "() arg is an empty sequence"));
    init = it.element(it.start);
  }
  return foldAtRunTime(
      fl, it, init, r, [&](const PyValue &acc, const PyValue &e) -> MaybeValue {
        std::optional<Value> v = fl.emitElementwise(
            name == "sum"   ? "kiln.add"
            : name == "min" ? "kiln.minimum"
                            : "kiln.maximum",
            acc.value, e.value, r, r, r);
        return v ? MaybeValue(PyValue::ofValue(*v)) : std::nullopt;
      });
}

} // namespace

bool lowerContainerCall(FunctionLowering &fl, const std::string &path,
                        const ast::CallExpr &call, MaybeValue &out) {
  llvm::StringRef p(path);
  if (!p.starts_with("builtins."))
    return false;
  std::string name = p.drop_front(strlen("builtins.")).str();
  bool reduce = name == "sum" || name == "any" || name == "all" ||
                ((name == "min" || name == "max") && call.args.size() == 1);
  bool convert = name == "list" || name == "tuple";
  if (!reduce && !convert && !isIterBuiltin(p))
    return false;
  out = std::nullopt;
  if (isIterBuiltin(p)) {
    std::optional<Iteration> it = lowerIterBuiltin(fl, p, call);
    if (!it)
      return true;
    if (!it->unrolled) {
      fl.error(call.range, name + "() of a run-time list is supported as "
                                  "the iterable of a for loop or a "
                                  "comprehension only");
      return true;
    }
    out = PyValue::tuple(std::move(it->elems));
    return true;
  }
  size_t maxArgs = name == "sum" ? 2 : 1;
  if (call.args.empty() || call.args.size() > maxArgs ||
      !call.keywords.empty()) {
    fl.error(call.range, name + "() takes " +
                             (name == "sum" ? "a sequence and an optional "
                                              "start"
                                            : "one sequence") +
                             " here, as positional arguments");
    return true;
  }
  std::optional<Iteration> it = lowerIterable(fl, *call.args[0], true);
  if (!it)
    return true;
  MaybeValue start;
  if (call.args.size() == 2 && !(start = fl.lowerExpr(*call.args[1])))
    return true;
  if (convert) {
    if (it->unrolled) {
      out = PyValue::tuple(std::move(it->elems));
      return true;
    }
    if (name == "list")
      out = foldAtRunTime(
          fl, *it, PyValue::ofValue(emptyList(fl, call.range)), call.range,
          [&](const PyValue &acc, const PyValue &e) {
            return appendTo(fl, acc, e, call.range);
          });
    else
      fl.error(call.range, "tuple() of a run-time list is not supported: a "
                           "tuple's length must be known while compiling");
    return true;
  }
  out = it->unrolled ? reduceKnown(fl, name, it->elems, start, call)
                     : reduceAtRunTime(fl, name, *it, start, call);
  return true;
}

bool lowerContainerBinOp(FunctionLowering &fl, ast::BinOpKind op,
                         const PyValue &lhs, const PyValue &rhs,
                         SourceRange where, MaybeValue &out) {
  auto isList = [](const PyValue &v) {
    return v.isValue() && llvm::isa<ListType>(v.value.getType());
  };
  auto isInt = [](const PyValue &v) {
    return v.isValue() && v.value.getType().isInteger(64);
  };
  if (op == ast::BinOpKind::Mul) {
    bool seqLeft = lhs.kind == PyValue::Kind::Tuple || isList(lhs);
    const PyValue &seq = seqLeft ? lhs : rhs, &count = seqLeft ? rhs : lhs;
    if (!(seq.kind == PyValue::Kind::Tuple || isList(seq)) || !isInt(count))
      return false;
    out = std::nullopt;
    std::optional<int64_t> n = fl.constIntValue(count.value);
    std::optional<std::vector<PyValue>> elems =
        seq.kind == PyValue::Kind::Tuple ? seq.elems
                                         : listDisplayElements(seq);
    if (!n || !elems) {
      fl.error(where, "repeating " + fl.describe(seq) +
                          " needs a count known while compiling and a tuple "
                          "or a list display ([1] * n)");
      return true;
    }
    std::vector<PyValue> rep;
    for (int64_t i = 0; i < *n; ++i)
      rep.insert(rep.end(), elems->begin(), elems->end());
    if (seq.kind == PyValue::Kind::Tuple) {
      out = PyValue::tuple(std::move(rep));
      return true;
    }
    SmallVector<Value> vals;
    for (const PyValue &e : rep)
      vals.push_back(e.value);
    out = PyValue::ofValue(fl.b.create<ListConstructOp>(
        fl.loc(where), seq.value.getType(), vals));
    return true;
  }
  // A comprehension unrolled while compiling is a tuple; `+ [1]` extends it.
  bool lt = lhs.kind == PyValue::Kind::Tuple, rt = rhs.kind == PyValue::Kind::Tuple;
  if (op == ast::BinOpKind::Add && lt != rt && isList(lt ? rhs : lhs))
    if (std::optional<std::vector<PyValue>> known =
            listDisplayElements(lt ? rhs : lhs)) {
      std::vector<PyValue> elems = lt ? lhs.elems : *known;
      const std::vector<PyValue> &more = lt ? *known : rhs.elems;
      elems.insert(elems.end(), more.begin(), more.end());
      out = PyValue::tuple(std::move(elems));
      return true;
    }
  // list + list, when the right side is not a display (which the generic
  // path appends element by element).
  if (op == ast::BinOpKind::Add && isList(lhs) && isList(rhs) &&
      !listDisplayElements(rhs)) {
    std::optional<Iteration> it = iterationOfValue(fl, rhs, where);
    if (!it)
      return out = std::nullopt, true;
    out = foldAtRunTime(fl, *it, lhs, where,
                        [&](const PyValue &acc, const PyValue &e) {
                          return appendTo(fl, acc, e, where);
                        });
    return true;
  }
  return false;
}

std::optional<Value> lowerListMembership(FunctionLowering &fl,
                                         const PyValue &needle,
                                         const PyValue &list,
                                         SourceRange where) {
  auto equals = [&](const PyValue &e) -> std::optional<Value> {
    if (std::optional<bool> s = staticEqual(fl.b, needle, e))
      return fl.constBool(*s, where);
    if (needle.isValue() && e.isValue() &&
        isScalarType(needle.value.getType()) && isScalarType(e.value.getType()))
      return fl.emitCompare(CmpPredicate::eq, needle.value, e.value, where,
                            where, where);
    fl.error(where, "'in' cannot compare " + fl.describe(needle) + " with " +
                        fl.describe(e));
    return std::nullopt;
  };
  if (std::optional<std::vector<PyValue>> elems = listDisplayElements(list)) {
    Value any = fl.constBool(false, where);
    for (const PyValue &e : *elems) {
      std::optional<Value> eq = equals(e);
      if (!eq)
        return std::nullopt;
      any = fl.b.create<arith::OrIOp>(fl.loc(where), any, *eq);
    }
    if (std::optional<bool> k = knownCondition(any))
      return fl.constBool(*k, where);
    return any;
  }
  std::optional<Iteration> it = iterationOfValue(fl, list, where);
  if (!it)
    return std::nullopt;
  MaybeValue r = foldAtRunTime(
      fl, *it, PyValue::ofValue(fl.constBool(false, where)), where,
      [&](const PyValue &acc, const PyValue &e) -> MaybeValue {
        std::optional<Value> eq = equals(e);
        if (!eq)
          return std::nullopt;
        return PyValue::ofValue(
            fl.b.create<arith::OrIOp>(fl.loc(where), acc.value, *eq)
                .getResult());
      });
  if (!r)
    return std::nullopt;
  return r->value;
}

MaybeValue sliceList(FunctionLowering &fl, const PyValue &list,
                     const ast::SliceExpr &slice, SourceRange where) {
  // A display with constant bounds slices while compiling.
  if (std::optional<std::vector<PyValue>> elems = listDisplayElements(list)) {
    auto isConst = [&](const ast::ExprPtr &e) {
      return !e || llvm::isa<ast::NoneLitExpr, ast::IntLitExpr>(*e) ||
             (llvm::isa<ast::UnaryOpExpr>(*e) &&
              llvm::isa<ast::IntLitExpr>(
                  *llvm::cast<ast::UnaryOpExpr>(*e).operand));
    };
    if (isConst(slice.lower) && isConst(slice.upper) && isConst(slice.step)) {
      MaybeValue t = fl.sliceTuple(PyValue::tuple(*elems), slice);
      if (!t)
        return std::nullopt;
      SmallVector<Value> vals;
      for (const PyValue &e : t->elems)
        vals.push_back(e.value);
      return PyValue::ofValue(fl.b.create<ListConstructOp>(
          fl.loc(where), list.value.getType(), vals));
    }
  }
  if (slice.step && !llvm::isa<ast::NoneLitExpr>(*slice.step)) {
    std::optional<int64_t> s = fl.lowerConstInt(*slice.step, "a slice step");
    if (!s)
      return std::nullopt;
    if (*s != 1) {
      fl.error(slice.step->range,
               "a run-time list is sliced with step 1 only");
      return std::nullopt;
    }
  }
  Value x = list.value;
  Value len = fl.b.create<ListLenOp>(fl.loc(where), fl.b.getI64Type(), x);
  // Python's clamping: a negative bound counts from the end, and a bound
  // past either end stops there.
  auto bound = [&](const ast::ExprPtr &e, bool upper) -> std::optional<Value> {
    if (!e || llvm::isa<ast::NoneLitExpr>(*e))
      return upper ? len : fl.constInt(0, where);
    std::optional<Value> v = fl.lowerValue(*e);
    if (!v)
      return std::nullopt;
    if (!v->getType().isInteger(64)) {
      fl.error(e->range, "slice indices must be ints");
      return std::nullopt;
    }
    Value zero = fl.constInt(0, where);
    Value neg = *fl.emitCompare(CmpPredicate::lt, *v, zero, where, where,
                                where);
    Value fromEnd =
        *fl.emitElementwise("kiln.add", *v, len, where, where, where);
    Value i = fl.b.create<arith::SelectOp>(fl.loc(where), neg, fromEnd, *v);
    i = *fl.emitElementwise("kiln.maximum", i, zero, where, where, where);
    return *fl.emitElementwise("kiln.minimum", i, len, where, where, where);
  };
  std::optional<Value> lo = bound(slice.lower, false),
                       hi = bound(slice.upper, true);
  if (!lo || !hi)
    return std::nullopt;
  auto lt = llvm::cast<ListType>(x.getType());
  Iteration it;
  it.start = *lo;
  it.stop = *hi;
  it.step = fl.constInt(1, where);
  it.element = [&fl, x, lt, where](Value i) {
    return PyValue::ofValue(
        fl.b.create<ListGetOp>(fl.loc(where), lt.getElementType(), x, i)
            .getResult());
  };
  Value empty = fl.b.create<ListConstructOp>(fl.loc(where), lt, ValueRange{});
  return foldAtRunTime(fl, it, PyValue::ofValue(empty), where,
                       [&](const PyValue &acc, const PyValue &e) {
                         return appendTo(fl, acc, e, where);
                       });
}

} // namespace kiln
