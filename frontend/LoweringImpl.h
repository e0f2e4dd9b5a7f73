//===- LoweringImpl.h - Shared state of the AST-to-IR lowering ------------===//
//
// Private to frontend/. The lowering is split by concept:
//   Lowering.cpp           module level: entry points, specs,
//                          specialization of called helpers
//   LowerFunction.cpp      function bodies (parameters, early returns);
//                          the small helpers every file uses; PyValue
//                          helpers
//   LowerStmt.cpp          statements and blocks; assignment, return;
//                          AST scans and type joins at merge points
//   LowerIf.cpp            if and raise
//   LowerLoops.cpp         for and while
//   LowerExpr.cpp          expressions and operators
//   LowerIndexing.cpp      subscripts and subscript assignment
//   LowerCalls.cpp         what a call resolves to; helper calls
//   LowerContainers.cpp    comprehensions; enumerate/zip/reversed
//   LowerSequences.cpp     sum/min/max/any/all, repetition, in, list slices
//   LowerBuiltins.cpp      Python builtins and torch creation ops
//   LowerTensorMethods.cpp Tensor methods and torch.X(tensor, ...)
//   LowerNNFunctional.cpp  torch.nn.functional and the ops of nn models
//   OpTable.h              the torch op table: schemas, spellings, rows
//   OpSchema.cpp           schema strings; looking a spelling up
//   OpBinder.cpp           binding a call to a row's schema
//   OpTable.cpp            the elementwise rows and their builders
//   OpCatalog.cpp          the table as JSON and Markdown (`kiln ops`)
//   LowerModules.cpp       nn.Module classes: __init__ at compile time,
//                          self.<attr>, submodule calls
//   Annotations.cpp        parameter and result annotations
//   LoweringLimits.cpp     the depth and rank bounds on hostile programs
//   Prelude.cpp            the Python prelude (frontend/prelude/): parsed
//                          once, specialized on constant arguments
//
// Control flow is structured as TorchScript's prim::If/prim::Loop are: each
// `scf.if`/`scf.for`/`scf.while` yields the variables its body assigns.
// break, continue and early return become flag variables (`$break`,
// `$continue`, `$return`, `$retval`) that flow through those yields like any
// other variable, and guard the statements that follow them.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_LOWERINGIMPL_H
#define KILN_FRONTEND_LOWERINGIMPL_H

#include "frontend/Lowering.h"
#include "frontend/ModuleObject.h"
#include "frontend/PyValue.h"
#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"

#include <functional>
#include <map>
#include <optional>
#include <set>

namespace kiln {

class ModuleLowering;
namespace ops {
struct Row;
enum Spelling : unsigned;
} // namespace ops

/// A variable binding: its value and where it was last assigned.
struct Binding {
  PyValue value;
  SourceRange where;
};
using Env = std::map<std::string, Binding>;

/// Where a test such as `mask is not None` is true, `mask` is the tensor;
/// where it is false, None. Keyed by name, the value on each side.
struct Refinements {
  std::map<std::string, PyValue> whenTrue, whenFalse;
  bool empty() const { return whenTrue.empty() && whenFalse.empty(); }
};

/// The Tensor methods (and torch.* functions taking a tensor first) that
/// the lowering implements: the op table's (OpTable.h) and the others.
bool isKnownTensorMethod(llvm::StringRef name);

/// Names of the flag variables.
inline constexpr const char *kBreakVar = "$break";
inline constexpr const char *kContinueVar = "$continue";
inline constexpr const char *kReturnVar = "$return";
inline constexpr const char *kRetvalVar = "$retval";

/// Thrown-free failure marker: a lowering step that reported an error
/// returns std::nullopt / false and the caller unwinds.
using MaybeValue = std::optional<PyValue>;

/// The arguments of a call, borrowed from the AST. `torch.sum(x, 1)` is
/// lowered as `x.sum(1)` by dropping the first argument from this view.
struct CallArgs {
  SourceRange range;
  std::vector<const ast::Expr *> args;
  std::vector<const ast::Keyword *> keywords;
  /// The receiver's range for a method call, so notes can point at it.
  SourceRange selfRange;
  static CallArgs of(const ast::CallExpr &call) {
    CallArgs c{call.range, {}, {}, call.range};
    if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(call.func.get()))
      c.selfRange = a->value->range;
    for (const ast::ExprPtr &a : call.args)
      c.args.push_back(a.get());
    for (const ast::Keyword &k : call.keywords)
      c.keywords.push_back(&k);
    return c;
  }
};

/// A prelude function (frontend/prelude/, Prelude.cpp) being lowered. Its
/// code is not the user's: errors and the locations of its ops (so run-time
/// check sites too) point at the user's call that reached it, with a note
/// naming the prelude functions on the way.
struct PreludeFrame {
  SourceRange callSite; // in the user's file
  std::string function;
  std::string file; // its file under frontend/prelude/
  const PreludeFrame *parent = nullptr; // the prelude function calling it
};
struct PreludeScope;
struct FileScope;

/// One positional-or-keyword parameter of a builtin, as in a PyTorch schema.
struct BuiltinParam {
  const char *name;
  bool required = true;
};

class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &module, mlir::OpBuilder &builder)
      : module(module), b(builder) {}

  /// Lowers `def`'s body into the already-created entry block of `func`,
  /// with the parameters bound in `params`. Returns the flattened results or
  /// nullopt on error.
  std::optional<PyValue> lowerBody(const ast::FunctionDef &def,
                                   std::vector<PyValue> params);

  /// Checks the result against `def`'s `->` annotation (Annotations.cpp);
  /// `returnRange` is the return statement that produced it, if any.
  bool checkReturnAnnotation(const ast::FunctionDef &def, const PyValue &result,
                             std::optional<SourceRange> returnRange);

  //===--- statements (LowerStmt.cpp) ---------------------------------===//
  /// A function's body: on an error it goes on to the next statement, to
  /// report every independent error (LowerStmt.cpp).
  bool lowerFunctionBlock(const ast::Block &block);
  bool lowerBlock(const ast::Block &block);
  bool lowerStmt(const ast::Stmt &stmt);
  bool lowerAssign(const ast::Expr &target, PyValue value, SourceRange where);
  bool lowerIf(const ast::IfStmt &stmt);
  bool lowerFor(const ast::ForStmt &stmt);
  bool lowerWhile(const ast::WhileStmt &stmt);
  bool lowerReturn(const ast::ReturnStmt &stmt);

  /// Emits `scf.if cond` whose branches run the given callbacks and yields
  /// every variable either branch changed. With `refine`, each branch sees
  /// the Optional names its side of the test refines (LowerIf.cpp).
  bool emitIf(mlir::Location loc, mlir::Value cond, SourceRange where,
              const std::function<bool()> &thenFn,
              const std::function<bool()> &elseFn,
              const Refinements *refine = nullptr);
  /// What `x is None` tests in `test` tell about names bound to a run-time
  /// Optional, as TorchScript refines them: through `not`, through `and`
  /// where the test is true and through `or` where it is false.
  Refinements refinementsOf(const ast::Expr &test);
  /// Binds each refined name to its value on one side of a test, returning
  /// the bindings it replaced, for restoreBindings.
  Env applyRefinements(const std::map<std::string, PyValue> &refined);
  void restoreBindings(const Env &saved);

  /// Lowers a counted loop `for target in range(start, stop, step)`, or a
  /// `while` when `whileTest` is set. `bindTarget` binds the loop variable
  /// from the i64 induction value at the top of each iteration.
  /// `alsoCarried` names variables that `bindTarget` assigns (a
  /// comprehension's hidden result), carried as the body's are.
  bool emitLoop(mlir::Location loc, SourceRange where, const ast::Block &body,
                const ast::Expr *whileTest, mlir::Value start, mlir::Value stop,
                mlir::Value step,
                const std::function<bool(mlir::Value)> &bindTarget,
                llvm::ArrayRef<std::string> alsoCarried = {});

  //===--- expressions (LowerExpr.cpp) --------------------------------===//
  MaybeValue lowerExpr(const ast::Expr &expr);
  /// Lowers and requires an SSA value (tensor, scalar or list).
  std::optional<mlir::Value> lowerValue(const ast::Expr &expr);
  /// Lowers an expression used as a condition to an i1.
  std::optional<mlir::Value> lowerCondition(const ast::Expr &expr);
  std::optional<mlir::Value> toCondition(PyValue v, const ast::Expr &expr);
  MaybeValue lowerName(const ast::NameExpr &e);
  MaybeValue lowerBinOp(const ast::BinOpExpr &e);
  MaybeValue lowerCompare(const ast::CompareExpr &e);
  MaybeValue lowerSubscript(const ast::SubscriptExpr &e);
  MaybeValue sliceTuple(const PyValue &tuple, const ast::SliceExpr &slice);
  MaybeValue lowerIfExp(const ast::IfExpExpr &e);
  MaybeValue lowerBoolOp(const ast::BoolOpExpr &e);
  MaybeValue lowerListLiteral(const ast::ListExpr &e);
  MaybeValue lowerAttribute(const ast::AttributeExpr &e);

  /// Applies a binary operator to lowered operands (also used by `+=`).
  MaybeValue applyBinOp(ast::BinOpKind op, PyValue lhs, PyValue rhs,
                        SourceRange where, SourceRange lhsRange,
                        SourceRange rhsRange);
  /// Builds an elementwise kiln op of class OpTy, inferring its type.
  std::optional<mlir::Value> emitElementwise(llvm::StringRef opName,
                                             mlir::Value lhs, mlir::Value rhs,
                                             SourceRange where,
                                             SourceRange lhsRange,
                                             SourceRange rhsRange);
  /// Builds a kiln.cmp, inferring its type; errors note both operands.
  std::optional<mlir::Value> emitCompare(CmpPredicate pred, mlir::Value lhs,
                                         mlir::Value rhs, SourceRange where,
                                         SourceRange lhsRange,
                                         SourceRange rhsRange);
  /// `base[indices] = value`, functionalized into scatter ops.
  std::optional<mlir::Value>
  emitSubscriptUpdate(mlir::Value base,
                      llvm::ArrayRef<const ast::Expr *> indices,
                      mlir::Value value, SourceRange where);

  //===--- builtins (LowerBuiltins.cpp) -------------------------------===//
  MaybeValue lowerCall(const ast::CallExpr &call);
  MaybeValue callGlobal(const std::string &path, const ast::CallExpr &call);
  MaybeValue callMethod(PyValue self, const std::string &name,
                        const CallArgs &call);
  MaybeValue callUserFunction(const ast::FunctionDef &def,
                              const ast::CallExpr &call);
  /// Calls a lowered helper with `args` flattened; returns its results
  /// shaped as the helper returned them.
  PyValue emitHelperCall(mlir::func::FuncOp callee,
                         llvm::ArrayRef<PyValue> args, SourceRange where);
  /// Matches a call's arguments to `params`; `self` (if any) fills the
  /// first. Missing optional parameters come back as nullptr.
  std::optional<std::vector<const ast::Expr *>>
  bindArgs(const CallArgs &call, const std::string &fnName,
           llvm::ArrayRef<BuiltinParam> params, bool hasSelf);

  //===--- the op table (OpBinder.cpp) --------------------------------===//
  /// Binds `call` to `row`'s schema as spelled `spelled` (e.g.
  /// "torch.add") and lowers it; `self` is a method's receiver.
  MaybeValue callOp(const ops::Row &row, ops::Spelling spelling,
                    const std::string &spelled, std::optional<PyValue> self,
                    const CallArgs &call);
  /// `name.X_(...)` for a row with an in-place spelling: lowers X and
  /// rebinds `name`. Returns false when the call is not one; `out` is the
  /// result (nullopt after an error) otherwise.
  bool callInPlace(const ast::CallExpr &call, MaybeValue &out);
  /// `spelled` of `row`'s in-place spelling on `receiver` with the rest of
  /// the call in `call`: lowers X and rebinds the receiver's name.
  MaybeValue inPlace(const ops::Row &row, const ast::NameExpr &receiver,
                     const std::string &spelled, const CallArgs &call);
  /// `torch.ops.aten.X(...)`: the ATen op X, which is the row of torch.X,
  /// else the Tensor method X (X_ in place, rebinding a named receiver)
  /// with `self` first, else F.X (X_ is F.X with inplace=True, and rebinds
  /// a named first argument too), whose schemas PyTorch generates from the
  /// same declaration (test/prelude/aten-schemas.test checks it). kiln.trace
  /// writes what torch.jit.trace records so. Returns false when X is none
  /// of these.
  bool callAten(const std::string &name, const ast::CallExpr &call,
                MaybeValue &out);

  //===--- nn.Module instances (LowerModules.cpp) ----------------------===//
  /// `obj.attr`: a submodule, a weight (kiln.param), a number, a method.
  MaybeValue lowerObjectAttribute(const ModuleObject &obj,
                                  const ast::AttributeExpr &e);
  /// `getattr(obj, "name")` with a constant name, as TorchScript allows:
  /// `obj.name`, also for the names that are not identifiers, such as the
  /// numbered children of nn.Sequential (`getattr(self, "0")`).
  MaybeValue lowerGetattr(const ast::CallExpr &call);
  /// `obj(...)`: a torch.nn module's computation or the user's forward.
  MaybeValue callObject(const ModuleObject &obj, const ast::CallExpr &call);
  /// A module applied to one input, as nn.Sequential applies its children.
  MaybeValue applyObject(const ModuleObject &obj, PyValue input,
                         SourceRange where);
  MaybeValue applyUserForward(const ModuleObject &obj,
                              const ast::FunctionDef &def, PyValue input,
                              SourceRange where);
  /// `obj.method(...)` for a method the user's class defines.
  MaybeValue callObjectMethod(const ModuleObject &obj,
                              const ast::FunctionDef &def,
                              const CallArgs &call);

  //===--- neural-network ops (LowerNNFunctional.cpp) ------------------===//
  /// The building blocks that F.* calls and nn.Module submodules share.
  /// Each takes lowered values, reports any error at `where` and returns
  /// nullopt after it. A null `bias`/`weight` means none.
  std::optional<mlir::Value>
  emitConv2d(mlir::Value x, mlir::Value weight, mlir::Value bias,
             llvm::ArrayRef<int64_t> stride, llvm::ArrayRef<int64_t> padding,
             llvm::ArrayRef<int64_t> dilation, int64_t groups,
             SourceRange where);
  std::optional<mlir::Value>
  emitMaxPool2d(mlir::Value x, llvm::ArrayRef<int64_t> kernel,
                llvm::ArrayRef<int64_t> stride, llvm::ArrayRef<int64_t> padding,
                llvm::ArrayRef<int64_t> dilation, bool ceilMode,
                SourceRange where);
  std::optional<mlir::Value>
  emitAvgPool2d(mlir::Value x, llvm::ArrayRef<int64_t> kernel,
                llvm::ArrayRef<int64_t> stride, llvm::ArrayRef<int64_t> padding,
                bool ceilMode, bool countIncludePad, SourceRange where);
  std::optional<mlir::Value> emitEmbedding(mlir::Value weight,
                                           mlir::Value indices,
                                           SourceRange where);
  /// "relu", "gelu" (erf), "gelu_tanh", "silu", "tanh" or "sigmoid": the
  /// op table's F.X row with its defaults (OpBinder.cpp).
  std::optional<mlir::Value> emitActivation(llvm::StringRef name,
                                            mlir::Value x, SourceRange where);

  //===--- helpers ------------------------------------------------------===//
  mlir::Location loc(SourceRange range);
  bool error(SourceRange range, std::string message,
             std::vector<DiagnosticNote> notes = {});
  mlir::Value constInt(int64_t v, SourceRange where);
  mlir::Value constFloat(double v, SourceRange where);
  mlir::Value constBool(bool v, SourceRange where);
  /// The result type of a binary elementwise op (ir/ShapeInference.h), or
  /// null after an error that shows both operands (LowerExpr.cpp).
  mlir::Type binaryResultType(ElementwiseKind kind, mlir::Value lhs,
                              mlir::Value rhs, SourceRange where,
                              SourceRange lhsRange, SourceRange rhsRange);
  /// `op`'s result, or the constant it folds to when it computes on
  /// compile-time Python numbers (LowerExpr.cpp); erases `op` then.
  static mlir::Value foldConstantScalar(mlir::OpBuilder &b,
                                        mlir::Operation *op);
  /// The compile-time value of an i64 produced by arith.constant, if any.
  std::optional<int64_t> constIntValue(mlir::Value v);
  /// Converts a scalar to another scalar type (Python int()/float()/bool()).
  mlir::Value castScalar(mlir::Value v, mlir::Type to, SourceRange where);
  /// Reads a compile-time int (e.g. a `dim=` argument).
  std::optional<int64_t> lowerConstInt(const ast::Expr &expr, const char *what);
  /// Normalizes a possibly negative dim against `rank`.
  std::optional<int64_t> normalizeDim(int64_t dim, int64_t rank,
                                      SourceRange where);
  /// The tensor type of `v` or an error naming what it is instead.
  std::optional<mlir::Value> requireTensor(PyValue v, SourceRange where,
                                           const std::string &what);
  /// i64 dims of a tensor, as values (constants for static dims).
  std::vector<mlir::Value> dimValues(mlir::Value tensor, SourceRange where);
  /// Casts `v` to `type` for a merge point (tensor.cast, empty-list retype).
  std::optional<mlir::Value> castForMerge(mlir::Value v, mlir::Type type,
                                          SourceRange where);
  /// A short description for errors: "a Tensor[f32, 3]", "an int", "None".
  std::string describe(const PyValue &v);
  /// Rewrites a shape-inference message for users: MLIR type spellings
  /// such as tensor<3xf32> become Tensor[f32, 3].
  std::string userMessage(const std::string &why);

  ModuleLowering &module;
  mlir::OpBuilder &b;
  Env env;
  /// The function being lowered, for error messages.
  const ast::FunctionDef *def = nullptr;
  /// Loop bodies around the statement being lowered: break and continue
  /// need one, and emitLoop refuses more than kMaxLoopDepth.
  unsigned loopDepth = 0;
  /// Whether the function uses `$return` flags (an early return exists).
  bool earlyReturn = false;
  int tempCounter = 0;
  /// Set while lowering a prelude function.
  const PreludeFrame *prelude = nullptr;
};

/// State for the whole file: which functions exist, which specializations
/// have been emitted.
class ModuleLowering {
public:
  ModuleLowering(mlir::MLIRContext &context, const ast::Module &module,
                 DiagnosticEngine &diags, const LoweringOptions &options);

  mlir::OwningOpRef<mlir::ModuleOp> run();
  /// Types `def`'s parameters and lowers it as an entry point, a method of
  /// `self` when that is not null (EntryPoints.cpp). False after an error.
  bool lowerEntry(const ast::FunctionDef *def, const ModuleObject *self);

  /// Returns the `func.func` of `def` specialized for `argTypes`, lowering
  /// it on first use.
  /// For a method, `self` is the module it runs on; the function is then
  /// specialized for that instance too.
  std::optional<mlir::func::FuncOp>
  getOrLowerHelper(const ast::FunctionDef &def, llvm::ArrayRef<PyValue> args,
                   SourceRange callSite, const ModuleObject *self = nullptr);

  /// The specialization of a prelude function for its argument types and
  /// the values of its constant arguments (Prelude.cpp), for a call at
  /// `callSite` (in prelude code while one is being lowered).
  /// For a method of a prelude class (the forward of a torch.nn module),
  /// `self` is the module it runs on.
  std::optional<mlir::func::FuncOp>
  getOrLowerPrelude(const ast::FunctionDef &def, llvm::ArrayRef<PyValue> args,
                    SourceRange callSite, const ModuleObject *self = nullptr);
  /// The prelude function being lowered now, if any.
  const PreludeFrame *activePrelude = nullptr;
  /// The prelude's globals, swapped with this file's while it is lowered.
  std::shared_ptr<PreludeScope> preludeScope;

  /// Every weight of the compiled modules, in state_dict() order.
  std::vector<DeclaredWeight> weights;
  /// The compiled module instances; PyValues point into them.
  std::vector<std::shared_ptr<ModuleObject>> roots;
  /// The structure of a helper's result (tuple nesting), by function name.
  std::map<std::string, PyValue> resultShapes;

  /// Reports the first op whose result has more than kMaxRank dims.
  bool checkRanks(mlir::ModuleOp module);

  //===--- other source files (FileScopes.cpp) --------------------------===//
  /// The file at `path` (a module description's class from another file:
  /// torchvision's blocks), parsed on first use; null after an error.
  FileScope *loadFile(const std::string &path);
  /// The file that defines `node` (a def or class): null for the main file.
  FileScope *fileOf(const void *node) const;
  /// Makes `file`'s names the globals, its path the location of new ops
  /// and the file of new errors (null: the main file). FileSwap restores.
  void switchTo(FileScope *file);
  FileScope *activeFile = nullptr;
  std::vector<std::unique_ptr<FileScope>> files;
  std::map<const void *, FileScope *> definedIn;
  /// The main file's globals while another file's are active.
  std::unique_ptr<FileScope> mainStorage;

  /// Looks up a module-level name: a function, an import alias, a builtin.
  std::optional<PyValue> lookupGlobal(const std::string &name);

  mlir::MLIRContext &context;
  const ast::Module &ast;
  DiagnosticEngine &diags;
  const LoweringOptions &options;
  mlir::ModuleOp module;
  mlir::StringAttr fileName;
  std::map<std::string, const ast::FunctionDef *> functions;
  std::map<std::string, const ast::SkippedItem *> skipped;
  std::map<std::string, const ast::ClassDef *> classes;
  std::map<std::string, std::string> imports; // alias -> dotted path
  /// Specializations: key is name + flattened types.
  std::map<std::string, mlir::func::FuncOp> specializations;
  /// The functions being lowered, with the instance a method runs on: a
  /// method may call the same method of another instance (a Sequential in
  /// a Sequential, as traced code has), not its own.
  std::set<std::pair<const ast::FunctionDef *, const ModuleObject *>>
      inProgress;
  /// Nested expressions plus nested helper calls being lowered now; see
  /// kMaxLoweringDepth.
  unsigned depth = 0;
  /// Statements lowered so far, against kMaxStatements (ir/Limits.h).
  unsigned statements = 0;
};

/// Lowering recurses through nested expressions and into the helpers a
/// function calls, so a hostile file (a 10,000-deep expression, a chain of
/// thousands of helpers) could overflow the stack. CPython refuses
/// expressions nested about 3,000 deep; kiln refuses past the same depth,
/// counting helper calls too, and compiles on a stack sized for it (see
/// tools/kiln/CompileCommand.cpp).
constexpr unsigned kMaxLoweringDepth = 3000;

/// Counts one level of lowering depth while in scope. ok() is false past
/// kMaxLoweringDepth, after reporting the error at `where`.
class DepthGuard {
public:
  DepthGuard(ModuleLowering &m, SourceRange where);
  ~DepthGuard() { --m.depth; }
  bool ok() const { return m.depth <= kMaxLoweringDepth; }

private:
  ModuleLowering &m;
};

/// The methods of a module class that become entry points: forward, and
/// those marked @torch.jit.export or @torch.jit.script_method.
std::vector<const ast::FunctionDef *>
entryMethods(ModuleLowering &m, const ast::ClassDef &cls);
/// The dotted path an expression names through the file's imports, e.g.
/// "torch.jit.export" for `@torch.jit.export`.
std::string resolveGlobalName(ModuleLowering &m, const ast::Expr &e);

/// For `Optional[T]`, `Union[T, None]` and `T | None` (either order), T;
/// otherwise null (Annotations.cpp).
const ast::Expr *optionalPayload(ModuleLowering &m,
                                 const ast::Expr *annotation);
/// What an entry point's parameter annotation (or its absence) makes the
/// parameter (Annotations.cpp).
enum class ParamKind { Tensor, OptionalTensor, Int, Float, Bool, Unsupported };
ParamKind classifyAnnotation(ModuleLowering &m, const ast::Expr *annotation);
/// Whether None may be passed to `p`: annotated Optional[T] (or None,
/// `T | None`, Union[T, None]) or defaulting to None, as TorchScript reads it.
bool acceptsNone(ModuleLowering &m, const ast::Param &p);

/// The module-level names a file defines and imports.
struct Globals {
  std::map<std::string, const ast::FunctionDef *> functions;
  std::map<std::string, const ast::ClassDef *> classes;
  std::map<std::string, std::string> imports; // alias -> dotted path
};
void collectGlobals(const ast::Module &module, Globals &out);

/// A source file other than the compiled one, whose classes a module
/// description names. While its code is lowered, its names are
/// ModuleLowering's globals (switchTo), as the prelude's are in prelude
/// code.
struct FileScope {
  const SourceFile *source = nullptr; // owned by the DiagnosticEngine
  ast::Module ast;
  mlir::StringAttr fileName;
  std::map<std::string, const ast::FunctionDef *> functions;
  std::map<std::string, const ast::SkippedItem *> skipped;
  std::map<std::string, const ast::ClassDef *> classes;
  std::map<std::string, std::string> imports;
};

/// Lowers in the file that defines a def or class for its lifetime.
class FileSwap {
public:
  FileSwap(ModuleLowering &m, const void *node);
  ~FileSwap();
  FileSwap(const FileSwap &) = delete;
  FileSwap &operator=(const FileSwap &) = delete;

private:
  ModuleLowering &m;
  FileScope *previous;
  bool swapped = false;
};

/// Specializing a helper on its constant arguments (Prelude.cpp):
/// keyOfScalarConstant appends a constant number's value to a key (false
/// for a run-time value); bindParam gives a parameter's value inside the
/// specialization: a run-time leaf is the next block argument, a constant
/// a fresh constant, so that `dim` or `self.p` is as constant inside the
/// helper as at the call. `listsAsTuples` makes a literal list of ints a
/// tuple, which the prelude's int[] parameters take.
bool keyOfScalarConstant(mlir::Value v, llvm::raw_ostream &os);
PyValue bindParam(mlir::OpBuilder &b, mlir::Location loc, const PyValue &arg,
                  llvm::ArrayRef<mlir::Value> &blockArgs,
                  bool listsAsTuples = true);

/// Whether `def` is a function of the prelude (Prelude.cpp).
bool isPreludeFunction(const ast::FunctionDef &def);
/// Lowers a prelude function's body, folding each `if` whose condition is
/// a compile-time constant (the prelude is specialized on constants, so
/// `if reduction == 'mean':` decides the result's shape). Prelude.cpp.
bool lowerPreludeBody(FunctionLowering &fl, const ast::Block &body);
/// kiln_table's functions that only kiln can answer, called from prelude
/// code (Prelude.cpp); nullopt when `path` is not one of them.
std::optional<MaybeValue> lowerPreludeIntrinsic(FunctionLowering &fl,
                                                llvm::StringRef path,
                                                const ast::CallExpr &call);

//===--- shared by the statement and loop lowering --------------------===//
/// Every name a block assigns, at any depth, plus whether it breaks or
/// continues (at its own loop level, unless `nested`) or returns.
void collectAssigned(const ast::Block &block, std::set<std::string> &names,
                     bool &hasBreak, bool &hasContinue, bool &hasReturn,
                     bool nested);
/// The most specific type both `a` and `b` can be cast to, or null.
mlir::Type joinTypes(mlir::Type a, mlir::Type b);
/// A value shaped like `shape` whose leaves are `kiln.undef`.
PyValue makeUndefLike(mlir::OpBuilder &b, mlir::Location loc,
                      const PyValue &shape);
/// True for the lowering's own variables (`$break`, `$tmp0`, ...).
bool isFlag(const std::string &name);
/// How a variable is named in errors.
std::string displayName(const std::string &name);
/// The i1 "no break/continue/return flag is set", or null when none can be.
mlir::Value notExited(FunctionLowering &fl, SourceRange where);
/// Lowers `raise E("msg")` (LowerIf.cpp): a kiln.assert that always fails.
bool lowerRaise(FunctionLowering &fl, const ast::RaiseStmt &s);
/// What `raise E("msg")` raises: "E" and "msg" (empty without one).
struct RaisedException {
  std::string type, message;
};
/// Checks a raise statement and reads its class and compile-time message;
/// null after an error (LowerIf.cpp).
std::optional<RaisedException> raisedException(FunctionLowering &fl,
                                               const ast::RaiseStmt &s);
/// The element type a `dtype=` global names, e.g. torch.float32.
mlir::Type dtypeFromGlobal(mlir::OpBuilder &b, const PyValue &v);

//===--- containers and iteration (LowerContainers/LowerSequences.cpp) ===//
/// `for ... in enumerate/zip/reversed(...)`; nullopt when the loop is not
/// over one of them.
std::optional<bool> lowerContainerFor(FunctionLowering &fl,
                                      const ast::ForStmt &stmt);
MaybeValue lowerListComp(FunctionLowering &fl, const ast::ListCompExpr &e);
/// enumerate, zip, reversed, sum, any, all, list, tuple, and min/max of one
/// sequence. False when `path` is none of them; else `out` is the result.
bool lowerContainerCall(FunctionLowering &fl, const std::string &path,
                        const ast::CallExpr &call, MaybeValue &out);
/// `(1,) * n`, `[1] * n` and `list + list`; false when not one of them.
bool lowerContainerBinOp(FunctionLowering &fl, ast::BinOpKind op,
                         const PyValue &lhs, const PyValue &rhs,
                         SourceRange where, MaybeValue &out);
/// `x in xs` for a list `xs`: an i1, constant for a display of constants.
std::optional<mlir::Value> lowerListMembership(FunctionLowering &fl,
                                               const PyValue &needle,
                                               const PyValue &list,
                                               SourceRange where);
/// `xs[a:b]` of a list.
MaybeValue sliceList(FunctionLowering &fl, const PyValue &list,
                     const ast::SliceExpr &slice, SourceRange where);

//===--- dicts and NamedTuples (LowerDicts.cpp) -------------------------===//
MaybeValue lowerDictDisplay(FunctionLowering &fl, const ast::DictExpr &e);
/// A dict's keys, as a tuple of strings.
PyValue dictKeys(const PyValue &d);
/// An nn.ModuleDict as a dict from names to its modules.
PyValue moduleDictValue(const ModuleObject &m);
/// The children of an nn.Sequential or nn.ModuleList object (one reached
/// through a ModuleDict: `self.transformer["h"]`) as a tuple, for the loops
/// that walk it (LowerModules.cpp); nullopt for any other value.
std::optional<PyValue> childModules(const PyValue &v);
/// What an attribute that __init__ computed is to forward
/// (LowerModules.cpp).
PyValue toPyValue(FunctionLowering &fl, const ConstValue &v,
                  SourceRange where);
/// The callable that a NamedTuple class `name` of the file stands for.
std::optional<PyValue> namedTupleClass(FunctionLowering &fl,
                                       const std::string &name);
/// dict(...), len(d) and constructing a NamedTuple; false for other calls.
bool lowerDictCall(FunctionLowering &fl, const std::string &path,
                   const ast::CallExpr &call, MaybeValue &out);
/// `d.items` etc. and a NamedTuple's `.field`; false for other values.
bool lowerDictAttribute(FunctionLowering &fl, const PyValue &base,
                        const ast::AttributeExpr &e, MaybeValue &out);
/// `d.items()`, `d.keys()`, `d.values()`, `d.get(k, default)`.
bool lowerDictMethod(FunctionLowering &fl, const PyValue &self,
                     const std::string &name, const ast::CallExpr &call,
                     MaybeValue &out);
/// `d["k"]` for a local dict `d`; false when the base is not one.
bool lowerDictSubscript(FunctionLowering &fl, const ast::SubscriptExpr &e,
                        MaybeValue &out);
/// `d["k"] = value`, rebinding `name`.
bool storeDictItem(FunctionLowering &fl, const std::string &name,
                   PyValue dict, const ast::SubscriptExpr &target,
                   PyValue value);
std::optional<mlir::Value> lowerDictMembership(FunctionLowering &fl,
                                               const PyValue &needle,
                                               const PyValue &dict,
                                               SourceRange where);
/// Whether `v` is or holds a dict (an entry point cannot return one yet).
bool containsDict(const PyValue &v);
/// Whether `a` and `b` have the same dict keys and NamedTuple fields
/// throughout, so that one can stand for the other after a join.
bool sameKeys(const PyValue &a, const PyValue &b);

//===--- indexing (LowerIndexing.cpp, LowerAdvancedIndexing.cpp) -------===//
/// One step of an index walk: an int, a slice, None, or an integer or bool
/// tensor (PyTorch's advanced indexing).
struct IndexStep {
  enum Kind { Select, Slice, NewAxis, Advanced } kind;
  mlir::Value index;            // Select, Advanced
  mlir::Value start, end, step; // Slice
  std::optional<int64_t> cStart, cEnd, cStep;
  SourceRange range;
};
/// A tensor index at `dim` of the tensor left by the basic steps.
struct AdvancedIndex {
  int64_t dim;
  mlir::Value index;
  SourceRange range;
};
/// How many dims an index consumes: a bool mask's rank, else 1.
int64_t advancedIndexRank(const PyValue &index);
/// `x[i0, i1, ...]` once ints, slices and None are applied, as PyTorch's
/// aten::index computes it.
std::optional<mlir::Value> readAdvanced(FunctionLowering &fl, mlir::Value x,
                                        llvm::ArrayRef<AdvancedIndex> indices,
                                        SourceRange where);
/// `x` with `x[i0, i1, ...] = value` (index_put), functional.
std::optional<mlir::Value> storeAdvanced(FunctionLowering &fl, mlir::Value x,
                                         llvm::ArrayRef<AdvancedIndex> indices,
                                         mlir::Value value, SourceRange where);

/// Flattens the SSA leaves of a tuple-structured value. Returns false if a
/// leaf is not an SSA value.
bool flattenValues(const PyValue &v, llvm::SmallVectorImpl<mlir::Value> &out);
/// Whether `v` is, or holds in a tuple, an Optional decided at run time.
bool containsOptional(const PyValue &v);
/// Rebuilds a value shaped like `shape` from `values`, consuming them.
PyValue unflattenValues(const PyValue &shape,
                        llvm::ArrayRef<mlir::Value> &values);

} // namespace kiln

#endif // KILN_FRONTEND_LOWERINGIMPL_H
