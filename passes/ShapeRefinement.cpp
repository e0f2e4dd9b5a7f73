//===- ShapeRefinement.cpp - Replace ? dims by the numbers they are -------===//
//
// The frontend types each result with what it knows while it lowers one
// function: a helper's parameters are `?` wherever its callers may differ, a
// size held in a variable is `?`, and a value merged at an if or carried by a
// loop takes the join of the types it may have. After inlining, constant
// folding and unrolling many of those `?`s are known numbers, and codegen
// emits far better code (no dim queries, no run-time broadcast checks, fixed
// buffer sizes) when the types say so. This pass recomputes the types.
//
// It works on one function at a time, in two steps.
//
// The analysis walks the body in order and gives each value a refined type,
// never less static than the declared one:
// - a kiln op's results come from its operands' refined types through
//   ShapeInference.h, the verifiers' own rules; sizes that are constants,
//   or dims that have become static, give static dims (reshape, expand,
//   slice, full, rand) and a list built in view of the pass gives stack and
//   cat their joined dim;
// - an scf.if result keeps the dims on which both branches agree;
// - a loop-carried value starts from its init and keeps the dims on which
//   the value yielded back agrees. The body is analyzed again under the
//   weaker types until nothing changes; each round only loses dims, so the
//   iteration ends.
// The analysis changes no IR, so rounds that turn out too optimistic leave
// nothing to undo.
//
// The rewrite then sets the refined types. A use that needs the old type
// exactly (func.return and func.call, since signatures never change and
// entry points keep their public types; list elements; any op that does
// not re-infer its types) gets a tensor.cast back to it, and a yield gets a
// cast to its parent's new type. A value from kiln.undef is never read, so
// it takes whatever type its branch needs. An op whose refined operands
// contradict each other (code that would fail at run time with a broadcast
// error, say) keeps its old types. The analysis mirrors the verifiers' rules,
// so the pass manager's verifier, which runs after this pass, names the
// pass at once should the two ever disagree.
//
// Tested by test/passes/shape-refinement.mlir.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/ShapeRefinementRules.h"

#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SetVector.h"

namespace kiln {
#define GEN_PASS_DEF_SHAPEREFINEMENT
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

bool isUndef(Value v) { return v.getDefiningOp<UndefOp>() != nullptr; }

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

class Refiner {
public:
  void analyzeRegion(Region &region) {
    for (Block &block : region)
      for (Operation &op : block)
        analyze(&op);
  }

  /// Sets the refined types and fixes the uses that need others.
  void rewrite(func::FuncOp fn);

private:
  /// The refined type of `v`: its declared type unless the analysis knows
  /// more. The analysis never changes IR, so getType() is the declared type.
  Type typeOf(Value v) const {
    auto it = refined.find(v);
    return it == refined.end() ? v.getType() : it->second;
  }
  /// Overwrites (never merges), so that a loop body analyzed again under
  /// weaker types forgets what the earlier round concluded.
  void assign(Value v, Type t) {
    if (t == v.getType())
      refined.erase(v);
    else
      refined[v] = t;
  }

  void analyze(Operation *op);
  void analyzeIf(scf::IfOp op);
  void analyzeFor(scf::ForOp op);
  void analyzeWhile(scf::WhileOp op);
  /// The type a loop-carried value keeps after a round that assumed
  /// `assumed` and saw `yielded` come back.
  Type carried(Type assumed, Value yielded, Type declared) const {
    return isUndef(yielded) ? assumed
                            : agreeTypes(assumed, typeOf(yielded), declared);
  }

  Type requiredType(OpOperand &use, const DenseMap<Value, Type> &old) const;

  DenseMap<Value, Type> refined;
  /// Ops checked to take their operands' refined types (and to produce the
  /// refined results): kiln ops and tensor.cast whose inference succeeded.
  DenseSet<Operation *> accepting;
};

void Refiner::analyze(Operation *op) {
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return analyzeIf(ifOp);
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return analyzeFor(forOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return analyzeWhile(whileOp);
  // Fusion groups and region ops the pass does not know keep their types,
  // and so does everything inside them.
  if (op->getNumRegions() != 0)
    return;
  if (!isa_and_nonnull<KilnDialect>(op->getDialect()) &&
      !isa<tensor::CastOp>(op))
    return;

  SmallVector<Type> types;
  bool ok = succeeded(inferRefinedTypes(
      op, [&](Value v) { return typeOf(v); }, types));
  for (auto [type, result] : llvm::zip(types, op->getResults()))
    ok = ok && isCompatibleResultType(type, result.getType(), nullptr);
  if (ok)
    accepting.insert(op);
  else
    accepting.erase(op);
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    assign(result,
           ok ? meetTypes(result.getType(), types[i]) : result.getType());
}

void Refiner::analyzeIf(scf::IfOp op) {
  analyzeRegion(op.getThenRegion());
  analyzeRegion(op.getElseRegion());
  if (op.getNumResults() == 0)
    return;
  ValueRange thenValues = op.thenYield().getOperands();
  ValueRange elseValues = op.elseYield().getOperands();
  for (auto [result, a, b] :
       llvm::zip(op.getResults(), thenValues, elseValues)) {
    Type declared = result.getType();
    // An undef branch never reads the value: the other branch decides.
    if (isUndef(a) && isUndef(b))
      assign(result, declared);
    else if (isUndef(a) || isUndef(b))
      assign(result, meetTypes(declared, typeOf(isUndef(a) ? b : a)));
    else
      assign(result, agreeTypes(typeOf(a), typeOf(b), declared));
  }
}

void Refiner::analyzeFor(scf::ForOp op) {
  auto args = op.getRegionIterArgs();
  ValueRange yielded = op.getBody()->getTerminator()->getOperands();
  SmallVector<Type> assumed;
  for (auto [arg, init] : llvm::zip(args, op.getInitArgs()))
    assumed.push_back(meetTypes(arg.getType(), typeOf(init)));
  for (bool changed = true; changed;) {
    for (auto [arg, type] : llvm::zip(args, assumed))
      assign(arg, type);
    analyzeRegion(op.getRegion());
    changed = false;
    for (auto [arg, type, value] : llvm::zip(args, assumed, yielded)) {
      Type next = carried(type, value, arg.getType());
      changed |= next != type;
      type = next;
    }
  }
  for (auto [result, type] : llvm::zip(op.getResults(), assumed))
    assign(result, type);
}

void Refiner::analyzeWhile(scf::WhileOp op) {
  auto beforeArgs = op.getBeforeArguments();
  auto afterArgs = op.getAfterArguments();
  ValueRange forwarded = op.getConditionOp().getArgs();
  ValueRange yielded = op.getYieldOp().getOperands();
  SmallVector<Type> assumed;
  for (auto [arg, init] : llvm::zip(beforeArgs, op.getInits()))
    assumed.push_back(meetTypes(arg.getType(), typeOf(init)));
  for (bool changed = true; changed;) {
    for (auto [arg, type] : llvm::zip(beforeArgs, assumed))
      assign(arg, type);
    analyzeRegion(op.getBefore());
    // The after region and the results see only what the condition
    // forwards.
    for (auto [arg, value] : llvm::zip(afterArgs, forwarded))
      assign(arg, meetTypes(arg.getType(), typeOf(value)));
    analyzeRegion(op.getAfter());
    changed = false;
    for (auto [arg, type, value] : llvm::zip(beforeArgs, assumed, yielded)) {
      Type next = carried(type, value, arg.getType());
      changed |= next != type;
      type = next;
    }
  }
  for (auto [result, arg] : llvm::zip(op.getResults(), afterArgs))
    assign(result, typeOf(arg));
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

/// The type `use` must have once the refined types are set, or null when
/// any will do. `old` maps each retyped value to its declared type.
Type Refiner::requiredType(OpOperand &use,
                           const DenseMap<Value, Type> &old) const {
  Operation *user = use.getOwner();
  unsigned i = use.getOperandNumber();
  // Region ops and their terminators: the types of the values they feed,
  // which the rewrite has already set.
  if (isa<scf::YieldOp>(user)) {
    Operation *parent = user->getParentOp();
    if (isa<scf::IfOp, scf::ForOp>(parent))
      return parent->getResult(i).getType();
    if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
      return whileOp.getBeforeArguments()[i].getType();
  }
  if (auto condition = dyn_cast<scf::ConditionOp>(user))
    return i == 0 ? Type()
                  : condition->getParentOp()->getResult(i - 1).getType();
  if (auto forOp = dyn_cast<scf::ForOp>(user))
    return i < forOp.getNumControlOperands()
               ? Type()
               : forOp.getRegionIterArgs()[i - forOp.getNumControlOperands()]
                     .getType();
  if (auto whileOp = dyn_cast<scf::WhileOp>(user))
    return whileOp.getBeforeArguments()[i].getType();
  if (accepting.contains(user))
    return {};
  return old.lookup(use.get());
}

void Refiner::rewrite(func::FuncOp fn) {
  // Set the types, remembering the declared ones. Walks keep the order of
  // the IR, so the output is deterministic.
  DenseMap<Value, Type> old;
  auto retype = [&](Value v) {
    auto it = refined.find(v);
    if (it == refined.end())
      return;
    old[v] = v.getType();
    v.setType(it->second);
  };
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          retype(arg);
    for (Value result : op->getResults())
      retype(result);
  });

  SmallVector<std::pair<OpOperand *, Type>> fixes;
  fn.walk<WalkOrder::PreOrder>([&](Operation *user) {
    for (OpOperand &use : user->getOpOperands())
      if (Type type = requiredType(use, old);
          type && type != use.get().getType())
        fixes.push_back({&use, type});
  });
  // One cast per value, type and user (`return %x, %x` needs only one).
  llvm::SmallSetVector<Operation *, 4> undefs; // replaced, maybe now unused
  DenseMap<std::tuple<Operation *, Value, Type>, Value> made;
  for (auto [use, type] : fixes) {
    Operation *user = use->getOwner();
    Value value = use->get();
    Value &fixed = made[{user, value, type}];
    if (!fixed) {
      OpBuilder b(user);
      if (isUndef(value))
        fixed = b.create<UndefOp>(user->getLoc(), type);
      else
        fixed = b.create<tensor::CastOp>(user->getLoc(), type, value);
    }
    if (isUndef(value))
      undefs.insert(value.getDefiningOp());
    use->set(fixed);
  }

  // Undefs the refinement replaced, and casts it made identities.
  for (Operation *undef : undefs)
    if (undef->use_empty())
      undef->erase();
  fn.walk([](tensor::CastOp cast) {
    if (cast.getSource().getType() == cast.getType()) {
      cast.replaceAllUsesWith(cast.getSource());
      cast.erase();
    }
  });
}

struct ShapeRefinementPass
    : public kiln::impl::ShapeRefinementBase<ShapeRefinementPass> {
  using ShapeRefinementBase::ShapeRefinementBase;
  void runOnOperation() override {
    getOperation()->walk([](func::FuncOp fn) {
      if (fn.isExternal())
        return;
      Refiner refiner;
      refiner.analyzeRegion(fn.getBody());
      refiner.rewrite(fn);
    });
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createShapeRefinementPass() {
  return std::make_unique<ShapeRefinementPass>();
}
