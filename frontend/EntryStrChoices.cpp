//===- EntryStrChoices.cpp - A str entry parameter chosen at run time -----===//
//
// `--arg mode=str:relu|gelu` compiles entry point `f` once per value, as
// the private functions `f.str0`, `f.str1`, ... (each exactly the
// specialization that `--arg mode=str:relu` would give, so `mode ==
// "relu"` folds in each), and makes `f` itself take the value's index, an
// i64 input named `mode` whose values the manifest lists (`str_choices`),
// and call the one chosen. The runtime turns the caller's string into its
// index, and refuses a value not listed. So the code handles strings
// nowhere, and each variant is as fast as a compile-time str, where a
// comparison of run-time strings would test bytes in every call and keep
// every branch live.
//
//===----------------------------------------------------------------------===//
#include "frontend/EntryPoints.h"

#include "frontend/AstPrinter.h"
#include "ir/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

/// The index among `variant`'s arguments where the choice goes: before the
/// first argument of a parameter that comes after `param` in `def`.
static unsigned choicePosition(const ast::FunctionDef *def,
                               const ast::Param &param, func::FuncOp variant) {
  std::set<std::string> later;
  bool after = false;
  for (const ast::Param &p : def->params) {
    if (after)
      later.insert(p.name);
    after |= &p == &param;
  }
  for (unsigned i = 0; i < variant.getNumArguments(); ++i) {
    auto name = variant.getArgAttrOfType<StringAttr>(i, "kiln.name");
    // An element of a List or Tuple parameter is named `xs.0`.
    if (name && later.count(name.getValue().split('.').first.str()))
      return i;
  }
  return variant.getNumArguments();
}

/// Emits the calls: `variants[k]` where `choice` is k, the last one where
/// no earlier one matched; each result cast to `resultTypes`.
static SmallVector<Value> dispatch(OpBuilder &b, Location loc, Value choice,
                                   ArrayRef<func::FuncOp> variants,
                                   ValueRange args, TypeRange resultTypes) {
  auto callAndCast = [&](OpBuilder &ob, func::FuncOp variant) {
    auto call = ob.create<func::CallOp>(loc, variant, args);
    SmallVector<Value> results;
    for (auto [v, t] : llvm::zip(call.getResults(), resultTypes))
      results.push_back(v.getType() == t
                            ? Value(v)
                            : ob.create<tensor::CastOp>(loc, t, v).getResult());
    return results;
  };
  if (variants.size() == 1)
    return callAndCast(b, variants.front());
  Value k = b.create<arith::ConstantIntOp>(loc, 0, 64);
  Value is = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, choice, k);
  auto ifOp = b.create<scf::IfOp>(loc, resultTypes, is, /*withElse=*/true);
  OpBuilder thenB = ifOp.getThenBodyBuilder();
  thenB.create<scf::YieldOp>(loc, callAndCast(thenB, variants.front()));
  OpBuilder elseB = ifOp.getElseBodyBuilder();
  // The rest count from 1: shift the choice so that each level tests 0.
  Value one = elseB.create<arith::ConstantIntOp>(loc, 1, 64);
  Value rest = elseB.create<arith::SubIOp>(loc, choice, one);
  elseB.create<scf::YieldOp>(loc, dispatch(elseB, loc, rest,
                                           variants.drop_front(), args,
                                           resultTypes));
  return ifOp.getResults();
}

bool lowerStrChoiceEntry(ModuleLowering &m, const ast::FunctionDef *def,
                         const ModuleObject *self,
                         std::map<std::string, ArgSpec> specs,
                         const ast::Param &param,
                         std::vector<std::string> choices) {
  ArgSpec given = specs[param.name];
  if (!param.annotation || resolveGlobalName(m, *param.annotation) != "str") {
    m.diags.error(param.range, "a str spec ('" + printArgSpec(given) +
                                   "') applies to a parameter annotated str, "
                                   "and '" + param.name + "' is not");
    return false;
  }
  // Left out, the input takes its default when that is one of the values;
  // else it must be given, since no function was compiled for the default
  // (which may well return another kind of result, as a loss's
  // reduction="none" does).
  std::optional<int64_t> defaultIndex;
  if (auto *lit = llvm::dyn_cast_if_present<ast::StrLitExpr>(
          param.defaultValue.get()))
    if (auto at = llvm::find(choices, lit->value); at != choices.end())
      defaultIndex = at - choices.begin();
  std::vector<func::FuncOp> variants;
  for (size_t k = 0; k < choices.size(); ++k) {
    specs[param.name].str = choices[k];
    func::FuncOp variant = lowerEntryFunction(
        m, def, self, specs, def->name + ".str" + std::to_string(k));
    if (!variant)
      return false;
    variants.push_back(variant);
  }

  // Every variant takes the same arguments; their results must agree.
  func::FuncOp first = variants.front();
  SmallVector<Type> resultTypes(first.getResultTypes());
  auto names = first->getAttrOfType<ArrayAttr>("kiln.result_names");
  for (size_t k = 1; k < variants.size(); ++k) {
    TypeRange other = variants[k].getResultTypes();
    bool same = other.size() == resultTypes.size() &&
                variants[k]->getAttr("kiln.result_names") == names;
    for (size_t i = 0; same && i < other.size(); ++i)
      same = static_cast<bool>(resultTypes[i] =
                                   joinTypes(resultTypes[i], other[i]));
    if (!same) {
      m.diags.error(def->nameRange,
                    "'" + def->name + "' returns different kinds of results "
                    "for " + param.name + "='" + choices[0] + "' and " +
                        param.name + "='" + choices[k] + "'; chosen at run "
                        "time, a str must leave the results' number, dtypes "
                        "and ranks alone (compile one archive per value "
                        "instead, with --arg " + param.name + "=str:VALUE)");
      return false;
    }
  }

  OpBuilder b(&m.context);
  unsigned position = choicePosition(def, param, first);
  SmallVector<Type> argTypes(first.getArgumentTypes());
  argTypes.insert(argTypes.begin() + position, b.getI64Type());
  SmallVector<DictionaryAttr> argAttrs;
  first.getAllArgAttrs(argAttrs);
  SmallVector<Attribute> listed;
  for (const std::string &c : choices)
    listed.push_back(b.getStringAttr(c));
  SmallVector<NamedAttribute> choiceAttrs = {
      b.getNamedAttr("kiln.name", b.getStringAttr(param.name)),
      b.getNamedAttr("kiln.str_choices", b.getArrayAttr(listed))};
  if (defaultIndex)
    choiceAttrs.push_back(
        b.getNamedAttr("kiln.default", b.getI64IntegerAttr(*defaultIndex)));
  argAttrs.insert(argAttrs.begin() + position,
                  b.getDictionaryAttr(choiceAttrs));

  b.setInsertionPoint(first);
  Location loc = first.getLoc();
  auto entry = b.create<func::FuncOp>(loc, def->name,
                                      b.getFunctionType(argTypes, resultTypes));
  entry.setAllArgAttrs(argAttrs);
  for (StringRef attr : {"kiln.entry", "kiln.containers", "kiln.result_names"})
    if (Attribute a = first->getAttr(attr))
      entry->setAttr(attr, a);
  for (func::FuncOp variant : variants) {
    for (StringRef attr :
         {"kiln.entry", "kiln.containers", "kiln.result_names"})
      variant->removeAttr(attr);
    variant.setPrivate();
  }

  Block *body = entry.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value choice = body->getArgument(position);
  SmallVector<Value> args;
  for (BlockArgument a : body->getArguments())
    if (a.getArgNumber() != position)
      args.push_back(a);
  // The runtime passes only a listed value's index; an older one, which
  // does not know the list, may pass anything.
  Value zero = b.create<arith::ConstantIntOp>(loc, 0, 64);
  Value count = b.create<arith::ConstantIntOp>(loc, choices.size(), 64);
  Value notBelow =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, choice, zero);
  Value below =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, choice, count);
  Value inRange = b.create<arith::AndIOp>(loc, notBelow, below);
  b.create<AssertOp>(loc, inRange,
                     b.getStringAttr("input '" + param.name + "' of '" +
                                     def->name + "' must index one of its " +
                                     std::to_string(choices.size()) +
                                     " str choices"));
  SmallVector<Value> results =
      dispatch(b, loc, choice, variants, args, resultTypes);
  b.create<func::ReturnOp>(loc, results);
  m.resultShapes[def->name] = m.resultShapes[first.getName().str()];
  return true;
}

} // namespace kiln
