//===- EntryPoints.h - Entry signatures, shared with the body lowering ----===//
//
// Private to the frontend: what an entry point's result check
// (LowerFunction.cpp) and annotation reading (Annotations.cpp) share with
// EntryPoints.cpp, EntryContainers.cpp and EntryStrChoices.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_ENTRYPOINTS_H
#define KILN_FRONTEND_ENTRYPOINTS_H

#include "frontend/LoweringImpl.h"

namespace kiln {

/// Whether `resolved`, an annotation's head as resolveGlobalName gives it,
/// names typing's `name`: `typing.Tuple`, `Tuple` and `tuple` all name the
/// tuple annotation, likewise List.
bool namesTyping(const std::string &resolved, llvm::StringRef name);

/// The result of an entry point as its archive lists it: every list whose
/// elements are known while compiling becomes the tuple of them, so that
/// each element is a result of its own, as a tuple's are. A list whose
/// length is known only at run time is an error at `where`.
std::optional<PyValue> entryResultLeaves(FunctionLowering &fl,
                                         const PyValue &result,
                                         SourceRange where);

/// The list that List parameter `p`'s elements make (EntryContainers.cpp):
/// of one type, or joined as a `[a, b]` display joins tensors of one rank
/// and dtype; an error otherwise. `emptyElement` types an empty one.
std::optional<PyValue> entryList(FunctionLowering &fl, const ast::Param &p,
                                 std::vector<PyValue> elems,
                                 mlir::Type emptyElement);

/// Lowers entry point `def` (a method of `self` when not null) as the
/// function `name`, its parameters typed by `specs`. Null after an error.
mlir::func::FuncOp lowerEntryFunction(ModuleLowering &m,
                                      const ast::FunctionDef *def,
                                      const ModuleObject *self,
                                      const std::map<std::string, ArgSpec> &specs,
                                      const std::string &name);

/// The values a str spec offers for a choice at run time: `mode=str:relu|
/// gelu` gives relu and gelu (once each). Empty for one value.
std::vector<std::string> strChoices(const ArgSpec &spec);

/// Lowers entry point `def`, whose str parameter `param` is chosen at run
/// time among `choices`: one function per value, and the entry point
/// itself, which takes the value's index and calls that one
/// (EntryStrChoices.cpp). False after an error.
bool lowerStrChoiceEntry(ModuleLowering &m, const ast::FunctionDef *def,
                         const ModuleObject *self,
                         std::map<std::string, ArgSpec> specs,
                         const ast::Param &param,
                         std::vector<std::string> choices);

} // namespace kiln

#endif // KILN_FRONTEND_ENTRYPOINTS_H
