//===- Prelude.h - Torch ops written in Python, compiled by kiln ----------===//
//
// Private to frontend/. The prelude (frontend/prelude/*.py) holds
// decompositions of torch ops written in kiln's Python subset, as valid
// PyTorch code that also runs eagerly. CMake embeds the files' text into
// the binary (PreludeSource.inc); they are parsed once per process by
// kiln's own parser, and each function is lowered by kiln's own frontend
// when an op-table row (OpTablePrelude.cpp) calls it, specialized on its
// constant arguments. See docs/architecture.md.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_PRELUDE_H
#define KILN_FRONTEND_PRELUDE_H

#include "frontend/AST.h"

#include "mlir/IR/Value.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// The method `name` of the prelude's class `cls` (modules.py: the forward
/// of torch.nn's modules), or null.
const ast::FunctionDef *preludeMethod(llvm::StringRef cls,
                                      llvm::StringRef name);
/// The file under frontend/prelude/ that defines `def` ("nn.py").
std::string preludeFileOf(const ast::FunctionDef &def);
/// The parsed prelude file `file` ("nn.py"), or null.
const ast::Module *preludeModule(llvm::StringRef file);
/// Every prelude file's name and embedded text, in build order.
std::vector<std::pair<std::string, std::string>> preludeSources();

namespace ops {
class OpArgs;
/// Lowers a bound call by calling the prelude function named as the row's
/// schema, with the bound arguments in schema order.
std::optional<mlir::Value> lowerViaPrelude(OpArgs &args);
struct Row;
/// The rows that `@op(...)` decorators declare in prelude file `file`, in
/// source order (PreludeRows.cpp).
std::vector<Row> preludeRows(llvm::StringRef file);
} // namespace ops

} // namespace kiln

#endif // KILN_FRONTEND_PRELUDE_H
