//===- OpTableIndexingArgs.h - Indexing rows' argument readers -*- C++ -*-===//
//
// Private to frontend/. The readers of compile-time arguments that the
// builders of OpTableIndexing.cpp and OpTableResample.cpp share; defined in
// OpTableIndexing.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_OPTABLEINDEXINGARGS_H
#define KILN_FRONTEND_OPTABLEINDEXINGARGS_H

#include "frontend/OpTable.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace kiln::ops::indexing {

/// The rank of a ranked tensor value.
int64_t rankOf(mlir::Value v);

/// A compile-time int argument, normalized as a dim of a tensor of `rank`;
/// nullopt, with an error reported, when it is not one.
std::optional<int64_t> dimArg(OpArgs &a, llvm::StringRef name, int64_t rank);

/// A compile-time int[] argument; nullopt, with an error reported, when it
/// is not one.
std::optional<std::vector<int64_t>> intsArg(OpArgs &a, llvm::StringRef name);

} // namespace kiln::ops::indexing

#endif // KILN_FRONTEND_OPTABLEINDEXINGARGS_H
