//===- ModuleEvalImpl.h - The __init__ interpreter (private) -----*- C++
//-*-===//
//
// Private to frontend/: the interpreter that runs nn.Module __init__ methods
// at compile time. ModuleEval.cpp holds its statements, expressions and user
// classes, ModuleEvalCalls.cpp its calls (builtins, torch tensor creation,
// self.register_*), ModuleEvalNN.cpp the torch.nn module constructors.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_MODULEEVALIMPL_H
#define KILN_FRONTEND_MODULEEVALIMPL_H

#include "frontend/LoweringImpl.h"

#include "mlir/IR/Builders.h"

#include <set>

namespace kiln::moduleeval {

using mlir::Builder;
using mlir::Type;

using CV = ConstValue;
using Keywords = std::vector<std::pair<std::string, CV>>;

inline CV makeInt(int64_t v) {
  CV c;
  c.kind = CV::Kind::Int;
  c.i = v;
  return c;
}
inline CV makeFloat(double v) {
  CV c;
  c.kind = CV::Kind::Float;
  c.f = v;
  return c;
}
inline CV makeBool(bool v) {
  CV c;
  c.kind = CV::Kind::Bool;
  c.i = v;
  return c;
}
inline CV makeStr(std::string s, CV::Kind kind = CV::Kind::Str) {
  CV c;
  c.kind = kind;
  c.str = std::move(s);
  return c;
}
inline CV makeSeq(CV::Kind kind, std::vector<CV> elems) {
  CV c;
  c.kind = kind;
  c.elems = std::move(elems);
  return c;
}
inline CV makeModule(std::shared_ptr<ModuleObject> m) {
  CV c;
  c.kind = CV::Kind::Module;
  c.module = std::move(m);
  return c;
}
inline CV makeTensor(Type elementType, std::vector<int64_t> shape,
                     SourceRange where) {
  CV c;
  c.kind = CV::Kind::Tensor;
  c.elementType = elementType;
  c.shape = std::move(shape);
  c.where = where;
  return c;
}

inline double asDouble(const CV &v) {
  return v.kind == CV::Kind::Float ? v.f : v.i;
}

inline std::string describeConst(const CV &v) {
  switch (v.kind) {
  case CV::Kind::None:
    return "None";
  case CV::Kind::Int:
    return "an int";
  case CV::Kind::Float:
    return "a float";
  case CV::Kind::Bool:
    return "a bool";
  case CV::Kind::Str:
    return "a str";
  case CV::Kind::Tuple:
    return "a tuple";
  case CV::Kind::List:
    return "a list";
  case CV::Kind::Module:
    return "a module ('" + v.module->typeName + "')";
  case CV::Kind::Tensor:
    return "a tensor";
  case CV::Kind::Global:
    return "'" + v.str + "'";
  }
  return "a value";
}

/// A builtin's parameter: required when it has no default.
struct Param {
  const char *name;
  std::optional<CV> defaultValue;
};

/// The arguments of one call, evaluated.
struct Args {
  std::vector<CV> positional;
  Keywords keywords;
  std::vector<SourceRange> positionalRanges;
  SourceRange range;
};

class InitEvaluator {
public:
  explicit InitEvaluator(ModuleLowering &m) : m(m), b(&m.context) {}

  std::shared_ptr<ModuleObject> instantiate(const ast::ClassDef &cls,
                                            const Args &args);
  bool error(SourceRange where, std::string message) {
    m.diags.error(where, std::move(message));
    return false;
  }

private:
  struct Frame {
    std::map<std::string, CV> locals;
    std::shared_ptr<ModuleObject> self;
    /// Set by `return` in a plain function of the file; stops its body.
    std::optional<CV> returned;
    /// A plain function rather than __init__: it may return.
    bool isFunction = false;
    /// The class whose __init__ runs, where super() starts looking.
    const ast::ClassDef *cls = nullptr;
  };

  bool exec(const ast::Block &block, Frame &frame);
  bool execStmt(const ast::Stmt &stmt, Frame &frame);
  bool assign(const ast::Expr &target, CV value, Frame &frame);
  std::optional<CV> eval(const ast::Expr &e, Frame &frame);
  /// `list[i]`, `tuple[i]`, and a tensor's indexing (its shape).
  std::optional<CV> evalSubscript(const ast::SubscriptExpr &s, Frame &frame);
  std::optional<CV> evalBinOp(ast::BinOpKind op, const CV &l, const CV &r,
                              SourceRange where);
  std::optional<bool> evalCompare(const ast::CompareExpr &e, Frame &frame);
  std::optional<bool> truth(const CV &v, SourceRange where);
  std::optional<CV> evalCall(const ast::CallExpr &call, Frame &frame);
  /// `super().__init__(...)` and `Base.__init__(self, ...)`; false when
  /// the call is not one, else `out` is None (nullopt after an error).
  bool initOfBase(const ast::CallExpr &call, const ast::AttributeExpr &a,
                  Frame &frame, std::optional<CV> &out);
  std::optional<CV> callGlobal(const std::string &path, const Args &args);
  std::optional<CV> callSelfMethod(Frame &frame, const std::string &name,
                                   const Args &args);
  std::optional<CV> callTensorMethod(const CV &self, const std::string &name,
                                     const Args &args);
  std::optional<CV> createTensor(const std::string &name, const Args &args);
  std::optional<CV> constructNN(const std::string &name, const Args &args);
  /// Runs `cls.__init__` (or, when it has none, its base class's) on `obj`
  /// with `args`; a user base class's __init__ runs through super().
  bool runInit(const ast::ClassDef &cls,
               const std::shared_ptr<ModuleObject> &obj, const Args &args);
  /// Checks that `cls` derives from nn.Module, directly or through classes
  /// of the file; returns its user base class (null for nn.Module).
  std::optional<const ast::ClassDef *> checkBases(const ast::ClassDef &cls);
  /// A plain function of the file called from __init__ (torchvision's
  /// conv3x3), run by this interpreter in a frame of its own.
  std::optional<CV> callFunction(const ast::FunctionDef &def,
                                 const Args &args);
  /// torch.arange and the elementwise torch functions on tensors, and
  /// math.* on numbers: shapes and dtypes only (see ModuleEvalTensors in
  /// ModuleEvalCalls.cpp). nullopt with no error when `name` is not one.
  std::optional<CV> callTensorFunction(const std::string &name,
                                       const Args &args, bool &handled);
  std::optional<CV> callMath(const std::string &name, const Args &args,
                             bool &handled);
  /// Arithmetic with a tensor operand: the broadcast shape and the
  /// promoted dtype.
  std::optional<CV> tensorBinOp(ast::BinOpKind op, const CV &l, const CV &r,
                                SourceRange where);
  /// `t[i, a:b:c] = v` on a local tensor: checks that `v` broadcasts to the
  /// selected region; the tensor keeps its shape.
  bool assignSubscript(const ast::SubscriptExpr &target, const CV &value,
                       Frame &frame);
  std::optional<std::vector<int64_t>>
  subscriptShape(const std::vector<int64_t> &shape,
                 const std::vector<ast::ExprPtr> &indices, Frame &frame);
  std::optional<std::vector<CV>>
  bind(const std::string &fn, llvm::ArrayRef<Param> params, const Args &args);

  std::optional<int64_t> toInt(const CV &v, const char *what,
                               SourceRange where);
  std::optional<std::vector<int64_t>> toInts(const CV &v, const char *what,
                                             SourceRange where);
  std::optional<std::vector<int64_t>> toPair(const CV &v, const char *what,
                                             SourceRange where);
  std::optional<Type> toDtype(const CV &v, SourceRange where);
  std::optional<std::vector<int64_t>> sizesOf(const Args &args, size_t first);

  /// The dotted path an expression names through the imports, e.g.
  /// "torch.nn.Linear" for `nn.Linear`; empty if it is not a global.
  std::string globalPath(const ast::Expr &e, const Frame &frame);

  /// Spends `units` of the evaluation budget: one per statement run and
  /// one per value a list, tuple or range holds. A hostile or runaway
  /// __init__ (range(10**10), a list doubled 40 times) then ends in an
  /// error at `where` instead of exhausting memory or time.
  bool charge(uint64_t units, SourceRange where);

  ModuleLowering &m;
  Builder b;
  /// Classes being constructed, to reject a module that contains itself.
  std::set<const ast::ClassDef *> active;
  uint64_t spent = 0;
};

/// The most statements and values one compile-time __init__ may produce,
/// together; documented in docs/modules.md. Real __init__ code (a model of
/// a few hundred modules) stays orders of magnitude below it. A value of
/// the interpreter takes a few hundred bytes, so the budget also bounds its
/// memory: a list doubled until it runs out takes 0.3 s and 240 MB (at
/// 10^7 it took 3.9 s and 2.4 GB, found by the parser fuzzer).
constexpr uint64_t kInitBudget = 1'000'000;

} // namespace kiln::moduleeval

#endif // KILN_FRONTEND_MODULEEVALIMPL_H
