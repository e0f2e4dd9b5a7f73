//===- CheckSupport.h - Run-time checks with PyTorch's messages -----------===//
//
// Private to codegen/lowering: the small builders that the shape, reduction,
// matmul and random lowerings share for compile-time constants and for
// run-time checks whose messages mix known and run-time sizes.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_LOWERING_CHECKSUPPORT_H
#define KILN_CODEGEN_LOWERING_CHECKSUPPORT_H

#include "codegen/lowering/LoweringSupport.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <optional>
#include <string>

namespace kiln::codegen {

using mlir::Location;
using mlir::OpBuilder;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;

inline std::optional<int64_t> constantInt(Value value) {
  llvm::APInt bits;
  if (mlir::matchPattern(value, mlir::m_ConstantInt(&bits)))
    return bits.getSExtValue();
  return std::nullopt;
}

/// The text of a run-time check's message: a size known at compile time is
/// written in; the first four others become {0} to {3}, the integers
/// raise() reports, and any more print as "?".
struct MessageArgs {
  llvm::SmallVector<Value, 4> values;

  std::string operator()(Value value) {
    if (std::optional<int64_t> c = constantInt(value))
      return std::to_string(*c);
    for (auto [i, v] : llvm::enumerate(values))
      if (v == value)
        return "{" + std::to_string(i) + "}";
    if (values.size() == 4)
      return "?";
    values.push_back(value);
    return "{" + std::to_string(values.size() - 1) + "}";
  }
  /// "[a, b, c]", as PyTorch prints a shape.
  std::string list(ValueRange sizes) {
    std::string text = "[";
    for (auto [i, size] : llvm::enumerate(sizes))
      text += (i ? ", " : "") + (*this)(size);
    return text + "]";
  }
};

/// Emits `if (failed) raise(...)` unless `failed` folded to false.
inline void check(OpBuilder &b, Location loc, LoweringState &state, Value failed,
           const std::string &message, ValueRange operands = {}) {
  if (std::optional<int64_t> c = constantInt(failed); c && *c == 0)
    return;
  emitCheck(b, loc, failed, state.tables.addSite(loc, message), operands);
}

inline Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return b.create<mlir::tensor::CastOp>(loc, type, value);
}

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_CHECKSUPPORT_H
