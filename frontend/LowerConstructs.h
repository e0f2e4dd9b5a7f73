//===- LowerConstructs.h - Shared by the statement and expression lowering ===//
//
// Private to frontend/: helpers that LowerStmt.cpp defines and the other
// lowering files it owns use too.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_LOWERCONSTRUCTS_H
#define KILN_FRONTEND_LOWERCONSTRUCTS_H

#include "frontend/AST.h"

#include "mlir/IR/Value.h"

#include <optional>

namespace kiln {

class ModuleLowering;

/// The file's class that `cls` derives from, or null when its base is
/// nn.Module itself (or anything else).
const ast::ClassDef *userBaseClass(ModuleLowering &m, const ast::ClassDef &cls);

/// The method `name` of `cls` or, as Python looks it up, of its user base
/// classes; null if none defines it.
const ast::FunctionDef *findMethodIn(ModuleLowering &m,
                                     const ast::ClassDef *cls,
                                     const std::string &name);

/// The value of an i1 condition that is known while lowering: a constant,
/// a kiln.cmp of two constant numbers, or the negation of either. This is
/// how `if self.groups != 1: raise ...` and `a and b` with a constant `a`
/// are decided at compile time.
std::optional<bool> knownCondition(mlir::Value cond);

} // namespace kiln

#endif // KILN_FRONTEND_LOWERCONSTRUCTS_H
