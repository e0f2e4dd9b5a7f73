//===- EntryPoints.h - Entry signatures, shared with the body lowering ----===//
//
// Private to the frontend: what an entry point's result check
// (LowerFunction.cpp) and annotation reading (Annotations.cpp) share with
// EntryPoints.cpp.
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

} // namespace kiln

#endif // KILN_FRONTEND_ENTRYPOINTS_H
