//===- LowerContainers.h - Walking sequences, shared by the container files ===//
//
// Private to LowerContainers.cpp (iteration, comprehensions, `for` over
// enumerate/zip/reversed) and LowerSequences.cpp (the builtins and
// operators over sequences).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_LOWERCONTAINERS_H
#define KILN_FRONTEND_LOWERCONTAINERS_H

#include "frontend/LoweringImpl.h"

#include <functional>

namespace kiln {
namespace containers {

/// How a loop or a comprehension walks an iterable. Either every element
/// is known now (`unrolled`), or the walk is the counted loop
/// range(start, stop, step) whose induction value `element` maps to the
/// element. `indexed` walks have start 0 and step 1, so the induction value
/// is the element's index.
struct Iteration {
  bool unrolled = false;
  std::vector<PyValue> elems;
  mlir::Value start, stop, step;
  bool indexed = false;
  std::function<PyValue(mlir::Value)> element;
  /// A run-time walk's element type, when its elements are SSA values.
  mlir::Type elemType;
};

/// A comprehension over a constant range is unrolled up to this many
/// elements; a longer one is a run-time loop.
constexpr int64_t kMaxUnrolledRange = 64;

bool isIterBuiltin(llvm::StringRef path);
/// The elements of a list whose length is known while compiling: built by
/// a display (`[a, b]`) and appends outside run-time loops and branches.
std::optional<std::vector<PyValue>> listDisplayElements(const PyValue &v);
/// Walks an already lowered value: a tuple at compile time, a list or a
/// tensor's rows at run time.
std::optional<Iteration> iterationOfValue(FunctionLowering &fl,
                                          const PyValue &v, SourceRange r);
/// Walks `iter`; a constant range is unrolled when `unrollRange`.
std::optional<Iteration> lowerIterable(FunctionLowering &fl,
                                       const ast::Expr &iter, bool unrollRange);
/// enumerate/zip/reversed(...) at `call`, whose callee is `path`.
std::optional<Iteration> lowerIterBuiltin(FunctionLowering &fl,
                                          llvm::StringRef path,
                                          const ast::CallExpr &call);
/// Runs `step` once per element of a run-time walk, threading `init`
/// through the loop as a hidden variable; returns its final value.
MaybeValue foldAtRunTime(
    FunctionLowering &fl, const Iteration &it, PyValue init, SourceRange where,
    const std::function<MaybeValue(const PyValue &, const PyValue &)> &step);
/// `list` with `v` appended, as `xs.append(v)` lowers it.
MaybeValue appendTo(FunctionLowering &fl, const PyValue &list, PyValue v,
                    SourceRange where);
/// `[]`, whose element type the first append fixes.
mlir::Value emptyList(FunctionLowering &fl, SourceRange where);

} // namespace containers
} // namespace kiln

#endif // KILN_FRONTEND_LOWERCONTAINERS_H
