//===- LowerConstructs.h - Shared by the statement and expression lowering ===//
//
// Private to frontend/: helpers that LowerStmt.cpp defines and the other
// lowering files it owns use too.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_LOWERCONSTRUCTS_H
#define KILN_FRONTEND_LOWERCONSTRUCTS_H

#include "frontend/AST.h"
#include "frontend/PyValue.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace kiln {

class ModuleLowering;
class FunctionLowering;
using MaybeValue = std::optional<PyValue>;

/// The file's class that `cls` derives from, or null when its base is
/// nn.Module itself (or anything else).
const ast::ClassDef *userBaseClass(ModuleLowering &m, const ast::ClassDef &cls);

/// The method `name` of `cls` or, as Python looks it up, of its user base
/// classes; null if none defines it.
const ast::FunctionDef *findMethodIn(ModuleLowering &m,
                                     const ast::ClassDef *cls,
                                     const std::string &name);

/// The value of an i1 condition that is known while lowering: a constant,
/// a kiln.cmp of two constant numbers, or anything that folds from those.
/// This is how `if self.groups != 1: raise ...` and `a and b` with a
/// constant `a` are decided at compile time.
std::optional<bool> knownCondition(mlir::Value cond);

/// The truth of a lowered condition when the compiler knows it: None is
/// false, a str is its non-emptiness, a dtype, module or tuple is what
/// Python makes of it, and an i1 is knownCondition's. The one decision
/// behind user `if`s, conditional expressions and the prelude's static ifs.
std::optional<bool> staticTruth(const PyValue &cond);

/// A condition lowered once: `known` when decided while compiling, else
/// `cond`, the run-time i1 to branch on.
struct Decided {
  std::optional<bool> known;
  mlir::Value cond;
};
std::optional<Decided> decideCondition(FunctionLowering &fl,
                                       const ast::Expr &test);

/// LowerMetadata.cpp: compile-time tensor metadata and dtype logic.
/// The Global naming `element`'s dtype ("torch.float32").
PyValue dtypeGlobal(mlir::OpBuilder &b, mlir::Type element);
/// `l == r` decided while compiling: strs, dtypes and None compare by
/// value (torch.float is torch.float32), and none of them equals a number
/// or a tensor. Null when both are run-time values.
std::optional<bool> staticEqual(mlir::OpBuilder &b, const PyValue &l,
                                const PyValue &r);
/// `x.dtype`, `x.device`, `x.is_cuda` of the tensor `x`; null for any
/// other attribute.
std::optional<PyValue> tensorMetadata(FunctionLowering &fl, mlir::Value x,
                                      const std::string &attr,
                                      SourceRange where);
/// The calls below return false when the call is not theirs, else true
/// with the result in `out` (null after an error).
/// `x.is_floating_point()`, `x.element_size()`, `x.is_complex()`.
bool lowerMetadataMethod(FunctionLowering &fl, const PyValue &self,
                         const std::string &name, const ast::CallExpr &call,
                         MaybeValue &out);
/// torch.jit.is_scripting() (True), torch.jit.is_tracing() (False),
/// torch.finfo(dtype) and torch.iinfo(dtype).
bool lowerStaticGlobalCall(FunctionLowering &fl, const std::string &path,
                           const ast::CallExpr &call, MaybeValue &out);
/// `torch.finfo(dtype).eps` and the other fields, as constants.
bool lowerInfoAttribute(FunctionLowering &fl, const PyValue &info,
                        const ast::AttributeExpr &e, MaybeValue &out);

/// LowerStrings.cpp: an f-string, and `"...".format(...)` on a str,
/// built into a str while compiling.
MaybeValue lowerFString(FunctionLowering &fl, const ast::FStringExpr &e);
bool lowerStrFormat(FunctionLowering &fl, const PyValue &self,
                    const std::string &name, const ast::CallExpr &call,
                    MaybeValue &out);

/// The constant `v` folds to, through ops whose operands all fold (a
/// comparison of two constants, `not`), or null.
mlir::Attribute foldToConstant(mlir::Value v, unsigned depth = 0);

} // namespace kiln

#endif // KILN_FRONTEND_LOWERCONSTRUCTS_H
